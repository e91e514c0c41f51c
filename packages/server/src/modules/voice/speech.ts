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
