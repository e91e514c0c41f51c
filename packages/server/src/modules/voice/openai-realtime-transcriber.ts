import { UpstreamFailedError } from "../../errors.ts";
import { pcmBytes, pcmFromBytes, resample } from "../media/index.ts";
import type {
  StreamingTranscriber,
  TranscriptionEvents,
  TranscriptionOptions,
  TranscriptionStream,
} from "./speech.ts";
import { TranscriptionSocket } from "./stt-socket.ts";

export interface OpenAiRealtimeTranscriptionConfig {
  /** The Realtime API base (`wss://api.openai.com/v1`); the stream is `{baseUrl}/realtime?intent=transcription`. */
  baseUrl: string;
  apiKey: string | undefined;
  /** The transcription model (OPENAI_TRANSCRIBE_MODEL). */
  model: string;
  /** GA: `session.update` with a `transcription` session; beta: `transcription_session.update`. */
  dialect: "ga" | "beta";
  timeoutSeconds: number;
}

/** Frames per `input_audio_buffer.append`: 60 ms, as the realtime sessions send (bench/voice). */
const FRAMES_PER_APPEND = 3;

/**
 * OpenAI's Realtime API as a transcription session: the caller's audio appended as it comes, the
 * server's VAD ending each utterance, its transcript streamed as deltas and then completed.
 */
export class OpenAiRealtimeTranscriber implements StreamingTranscriber {
  readonly name = "openai-realtime";

  constructor(private readonly config: OpenAiRealtimeTranscriptionConfig) {}

  open(options: TranscriptionOptions, events: TranscriptionEvents): TranscriptionStream {
    return new OpenAiTranscriptionStream(this.config, options, events);
  }
}

class OpenAiTranscriptionStream extends TranscriptionSocket {
  /** Interim text per conversation item (an utterance), as its deltas arrive. */
  private readonly partial = new Map<string, string>();
  private batch: Uint8Array[] = [];

  constructor(
    private readonly config: OpenAiRealtimeTranscriptionConfig,
    private readonly options: TranscriptionOptions,
    events: TranscriptionEvents,
  ) {
    super(
      `${config.baseUrl.replace(/\/+$/, "")}/realtime?intent=transcription`,
      {
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        ...(config.dialect === "beta" ? { "openai-beta": "realtime=v1" } : {}),
      },
      config.timeoutSeconds * 1000,
      events,
    );
  }

  protected opened() {
    const { model, dialect } = this.config;
    const { format, language, endpointingMs } = this.options;
    const phone = format.encoding === "pcmu";
    const transcription = { model, ...(language ? { language } : {}) };
    const turnDetection = { type: "server_vad", silence_duration_ms: endpointingMs, prefix_padding_ms: 300 };
    if (dialect === "beta") {
      this.sendJson({
        type: "transcription_session.update",
        session: {
          input_audio_format: phone ? "g711_ulaw" : "pcm16",
          input_audio_transcription: transcription,
          turn_detection: turnDetection,
        },
      });
      return;
    }
    this.sendJson({
      type: "session.update",
      session: {
        type: "transcription",
        audio: {
          input: {
            format: phone ? { type: "audio/pcmu" } : { type: "audio/pcm", rate: 24_000 },
            transcription,
            turn_detection: turnDetection,
          },
        },
      },
    });
  }

  protected sendAudio(frame: Uint8Array) {
    this.batch.push(frame);
    if (this.batch.length < FRAMES_PER_APPEND) return;
    const bytes = Buffer.concat(this.batch);
    this.batch = [];
    // A phone's mu-law passes through; a browser's 16 kHz PCM goes up to the 24 kHz the API takes.
    const audio =
      this.options.format.encoding === "pcmu"
        ? bytes
        : Buffer.from(pcmBytes(resample(pcmFromBytes(bytes), this.options.format.sampleRate, 24_000)));
    this.sendJson({ type: "input_audio_buffer.append", audio: audio.toString("base64") });
  }

  protected received(message: Record<string, unknown>) {
    const item = typeof message.item_id === "string" ? message.item_id : "";
    switch (message.type) {
      case "conversation.item.input_audio_transcription.delta": {
        if (typeof message.delta !== "string") return;
        const text = (this.partial.get(item) ?? "") + message.delta;
        this.partial.set(item, text);
        if (text.trim()) this.events.onInterim(text.trim());
        return;
      }
      case "conversation.item.input_audio_transcription.completed": {
        this.partial.delete(item);
        const text = typeof message.transcript === "string" ? message.transcript.trim() : "";
        if (text) this.events.onUtterance(text);
        return;
      }
      case "conversation.item.input_audio_transcription.failed":
        this.partial.delete(item);
        return;
      case "error":
        this.fail(new UpstreamFailedError("speech-to-text reported an error."));
    }
  }

  protected closed() {
    this.socket.close(1000);
  }
}
