import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeCartesia, startFakeCartesia } from "../../../test/support/fake-cartesia.ts";
import { type FakeElevenLabs, startFakeElevenLabs } from "../../../test/support/fake-elevenlabs.ts";
import { decodeTones, toneText } from "../../../test/support/fake-speech.ts";
import { UpstreamFailedError } from "../../errors.ts";
import { pcmFromBytes } from "../media/index.ts";
import type { SpeechChunk, SpeechStream } from "./speech.ts";
import { CartesiaSynthesizer, ElevenLabsSynthesizer } from "./streaming-speech.ts";

let elevenlabs: FakeElevenLabs;
let cartesia: FakeCartesia;

beforeAll(async () => {
  [elevenlabs, cartesia] = await Promise.all([startFakeElevenLabs(), startFakeCartesia()]);
});

afterAll(async () => {
  await Promise.all([elevenlabs?.close(), cartesia?.close()]);
});

const options = () => ({ voice: "voice-1", speed: 1.1, signal: new AbortController().signal });

const readers = new WeakMap<SpeechStream, AsyncIterator<SpeechChunk>>();

/** Reads chunks until `until` says stop (or the stream ends); the next read goes on from there. */
async function read(stream: SpeechStream, until: (chunks: SpeechChunk[]) => boolean = () => false) {
  let reader = readers.get(stream);
  if (!reader) {
    reader = stream.audio[Symbol.asyncIterator]();
    readers.set(stream, reader);
  }
  const chunks: SpeechChunk[] = [];
  for (;;) {
    const next = await reader.next();
    if (next.done) return chunks;
    chunks.push(next.value);
    if (until(chunks)) return chunks;
  }
}

const spoken = (chunks: SpeechChunk[]) =>
  decodeTones(pcmFromBytes(Buffer.concat(chunks.map((chunk) => chunk.audio))), 24_000);
const squash = (text: string) => toneText(text).replace(/\s+/g, "");

describe("ElevenLabs input streaming", () => {
  const synthesizer = () =>
    new ElevenLabsSynthesizer({
      baseUrl: elevenlabs.baseUrl,
      apiKey: elevenlabs.apiKey,
      model: "eleven_flash_v2_5",
    });

  it("opens with the voice settings, streams text, speaks at each flush, and ends with isFinal", async () => {
    const stream = await synthesizer().open(options());
    stream.pushText("Hello ");
    stream.pushText("there.");
    stream.flush();
    // The first sentence is spoken before the rest of the text exists.
    const [first] = await read(stream, (chunks) => chunks.length === 1);
    expect(first!.text).toBe("Hello there. ");
    stream.pushText(" Bye now.");
    stream.end();
    const rest = await read(stream);
    expect(squash(spoken([first!, ...rest]))).toBe(squash("Hello there. Bye now."));
    const recorded = elevenlabs.streams.at(-1)!;
    expect(recorded.voiceId).toBe("voice-1");
    expect(Object.fromEntries(recorded.query)).toEqual({
      model_id: "eleven_flash_v2_5",
      output_format: "pcm_24000",
    });
    expect(recorded.messages).toEqual([
      { text: " ", voice_settings: { stability: 0.5, similarity_boost: 0.8, speed: 1.1 } },
      { text: "Hello ", try_trigger_generation: true },
      { text: "there.", try_trigger_generation: true },
      { text: " ", flush: true },
      { text: " Bye now.", try_trigger_generation: true },
      { text: "" },
    ]);
    expect(recorded.closedEarly).toBe(false);
  });

  it("cancel drops the stream; a wrong key or a dropped socket fails as the provider's failure", async () => {
    const stream = await synthesizer().open(options());
    stream.pushText("One two three. Four five six.");
    stream.cancel();
    expect(await read(stream)).toEqual([]);
    await expect.poll(() => elevenlabs.streams.at(-1)!.closedEarly).toBe(true);

    const refused = new ElevenLabsSynthesizer({ baseUrl: elevenlabs.baseUrl, apiKey: "wrong", model: "m" });
    await expect(refused.open(options())).rejects.toBeInstanceOf(UpstreamFailedError);

    elevenlabs.dieAfterAudio(1);
    try {
      const dying = await synthesizer().open(options());
      dying.pushText("One two three.");
      dying.flush();
      dying.pushText(" Four five six.");
      dying.flush();
      const chunks: SpeechChunk[] = [];
      await expect(
        (async () => {
          for await (const chunk of dying.audio) chunks.push(chunk);
        })(),
      ).rejects.toBeInstanceOf(UpstreamFailedError);
      expect(chunks.map((chunk) => chunk.text)).toEqual(["One two three. "]);
    } finally {
      elevenlabs.dieAfterAudio(null);
    }
  });
});

describe("Cartesia WebSocket continuations", () => {
  const synthesizer = () =>
    new CartesiaSynthesizer({
      baseUrl: cartesia.baseUrl,
      apiKey: cartesia.apiKey,
      model: "sonic-2",
      version: "2024-11-13",
    });

  it("streams the text as continuations of one context and ends it with an empty transcript", async () => {
    const stream = await synthesizer().open(options());
    stream.pushText("Hello there.");
    stream.pushText(" Bye");
    const [first] = await read(stream, (chunks) => chunks.length === 1);
    expect(first!.text).toBe("Hello there. ");
    stream.pushText(" now.");
    stream.end();
    const rest = await read(stream);
    expect(squash(spoken([first!, ...rest]))).toBe(squash("Hello there. Bye now."));
    expect(Object.fromEntries(cartesia.connections.at(-1)!)).toEqual({
      api_key: cartesia.apiKey,
      cartesia_version: "2024-11-13",
    });
    const context = cartesia.contexts.at(-1)!;
    const settings = {
      model_id: "sonic-2",
      voice: { mode: "id", id: "voice-1" },
      output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: 24_000 },
      context_id: context.id,
      add_timestamps: true,
    };
    expect(context.inputs).toEqual([
      { ...settings, transcript: "Hello there.", continue: true },
      { ...settings, transcript: " Bye", continue: true },
      { ...settings, transcript: " now.", continue: true },
      { ...settings, transcript: "", continue: false },
    ]);
    expect(context.done).toBe(true);
  });

  it("cancel cancels the context; a wrong key fails as the provider's failure", async () => {
    const before = cartesia.contexts.length;
    const stream = await synthesizer().open(options());
    stream.pushText("One two three");
    stream.cancel();
    expect(await read(stream)).toEqual([]);
    await expect.poll(() => cartesia.contexts[before]?.cancelled).toBe(true);
    const context = cartesia.contexts[before]!;
    expect(context.inputs.map((input) => input.transcript ?? "cancel")).toEqual(["One two three", "cancel"]);
    expect(context.inputs.at(-1)).toEqual({ context_id: context.id, cancel: true });

    const refused = new CartesiaSynthesizer({
      baseUrl: cartesia.baseUrl,
      apiKey: "wrong",
      model: "sonic-2",
      version: "2024-11-13",
    });
    await expect(refused.open(options())).rejects.toBeInstanceOf(UpstreamFailedError);
  });
});
