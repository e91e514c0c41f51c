import {
  dtmfTones,
  encodeAudio,
  frameBytes,
  type MediaStream,
  muLawToPcm,
  pcmBytes,
  pcmFromBytes,
} from "../media/index.ts";
import type { SessionPorts, SessionSettings } from "./session-ports.ts";
import type { SpeechFormat } from "./speech.ts";
import { type Utterance, wordMs } from "./utterance.ts";

/** What playback reads of its session: the media clock (frames received), and whether the stream ended. */
export interface PlaybackClock {
  now(): number;
  closed(): boolean;
}

/**
 * The assistant's side of the caller's ear: text-to-speech by sentence, speech converted to the
 * stream's format and sent as 20 ms frames, and the marks that come back once it was played, which
 * decide what the caller heard.
 */
export class Playback {
  /** 20 ms of audio in the stream's format: the frame sent to the caller. */
  readonly frameBytes: number;
  private marks = 0;
  private readonly pendingMarks = new Map<string, { utterance: Utterance; sentMs: number; text: string }>();

  constructor(
    private readonly media: MediaStream,
    private readonly settings: SessionSettings,
    private readonly ports: SessionPorts,
    private readonly clock: PlaybackClock,
  ) {
    this.frameBytes = frameBytes(media.format);
  }

  async speakSentence(utterance: Utterance, sentence: string, signal: AbortSignal) {
    if (utterance.cleared || signal.aborted || this.clock.closed()) return;
    utterance.sentences.push(sentence);
    if (this.media.text) {
      // A text stream: the words are the "audio", each taking as long as saying it would, and
      // marked, so that a barge-in cuts the turn to the words played, as audio is cut by its marks.
      utterance.timings.firstAudioAt ??= Date.now();
      utterance.startMs ??= this.clock.now();
      utterance.markPer = "word";
      const ms = wordMs(this.settings.speechSpeed);
      for (const word of sentence.split(/\s+/).filter(Boolean)) {
        this.media.text.sendText(word, ms);
        utterance.sentMs += ms;
        this.markPlayback(utterance);
      }
      return;
    }
    const { sampleRate, audio } = await this.ports.synthesize(sentence, signal);
    let carry: Uint8Array = new Uint8Array(0);
    let out: Uint8Array = new Uint8Array(0);
    for await (const chunk of audio) {
      if (utterance.cleared || this.clock.closed()) break;
      out = concatBytes(
        out,
        this.speechIn(chunk, carry, sampleRate, (rest) => (carry = rest)),
      );
      out = this.sendFrames(utterance, out, false);
    }
    if (utterance.cleared || this.clock.closed()) return;
    this.sendFrames(utterance, out, true);
    this.markPlayback(utterance, `${sentence} `);
  }

  /**
   * 16-bit PCM at `rate` (a speech model's, in chunks of any length) as bytes in the stream's
   * format; `carry` is what the last chunk left over and `keep` takes what this one leaves: whole
   * triples of samples only, so that 24 kHz's 3:1 (to 8 kHz) or 3:2 (to 16 kHz) steps never
   * straddle chunks.
   */
  speechIn(chunk: Uint8Array, carry: Uint8Array, rate: number, keep: (rest: Uint8Array) => void): Uint8Array {
    const bytes = concatBytes(carry, chunk);
    const usable = bytes.length - (bytes.length % 6);
    keep(bytes.slice(usable));
    return encodeAudio(this.media.format, pcmFromBytes(bytes.subarray(0, usable)), rate);
  }

  /**
   * A streaming provider's audio as the stream's bytes: as it came when the provider speaks the
   * stream's own format (what the call asked it for: nothing is resampled or re-encoded), else
   * converted as `speechIn` does.
   */
  providerAudioIn(
    chunk: Uint8Array,
    carry: Uint8Array,
    format: SpeechFormat,
    keep: (rest: Uint8Array) => void,
  ): Uint8Array {
    const own = this.media.format;
    if (format.encoding === own.encoding && format.sampleRate === own.sampleRate) return chunk;
    const pcm = format.encoding === "pcmu" ? pcmBytes(muLawToPcm(chunk)) : chunk;
    return this.speechIn(pcm, carry, format.sampleRate, keep);
  }

  /**
   * Sends whole 20 ms frames of the stream's format (and the remainder when `flush`); returns
   * what is left.
   */
  sendFrames(utterance: Utterance, bytes: Uint8Array, flush: boolean): Uint8Array {
    const size = this.frameBytes;
    let offset = 0;
    while (bytes.length - offset >= size || (flush && offset < bytes.length)) {
      utterance.timings.firstAudioAt ??= Date.now();
      utterance.startMs ??= this.clock.now();
      const frame = bytes.subarray(offset, Math.min(bytes.length, offset + size));
      this.media.sendAudio(frame);
      utterance.sentMs += (frame.length * 20) / size;
      offset += size;
    }
    // A view, not a copy: most calls leave nothing over, and a copy per model delta was garbage.
    return bytes.subarray(Math.min(offset, bytes.length));
  }

  /** Asks the carrier to say when the audio sent so far for `utterance` has been played. */
  markPlayback(utterance: Utterance, text = "") {
    const name = `s${++this.marks}`;
    this.pendingMarks.set(name, { utterance, sentMs: utterance.sentMs, text });
    this.media.sendMark(name);
  }

  /** Keypad digits as tones on the caller's line. */
  sendTones(digits: string) {
    const tones = encodeAudio(this.media.format, dtmfTones(digits), 8000);
    for (let offset = 0; offset < tones.length; offset += this.frameBytes)
      this.media.sendAudio(tones.subarray(offset, offset + this.frameBytes));
  }

  waitingFor(utterance: Utterance): boolean {
    for (const entry of this.pendingMarks.values()) if (entry.utterance === utterance) return true;
    return false;
  }

  /** A mark came back: what it says was played is counted; returns the utterance it ends, if it ends one. */
  played(name: string): Utterance | null {
    const entry = this.pendingMarks.get(name);
    if (!entry) return null;
    const { utterance } = entry;
    this.pendingMarks.delete(name);
    if (!utterance.cleared) {
      utterance.played += 1;
      utterance.playedMs = entry.sentMs;
      utterance.voiced += entry.text;
      utterance.timings.playedAt = Date.now();
    }
    if (!utterance.sealed || this.waitingFor(utterance)) return null;
    return utterance;
  }

  /** Drops the audio the carrier has not played yet. */
  clear() {
    this.media.clearAudio();
    // Marks still pending are the cleared ones (an earlier turn's too, when answers overlapped): the
    // carrier returns them, but they were not heard.
    for (const [name, { utterance: owner }] of this.pendingMarks) {
      this.pendingMarks.delete(name);
      owner.cleared = true;
      owner.finish();
    }
  }

  /** The stream ended: nothing waits for marks any more. */
  close() {
    for (const { utterance } of this.pendingMarks.values()) utterance.finish();
  }
}

export function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
