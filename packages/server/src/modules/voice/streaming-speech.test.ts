import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeCartesia, startFakeCartesia } from "../../../test/support/fake-cartesia.ts";
import { type FakeElevenLabs, startFakeElevenLabs } from "../../../test/support/fake-elevenlabs.ts";
import { decodeTones, toneText } from "../../../test/support/fake-speech.ts";
import { UpstreamFailedError } from "../../errors.ts";
import { muLawToPcm, PHONE_FORMAT, pcmFromBytes, WEB_FORMAT } from "../media/index.ts";
import type { SpeechChunk, SpeechFormat, SpeechStream } from "./speech.ts";
import { CartesiaSynthesizer, ElevenLabsSynthesizer } from "./streaming-speech.ts";

let elevenlabs: FakeElevenLabs;
let cartesia: FakeCartesia;

beforeAll(async () => {
  [elevenlabs, cartesia] = await Promise.all([startFakeElevenLabs(), startFakeCartesia()]);
});

afterAll(async () => {
  await Promise.all([elevenlabs?.close(), cartesia?.close()]);
});

const signal = () => new AbortController().signal;
const callOptions = (format: SpeechFormat = WEB_FORMAT) => ({ voice: "voice-1", speed: 1.1, format });

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

const bytesOf = (chunks: SpeechChunk[]) => Buffer.concat(chunks.map((chunk) => chunk.audio));
/** Tone speech read back from chunks in `format`. */
const spoken = (chunks: SpeechChunk[], format: SpeechFormat = WEB_FORMAT) =>
  format.encoding === "pcmu"
    ? decodeTones(muLawToPcm(bytesOf(chunks)), format.sampleRate)
    : decodeTones(pcmFromBytes(bytesOf(chunks)), format.sampleRate);
const squash = (text: string) => toneText(text).replace(/\s+/g, "");

