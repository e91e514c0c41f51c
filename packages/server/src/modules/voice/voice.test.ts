import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { type FakeSpeech, startFakeSpeech, toneText } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { subscribeWs } from "../../../test/support/subscriptions.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import {
  answerOutbound,
  callerHangsUp,
  expectCutAfterFirstSentence,
  mediaStreamUrl,
  THREE_SENTENCES,
  twilioWebhook,
  voiceCallEnv,
} from "../../../test/support/voice-calls.ts";
import type { Assistant, PhoneNumber } from "../../generated/prisma/client.ts";
import { VOICE_PHRASES } from "./voice-session.ts";

const TRANSCRIPT =
  "subscription ($callId: Int!) { callTranscript(callId: $callId) { speaker text heardText interrupted } }";

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let owner: TestAccount;
let number: PhoneNumber;
let mediaUrl: string;
let defaults: { phoneNumberId: number };

/** What tone speech keeps of a text, without the spaces sentence splitting drops. */
const heard = (text: string) => toneText(text).replace(/\s+/g, "");
const marks = (received: TwilioMediaClient["received"]) => received.filter((m) => m.event === "mark").length;
const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

/**
 * Places a call with `assistant`, answers it as Twilio does, and connects its media stream;
 * `beforeAnswer` runs once the call exists.
 */
async function answeredCall(assistant: Assistant, beforeAnswer?: (callId: number) => Promise<void>) {
  const call = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to: uniqueUsNumber(),
  });
  await beforeAnswer?.(call.id);
  const token = await answerOutbound(t, twilio, call);
  const client = await TwilioMediaClient.connect(mediaUrl, token);
  return { call, token, client };
}

beforeAll(async () => {
  [twilio, model, speech] = await Promise.all([startFakeTwilio(), startFakeOpenAI(), startFakeSpeech()]);
  t = await startTestApp({
    model,
    env: voiceCallEnv(twilio, speech),
  });
  mediaUrl = mediaStreamUrl(t);
  owner = await t.createAccount({ balance: "50" });
  number = await telephonyFixtures(t).addNumber(owner);
  defaults = { phoneNumberId: number.id };
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close()]);
});

