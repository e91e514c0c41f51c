import { randomUUID } from "node:crypto";
import WebSocket from "ws";
import type { Config } from "../../env.ts";
import { UpstreamFailedError } from "../../errors.ts";
import type { SpeechChunk, SpeechFormat, SpeechStream, StreamingSynthesizer } from "./speech.ts";

/**
 * Both providers are asked for 24 kHz 16-bit PCM, the rate of OpenAI's speech: the session's
 * converter takes whole triples of samples, which 24 kHz turns into 8 kHz and 16 kHz frames exactly.
 */
const STREAM_FORMAT: SpeechFormat = { encoding: "pcm16", sampleRate: 24_000 };

/** Silence from a provider that has all of an answer's text, after which its stream counts as failed. */
const STALL_MS = 10_000;

export interface ElevenLabsConfig {
  /** wss://api.elevenlabs.io (a local fake in tests). */
  baseUrl: string;
  apiKey: string;
  model: string;
}

export interface CartesiaConfig {
  /** wss://api.cartesia.ai (a local fake in tests). */
  baseUrl: string;
  apiKey: string;
  model: string;
  version: string;
}

/**
 * Chunks handed from a socket's messages to the one reader of `audio`: pushed as they come,
 * ended (or failed) once, read in order.
 */
class ChunkQueue {
  private readonly chunks: SpeechChunk[] = [];
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private stall: NodeJS.Timeout | null = null;

  /** `provider` names the provider in the failure of a stream that stalls once its text is complete. */
  constructor(
    private readonly provider: string,
    private readonly stallMs: number,
    private readonly onStall: () => void,
  ) {}

  push(chunk: SpeechChunk) {
    if (this.ended) return;
    this.chunks.push(chunk);
    if (this.stall) this.watch();
    this.notify();
  }

  /**
   * All the text was sent: from now on the provider owes audio, and silence past `stallMs` fails the
   * stream (the session then speaks the rest through its fallback) instead of holding the call.
   */
  watch() {
    if (this.ended) return;
    if (this.stall) clearTimeout(this.stall);
    this.stall = setTimeout(() => {
      this.end(new UpstreamFailedError(`${this.provider} text-to-speech stopped answering.`));
      this.onStall();
    }, this.stallMs);
  }

  end(failure?: Error) {
    if (this.ended) return;
    this.ended = true;
    if (this.stall) clearTimeout(this.stall);
    this.failure = failure ?? null;
    this.notify();
  }

  private notify() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async *read(): AsyncGenerator<SpeechChunk> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

/** Opens a socket, rejecting with `UpstreamFailedError` when it cannot (or `signal` aborts first). */
function connect(
  url: string,
  headers: Record<string, string>,
  provider: string,
  signal: AbortSignal,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, handshakeTimeout: 10_000 });
    const abort = () => socket.terminate();
    signal.addEventListener("abort", abort, { once: true });
    socket.once("open", () => {
      signal.removeEventListener("abort", abort);
      resolve(socket);
    });
    socket.once("error", () => {
      signal.removeEventListener("abort", abort);
      reject(new UpstreamFailedError(`${provider} text-to-speech could not be reached.`));
    });
  });
}

/**
 * ElevenLabs' input-streaming WebSocket (`/v1/text-to-speech/{voice_id}/stream-input`): one
 * socket per answer. The first message opens the stream (`text: " "` with the voice settings),
 * text follows as the model writes it with `try_trigger_generation`, `flush` at a sentence's end
 * makes it speak what it holds, and `text: ""` ends it; audio comes back base64 with the
 * characters it voices (`alignment`) until `isFinal`. ElevenLabs has no cancel on this endpoint:
 * closing the socket drops the rest.
 */
export class ElevenLabsSynthesizer implements StreamingSynthesizer {
  readonly name = "elevenlabs";
  readonly outputFormat = STREAM_FORMAT;

  constructor(private readonly config: ElevenLabsConfig) {}

  async open(options: { voice: string; speed: number; signal: AbortSignal }): Promise<SpeechStream> {
    const query = new URLSearchParams({
      model_id: this.config.model,
      output_format: `pcm_${STREAM_FORMAT.sampleRate}`,
    });
    const url = `${this.config.baseUrl}/v1/text-to-speech/${encodeURIComponent(options.voice)}/stream-input?${query}`;
    const socket = await connect(url, { "xi-api-key": this.config.apiKey }, "ElevenLabs", options.signal);
    const queue = new ChunkQueue("ElevenLabs", STALL_MS, () => socket.terminate());
    const send = (message: Record<string, unknown>) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    socket.on("message", (data) => {
      const message = parseJson(data) as {
        audio?: unknown;
        isFinal?: unknown;
        alignment?: { chars?: unknown } | null;
        error?: unknown;
        message?: unknown;
      } | null;
      if (!message) return;
      if (typeof message.error === "string") {
        queue.end(new UpstreamFailedError(`ElevenLabs text-to-speech failed: ${message.error}.`));
        socket.close();
        return;
      }
      if (typeof message.audio === "string" && message.audio) {
        const chars = message.alignment?.chars;
        queue.push({
          audio: new Uint8Array(Buffer.from(message.audio, "base64")),
          text: Array.isArray(chars) ? chars.join("") : "",
        });
      }
      if (message.isFinal === true) {
        queue.end();
        socket.close();
      }
    });
    socket.on("close", () =>
      queue.end(new UpstreamFailedError("ElevenLabs text-to-speech closed the stream before its end.")),
    );
    socket.on("error", () => queue.end(new UpstreamFailedError("ElevenLabs text-to-speech failed.")));
    send({
      text: " ",
      voice_settings: { stability: 0.5, similarity_boost: 0.8, speed: options.speed },
    });
    let cancelled = false;
    const cancel = () => {
      if (cancelled) return;
      cancelled = true;
      queue.end();
      socket.close();
    };
    options.signal.addEventListener("abort", cancel, { once: true });
    return {
      pushText: (delta) => {
        if (delta) send({ text: delta, try_trigger_generation: true });
      },
      flush: () => send({ text: " ", flush: true }),
      end: () => {
        send({ text: "" });
        queue.watch();
      },
      cancel,
      audio: queue.read(),
    };
  }
}