describe("ElevenLabs multi-context WebSocket", () => {
  const synthesizer = () =>
    new ElevenLabsSynthesizer({
      baseUrl: elevenlabs.baseUrl,
      apiKey: elevenlabs.apiKey,
      model: "eleven_flash_v2_5",
    });

  it("serves a call's answers on one socket, a context each: voice settings, text, a flush per sentence, close_context", async () => {
    const connectionsBefore = elevenlabs.connections.length;
    const connection = synthesizer().connect(callOptions());
    const first = await connection.open(signal());
    first.pushText("Hello ");
    first.pushText("there.");
    first.flush();
    // The first sentence is spoken before the rest of the text exists.
    const [opening] = await read(first, (chunks) => chunks.length === 1);
    expect(opening!.text).toBe("Hello there.");
    first.pushText(" Bye now.");
    first.end();
    const rest = await read(first);
    expect(squash(spoken([opening!, ...rest]))).toBe(squash("Hello there. Bye now."));
    const second = await connection.open(signal());
    second.pushText("See you soon.");
    second.end();
    expect(squash(spoken(await read(second)))).toBe(squash("See you soon."));
    // One upgrade for both answers, asked for the browser's own format.
    expect(elevenlabs.connections.length).toBe(connectionsBefore + 1);
    const upgrade = elevenlabs.connections.at(-1)!;
    expect(upgrade.voiceId).toBe("voice-1");
    expect(Object.fromEntries(upgrade.query)).toEqual({
      model_id: "eleven_flash_v2_5",
      output_format: "pcm_16000",
      inactivity_timeout: "180",
    });
    const [a, b] = elevenlabs.contexts.slice(-2);
    expect(a!.connection).toBe(b!.connection);
    expect(a!.id).not.toBe(b!.id);
    const id = a!.id;
    expect(a!.messages).toEqual([
      { text: " ", voice_settings: { stability: 0.5, similarity_boost: 0.8, speed: 1.1 }, context_id: id },
      { text: "Hello ", context_id: id },
      { text: "there.", context_id: id },
      { text: "", flush: true, context_id: id },
      { text: " Bye now.", context_id: id },
      { text: "", flush: true, context_id: id },
      { close_context: true, context_id: id },
    ]);
    expect([a!.closed, b!.closed]).toEqual([true, true]);
    // The call's end says goodbye and lets go of the socket.
    connection.close();
    await expect.poll(() => elevenlabs.openConnections).toBe(0);
  });

  it("asks for 8 kHz mu-law on phone calls and hands the provider's bytes over as they came", async () => {
    const connection = synthesizer().connect(callOptions(PHONE_FORMAT));
    expect(connection.outputFormat).toEqual(PHONE_FORMAT);
    const stream = await connection.open(signal());
    stream.pushText("One two three.");
    stream.end();
    const chunks = await read(stream);
    expect(elevenlabs.connections.at(-1)!.query.get("output_format")).toBe("ulaw_8000");
    expect(bytesOf(chunks).equals(Buffer.concat(elevenlabs.contexts.at(-1)!.audio))).toBe(true);
    expect(squash(spoken(chunks, PHONE_FORMAT))).toBe(squash("One two three."));
    connection.close();
  });

  it("a cancel closes only its context; the next answer speaks on the same socket", async () => {
    const connectionsBefore = elevenlabs.connections.length;
    const connection = synthesizer().connect(callOptions());
    const cancelled = await connection.open(signal());
    cancelled.pushText("One two three.");
    cancelled.cancel();
    expect(await read(cancelled)).toEqual([]);
    const next = await connection.open(signal());
    next.pushText("Four five six.");
    next.end();
    expect(squash(spoken(await read(next)))).toBe(squash("Four five six."));
    const [dropped, spokenContext] = elevenlabs.contexts.slice(-2);
    expect(dropped!.messages.map((message) => message.text ?? "close")).toEqual([
      " ",
      "One two three.",
      "close",
    ]);
    expect(dropped!.audioSent).toBe(0);
    expect(spokenContext!.audioSent).toBe(1);
    expect(elevenlabs.connections.length).toBe(connectionsBefore + 1);
    connection.close();
  });

  it("connects again when the provider closed the socket between answers; a wrong key or a socket dying mid-answer fails", async () => {
    const connectionsBefore = elevenlabs.connections.length;
    const connection = synthesizer().connect(callOptions());
    connection.warm();
    await expect.poll(() => elevenlabs.connections.length).toBe(connectionsBefore + 1);
    elevenlabs.dropConnections();
    await expect.poll(() => elevenlabs.openConnections).toBe(0);
    const stream = await connection.open(signal());
    stream.pushText("Still here now.");
    stream.end();
    expect(squash(spoken(await read(stream)))).toBe(squash("Still here now."));
    expect(elevenlabs.connections.length).toBe(connectionsBefore + 2);

    const refused = new ElevenLabsSynthesizer({ baseUrl: elevenlabs.baseUrl, apiKey: "wrong", model: "m" });
    await expect(refused.connect(callOptions()).open(signal())).rejects.toBeInstanceOf(UpstreamFailedError);

    elevenlabs.dieAfterAudio(1);
    try {
      const dying = await synthesizer().connect(callOptions()).open(signal());
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
      expect(chunks.map((chunk) => chunk.text)).toEqual(["One two three."]);
    } finally {
      elevenlabs.dieAfterAudio(null);
    }
    connection.close();
  });
});