describe("a phone conversation over Twilio Media Streams (pipeline mode)", () => {
  let used: { callId: number; token: string };

  it("greets, hears the caller, answers in speech, stores the transcript and bills the minutes", async () => {
    const assistant = await createAssistant(t, owner, defaults);
    let live!: Awaited<ReturnType<typeof subscribeWs<{ callTranscript: Record<string, unknown> }>>>;
    const { call, token, client } = await answeredCall(assistant, async (callId) => {
      live = await subscribeWs(t.url, TRANSCRIPT, {
        connectionParams: { authorization: `Bearer ${owner.apiKey}` },
        variables: { callId },
      });
    });
    used = { callId: call.id, token };
    await client.waitFor((received) => marks(received) >= 2);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Hello! How can I help?"));

    client.speak("what time is it");
    await client.waitFor((received) => marks(received) >= 3);
    expect(speech.transcriptions.at(-1)).toBe("what time is it");
    // A phone's 8 kHz goes to speech-to-text as it came, not upsampled to pretend otherwise.
    expect(speech.transcribed.at(-1)).toEqual({ sampleRate: 8000, loudestAbove4kHz: 0 });
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: what time is it"));
    expect(model.chatRequests.at(-1)?.tools?.map((tool) => tool.function.name)).toContain("end_call");
    expect(speech.syntheses.at(-1)).toMatchObject({ voice: "alloy", response_format: "pcm" });
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toBe(
        "Assistant: Hello! How can I help?\nCustomer: what time is it\nAssistant: Echo: what time is it",
      ),
    );

    // Published live, turn by turn, and stored with the time of each stage.
    const published = [];
    for (let i = 0; i < 3; i++) published.push((await live.next(10_000)).data?.callTranscript);
    await live.close();
    expect(published).toMatchObject([
      { speaker: "assistant", heardText: "Hello! How can I help?", interrupted: false },
      { speaker: "customer", text: "what time is it" },
      { speaker: "assistant", text: "Echo: what time is it", heardText: "Echo: what time is it" },
    ]);
    const { data } = await t.gql<{
      call: { turns: { speaker: string; firstAudioAt: string | null }[]; latency: Record<string, number> };
    }>(
      "query ($id: Int!) { call(id: $id) { turns { speaker firstAudioAt } latency { turns firstAudioP50Ms firstAudioP95Ms transcriptP50Ms firstTokenP50Ms } } }",
      { id: call.id },
      { token: owner.apiKey },
    );
    expect(data?.call.turns.map((turn) => turn.speaker)).toEqual(["assistant", "customer", "assistant"]);
    expect(data?.call.latency.turns).toBe(1);
    expect(data?.call.latency.firstAudioP50Ms).toBeGreaterThanOrEqual(data!.call.latency.firstTokenP50Ms!);
    expect(data?.call.latency.firstTokenP50Ms).toBeGreaterThanOrEqual(data!.call.latency.transcriptP50Ms!);

    // The caller hangs up: the stream stops, then Twilio's status callback ends the call.
    const ended = await callerHangsUp(t, twilio, client, call, 75);
    expect(ended.status).toBe("ended_by_customer");
    expect(ended.totalCost.toFixed(2)).toBe("0.20");
  });

  it("refuses a replayed, forged or missing stream token without touching the call", async () => {
    const before = await reload(used.callId);
    const [callId, expires, nonce] = used.token.split(".");
    for (const token of [used.token, `${callId}.${expires}.${nonce}.${"A".repeat(43)}`, null]) {
      const client = await TwilioMediaClient.connect(mediaUrl, token);
      expect((await client.closed).code).toBe(1008);
      expect(client.received).toEqual([]);
    }
    expect(await reload(used.callId)).toEqual(before);
  });

  it("stops talking when the caller barges in, keeps only what was played, and evaluates that", async () => {
    const assistant = await createAssistant(t, owner, {
      initialMessage: THREE_SENTENCES,
      phoneNumberId: number.id,
      interruptSensitivity: 1,
      postCallEvaluation: true,
      postCallSchema: [{ name: "summary", type: "string", description: "What was said" }],
    });
    const { call, client } = await answeredCall(assistant);
    client.autoAckMarks = false;
    await client.waitFor((received) => marks(received) >= 3);
    client.ackMarks(1);
    client.autoAckMarks = true;
    client.speak("wait");
    await client.waitFor((received) => received.some((message) => message.event === "clear"));
    await expectCutAfterFirstSentence(t, call.id);
    client.close();
    // The evaluation reads what the caller heard: the greeting cut after its first sentence.
    model.enqueue({ content: JSON.stringify({ summary: "Greeted, then interrupted." }) });
    await t.app.services.callLifecycle.transition(call.id, "completed");
    await eventually(async () => expect((await reload(call.id)).evaluationStatus).toBe("done"));
    const evaluation = model.chatRequests.find((request) =>
      String(request.messages.at(-1)?.content).startsWith("Transcript:"),
    );
    const transcript = String(evaluation?.messages.at(-1)?.content);
    expect(transcript).toContain("Assistant: One two three.\nCustomer: wait");
    expect(transcript).not.toContain("Four five six");
  });

  it("with min_interrupt_words keeps talking through a backchannel and stops for real words", async () => {
    const assistant = await createAssistant(t, owner, {
      initialMessage: THREE_SENTENCES,
      phoneNumberId: number.id,
      interruptSensitivity: 1,
      minInterruptWords: 2,
    });
    const { call, client } = await answeredCall(assistant);
    client.autoAckMarks = false;
    await client.waitFor((received) => marks(received) >= 3);
    client.ackMarks(1);
    const counted = speech.transcriptions.length;
    client.speak("mhm");
    // Its words were counted (the whole backchannel too, once it ended), and it was one word.
    await eventually(async () => expect(speech.transcriptions.slice(counted)).toContain("mhm"));
    expect(client.received.some((message) => message.event === "clear")).toBe(false);
    client.speak("wait a moment");
    await client.waitFor((received) => received.some((message) => message.event === "clear"));
    client.autoAckMarks = true;
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toMatch(/^Assistant: One two three\.\nCustomer: mhm\n/),
    );
    client.close();
  });

  it("runs the end_call tool mid-call and hangs up as the assistant", async () => {
    const assistant = await createAssistant(t, owner, { initialMessage: "", phoneNumberId: number.id });
    const { call, client } = await answeredCall(assistant);
    model.enqueue({ toolCalls: [{ name: "end_call", arguments: {} }] }, { content: "Goodbye then." });
    client.speak("bye");
    await eventually(async () => expect((await reload(call.id)).requestedEnd).toBe("ended_by_assistant"));
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Goodbye then."));
    // The hang-up request follows the recorded intent.
    await eventually(async () =>
      expect(twilio.requests).toContainEqual(
        expect.objectContaining({
          method: "POST",
          resource: `/Calls/${call.providerCallId}.json`,
          params: expect.objectContaining({ Status: "completed" }),
        }),
      ),
    );
    client.close();
    // The function call is kept with the turn it wrote, for the console's review of the call.
    await eventually(async () => {
      const { data } = await t.gql<{ call: { turns: { speaker: string; functionCalls: unknown[] }[] } }>(
        "query($id: Int!) { call(id: $id) { turns { speaker functionCalls { name error } } } }",
        { id: call.id },
        { token: owner.apiKey },
      );
      expect(data?.call.turns.filter((turn) => turn.functionCalls.length > 0)).toEqual([
        { speaker: "assistant", functionCalls: [{ name: "end_call", error: null }] },
      ]);
    });
  });

  it("re-engages a silent caller, then says goodbye and hangs up", async () => {
    const assistant = await createAssistant(t, owner, {
      initialMessage: "",
      maxSilenceDuration: 15,
      reengagementInterval: 5,
      phoneNumberId: number.id,
    });
    const { call, client } = await answeredCall(assistant);
    // Time spent speaking a prompt is not silence: each round starts once the last prompt was played
    // and stored (the audio is sent faster than real time).
    for (let round = 1; round <= 3; round++) {
      client.silence(5100);
      await eventually(async () =>
        expect((await reload(call.id)).transcript.split("\n").filter(Boolean)).toHaveLength(round),
      );
    }
    await eventually(async () => expect((await reload(call.id)).requestedEnd).toBe("ended_by_assistant"));
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(
      heard(`${VOICE_PHRASES.reengage}${VOICE_PHRASES.reengage}${VOICE_PHRASES.silenceGoodbye}`),
    );
    expect((await reload(call.id)).endReason).toBe("No answer from the caller (silence).");
    client.close();
  });

  it("refuses a call past the instance's capacity with a spoken message", async () => {
    const assistant = await createAssistant(t, owner, defaults);
    const first = await answeredCall(assistant);
    await first.client.waitFor((received) => marks(received) >= 2);
    const limits = t.app.config.voice;
    const configured = limits.maxLiveSessions;
    limits.maxLiveSessions = t.app.services.voice.liveSessions;
    try {
      const { call } = await answeredCall(assistant);
      await eventually(async () =>
        expect(twilio.requests).toContainEqual(
          expect.objectContaining({
            resource: `/Calls/${call.providerCallId}.json`,
            params: expect.objectContaining({
              Twiml: expect.stringContaining("cannot take your call right now"),
            }),
          }),
        ),
      );
      expect(await reload(call.id)).toMatchObject({
        requestedEnd: "ended_by_assistant",
        endReason: "The server was at capacity.",
      });
    } finally {
      limits.maxLiveSessions = configured;
      first.client.close();
    }
  });
});

