import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeRealtime, realtimeEnv, startFakeRealtime } from "../../../test/support/fake-realtime.ts";
import { type FakeSpeech, startFakeSpeech, toneText } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import * as voiceCalls from "../../../test/support/voice-calls.ts";
import { WebCallClient } from "../../../test/support/web-call-client.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import type { Assistant, PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * Multimodal and dualplex calls: Voxgate in Twilio mode, a Twilio Media Streams client, and a fake
 * OpenAI Realtime server (and the fake speech server for dualplex's voice), all over real sockets.
 */

let t: TestApp;
let twilio: FakeTwilio;
let realtime: FakeRealtime;
let speech: FakeSpeech;
let hooks: WebhookReceiver;
let owner: TestAccount;
let number: PhoneNumber;
let mediaUrl: string;

const heard = (text: string) => toneText(text).replace(/\s+/g, "");
const spoken = (client: TwilioMediaClient) => client.takeSpeech().replace(/\s+/g, "");
const marks = (received: TwilioMediaClient["received"]) => received.filter((m) => m.event === "mark").length;
const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 15_000, interval: 20 });
const transcriptOf = async (callId: number, lines: string[]) =>
  eventually(async () => expect((await reload(callId)).transcript).toBe(lines.join("\n")));
const sent = (index: number, type: string) =>
  realtime.sessions[index]!.received.filter((event) => event.type === type);

interface ReviewedTurn {
  speaker: string;
  text: string;
  startMs: number;
  speechEndedAt: string | null;
  transcriptAt: string | null;
  firstTokenAt: string | null;
  firstAudioAt: string | null;
  playedAt: string | null;
  functionCalls: {
    name: string;
    arguments: Record<string, unknown>;
    result: unknown;
    error: string | null;
    durationMs: number;
  }[];
}

/** The call's turns as the console's call review reads them: GraphQL over HTTP with the owner's key. */
async function reviewedTurns(callId: number): Promise<ReviewedTurn[]> {
  const { data, errors } = await t.gql<{ call: { turns: ReviewedTurn[] } }>(
    `query($id: Int!) { call(id: $id) { turns {
      speaker text startMs speechEndedAt transcriptAt firstTokenAt firstAudioAt playedAt
      functionCalls { name arguments result error durationMs } } } }`,
    { id: callId },
    { token: owner.apiKey },
  );
  expect(errors).toBeUndefined();
  return data!.call.turns;
}
const at = (value: string | null) => Date.parse(value!);

async function answeredCall(assistant: Assistant, options: { connects?: boolean; holdMarks?: boolean } = {}) {
  const call = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to: uniqueUsNumber(),
  });
  const token = await voiceCalls.answerOutbound(t, twilio, call);
  const sessions = realtime.sessions.length;
  const client = await TwilioMediaClient.connect(mediaUrl, token);
  // Held from the start: the greeting may come back before the model's session is seen below.
  client.autoAckMarks = !options.holdMarks;
  if (options.connects !== false)
    await eventually(() => expect(realtime.sessions[sessions]?.received[0]?.type).toBe("session.update"));
  return { call, client, model: sessions };
}

beforeAll(async () => {
  [twilio, realtime, speech, hooks] = await Promise.all([
    startFakeTwilio(),
    startFakeRealtime(),
    startFakeSpeech(),
    startWebhookReceiver(),
  ]);
  t = await startTestApp({
    env: {
      ...voiceCalls.voiceCallEnv(twilio, speech),
      VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
      ...realtimeEnv(realtime),
    },
  });
  mediaUrl = voiceCalls.mediaStreamUrl(t);
  owner = await t.createAccount({ balance: "50" });
  number = await telephonyFixtures(t).addNumber(owner);
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), realtime?.close(), speech?.close(), hooks?.close()]);
});