describe("Cartesia WebSocket contexts and continuations", () => {
  const synthesizer = () =>
    new CartesiaSynthesizer({
      baseUrl: cartesia.baseUrl,
      apiKey: cartesia.apiKey,
      model: "sonic-2",
      version: "2024-11-13",
    });

  it("streams each answer as continuations of its own context, all on one socket", async () => {
    const connectionsBefore = cartesia.connections.length;
    const connection = synthesizer().connect(callOptions());
    const stream = await connection.open(signal());
    stream.pushText("Hello there.");
    stream.pushText(" Bye");
    const [first] = await read(stream, (chunks) => chunks.length === 1);
    expect(first!.text).toBe("Hello there. ");
    stream.pushText(" now.");
    stream.end();
    const rest = await read(stream);
    expect(squash(spoken([first!, ...rest]))).toBe(squash("Hello there. Bye now."));
    const second = await connection.open(signal());
    second.pushText("See you soon.");
    second.end();
    expect(squash(spoken(await read(second)))).toBe(squash("See you soon."));
    expect(cartesia.connections.length).toBe(connectionsBefore + 1);
    expect(Object.fromEntries(cartesia.connections.at(-1)!)).toEqual({
      api_key: cartesia.apiKey,
      cartesia_version: "2024-11-13",
    });
    const [context, next] = cartesia.contexts.slice(-2);
    expect(next!.connection).toBe(context!.connection);
    const settings = {
      model_id: "sonic-2",
      voice: { mode: "id", id: "voice-1" },
      output_format: { container: "raw", encoding: "pcm_s16le", sample_rate: 16_000 },
      context_id: context!.id,
      add_timestamps: true,
    };
    expect(context!.inputs).toEqual([
      { ...settings, transcript: "Hello there.", continue: true },
      { ...settings, transcript: " Bye", continue: true },
      { ...settings, transcript: " now.", continue: true },
      { ...settings, transcript: "", continue: false },
    ]);
    expect([context!.done, next!.done]).toEqual([true, true]);
    connection.close();
    await expect.poll(() => cartesia.openConnections).toBe(0);
  });

  it("asks for pcm_mulaw at 8 kHz on phone calls and hands the provider's bytes over as they came", async () => {
    const connection = synthesizer().connect(callOptions(PHONE_FORMAT));
    const stream = await connection.open(signal());
    stream.pushText("One two three.");
    stream.end();
    const chunks = await read(stream);
    const context = cartesia.contexts.at(-1)!;
    expect(context.inputs[0]).toMatchObject({
      output_format: { container: "raw", encoding: "pcm_mulaw", sample_rate: 8000 },
    });
    expect(bytesOf(chunks).equals(Buffer.concat(context.audio))).toBe(true);
    expect(squash(spoken(chunks, PHONE_FORMAT))).toBe(squash("One two three."));
    connection.close();
  });

  it("a cancel drops only its context; a dropped socket is connected again; a wrong key fails", async () => {
    const connectionsBefore = cartesia.connections.length;
    const contextsBefore = cartesia.contexts.length;
    const connection = synthesizer().connect(callOptions());
    const stream = await connection.open(signal());
    stream.pushText("One two three");
    stream.cancel();
    expect(await read(stream)).toEqual([]);
    await expect.poll(() => cartesia.contexts[contextsBefore]?.cancelled).toBe(true);
    const context = cartesia.contexts[contextsBefore]!;
    expect(context.inputs.map((input) => input.transcript ?? "cancel")).toEqual(["One two three", "cancel"]);
    expect(context.inputs.at(-1)).toEqual({ context_id: context.id, cancel: true });
    const next = await connection.open(signal());
    next.pushText("Four five six.");
    next.end();
    expect(squash(spoken(await read(next)))).toBe(squash("Four five six."));
    expect(cartesia.connections.length).toBe(connectionsBefore + 1);

    cartesia.dropConnections();
    await expect.poll(() => cartesia.openConnections).toBe(0);
    const again = await connection.open(signal());
    again.pushText("Seven eight nine.");
    again.end();
    expect(squash(spoken(await read(again)))).toBe(squash("Seven eight nine."));
    expect(cartesia.connections.length).toBe(connectionsBefore + 2);
    connection.close();

    const refused = new CartesiaSynthesizer({
      baseUrl: cartesia.baseUrl,
      apiKey: "wrong",
      model: "sonic-2",
      version: "2024-11-13",
    });
    await expect(refused.connect(callOptions()).open(signal())).rejects.toBeInstanceOf(UpstreamFailedError);
  });
});
