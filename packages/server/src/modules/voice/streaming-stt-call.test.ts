import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeDeepgram, startFakeDeepgram } from "../../../test/support/fake-deepgram.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import {
  type FakeOpenAiTranscription,
  startFakeOpenAiTranscription,
} from "../../../test/support/fake-openai-transcription.ts";
import { type FakeSpeech, startFakeSpeech, toneText } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import {
  answerOutbound,
  mediaStreamUrl,
  THREE_SENTENCES,
  voiceCallEnv,
} from "../../../test/support/voice-calls.ts";
import type { Assistant, PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * Pipeline calls over Twilio Media Streams with streaming speech-to-text: the caller's frames go
 * to the provider as they arrive, the reply starts on its final transcript (no batch request), and
 * a provider that dies mid-call leaves the call to the batch endpoint.
 */

const heard = (text: string) => toneText(text).replace(/\s+/g, "");
const marks = (received: TwilioMediaClient["received"]) => received.filter((m) => m.event === "mark").length;
const reload = (t: TestApp, callId: number) =>
  t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });
const eventually = <T>(check: () => Promise<T> | T) => vi.waitFor(check, { timeout: 15_000, interval: 20 });

let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let deepgram: FakeDeepgram;
let transcription: FakeOpenAiTranscription;

beforeAll(async () => {
  [twilio, model, speech, deepgram, transcription] = await Promise.all([
    startFakeTwilio(),
    startFakeOpenAI(),
    startFakeSpeech(),
    startFakeDeepgram(),
    startFakeOpenAiTranscription(),
  ]);
});

afterAll(async () => {
  await Promise.all([
    twilio?.close(),
    model?.close(),
    speech?.close(),
    deepgram?.close(),
    transcription?.close(),
  ]);
});

/** An app whose pipeline calls transcribe through `env`'s streaming provider, and a number to call from. */
async function voiceApp(env: Record<string, string>) {
  const t = await startTestApp({ model, env: { ...voiceCallEnv(twilio, speech), ...env } });
  const owner = await t.createAccount({ balance: "50" });
  const number = await telephonyFixtures(t).addNumber(owner);
  return { t, owner, number };
}

async function answeredCall(
  app: { t: TestApp; owner: TestAccount },
  assistant: Assistant,
): Promise<{ callId: number; client: TwilioMediaClient }> {
  const call = await app.t.app.services.callStarts.placeOutbound({
    accountId: app.owner.accountId,
    assistantId: assistant.id,
    to: uniqueUsNumber(),
  });
  const token = await answerOutbound(app.t, twilio, call);
  return { callId: call.id, client: await TwilioMediaClient.connect(mediaStreamUrl(app.t), token) };
}