describe("multimodal mode (a realtime speech-to-speech model)", () => {
  it("relays mu-law both ways, runs a webhook tool mid-call with a filler, stores the turns and bills the minutes", async () => {
    const assistant = await createAssistant(t, owner, {
      mode: "multimodal",
      phoneNumberId: number.id,
      fillers: 1,
      fillerConfig: { neutral: ["Just a second."] },
      systemPrompt: "You book tables for Chez Test.",
      tools: [
        {
          name: "check_table",
          description: "Checks a table.",
          parameters: { type: "object", properties: { people: { type: "number" } } },
          url: `${hooks.url}/tables`,
          method: "POST",
          timeout: 5,
        },
      ],
    });
    const { call, client, model } = await answeredCall(assistant);
    const session = realtime.sessions[model]!;
    expect(session.headers.authorization).toBe("Bearer sk-realtime");
    expect(session.model).toBe("fake-realtime");
    const update = sent(model, "session.update")[0]!;
    expect(update.session).toMatchObject({
      type: "realtime",
      output_modalities: ["audio"],
      instructions: expect.stringContaining("You book tables for Chez Test."),
      audio: {
        input: {
          format: { type: "audio/pcmu" },
          turn_detection: { type: "server_vad", silence_duration_ms: 750, interrupt_response: false },
        },
        output: { format: { type: "audio/pcmu" }, voice: "alloy" },
      },
    });
    const tools = (update.session as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    // send_sms too: the call's number is an SMS-capable dedicated number.
    expect(tools).toEqual(["check_table", "end_call", "send_dtmf", "send_sms"]);

    // The greeting is asked of the model word for word, and its audio reaches the caller untouched.
    // Turns are stored once their last mark came back: all their audio reached the caller by then.
    await transcriptOf(call.id, ["Assistant: Hello! How can I help?"]);
    expect(spoken(client)).toBe(heard("Hello! How can I help?"));
    expect(sent(model, "response.create")[0]).toMatchObject({
      response: { instructions: expect.stringContaining('"Hello! How can I help?"') },
    });

    client.speak("what time is it");
    await transcriptOf(call.id, [
      "Assistant: Hello! How can I help?",
      "Customer: what time is it",
      "Assistant: Echo: what time is it",
    ]);
    expect(spoken(client)).toBe(heard("Echo: what time is it"));
    // The caller's audio reached the model as it was sent (the model's VAD found the turn in it):
    // `audioMs` counts the bytes the fake model received, not time, so load cannot move it.
    expect(session.audioMs).toBeGreaterThanOrEqual(toneText("what time is it").length * 50 + 750);

    realtime.enqueue(
      { functionCall: { name: "check_table", arguments: { people: 4 } } },
      { text: "A table is free." },
    );
    client.speak("a table for four");
    const request = await hooks.waitFor((received) => received.body.includes("people"));
    expect(JSON.parse(request.body)).toEqual({ people: 4 });
    await eventually(() => expect(sent(model, "conversation.item.create").length).toBe(1));
    expect(sent(model, "conversation.item.create")[0]).toMatchObject({
      item: { type: "function_call_output", output: JSON.stringify({ result: { ok: true } }) },
    });
    await transcriptOf(call.id, [
      "Assistant: Hello! How can I help?",
      "Customer: what time is it",
      "Assistant: Echo: what time is it",
      "Customer: a table for four",
      "Assistant: Just a second.",
      "Assistant: A table is free.",
    ]);
    // The model said the filler while the webhook ran, then the answer from its result.
    expect(spoken(client)).toBe(heard("Just a second. A table is free."));
    const turns = await t.app.db.prisma.callTurn.findMany({
      where: { callId: call.id },
      orderBy: { id: "asc" },
    });
    const answer = turns[2]!;
    expect(answer.speechEndedAt!.getTime()).toBeLessThanOrEqual(answer.firstTokenAt!.getTime());
    expect(answer.firstTokenAt!.getTime()).toBeLessThanOrEqual(answer.firstAudioAt!.getTime());
    expect(answer.firstAudioAt!.getTime()).toBeLessThanOrEqual(answer.playedAt!.getTime());

    // The call's review: the response that only called the webhook is a turn of its own with the
    // call's record (as the pipeline stores them), placed before the filler the model said meanwhile.
    const reviewed = await reviewedTurns(call.id);
    const calling = reviewed.filter((turn) => turn.functionCalls.length > 0);
    expect(calling).toEqual([
      expect.objectContaining({
        speaker: "assistant",
        text: "",
        functionCalls: [
          {
            name: "check_table",
            arguments: { people: 4 },
            result: { ok: true },
            error: null,
            durationMs: expect.any(Number),
          },
        ],
      }),
    ]);
    const [called] = calling;
    const filler = reviewed.find((turn) => turn.text === "Just a second.")!;
    const free = reviewed.find((turn) => turn.text === "A table is free.")!;
    expect(called!.startMs).toBeLessThanOrEqual(filler.startMs);
    // Its first token is the call; the answer written from the result counts from the same end of
    // speech (the function's time is part of the caller's wait); the fixed filler answers nobody.
    expect(at(called!.speechEndedAt)).toBeLessThanOrEqual(at(called!.firstTokenAt));
    expect(called!.firstAudioAt).toBeNull();
    expect(filler.speechEndedAt).toBeNull();
    expect(free.speechEndedAt).toBe(called!.speechEndedAt);
    expect(at(called!.firstTokenAt)).toBeLessThanOrEqual(at(free.firstTokenAt));
    expect(at(free.firstTokenAt)).toBeLessThanOrEqual(at(free.firstAudioAt));
    expect(at(free.firstAudioAt)).toBeLessThanOrEqual(at(free.playedAt));

    const ended = await voiceCalls.callerHangsUp(t, twilio, client, call, 61);
    expect(ended.status).toBe("ended_by_customer");
    expect(ended.totalCost.toFixed(2)).toBe("0.20");
  });

  it("on barge-in clears Twilio's audio, truncates the model's message at the played offset, and keeps what was heard", async () => {
    const assistant = await createAssistant(t, owner, {
      mode: "multimodal",
      initialMessage: voiceCalls.THREE_SENTENCES,
      phoneNumberId: number.id,
      interruptSensitivity: 1,
    });
    const { call, client, model } = await answeredCall(assistant, { holdMarks: true });
    await client.waitFor((received) => marks(received) >= 3);
    // The caller heard the first sentence (700 ms of tone speech) when they spoke up.
    client.ackMarks(1);
    client.autoAckMarks = true;
    client.speak("wait");
    await client.waitFor((received) => received.some((message) => message.event === "clear"));
    await eventually(() => expect(sent(model, "conversation.item.truncate")).toHaveLength(1));
    expect(sent(model, "conversation.item.truncate")[0]).toMatchObject({
      content_index: 0,
      audio_end_ms: 700,
    });
    await voiceCalls.expectCutAfterFirstSentence(t, call.id);
    client.close();
  });
});

describe("function calls on a realtime call's turns", () => {
  it("stores a failed call with its error and end_call with the turn that hung up", async () => {
    const assistant = await createAssistant(t, owner, {
      mode: "multimodal",
      initialMessage: "",
      phoneNumberId: number.id,
    });
    const { call, client } = await answeredCall(assistant);
    realtime.enqueue(
      { functionCall: { name: "cancel_order", arguments: { order: "A-17" } } },
      { text: "I cannot do that." },
    );
    client.speak("cancel my order");
    await transcriptOf(call.id, ["Customer: cancel my order", "Assistant: I cannot do that."]);
    realtime.enqueue({ functionCall: { name: "end_call", arguments: {} } });
    client.speak("bye");
    await eventually(async () => expect((await reload(call.id)).requestedEnd).toBe("ended_by_assistant"));
    await eventually(async () =>
      expect(
        (await reviewedTurns(call.id))
          .filter((turn) => turn.functionCalls.length > 0)
          .map((turn) => [turn.speaker, turn.functionCalls.map(({ durationMs: _, ...rest }) => rest)]),
      ).toEqual([
        [
          "assistant",
          [
            {
              name: "cancel_order",
              arguments: { order: "A-17" },
              result: null,
              error: "There is no function named cancel_order.",
            },
          ],
        ],
        ["assistant", [{ name: "end_call", arguments: {}, result: { ended: true }, error: null }]],
      ]),
    );
    client.close();
  });
});

describe("multimodal mode with wait_for_customer", () => {
  it("keeps the model quiet until the callee speaks, greets them, then lets the model answer", async () => {
    const assistant = await createAssistant(t, owner, {
      mode: "multimodal",
      waitForCustomer: true,
      phoneNumberId: number.id,
    });
    const { call, client, model } = await answeredCall(assistant);
    expect(sent(model, "session.update")[0]?.session).toMatchObject({
      audio: { input: { turn_detection: { create_response: false } } },
    });
    client.speak("hello");
    await transcriptOf(call.id, ["Customer: hello", "Assistant: Hello! How can I help?"]);
    expect(sent(model, "session.update")[1]?.session).toMatchObject({
      audio: { input: { turn_detection: { create_response: true } } },
    });
    client.speak("thanks");
    await transcriptOf(call.id, [
      "Customer: hello",
      "Assistant: Hello! How can I help?",
      "Customer: thanks",
      "Assistant: Echo: thanks",
    ]);
    client.close();
  });
});

describe("dualplex mode (the realtime model reasons in text, the assistant's voice speaks)", () => {
  it("speaks the model's text through text-to-speech, with a filler while a tool runs and DTMF digits in-band", async () => {
    const assistant = await createAssistant(t, owner, {
      mode: "dualplex",
      initialMessage: "",
      phoneNumberId: number.id,
      fillers: 1,
      fillerConfig: { neutral: ["Let me see."], negative: [], positive: [], question: [] },
    });
    const { call, client, model } = await answeredCall(assistant);
    expect(sent(model, "session.update")[0]?.session).toMatchObject({ output_modalities: ["text"] });

    client.speak("hello");
    await transcriptOf(call.id, ["Customer: hello", "Assistant: Echo: hello"]);
    expect(spoken(client)).toBe(heard("Echo: hello"));
    expect(speech.syntheses.at(-1)).toMatchObject({ input: "Echo: hello", response_format: "pcm" });

    realtime.enqueue(
      { functionCall: { name: "send_dtmf", arguments: { digits: "12#" } } },
      { text: "I pressed the keys." },
    );
    client.speak("press one two hash");
    await eventually(() => expect(sent(model, "conversation.item.create")).toHaveLength(1));
    expect(sent(model, "conversation.item.create")[0]).toMatchObject({
      item: { type: "function_call_output", output: JSON.stringify({ result: { sent: "12#" } }) },
    });
    await transcriptOf(call.id, [
      "Customer: hello",
      "Assistant: Echo: hello",
      "Customer: press one two hash",
      "Assistant: Let me see.",
      "Assistant: I pressed the keys.",
    ]);
    // The filler was spoken in the response that called the function: one turn with both, its first
    // token the call, before the filler's audio.
    const calling = (await reviewedTurns(call.id)).filter((turn) => turn.functionCalls.length > 0);
    expect(calling).toEqual([
      expect.objectContaining({
        text: "Let me see.",
        functionCalls: [
          {
            name: "send_dtmf",
            arguments: { digits: "12#" },
            result: { sent: "12#" },
            error: null,
            durationMs: expect.any(Number),
          },
        ],
      }),
    ]);
    expect(at(calling[0]!.firstTokenAt)).toBeLessThanOrEqual(at(calling[0]!.firstAudioAt));
    // Three keys of 100 ms tone and 100 ms gap came first, then the filler and the answer.
    const audio = client.takeAudio();
    expect(audio.length).toBeGreaterThan(3 * 200 * 8);
    expect(client.decode(audio.subarray(3 * 200 * 8)).replace(/\s+/g, "")).toBe(
      heard("Let me see. I pressed the keys."),
    );
    client.close();
  });
});

describe("a web call to a realtime model (PCM16, not the phone's mu-law)", () => {
  it("sends the browser's audio as 24 kHz PCM and plays the model's back at 16 kHz, recorded on the call clock", async () => {
    const site = "https://shop.example";
    const assistant = await createAssistant(t, owner, {
      mode: "multimodal",
      record: true,
      widgetSettings: { voice: true },
      allowedOrigins: [site],
    });
    const started = await t.rest<{ call_id: number; token: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/web-calls`,
      { headers: { origin: site } },
    );
    expect(started.status).toBe(201);
    const model = realtime.sessions.length;
    const url = `${t.url.replace(/^http/, "ws")}/widget/web-call`;
    const client = await WebCallClient.connect(url, started.body.token, { origin: site });
    await eventually(() => expect(realtime.sessions[model]?.received[0]?.type).toBe("session.update"));
    const pcm = { type: "audio/pcm", rate: 24_000 };
    expect(sent(model, "session.update")[0]!.session).toMatchObject({
      audio: { input: { format: pcm }, output: { format: pcm } },
    });
    const callId = started.body.call_id;
    await transcriptOf(callId, ["Assistant: Hello! How can I help?"]);
    // Tone speech: each character is its own pitch, so the words read back only if every
    // frequency survived 24 kHz → 16 kHz on the way out (and 16 → 24 kHz on the way in, below).
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Hello! How can I help?"));
    client.speak("what time is it");
    await transcriptOf(callId, [
      "Assistant: Hello! How can I help?",
      "Customer: what time is it",
      "Assistant: Echo: what time is it",
    ]);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: what time is it"));
    // 24 kHz: the model's VAD counted the audio at the rate the session announced. `audioMs` is the
    // fake model's count of the bytes it was sent, at that rate (not a clock): the tone speech is
    // 50 ms a character, so a count below it means audio was lost or the rate was wrong.
    expect(realtime.sessions[model]!.audioMs).toBeGreaterThanOrEqual(toneText("what time is it").length * 50);
    client.close();
    await eventually(async () => expect((await reload(callId)).recordingUrl).toMatch(/\.wav$/));
  });
});

describe("a realtime model that cannot be reached", () => {
  it("apologises through Twilio and ends the call as the assistant", async () => {
    const assistant = await createAssistant(t, owner, { mode: "multimodal", phoneNumberId: number.id });
    const settings = t.app.config.voice.realtime;
    const configured = settings.baseUrl;
    settings.baseUrl = "ws://127.0.0.1:9/v1";
    try {
      const { call, client } = await answeredCall(assistant, { connects: false });
      await eventually(async () =>
        expect(await reload(call.id)).toMatchObject({
          requestedEnd: "ended_by_assistant",
          endReason: "The speech model could not be reached.",
        }),
      );
      await eventually(() =>
        expect(twilio.requests).toContainEqual(
          expect.objectContaining({
            resource: `/Calls/${call.providerCallId}.json`,
            params: expect.objectContaining({ Twiml: expect.stringContaining("not available right now") }),
          }),
        ),
      );
      client.close();
    } finally {
      settings.baseUrl = configured;
    }
  });
});

describe("a caller's transcription that comes after the answer began", () => {
  it("keeps the caller's turn at the speech the model heard, ending before the answer starts", async () => {
    const assistant = await createAssistant(t, owner, {
      mode: "multimodal",
      initialMessage: "",
      phoneNumberId: number.id,
    });
    const { call, client } = await answeredCall(assistant);
    // The API runs the transcription beside the response: it may come after the response's first output.
    realtime.enqueue({ text: "Echo late.", transcriptionLate: true });
    client.speak("hello there");
    await transcriptOf(call.id, ["Customer: hello there", "Assistant: Echo late."]);
    const { data, errors } = await t.gql<{
      call: { turns: { speaker: string; startMs: number; endMs: number }[] };
    }>(
      "query($id: Int!) { call(id: $id) { turns { speaker startMs endMs } } }",
      { id: call.id },
      { token: owner.apiKey },
    );
    expect(errors).toBeUndefined();
    const [caller, answer] = data!.call.turns;
    expect([caller!.speaker, answer!.speaker]).toEqual(["customer", "assistant"]);
    expect(caller!.endMs).toBeGreaterThan(caller!.startMs);
    // The caller's speech ended where the model's VAD heard it end, a silence before the answer started
    // (not where the media clock stood when the transcription came: the answer's own start or later).
    expect(caller!.endMs).toBeLessThan(answer!.startMs);
    client.close();
  });
});
