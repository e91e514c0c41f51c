import { randomUUID } from "node:crypto";
import type { Config } from "../../env.ts";
import { UpstreamFailedError } from "../../errors.ts";
import type { SpeechConnection, SpeechFormat, StreamingSynthesizer } from "./speech.ts";
import { ChunkQueue, ContextSocket, dial } from "./tts-socket.ts";

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

/** The stream's format as ElevenLabs names it: 8 kHz mu-law for phones, PCM at the rate otherwise. */
function elevenLabsFormat(format: SpeechFormat): string {
  return format.encoding === "pcmu" ? `ulaw_${format.sampleRate}` : `pcm_${format.sampleRate}`;
}

/** The stream's format as Cartesia's `output_format` names it. */
function cartesiaFormat(format: SpeechFormat) {
  return {
    container: "raw",
    encoding: format.encoding === "pcmu" ? "pcm_mulaw" : "pcm_s16le",
    sample_rate: format.sampleRate,
  };
}

/** Contexts ElevenLabs keeps without input before closing them itself (its maximum), in seconds. */
const ELEVENLABS_INACTIVITY_S = 180;

/**
 * ElevenLabs' multi-context WebSocket (`/v1/text-to-speech/{voice_id}/multi-stream-input`): one
 * socket per call, one context per answer. A context opens with `text: " "` and the voice
 * settings, text follows as the model writes it, `flush` at a sentence's end makes it speak what it
 * holds, and `close_context` after a last flush ends it once that is spoken (`isFinal`). Audio
 * comes back base64 with the characters it voices (`alignment`) and the `contextId`. A barge-in
 * closes the context without a flush: its unspoken text is dropped, and what it still sends is
 * ignored. The call's end sends `close_socket`.
 */
export class ElevenLabsSynthesizer implements StreamingSynthesizer {
  readonly name = "elevenlabs";

  constructor(private readonly config: ElevenLabsConfig) {}

  connect(options: { voice: string; speed: number; format: SpeechFormat }): SpeechConnection {
    const query = new URLSearchParams({
      model_id: this.config.model,
      output_format: elevenLabsFormat(options.format),
      inactivity_timeout: String(ELEVENLABS_INACTIVITY_S),
    });
    const url = `${this.config.baseUrl}/v1/text-to-speech/${encodeURIComponent(options.voice)}/multi-stream-input?${query}`;
    const socket = new ContextSocket(
      "ElevenLabs",
      () => dial(url, { "xi-api-key": this.config.apiKey }, "ElevenLabs"),
      (message) => message.contextId ?? message.context_id,
      { close_socket: true },
    );
    return {
      outputFormat: options.format,
      warm: () => socket.warm(),
      close: () => socket.close(),
      open: async (signal) => {
        await socket.ready(signal);
        const contextId = randomUUID();
        const queue = new ChunkQueue("ElevenLabs", STALL_MS, () => socket.drop());
        let live = true;
        // Once over (spoken, failed or cancelled) the context is forgotten: a later abort of the
        // same signal (the next barge-in) says nothing to the provider about it.
        const finish = (failure?: Error) => {
          if (!live) return;
          live = false;
          socket.remove(contextId);
          signal.removeEventListener("abort", cancel);
          queue.end(failure);
        };
        socket.add(contextId, {
          message: (message) => {
            if (typeof message.error === "string") {
              finish(new UpstreamFailedError(`ElevenLabs text-to-speech failed: ${message.error}.`));
              return;
            }
            if (typeof message.audio === "string" && message.audio) {
              const chars = (message.alignment as { chars?: unknown } | null | undefined)?.chars;
              queue.push({
                audio: new Uint8Array(Buffer.from(message.audio, "base64")),
                text: Array.isArray(chars) ? chars.join("") : "",
              });
            }
            if (message.isFinal === true || message.is_final === true) finish();
          },
          lost: (error) => finish(error),
        });
        const send = (message: Record<string, unknown>) => socket.send({ ...message, context_id: contextId });
        send({
          text: " ",
          voice_settings: { stability: 0.5, similarity_boost: 0.8, speed: options.speed },
        });
        function cancel() {
          if (!live) return;
          send({ close_context: true });
          finish();
        }
        signal.addEventListener("abort", cancel, { once: true });
        return {
          pushText: (delta) => {
            if (delta) send({ text: delta });
          },
          flush: () => send({ text: "", flush: true }),
          end: () => {
            send({ text: "", flush: true });
            send({ close_context: true });
            queue.watch();
          },
          cancel,
          audio: queue.read(),
        };
      },
    };
  }
}

/**
 * Cartesia's TTS WebSocket (`/tts/websocket`): one socket per call, one context per answer (the
 * socket multiplexes them). Every input repeats the context's settings with its piece of
 * transcript and `continue: true` (a continuation keeps the prosody of one line); an empty
 * transcript with `continue: false` ends it, and `cancel: true` drops it (a barge-in). Audio comes
 * back as base64 `chunk`s, the words as `timestamps` (asked with `add_timestamps`), then `done`.
 */
export class CartesiaSynthesizer implements StreamingSynthesizer {
  readonly name = "cartesia";

  constructor(private readonly config: CartesiaConfig) {}

  connect(options: { voice: string; speed: number; format: SpeechFormat }): SpeechConnection {
    const query = new URLSearchParams({
      api_key: this.config.apiKey,
      cartesia_version: this.config.version,
    });
    const socket = new ContextSocket(
      "Cartesia",
      () => dial(`${this.config.baseUrl}/tts/websocket?${query}`, {}, "Cartesia"),
      (message) => message.context_id,
      null,
    );
    const outputFormat = cartesiaFormat(options.format);
    return {
      outputFormat: options.format,
      warm: () => socket.warm(),
      close: () => socket.close(),
      open: async (signal) => {
        await socket.ready(signal);
        const contextId = randomUUID();
        const queue = new ChunkQueue("Cartesia", STALL_MS, () => socket.drop());
        // Words arrive in their own messages: they go with the next audio chunk (or the end).
        let words = "";
        let live = true;
        // Once over (spoken, failed or cancelled) the context is forgotten: a later abort of the
        // same signal (the next barge-in) says nothing to the provider about it.
        const finish = (failure?: Error) => {
          if (!live) return;
          live = false;
          socket.remove(contextId);
          signal.removeEventListener("abort", cancel);
          queue.end(failure);
        };
        socket.add(contextId, {
          message: (message) => {
            const timestamps = message.word_timestamps as { words?: unknown } | null | undefined;
            if (message.type === "timestamps" && Array.isArray(timestamps?.words)) {
              words += timestamps.words.map((word) => `${String(word)} `).join("");
            } else if (message.type === "chunk" && typeof message.data === "string") {
              queue.push({ audio: new Uint8Array(Buffer.from(message.data, "base64")), text: words });
              words = "";
            } else if (message.type === "error") {
              finish(new UpstreamFailedError(`Cartesia text-to-speech failed: ${String(message.error)}.`));
            } else if (message.type === "done") {
              if (words) queue.push({ audio: new Uint8Array(0), text: words });
              finish();
            }
          },
          lost: (error) => finish(error),
        });
        const input = (transcript: string, more: boolean) =>
          socket.send({
            model_id: this.config.model,
            transcript,
            voice: { mode: "id", id: options.voice },
            output_format: outputFormat,
            context_id: contextId,
            continue: more,
            add_timestamps: true,
          });
        function cancel() {
          if (!live) return;
          socket.send({ context_id: contextId, cancel: true });
          finish();
        }
        signal.addEventListener("abort", cancel, { once: true });
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
      },
    };
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