/**
 * Cartesia's TTS WebSocket (`/tts/websocket`): one socket and one context per answer. Every input
 * repeats the context's settings with its piece of transcript and `continue: true` (a continuation
 * keeps the prosody of one line); an empty transcript with `continue: false` ends it, and
 * `cancel: true` drops it. Audio comes back as base64 `chunk`s, the words as `timestamps` (asked
 * with `add_timestamps`), then `done`.
 */
export class CartesiaSynthesizer implements StreamingSynthesizer {
  readonly name = "cartesia";
  readonly outputFormat = STREAM_FORMAT;

  constructor(private readonly config: CartesiaConfig) {}

  async open(options: { voice: string; speed: number; signal: AbortSignal }): Promise<SpeechStream> {
    const query = new URLSearchParams({
      api_key: this.config.apiKey,
      cartesia_version: this.config.version,
    });
    const socket = await connect(
      `${this.config.baseUrl}/tts/websocket?${query}`,
      {},
      "Cartesia",
      options.signal,
    );
    const contextId = randomUUID();
    const queue = new ChunkQueue("Cartesia", STALL_MS, () => socket.terminate());
    // Words arrive in their own messages: they go with the next audio chunk (or the end).
    let words = "";
    const send = (message: Record<string, unknown>) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    };
    socket.on("message", (data) => {
      const message = parseJson(data) as {
        type?: unknown;
        context_id?: unknown;
        data?: unknown;
        error?: unknown;
        word_timestamps?: { words?: unknown } | null;
      } | null;
      if (!message || message.context_id !== contextId) return;
      if (message.type === "timestamps" && Array.isArray(message.word_timestamps?.words)) {
        words += message.word_timestamps.words.map((word) => `${String(word)} `).join("");
      } else if (message.type === "chunk" && typeof message.data === "string") {
        queue.push({ audio: new Uint8Array(Buffer.from(message.data, "base64")), text: words });
        words = "";
      } else if (message.type === "error") {
        queue.end(new UpstreamFailedError(`Cartesia text-to-speech failed: ${String(message.error)}.`));
        socket.close();
      } else if (message.type === "done") {
        if (words) queue.push({ audio: new Uint8Array(0), text: words });
        queue.end();
        socket.close();
      }
    });
    socket.on("close", () =>
      queue.end(new UpstreamFailedError("Cartesia text-to-speech closed the stream before its end.")),
    );
    socket.on("error", () => queue.end(new UpstreamFailedError("Cartesia text-to-speech failed.")));
    const input = (transcript: string, more: boolean) =>
      send({
        model_id: this.config.model,
        transcript,
        voice: { mode: "id", id: options.voice },
        output_format: {
          container: "raw",
          encoding: "pcm_s16le",
          sample_rate: STREAM_FORMAT.sampleRate,
        },
        context_id: contextId,
        continue: more,
        add_timestamps: true,
      });
    let cancelled = false;
    const cancel = () => {
      if (cancelled) return;
      cancelled = true;
      send({ context_id: contextId, cancel: true });
      queue.end();
      socket.close();
    };
    options.signal.addEventListener("abort", cancel, { once: true });
    return {
      pushText: (delta) => {
        if (delta) input(delta, true);
      },
      // Cartesia buffers a continuation's text itself until it can speak it well (`max_buffer_delay_ms`).
      flush: () => {},
      end: () => {
        input("", false);
        queue.watch();
      },
      cancel,
      audio: queue.read(),
    };
  }
}

function parseJson(data: WebSocket.RawData): unknown {
  try {
    return JSON.parse(String(data));
  } catch {
    return null;
  }
}

/** The streaming voices a deployment configured (a key each), for the composition root. */
export function streamingSynthesizers(
  config: Config["voice"],
): { synthesizer: StreamingSynthesizer; defaultVoice: string | undefined }[] {
  const { elevenlabs, cartesia } = config.streamingTts;
  return [
    ...(elevenlabs
      ? [{ synthesizer: new ElevenLabsSynthesizer(elevenlabs), defaultVoice: elevenlabs.voiceId }]
      : []),
    ...(cartesia ? [{ synthesizer: new CartesiaSynthesizer(cartesia), defaultVoice: cartesia.voiceId }] : []),
  ];
}
