import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import {
  type FakeChatReply,
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../test/support/fake-openai.ts";
import { type FakeSpeech, startFakeSpeech, synthesizeTones } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import {
  answerOutbound,
  callerHangsUp,
  mediaStreamUrl,
  voiceCallEnv,
} from "../../../test/support/voice-calls.ts";
import { WebCallClient } from "../../../test/support/web-call-client.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import type { Assistant, PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * `handoff` on live phone calls over Twilio Media Streams, the fake OpenAI scripting the model's
 * function calls and the fake speech server recording each synthesis's voice: the new assistant's
 * prompt, transcript and voice answer from the next turn on the same stream, the call records who
 * answers, the webhook goes out, loops are bounded and other accounts' assistants are never taken.
 */

type ToolResult = Record<string, unknown> & { error?: string };

/** The tool results the model was sent since the caller's last turn, in order. */
function resultsThisTurn(request: RecordedChatRequest): ToolResult[] {
  const lastUser = request.messages.findLastIndex((message) => message.role === "user");
  return request.messages
    .slice(lastUser + 1)
    .filter((message) => message.role === "tool")
    .map((message) => JSON.parse(message.content ?? "{}") as ToolResult);
}

const lastUserMessage = (request: RecordedChatRequest) =>
  request.messages.findLast((message) => message.role === "user")?.content ?? "";
const systemPrompt = (request: RecordedChatRequest) => request.messages[0]?.content ?? "";
const handoffTool = (request: RecordedChatRequest) =>
  request.tools?.find((tool) => tool.function.name === "handoff");
const call = (name: string, args: Record<string, unknown>): FakeChatReply => ({
  toolCalls: [{ name, arguments: args }],
});

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let receiver: WebhookReceiver;
let owner: TestAccount;
let stranger: TestAccount;
let number: PhoneNumber;
let mediaUrl: string;

const marks = (received: TwilioMediaClient["received"]) => received.filter((m) => m.event === "mark").length;
const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

beforeAll(async () => {
  [twilio, model, speech, receiver] = await Promise.all([
    startFakeTwilio(),
    startFakeOpenAI(),
    startFakeSpeech(),
    startWebhookReceiver(),
  ]);
  t = await startTestApp({
    model,
    env: { ...voiceCallEnv(twilio, speech), VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1" },
  });
  mediaUrl = mediaStreamUrl(t);
  owner = await t.createAccount({ balance: "50" });
  stranger = await t.createAccount({ balance: "50" });
  number = await telephonyFixtures(t).addNumber(owner);
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close(), receiver?.close()]);
});

/** An assistant of the owner speaking with its own catalogue voice. */
async function assistantWithVoice(name: string, voice: string, input: Record<string, unknown> = {}) {
  const row = await t.app.db.prisma.voice.create({
    data: {
      accountId: owner.accountId,
      name: `${name} voice`,
      gender: "female",
      provider: "openai",
      providerVoiceId: voice,
      supportedModes: ["pipeline"],
    },
  });
  return createAssistant(t, owner, {
    name,
    systemPrompt: `You are ${name}.`,
    phoneNumberId: number.id,
    voiceId: row.id,
    isWebhookActive: true,
    webhookUrl: receiver.url,
    ...input,
  });
}

function targets(from: Assistant, to: { assistant: Assistant; description: string }[]) {
  return t.app.services.chatHandoffs.setSettings(owner.accountId, {
    assistantId: from.id,
    targets: to.map((target) => ({ assistantId: target.assistant.id, description: target.description })),
  });
}

/** Places a call with `assistant`, answers it as Twilio does, connects its stream and waits for the greeting. */
async function answeredCall(assistant: Assistant) {
  const placed = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to: uniqueUsNumber(),
  });
  const client = await TwilioMediaClient.connect(mediaUrl, await answerOutbound(t, twilio, placed));
  // "Hello! How can I help?": two sentences, two marks.
  await client.waitFor((received) => marks(received) >= 2);
  return { placed, client };
}

