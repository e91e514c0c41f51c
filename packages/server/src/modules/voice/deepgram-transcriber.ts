import WebSocket from "ws";
import { UpstreamFailedError } from "../../errors.ts";
import type {
  StreamingTranscriber,
  TranscriptionEvents,
  TranscriptionOptions,
  TranscriptionStream,
} from "./speech.ts";
import { TranscriptionSocket } from "./stt-socket.ts";

export interface DeepgramConfig {
  /** The API base, `wss://api.deepgram.com/v1` (or a self-hosted or test server's). */
  url: string;
  apiKey: string | undefined;
  model: string;
  timeoutSeconds: number;
  /**
   * Deepgram closes a stream that got no audio for 10 s: a `KeepAlive` is sent after this long
   * without audio (a carrier that stops sending frames while the line is quiet).
   */
  keepAliveMs: number;
}

/**
 * The end of utterance from word timings, for when noise keeps `speech_final` from coming: 1 s is
 * Deepgram's least `utterance_end_ms`.
 */
const UTTERANCE_END_MS = 1000;

/** Deepgram live streaming (`/v1/listen` over a WebSocket): interim and final results, endpointing. */
export class DeepgramTranscriber implements StreamingTranscriber {
  readonly name = "deepgram";

  constructor(private readonly config: DeepgramConfig) {}

  open(options: TranscriptionOptions, events: TranscriptionEvents): TranscriptionStream {
    const query = new URLSearchParams({
      encoding: options.format.encoding === "pcmu" ? "mulaw" : "linear16",
      sample_rate: String(options.format.sampleRate),
      channels: "1",
      model: this.config.model,
      interim_results: "true",
      endpointing: String(options.endpointingMs),
      utterance_end_ms: String(UTTERANCE_END_MS),
      punctuate: "true",
      smart_format: "true",
    });
    if (options.language) query.set("language", options.language);
    return new DeepgramStream(`${this.config.url.replace(/\/+$/, "")}/listen?${query}`, this.config, events);
  }
}

class DeepgramStream extends TranscriptionSocket {
  /** Final segments of the utterance not yet ended. */
  private finals: string[] = [];
  private keepAlive: NodeJS.Timeout | null = null;
  private lastAudioAt = Date.now();

  constructor(
    url: string,
    private readonly config: DeepgramConfig,
    events: TranscriptionEvents,
  ) {
    super(
      url,
      config.apiKey ? { authorization: `Token ${config.apiKey}` } : {},
      config.timeoutSeconds * 1000,
      events,
    );
    this.socket.on("close", () => this.stopKeepAlive());
  }

  protected opened() {
    this.lastAudioAt = Date.now();
    const every = Math.max(10, Math.floor(this.config.keepAliveMs / 2));
    this.keepAlive = setInterval(() => {
      if (Date.now() - this.lastAudioAt >= this.config.keepAliveMs) {
        this.sendJson({ type: "KeepAlive" });
        this.lastAudioAt = Date.now();
      }
    }, every);
    this.keepAlive.unref();
  }

  protected sendAudio(frame: Uint8Array) {
    this.lastAudioAt = Date.now();
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(frame);
  }

  protected received(message: Record<string, unknown>) {
    if (message.type === "Results") {
      const alternatives = (message.channel as { alternatives?: { transcript?: unknown }[] } | undefined)
        ?.alternatives;
      const transcript =
        typeof alternatives?.[0]?.transcript === "string" ? alternatives[0].transcript.trim() : "";
      if (message.is_final === true) {
        if (transcript) this.finals.push(transcript);
        if (message.speech_final === true) this.endUtterance();
        else if (transcript) this.events.onInterim(this.finals.join(" "));
        return;
      }
      if (transcript) this.events.onInterim([...this.finals, transcript].join(" "));
      return;
    }
    if (message.type === "UtteranceEnd") return this.endUtterance();
    if (message.type === "Error" || message.type === "error")
      this.fail(new UpstreamFailedError("speech-to-text reported an error."));
  }

  private endUtterance() {
    const text = this.finals.join(" ").trim();
    this.finals = [];
    if (text) this.events.onUtterance(text);
  }

  protected closed() {
    this.stopKeepAlive();
    // Deepgram sends what it still has, then closes the socket itself.
    this.sendJson({ type: "CloseStream" });
    setTimeout(() => this.socket.terminate(), this.config.timeoutSeconds * 1000).unref();
  }

  private stopKeepAlive() {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = null;
  }
}
