import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../../../../test/fixtures/telephony.ts";
import {
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../../test/support/fake-openai.ts";
import { subscribeWs } from "../../../../test/support/subscriptions.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../../test/support/test-app.ts";
import type { Assistant, Call } from "../../../generated/prisma/client.ts";
import { VOICE_PHRASES } from "../../voice/voice-session.ts";
import { parseTranscript } from "../transcript.ts";
import { LINE_PAUSES } from "./line.ts";

const TRANSCRIPT = "subscription ($callId: Int!) { callTranscript(callId: $callId) { speaker text } }";
// The documented test number of a callee who answers and stays on the line without a word.
const STAYS_ON = "+14155550105";

let t: TestApp;
let fake: FakeOpenAI;
let owner: TestAccount;
let phoneNumberId: number;
const finished = new Map<number, (call: Call) => void>();

const persona = (request: RecordedChatRequest) =>
  request.messages[0]?.content?.includes("just answered a phone call") ?? false;

/** Places a call with `assistant` to `to` and resolves once it ended (its listeners ran). */
async function call(assistant: Assistant, to = "+14155550100", onPlaced?: (callId: number) => Promise<void>) {
  const placed = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to,
  });
  const ended = new Promise<Call>((resolve) => finished.set(placed.id, resolve));
  await onPlaced?.(placed.id);
  return ended;
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ model: fake, env: { VOXGATE_CALL_CLOCK_SPEED: "20" } });
  t.app.services.bus.on("call.finished", async ({ call: ended }) => finished.get(ended.id)?.(ended));
  owner = await t.createAccount({ balance: "10" });
  phoneNumberId = (await telephonyFixtures(t).addNumber(owner)).id;
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("simulated calls through the voice engine (text turns)", () => {
  it("an LLM persona talks with the assistant's live-call engine, turn by turn, then hangs up", async () => {
    fake.respondWith((request) => {
      const turn = request.messages.filter((message) => message.role === "assistant").length;
      return { content: persona(request) ? `Persona line ${turn}` : `Assistant line ${turn}` };
    });
    const assistant = await createAssistant(t, owner, {
      phoneNumberId,
      systemPrompt: "You sell solar panels.",
    });
    let live!: Awaited<ReturnType<typeof subscribeWs<{ callTranscript: { speaker: string; text: string } }>>>;
    const ended = await call(assistant, undefined, async (callId) => {
      live = await subscribeWs(t.url, TRANSCRIPT, {
        connectionParams: { authorization: `Bearer ${owner.apiKey}` },
        variables: { callId },
      });
    });
    // The callee hung up after its last line was answered: as when a Twilio caller's stream stops.
    expect(ended).toMatchObject({ status: "ended_by_customer", endReason: "The caller hung up." });
    const conversation = [
      ["assistant", "Hello! How can I help?"],
      ["customer", "Persona line 0"],
      ["assistant", "Assistant line 1"],
      ["customer", "Persona line 1"],
      ["assistant", "Assistant line 2"],
      ["customer", "Persona line 2"],
      ["assistant", "Assistant line 3"],
    ];
    expect(parseTranscript(ended.transcript).map((line) => [line.speaker, line.text])).toEqual(conversation);
    // Published live as the engine stored each turn.
    const published = [];
    for (let i = 0; i < conversation.length; i++)
      published.push((await live.next(10_000)).data?.callTranscript);
    await live.close();
    expect(published.map((turn) => [turn?.speaker, turn?.text])).toEqual(conversation);

    // The engine's turns, with offsets on the media clock, which only the line's silent frames move
    // (a logical clock, stopped while the persona composes): the callee's pause is counted in those
    // frames before it speaks, so this is an order of events on that clock, exact whatever the load.
    const turns = await t.app.services.callTurns.list(owner.accountId, ended.id);
    expect(turns.map((turn) => turn.speaker)).toEqual(conversation.map(([speaker]) => speaker));
    for (let i = 1; i < turns.length; i += 2)
      expect(turns[i]!.startMs).toBeGreaterThanOrEqual(turns[i - 1]!.endMs + LINE_PAUSES.reply * 1000);
    expect(
      turns
        .filter((turn) => turn.speaker === "assistant")
        .slice(1)
        .every((turn) => turn.firstTokenAt),
    ).toBe(true);
    // The assistant answered as on a phone call: its prompt, and the live-call functions (send_sms too:
    // the call's number is an SMS-capable dedicated number).
    const answers = fake.chatRequests.filter((request) => !persona(request));
    expect(answers).toHaveLength(3);
    expect(answers[0]!.messages[0]!.content).toContain("You sell solar panels.");
    expect(answers[0]!.tools?.map((tool) => tool.function.name)).toEqual([
      "end_call",
      "send_dtmf",
      "send_sms",
    ]);
    // The persona hears the assistant's greeting as what was said to it.
    expect(fake.chatRequests.find(persona)!.messages.at(-1)).toMatchObject({
      role: "user",
      content: "Hello! How can I help?",
    });
  });

  it("ends the call as the assistant through the end_call tool", async () => {
    fake.reset();
    fake.respondWith((request) => {
      if (persona(request)) return { content: "I'm not interested." };
      if (request.messages.at(-1)?.role === "tool") return { content: "Understood, goodbye." };
      return { toolCalls: [{ name: "end_call", arguments: {} }] };
    });
    const assistant = await createAssistant(t, owner, { phoneNumberId });
    const ended = await call(assistant);
    expect(ended).toMatchObject({ status: "ended_by_assistant", endReason: "The assistant ended the call." });
    expect(ended.transcript).toBe(
      [
        "Assistant: Hello! How can I help?",
        "Customer: I'm not interested.",
        "Assistant: Understood, goodbye.",
      ].join("\n"),
    );
  });

  it("prompts a silent callee, then says goodbye; a multimodal assistant that records runs on text turns, unrecorded", async () => {
    const assistant = await createAssistant(t, owner, {
      phoneNumberId,
      mode: "multimodal",
      record: true,
      maxSilenceDuration: 10,
      reengagementInterval: 5,
    });
    const ended = await call(assistant, STAYS_ON);
    expect(ended).toMatchObject({
      status: "ended_by_assistant",
      endReason: "No answer from the caller (silence).",
      recordingStatus: "",
      recordingUrl: "",
    });
    expect(ended.transcript).toBe(
      [
        "Assistant: Hello! How can I help?",
        `Assistant: ${VOICE_PHRASES.reengage}`,
        `Assistant: ${VOICE_PHRASES.silenceGoodbye}`,
      ].join("\n"),
    );
  });
});