/** The caller says `text`; resolves once the answer's `sentences` were played (marked). */
async function callerSays(client: TwilioMediaClient, text: string, sentences = 1) {
  const before = marks(client.received);
  client.speak(text);
  await client.waitFor((received) => marks(received) >= before + sentences);
}

/** The model answers as the scripted plan of the assistant whose prompt it was given. */
function followPlans(
  plans: Record<string, (results: ToolResult[], request: RecordedChatRequest) => FakeChatReply>,
) {
  model.reset();
  model.respondWith((request) => {
    const name = /^You are (\w+)\./.exec(systemPrompt(request))?.[1] ?? "";
    const plan = plans[name];
    return plan ? plan(resultsThisTurn(request), request) : { content: `Echo: ${lastUserMessage(request)}` };
  });
}

const CALL_QUERY =
  "query ($id: Int!) { call(id: $id) { assistantId activeAssistantId handoffCount transcript } }";

describe("handoff on a live phone call (pipeline mode)", () => {
  it("hands the call to another assistant: its prompt, transcript, voice and speed answer from the next turn", async () => {
    const reception = await assistantWithVoice("Reception", "alloy");
    const bookings = await assistantWithVoice("Bookings", "nova", { speechSpeed: 1.25 });
    const foreign = await createAssistant(t, stranger, {
      name: "Elsewhere",
      systemPrompt: "You are Elsewhere.",
    });
    await targets(reception, [{ assistant: bookings, description: "Books appointments." }]);
    await targets(bookings, [{ assistant: reception, description: "General questions." }]);
    // A target row naming another account's assistant (the settings API refuses it; a row written
    // some other way) is never offered nor taken.
    await t.app.db.prisma.assistantHandoffTarget.create({
      data: {
        assistantId: bookings.id,
        targetAssistantId: foreign.id,
        accountId: owner.accountId,
        description: "Another account.",
        position: 5,
      },
    });

    followPlans({
      Reception: (results, request) => {
        expect(handoffTool(request)?.function.description).toContain(
          `${bookings.id}: Bookings. Books appointments.`,
        );
        return results.length === 0
          ? call("handoff", { assistant_id: bookings.id, reason: "booking" })
          : { content: results[0]!.error ? `Refused: ${results[0]!.error}` : "Bookings takes over now." };
      },
      Bookings: (results, request) => {
        const said = lastUserMessage(request);
        if (said === "back to reception")
          return results.length === 0
            ? call("handoff", { assistant_id: reception.id })
            : { content: `Staying ${results[0]!.error ? "refused" : "handed"}.` };
        if (said === "somewhere else")
          return results.length === 0
            ? call("handoff", { assistant_id: foreign.id })
            : { content: `Staying ${results[0]!.error ? "refused" : "handed"}.` };
        return { content: `Bookings heard ${said}.` };
      },
      Elsewhere: () => ({ content: "Wrong account." }),
    });

    const { placed, client } = await answeredCall(reception);
    await callerSays(client, "i want to book");
    // The handover sentence is the handing assistant's, in its voice.
    expect(speech.syntheses.at(-1)).toMatchObject({ input: "Bookings takes over now.", voice: "alloy" });
    await eventually(async () => expect((await reload(placed.id)).activeAssistantId).toBe(bookings.id));

    await callerSays(client, "tuesday at ten");
    const answer = model.chatRequests.at(-1)!;
    expect(systemPrompt(answer)).toContain("You are Bookings.");
    // The transcript so far came along.
    expect(answer.messages.some((message) => message.content === "i want to book")).toBe(true);
    // Its own hand-off targets, never another account's assistant.
    expect(handoffTool(answer)?.function.description).toContain(`${reception.id}: Reception.`);
    expect(handoffTool(answer)?.function.description).not.toContain("Elsewhere");
    expect(speech.syntheses.at(-1)).toMatchObject({
      input: "Bookings heard tuesday at ten.",
      voice: "nova",
      speed: 1.25,
    });

    const webhook = await receiver.waitFor(
      (request) => request.json.type === "conversation.handed_off" && request.json.data.call_id === placed.id,
    );
    expect(webhook.json.data).toMatchObject({
      conversation_id: null,
      call_id: placed.id,
      channel: "phone",
      from_assistant_id: reception.id,
      to_assistant_id: bookings.id,
      reason: "booking",
      handoff_count: 1,
    });

    // Straight back is refused (the loop bound); another account's assistant is refused too.
    await callerSays(client, "back to reception");
    expect(speech.syntheses.at(-1)).toMatchObject({ input: "Staying refused.", voice: "nova" });
    expect(resultsThisTurn(model.chatRequests.at(-1)!)[0]!.error).toMatch(
      /handed this call over only recently/,
    );
    await callerSays(client, "somewhere else");
    expect(speech.syntheses.at(-1)).toMatchObject({ input: "Staying refused.", voice: "nova" });
    expect(resultsThisTurn(model.chatRequests.at(-1)!)[0]!.error).toMatch(
      /must be one of the assistants listed/,
    );
    expect(model.chatRequests.some((request) => systemPrompt(request).includes("You are Elsewhere."))).toBe(
      false,
    );

    const expectedTranscript = [
      "Assistant: Hello! How can I help?",
      "Customer: i want to book",
      "Assistant: Bookings takes over now.",
      "System: Handed over from Reception to Bookings (booking).",
      "Customer: tuesday at ten",
      "Assistant: Bookings heard tuesday at ten.",
      "Customer: back to reception",
      "Assistant: Staying refused.",
      "Customer: somewhere else",
      "Assistant: Staying refused.",
    ].join("\n");
    // A turn is stored once it has been played, a moment after its speech was synthesised.
    const data = await vi.waitFor(async () => {
      const { data } = await t.gql<{
        call: { assistantId: number; activeAssistantId: number; handoffCount: number; transcript: string };
      }>(CALL_QUERY, { id: placed.id }, { token: owner.apiKey });
      expect(data?.call.transcript.split("\n")).toHaveLength(expectedTranscript.split("\n").length);
      return data;
    });
    expect(data?.call).toMatchObject({
      assistantId: reception.id,
      activeAssistantId: bookings.id,
      handoffCount: 1,
    });
    expect(data?.call.transcript).toBe(expectedTranscript);
    // The stranger sees neither the call nor who answers it.
    const foreignView = await t.gql(CALL_QUERY, { id: placed.id }, { token: stranger.apiKey });
    expect(foreignView.data?.call ?? null).toBeNull();

    // The call stays its own assistant's: it is billed and ends as usual.
    const ended = await callerHangsUp(t, twilio, client, placed, 30);
    expect(ended).toMatchObject({ status: "ended_by_customer", assistantId: reception.id });
    expect(ended.totalCost.toFixed(2)).toBe("0.10");
  });

  it("keeps a hand-off whose reply failed: the new assistant answers the caller's next turn", async () => {
    const reception = await assistantWithVoice("Reception", "alloy");
    const bookings = await assistantWithVoice("Bookings", "echo");
    await targets(reception, [{ assistant: bookings, description: "Books appointments." }]);
    followPlans({ Bookings: () => ({ content: "Bookings answers." }) });
    model.enqueue(call("handoff", { assistant_id: bookings.id }), {
      error: { status: 400, message: "The model refused." },
    });
    const { placed, client } = await answeredCall(reception);
    client.speak("i want to book");
    await eventually(async () =>
      expect((await reload(placed.id)).transcript).toBe(
        [
          "Assistant: Hello! How can I help?",
          "Customer: i want to book",
          "System: Handed over from Reception to Bookings.",
        ].join("\n"),
      ),
    );
    await callerSays(client, "hello again");
    expect(systemPrompt(model.chatRequests.at(-1)!)).toContain("You are Bookings.");
    expect(speech.syntheses.at(-1)).toMatchObject({ input: "Bookings answers.", voice: "echo" });
    await callerHangsUp(t, twilio, client, placed, 20);
  });

  it("bounds hand-offs per call", async () => {
    const chain = await Promise.all(
      ["One", "Two", "Three", "Four"].map((name) => assistantWithVoice(name, `voice-${name.toLowerCase()}`)),
    );
    for (const [index, assistant] of chain.entries())
      await targets(assistant, [{ assistant: chain[(index + 1) % chain.length]!, description: "Next." }]);
    const pass = (me: number) => (results: ToolResult[]) =>
      results.length === 0
        ? call("handoff", { assistant_id: chain[(me + 1) % chain.length]!.id })
        : { content: results[0]!.error ? "Refused." : "Passed." };
    followPlans(Object.fromEntries(chain.map((assistant, index) => [assistant.name, pass(index)])));

    const { placed, client } = await answeredCall(chain[0]!);
    const said: string[] = [];
    for (let turn = 0; turn < 6; turn++) {
      await callerSays(client, "pass it on");
      said.push(speech.syntheses.at(-1)!.input);
    }
    // One→Two→Three→Four→One→Two: five hand-offs, then the sixth is refused, by Two, in Two's voice.
    expect(said).toEqual([...Array(5).fill("Passed."), "Refused."]);
    expect(speech.syntheses.at(-1)).toMatchObject({ voice: "voice-two" });
    expect(resultsThisTurn(model.chatRequests.at(-1)!)[0]!.error).toMatch(/handed off 5 times already/);
    await eventually(async () =>
      expect(await reload(placed.id)).toMatchObject({
        activeAssistantId: chain[1]!.id,
        handoffTrail: [chain[0]!.id, chain[1]!.id, chain[2]!.id, chain[3]!.id, chain[0]!.id],
      }),
    );
    await callerHangsUp(t, twilio, client, placed, 20);
  });

  it("hands a web call over the same browser socket; the browser's transcript has no marker line", async () => {
    const site = "https://shop.example";
    const reception = await assistantWithVoice("Reception", "alloy", {
      widgetSettings: { voice: true },
      allowedOrigins: [site],
    });
    const bookings = await assistantWithVoice("Bookings", "shimmer");
    await targets(reception, [{ assistant: bookings, description: "Books appointments." }]);
    model.reset();
    model.enqueue(
      call("handoff", { assistant_id: bookings.id }),
      { content: "Bookings takes over now." },
      { content: "Bookings here." },
    );
    const started = await t.rest<{ call_id: number; token: string }>(
      "POST",
      `/api/widget/assistants/${reception.uuid}/web-calls`,
      { headers: { origin: site } },
    );
    expect(started.status).toBe(201);
    const socketUrl = `${t.url.replace(/^http/, "ws")}/widget/web-call`;
    const client = await WebCallClient.connect(socketUrl, started.body.token, { origin: site });
    await client.waitFor(() => client.count("mark") >= 2);
    client.sendPcm(synthesizeTones("i want to book", 16_000), 1000);
    await client.waitFor(() => client.count("mark") >= 3);
    expect(speech.syntheses.at(-1)).toMatchObject({ input: "Bookings takes over now.", voice: "alloy" });
    client.sendPcm(synthesizeTones("tuesday", 16_000), 1000);
    await client.waitFor(() => client.count("mark") >= 4);
    expect(systemPrompt(model.chatRequests.at(-1)!)).toContain("You are Bookings.");
    expect(speech.syntheses.at(-1)).toMatchObject({ input: "Bookings here.", voice: "shimmer" });

    const callId = started.body.call_id;
    await eventually(async () =>
      expect((await reload(callId)).transcript).toBe(
        [
          "Assistant: Hello! How can I help?",
          "Customer: i want to book",
          "Assistant: Bookings takes over now.",
          "System: Handed over from Reception to Bookings.",
          "Customer: tuesday",
          "Assistant: Bookings here.",
        ].join("\n"),
      ),
    );
    await client.waitFor((received) => received.filter((m) => m.type === "transcript").length >= 5);
    expect(client.received.filter((m) => m.type === "transcript").map((m) => m.speaker)).toEqual([
      "assistant",
      "customer",
      "assistant",
      "customer",
      "assistant",
    ]);
    const webhook = await receiver.waitFor(
      (request) => request.json.type === "conversation.handed_off" && request.json.data.call_id === callId,
    );
    expect(webhook.json.data).toMatchObject({ channel: "web", customer_identifier: null, handoff_count: 1 });
    client.close();
    await client.closed;
  });
});
