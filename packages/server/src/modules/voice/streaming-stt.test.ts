import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type FakeDeepgram, startFakeDeepgram } from "../../../test/support/fake-deepgram.ts";
import {
  type FakeOpenAiTranscription,
  startFakeOpenAiTranscription,
} from "../../../test/support/fake-openai-transcription.ts";
import { synthesizeTones, toneText } from "../../../test/support/fake-speech.ts";
import { encodeAudio, frameBytes, type MediaFormat, PHONE_FORMAT, WEB_FORMAT } from "../media/index.ts";
import { DeepgramTranscriber } from "./deepgram-transcriber.ts";
import { OpenAiRealtimeTranscriber } from "./openai-realtime-transcriber.ts";
import type { TranscriptionEvents, TranscriptionStream } from "./speech.ts";

const eventually = <T>(check: () => T | Promise<T>) => vi.waitFor(check, { timeout: 10_000, interval: 10 });

let deepgram: FakeDeepgram;
let openai: FakeOpenAiTranscription;

beforeAll(async () => {
  [deepgram, openai] = await Promise.all([startFakeDeepgram(), startFakeOpenAiTranscription()]);
});

afterAll(async () => {
  await Promise.all([deepgram?.close(), openai?.close()]);
});

/** What a stream reported, in order. */
function recorder() {
  const heard = { interim: [] as string[], utterances: [] as string[], errors: [] as Error[] };
  const events: TranscriptionEvents = {
    onInterim: (text) => heard.interim.push(text),
    onUtterance: (text) => heard.utterances.push(text),
    onError: (error) => heard.errors.push(error),
  };
  return { heard, events };
}

/** Tone speech of `text` then `silenceMs` of silence, pushed as the carrier's 20 ms frames. */
function say(stream: TranscriptionStream, format: MediaFormat, text: string, silenceMs: number) {
  const speech = encodeAudio(format, synthesizeTones(text, format.sampleRate), format.sampleRate);
  const silence = encodeAudio(
    format,
    new Int16Array((format.sampleRate * silenceMs) / 1000),
    format.sampleRate,
  );
  const size = frameBytes(format);
  for (const audio of [speech, silence])
    for (let offset = 0; offset < audio.length; offset += size)
      stream.push(audio.slice(offset, offset + size));
}

const deepgramClient = (overrides: { url?: string; apiKey?: string; keepAliveMs?: number } = {}) =>
  new DeepgramTranscriber({
    url: deepgram.url,
    apiKey: "dg-key",
    model: "nova-3",
    timeoutSeconds: 5,
    keepAliveMs: 5000,
    ...overrides,
  });

describe("Deepgram live streaming", () => {
  it("streams a phone call's mu-law with the documented options and ends the utterance on speech_final", async () => {
    const { heard, events } = recorder();
    const stream = deepgramClient().open(
      { format: PHONE_FORMAT, language: "en", endpointingMs: 300 },
      events,
    );
    say(stream, PHONE_FORMAT, "hello there my friend", 600);
    await eventually(() => expect(heard.utterances).toEqual([toneText("hello there my friend")]));
    const server = deepgram.streams.at(-1)!;
    expect(server.headers.authorization).toBe("Token dg-key");
    expect(server.query).toMatchObject({
      encoding: "mulaw",
      sample_rate: "8000",
      channels: "1",
      model: "nova-3",
      interim_results: "true",
      endpointing: "300",
      utterance_end_ms: "1000",
      language: "en",
    });
    // Interim results came before the final one, growing toward it.
    expect(heard.interim.length).toBeGreaterThan(0);
    expect(toneText("hello there my friend").startsWith(heard.interim[0]!)).toBe(true);
    stream.close();
    await eventually(() => expect(server.controls).toEqual([{ type: "CloseStream" }]));
    expect(heard.errors).toEqual([]);
  });

  it("sends a browser's 16 kHz PCM as linear16 and keeps a quiet stream alive", async () => {
    const { heard, events } = recorder();
    const stream = deepgramClient({ keepAliveMs: 40 }).open(
      { format: WEB_FORMAT, language: null, endpointingMs: 200 },
      events,
    );
    say(stream, WEB_FORMAT, "two words", 400);
    await eventually(() => expect(heard.utterances).toEqual([toneText("two words")]));
    const server = deepgram.streams.at(-1)!;
    expect(server.query).toMatchObject({ encoding: "linear16", sample_rate: "16000" });
    expect(server.query.language).toBeUndefined();
    // No audio for a while: KeepAlive messages, not a closed stream.
    await eventually(() =>
      expect(server.controls.filter((c) => c.type === "KeepAlive").length).toBeGreaterThan(1),
    );
    stream.close();
    await eventually(() => expect(server.controls.at(-1)).toEqual({ type: "CloseStream" }));
    expect(heard.errors).toEqual([]);
  });

  it("reports a refused key, and a server that drops the stream, as one error", async () => {
    const refused = recorder();
    deepgramClient({ apiKey: "" }).open(
      { format: PHONE_FORMAT, language: null, endpointingMs: 300 },
      refused.events,
    );
    await eventually(() =>
      expect(refused.heard.errors.map((e) => e.message)).toEqual([
        expect.stringContaining("speech-to-text answered HTTP 401."),
      ]),
    );

    const dropped = recorder();
    const stream = deepgramClient().open(
      { format: PHONE_FORMAT, language: null, endpointingMs: 300 },
      dropped.events,
    );
    deepgram.dieOnNextSpeech();
    say(stream, PHONE_FORMAT, "are you there", 400);
    await eventually(() => expect(dropped.heard.errors).toHaveLength(1));
    expect(dropped.heard.utterances).toEqual([]);
    stream.close();
  });
});

