/**
 * The speech providers a voice session uses, built at the composition root (src/services.ts) and
 * given to the voice service: a new provider is one class implementing one of these.
 */

/** Speech-to-text, one whole caller turn at a time. */
export interface Transcriber {
  /** The text of one caller turn (a WAV file). */
  transcribe(wav: Buffer, options: { language?: string | null; signal: AbortSignal }): Promise<string>;
}

/**
 * The audio a synthesizer produces, mono: 16-bit little-endian PCM, or G.711 mu-law (a phone
 * line's own, 8 kHz), at `sampleRate`.
 */
export interface SpeechFormat {
  encoding: "pcm16" | "pcmu";
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

/** What a streaming transcription hears: the call's own frames, untouched. */
export interface TranscriptionOptions {
  /** The caller's audio as the stream carries it: 8 kHz mu-law (phones) or 16 kHz PCM (browsers). */
  format: { encoding: "pcmu" | "pcm16"; sampleRate: number };
  language: string | null;
  /** Silence after speech that ends the caller's utterance (the provider's endpointing), in ms. */
  endpointingMs: number;
}

/** What a streaming transcription reports, in order; nothing follows `onError`. */
export interface TranscriptionEvents {
  /** The words of the utterance so far (finished segments and the provider's current guess). */
  onInterim(text: string): void;
  /** The provider's endpointing ended the caller's utterance: its whole transcript. */
  onUtterance(text: string): void;
  /** The stream failed (could not connect, the provider errored or hung up): no more events. */
  onError(error: Error): void;
}

/** One call's live transcription. */
export interface TranscriptionStream {
  /** One frame of the caller's audio in the options' format (frames before the socket opens are kept). */
  push(frame: Uint8Array): void;
  /** The call is over: tells the provider, then lets go of the socket. */
  close(): void;
}

/** Speech-to-text as the caller speaks, with the provider's own end of utterance. */
export interface StreamingTranscriber {
  /** The provider's name, for logs. */
  readonly name: string;
  /** Opens a stream at once; a failure to connect arrives as `onError`. */
  open(options: TranscriptionOptions, events: TranscriptionEvents): TranscriptionStream;
}

/** A piece of a streamed answer's speech: audio, and how much of the text pushed its speech begins. */
export interface SpeechChunk {
  /** Audio in the connection's `outputFormat`. */
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

/**
 * One call's streaming speech: one provider socket held for the call, one provider context per
 * answer on it.
 */
export interface SpeechConnection {
  /** The format of every chunk: the one asked for at `connect` (the call's own stream format). */
  readonly outputFormat: SpeechFormat;
  /** Opens the socket now, so that the first answer does not wait for the handshake; a failure shows at `open`. */
  warm(): void;
  /**
   * Starts one answer's speech on the socket, connecting again if the provider closed it since the
   * last answer; rejects with `UpstreamFailedError` when the provider cannot be reached.
   */
  open(signal: AbortSignal): Promise<SpeechStream>;
  /** The call is over: lets go of the socket (an answer still speaking ends). */
  close(): void;
}

/** Text-to-speech that takes its text as a stream (a WebSocket with input streaming and contexts). */
export interface StreamingSynthesizer {
  /** The provider's name, as voices of the catalogue name it (`voices.provider`). */
  readonly name: string;
  /**
   * One call's connection, speaking `voice` in `format`: the provider is asked for that format
   * itself (8 kHz mu-law for phones, 16 kHz PCM for browsers), so the engine does not convert.
   */
  connect(options: { voice: string; speed: number; format: SpeechFormat }): SpeechConnection;
}