describe("semantic end of turn (pipeline mode)", () => {
  it("waits for a caller who paused mid-sentence and answers the whole thought once", async () => {
    const assistant = await createAssistant(t, owner, { ...defaults, endpointType: "semantic" });
    const { call, client } = await answeredCall(assistant);
    await client.waitFor((received) => marks(received) >= 2);
    // A pause of 900 ms would end a turn with vad (750 ms), but after a comma the wait is 1.5 s; 400 ms
    // of silence ends a finished one (375 ms, where vad would still wait).
    client.speak("i want the blue one,", 900);
    client.speak("and a red one.", 400);
    await eventually(async () =>
      expect((await reload(call.id)).transcript).toBe(
        "Assistant: Hello! How can I help?\nCustomer: i want the blue one, and a red one.\nAssistant: Echo: i want the blue one, and a red one.",
      ),
    );
    expect(speech.transcriptions.slice(-2)).toEqual(["i want the blue one,", "and a red one."]);
    client.close();
  });
});

describe("voicemail (Twilio's asynchronous answering machine detection)", () => {
  const amd = (call: { id: number; providerCallId: string | null }, AnsweredBy: string) =>
    twilioWebhook(t, twilio, `/telephony/twilio/amd?callId=${call.id}`, {
      AccountSid: twilio.accountSid,
      CallSid: call.providerCallId!,
      AnsweredBy,
      MachineDetectionDuration: "2400",
    });
  const updatesOf = (call: { providerCallId: string | null }) =>
    twilio.requests.filter((request) => request.resource === `/Calls/${call.providerCallId}.json`);
  /** The parameters the call was created with on Twilio. */
  const createdWith = (call: { id: number }) =>
    twilio.requests.find((request) => request.params.Url?.toString().endsWith(`callId=${call.id}`))?.params;

  it("waits for the beep, leaves the assistant's message in its voice, then hangs up; a replay does nothing", async () => {
    const assistant = await createAssistant(t, owner, {
      ...defaults,
      initialMessage: "Hi, this is Solar Co.",
      endCallOnVoicemail: false,
    });
    const { call, client } = await answeredCall(assistant);
    expect(createdWith(call)).toMatchObject({
      MachineDetection: "DetectMessageEnd",
      AsyncAmd: "true",
      AsyncAmdStatusCallback: `https://voxgate.test/telephony/twilio/amd?callId=${call.id}`,
    });
    await client.waitFor((received) => marks(received) >= 1);
    client.takeSpeech();
    // The greeting plays on after machine_start; the message waits for the end of it.
    await amd(call, "machine_start");
    expect(await reload(call.id)).toMatchObject({ answeredBy: "machine", requestedEnd: null });
    await amd(call, "machine_end_beep");
    await amd(call, "machine_end_beep");
    await eventually(async () => expect(updatesOf(call)).toHaveLength(1));
    // Spoken on the stream (not by Twilio's <Say>), then the line dropped without another word.
    expect(updatesOf(call)[0]!.params).toMatchObject({ Status: "completed" });
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Hi, this is Solar Co."));
    expect(await reload(call.id)).toMatchObject({
      answeredBy: "machine",
      requestedEnd: "ended_by_assistant",
      endReason: "Voicemail message left.",
    });
    const turns = await t.app.db.prisma.callTurn.findMany({
      where: { callId: call.id },
      orderBy: { id: "asc" },
    });
    expect(turns.map((turn) => [turn.speaker, turn.text])).toEqual([
      ["assistant", "Hi, this is Solar Co."],
      ["assistant", "Hi, this is Solar Co."],
    ]);
    client.close();
  });

  it("hangs up at once with end_call_on_voicemail, and refuses an unsigned or unknown verdict", async () => {
    const assistant = await createAssistant(t, owner, { ...defaults, endCallOnVoicemail: true });
    const { call, client } = await answeredCall(assistant);
    expect(createdWith(call)).toMatchObject({
      MachineDetection: "Enable",
      AsyncAmd: "true",
    });
    const forged = await fetch(`${t.url}/telephony/twilio/amd?callId=${call.id}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": "forged" },
      body: new URLSearchParams({ CallSid: call.providerCallId!, AnsweredBy: "machine_start" }),
    });
    expect(forged.status).toBe(403);
    await amd(call, "robot");
    expect(await reload(call.id)).toMatchObject({ answeredBy: "human", requestedEnd: null });
    await amd(call, "machine_start");
    await amd(call, "machine_start");
    expect(updatesOf(call)).toMatchObject([{ params: { Status: "completed" } }]);
    expect(await reload(call.id)).toMatchObject({
      answeredBy: "machine",
      requestedEnd: "ended_by_assistant",
      endReason: "Voicemail reached.",
    });
    client.close();
  });
});