const openaiClient = (dialect: "ga" | "beta") =>
  new OpenAiRealtimeTranscriber({
    baseUrl: openai.baseUrl.replace(/^http/, "ws"),
    apiKey: "sk-test",
    model: "gpt-4o-mini-transcribe",
    dialect,
    timeoutSeconds: 5,
  });

describe("OpenAI realtime transcription", () => {
  it("configures a GA transcription session for a phone's mu-law and streams the transcript of each utterance", async () => {
    const { heard, events } = recorder();
    const stream = openaiClient("ga").open(
      { format: PHONE_FORMAT, language: "en", endpointingMs: 300 },
      events,
    );
    say(stream, PHONE_FORMAT, "first thing", 600);
    say(stream, PHONE_FORMAT, "second one", 600);
    await eventually(() =>
      expect(heard.utterances).toEqual([toneText("first thing"), toneText("second one")]),
    );
    const server = openai.sessions.at(-1)!;
    expect(server.intent).toBe("transcription");
    expect(server.headers.authorization).toBe("Bearer sk-test");
    expect(server.received[0]).toEqual({
      type: "session.update",
      session: {
        type: "transcription",
        audio: {
          input: {
            format: { type: "audio/pcmu" },
            transcription: { model: "gpt-4o-mini-transcribe", language: "en" },
            turn_detection: { type: "server_vad", silence_duration_ms: 300, prefix_padding_ms: 300 },
          },
        },
      },
    });
    // The deltas built the interim text up to each utterance.
    expect(heard.interim).toContain(toneText("first thing"));
    // 60 ms per append.
    expect(Math.round(server.audioMs / server.appends)).toBe(60);
    stream.close();
    expect(heard.errors).toEqual([]);
  });

  it("speaks the beta dialect with a browser's audio raised to 24 kHz PCM", async () => {
    const { heard, events } = recorder();
    const stream = openaiClient("beta").open(
      { format: WEB_FORMAT, language: null, endpointingMs: 250 },
      events,
    );
    say(stream, WEB_FORMAT, "web caller", 600);
    await eventually(() => expect(heard.utterances).toEqual([toneText("web caller")]));
    const server = openai.sessions.at(-1)!;
    expect(server.headers["openai-beta"]).toBe("realtime=v1");
    expect(server.received[0]).toEqual({
      type: "transcription_session.update",
      session: {
        input_audio_format: "pcm16",
        input_audio_transcription: { model: "gpt-4o-mini-transcribe" },
        turn_detection: { type: "server_vad", silence_duration_ms: 250, prefix_padding_ms: 300 },
      },
    });
    stream.close();
    expect(heard.errors).toEqual([]);
  });
});