describe("a pipeline call transcribed by Deepgram live streaming", () => {
  let app: { t: TestApp; owner: TestAccount; number: PhoneNumber };

  beforeAll(async () => {
    app = await voiceApp({
      VOXGATE_STT_PROVIDER: "deepgram",
      VOXGATE_DEEPGRAM_URL: deepgram.url,
      VOXGATE_DEEPGRAM_API_KEY: "dg-key",
    });
  });

  afterAll(async () => {
    await app?.t.close();
  });

  it("answers on the provider's final transcript, without a batch transcription", async () => {
    const assistant = await createAssistant(app.t, app.owner, { phoneNumberId: app.number.id });
    const { callId, client } = await answeredCall(app, assistant);
    await client.waitFor((received) => marks(received) >= 2);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Hello! How can I help?"));
    const batch = speech.transcriptions.length;

    client.speak("what time is it");
    await client.waitFor((received) => marks(received) >= 3);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: what time is it"));
    const stream = deepgram.streams.at(-1)!;
    expect(stream.query).toMatchObject({ encoding: "mulaw", sample_rate: "8000", interim_results: "true" });
    expect(stream.finals).toEqual(["what time is it"]);
    expect(speech.transcriptions.length).toBe(batch);
    await eventually(async () =>
      expect((await reload(app.t, callId)).transcript).toBe(
        "Assistant: Hello! How can I help?\nCustomer: what time is it\nAssistant: Echo: what time is it",
      ),
    );
    // The turn's stages were timed from the streaming transcript.
    const turns = await app.t.app.db.prisma.callTurn.findMany({ where: { callId }, orderBy: { id: "asc" } });
    const answer = turns.at(-1)!;
    expect(answer.transcriptAt).not.toBeNull();
    expect(answer.firstAudioAt!.getTime()).toBeGreaterThanOrEqual(answer.transcriptAt!.getTime());

    client.close();
    // The call over, the stream is closed as Deepgram documents.
    await eventually(() => expect(stream.controls.at(-1)).toEqual({ type: "CloseStream" }));
  });

  it("counts min_interrupt_words on the streamed words: a backchannel does not stop the assistant", async () => {
    const assistant = await createAssistant(app.t, app.owner, {
      initialMessage: THREE_SENTENCES,
      phoneNumberId: app.number.id,
      interruptSensitivity: 1,
      minInterruptWords: 2,
    });
    const { callId, client } = await answeredCall(app, assistant);
    client.autoAckMarks = false;
    await client.waitFor((received) => marks(received) >= 3);
    client.ackMarks(1);
    const batch = speech.transcriptions.length;
    const stream = deepgram.streams.at(-1)!;
    client.speak("mhm");
    await eventually(() => expect(stream.finals).toContain("mhm"));
    expect(client.received.some((message) => message.event === "clear")).toBe(false);
    client.speak("wait a moment");
    await client.waitFor((received) => received.some((message) => message.event === "clear"));
    client.autoAckMarks = true;
    await eventually(async () =>
      expect((await reload(app.t, callId)).transcript).toMatch(
        /^Assistant: One two three\.\nCustomer: mhm\n/,
      ),
    );
    // Every word was counted on the stream: no batch request.
    expect(speech.transcriptions.length).toBe(batch);
    client.close();
  });

  it("falls back to batch speech-to-text when the stream dies mid-call, and the call goes on", async () => {
    const assistant = await createAssistant(app.t, app.owner, { phoneNumberId: app.number.id });
    const { callId, client } = await answeredCall(app, assistant);
    await client.waitFor((received) => marks(received) >= 2);
    client.takeSpeech();
    client.speak("first question");
    await client.waitFor((received) => marks(received) >= 3);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: first question"));
    const batch = speech.transcriptions.length;

    // Deepgram drops the connection as the caller starts the next sentence.
    deepgram.dieOnNextSpeech();
    client.speak("are you there");
    await client.waitFor((received) => marks(received) >= 4);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: are you there"));
    expect(speech.transcriptions.slice(batch)).toEqual(["are you there"]);

    client.speak("still here");
    await client.waitFor((received) => marks(received) >= 5);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: still here"));
    expect(speech.transcriptions.slice(batch)).toEqual(["are you there", "still here"]);
    expect((await reload(app.t, callId)).status).toBe("in_progress");
    client.close();
  });

  it("transcribes whole the turn the stream lost before its final result", async () => {
    const assistant = await createAssistant(app.t, app.owner, { phoneNumberId: app.number.id });
    const { client } = await answeredCall(app, assistant);
    await client.waitFor((received) => marks(received) >= 2);
    client.takeSpeech();
    const batch = speech.transcriptions.length;
    // The caller finished the sentence; Deepgram drops the connection instead of its final result.
    deepgram.dieBeforeNextFinal();
    client.speak("call me back");
    await client.waitFor((received) => marks(received) >= 3);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: call me back"));
    expect(speech.transcriptions.slice(batch)).toEqual(["call me back"]);
    expect(deepgram.streams.at(-1)!.finals).toEqual([]);
    client.close();
  });
});

describe("a pipeline call transcribed by OpenAI realtime transcription", () => {
  let app: { t: TestApp; owner: TestAccount; number: PhoneNumber };

  beforeAll(async () => {
    app = await voiceApp({
      VOXGATE_STT_PROVIDER: "openai-realtime",
      OPENAI_REALTIME_BASE_URL: transcription.baseUrl,
    });
  });

  afterAll(async () => {
    await app?.t.close();
  });

  it("answers on the completed transcription of each utterance, without a batch transcription", async () => {
    const assistant = await createAssistant(app.t, app.owner, { phoneNumberId: app.number.id });
    const { callId, client } = await answeredCall(app, assistant);
    await client.waitFor((received) => marks(received) >= 2);
    client.takeSpeech();
    const batch = speech.transcriptions.length;
    client.speak("book a table");
    await client.waitFor((received) => marks(received) >= 3);
    expect(client.takeSpeech().replace(/\s+/g, "")).toBe(heard("Echo: book a table"));
    const session = transcription.sessions.at(-1)!;
    expect(session.intent).toBe("transcription");
    expect(session.received[0]).toMatchObject({
      type: "session.update",
      session: { type: "transcription", audio: { input: { format: { type: "audio/pcmu" } } } },
    });
    expect(speech.transcriptions.length).toBe(batch);
    await eventually(async () =>
      expect((await reload(app.t, callId)).transcript).toContain(
        "Customer: book a table\nAssistant: Echo: book a table",
      ),
    );
    client.close();
  });
});
