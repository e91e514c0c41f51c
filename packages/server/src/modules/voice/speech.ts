/**
 * The speech providers a voice session uses, built at the composition root (src/services.ts) and
 * given to the voice service: a new provider is one class implementing one of these.
 */

/** Speech-to-text, one whole caller turn at a time. */
export interface Transcriber {
  /** The text of one caller turn (a WAV file). */
  transcribe(wav: Buffer, options: { language?: string | null; signal: AbortSignal }): Promise<string>;
}

/** The audio a synthesizer produces: 16-bit little-endian mono PCM at `sampleRate`. */
export interface SpeechFormat {
  encoding: "pcm16";
  sampleRate: number;
}

/** Text-to-speech. */
export interface Synthesizer {
  /** The format of every chunk `synthesize` yields: the session converts from it to the stream's. */
  readonly outputFormat: SpeechFormat;
  /** The assistant's voice for `text`, in chunks as the provider produces them. */
  synthesize(
    text: string,
    options: { voice: string; speed: number; signal: AbortSignal },
  ): Promise<AsyncIterable<Uint8Array>>;
}

/** A piece of a streamed answer's speech: audio, and how much of the text pushed its speech begins. */
export interface SpeechChunk {
  /** 16-bit little-endian mono PCM at the stream's `outputFormat.sampleRate`. */
  audio: Uint8Array;
  /**
   * The text whose speech starts in this chunk, as the provider aligned it (empty when it did not
   * say): joined in order, it is what a caller heard up to the end of the chunk.
   */
  text: string;
}

/** One answer's speech with its text streamed in as the model writes it (one provider context). */
export interface SpeechStream {
  /** More of the answer's text, as the model wrote it. */
  pushText(delta: string): void;
  /** Speak what was pushed now (a sentence ended) instead of waiting for more text. */
  flush(): void;
  /** No more text: the audio ends once the provider spoke everything pushed. */
  end(): void;
  /** Stops the speech (a barge-in): the provider drops the context, and the audio ends. */
  cancel(): void;
  /** The speech as the provider produces it; throws `UpstreamFailedError` if the provider fails. */
  readonly audio: AsyncIterable<SpeechChunk>;
}

/** Text-to-speech that takes its text as a stream (a WebSocket with input streaming). */
export interface StreamingSynthesizer {
  /** The provider's name, as voices of the catalogue name it (`voices.provider`). */
  readonly name: string;
  readonly outputFormat: SpeechFormat;
  /** Starts one answer's speech; rejects with `UpstreamFailedError` when the provider cannot be reached. */
  open(options: { voice: string; speed: number; signal: AbortSignal }): Promise<SpeechStream>;
}
