/**
 * How a stream's audio is encoded, both ways: a phone line's 8 kHz G.711 mu-law, or a browser's
 * 16 kHz PCM16 (mono, little-endian). The session picks what it asks of a model from it.
 */
export type MediaFormat = { encoding: "pcmu"; sampleRate: 8000 } | { encoding: "pcm16"; sampleRate: 16000 };

export const PHONE_FORMAT: MediaFormat = { encoding: "pcmu", sampleRate: 8000 };
export const WEB_FORMAT: MediaFormat = { encoding: "pcm16", sampleRate: 16000 };

export interface MediaStream {
  callId: number;
  /** The carrier's id of this stream (Twilio's streamSid). */
  streamId: string;
  /**
   * Set on a stream of whole text turns instead of speech (a simulated call): the caller's words
   * arrive as text, the assistant's sentences leave as text; the audio side carries silence only,
   * which keeps the engine's clock.
   */
  text?: TextMedia;
  /** The encoding of `onAudio`'s and `sendAudio`'s bytes. */
  format: MediaFormat;
  /** Audio from the caller in `format`, in 20 ms frames. */
  onAudio(listener: (frame: Uint8Array) => void): void;
  /** A mark sent with `sendMark` was reached: the audio before it was played (or cleared). */
  onMark(listener: (name: string) => void): void;
  /** A key the caller pressed (0-9, *, #). */
  onDtmf(listener: (digit: string) => void): void;
  /** The stream ended: the caller hung up, the call was redirected, or the connection dropped. */
  onClose(listener: () => void): void;
  /** Queues audio for the caller (in `format`). */
  sendAudio(frame: Uint8Array): void;
  /** Asks to be told (`onMark`) once the audio queued so far has been played. */
  sendMark(name: string): void;
  /** Drops audio queued for playing (barge-in); pending marks come back at once. */
  clearAudio(): void;
  close(): void;
}

/**
 * The text side of a `MediaStream`: speech as words that take the time saying them would, on the
 * stream's clock (its frames).
 */
export interface TextMedia {
  /** The caller's words, one whole turn at a time, once said (saying it took `spokenMs` of the clock). */
  onText(listener: (text: string, spokenMs: number) => void): void;
  /**
   * Queues words the assistant says, played after what is queued before them, for `ms` of the
   * clock; a mark sent after them comes back once they were played.
   */
  sendText(text: string, ms: number): void;
  /** What the caller has said so far of the turn they are saying (or said last). */
  callerWords(): string;
  /** The assistant finished its turn and listens (it did not end the call): the other side may speak. */
  turnEnded(): void;
}

/**
 * The hand-off point to the voice engine: a carrier that streams a call's audio (Twilio Media
 * Streams) or text turns (the simulated carrier) gives each answered call's stream to the
 * registered handler, which speaks for the assistant.
 */
export interface MediaStreamHandler {
  handle(stream: MediaStream): void | Promise<void>;
}
