import { decodeAudio, frameBytes, type MediaFormat, PHONE_FORMAT } from "../media/index.ts";
import { EnergyDetector, type VoiceActivityDetector } from "./voice-activity.ts";

/** Voice this long starts a turn: shorter clicks and pops are ignored. */
const SPEECH_START_MS = 60;
/** Audio kept from before the detected start, so that a turn's first syllable reaches speech-to-text. */
const PRE_ROLL_MS = 200;

/**
 * Silence that ends the caller's turn, from `endpoint_sensitivity` (0..1): more sensitive ends
 * sooner (300 ms at 1, 1200 ms at 0, 750 ms by default).
 */
export function endpointMs(sensitivity: number): number {
  return Math.round(1200 - 900 * clamp01(sensitivity));
}

/**
 * Voice the caller must sustain over the assistant before it stops talking, from
 * `interrupt_sensitivity` (0..1): 150 ms at 1, 600 ms at 0. A backchannel ("mhm") is shorter.
 */
export function interruptMs(sensitivity: number): number {
  return Math.round(600 - 450 * clamp01(sensitivity));
}

export type TurnEvent =
  | { type: "speech-start" }
  /** The caller kept talking `voicedMs` so far in this turn. */
  | { type: "voice"; voicedMs: number }
  /**
   * The turn ended: its audio (PCM at the stream's rate, pre-roll included) and where its speech
   * ended, in media ms.
   */
  | { type: "end-of-turn"; audio: Int16Array; speechEndMs: number };

/** One stream's end of turn: fed every caller frame, in order, by the session. */
export interface TurnDetector {
  /** Media time so far, in ms. */
  readonly now: number;
  /** The caller is in a turn. */
  readonly speaking: boolean;
  /** One frame in the stream's format; returns what it changed. */
  push(frame: Uint8Array): TurnEvent | null;
  /** The audio of the turn in progress so far; empty between turns. */
  currentAudio(): Int16Array;
  /** Forgets the turn in progress (its audio was handled another way, e.g. a barge-in). */
  reset(): void;
}

/**
 * End of turn on the caller's audio, from a per-stream voice activity detector (the energy one by
 * default, Silero with `endpoint_type: silero`). Time is the media's own (the sum of frame
 * lengths), so decisions do not depend on when frames arrive: a jittery network or a test sending
 * faster than real time gets the same turns.
 * The turn's audio is kept as the stream carries it (frames as received, decoded once the turn
 * is asked for): deciding on phone-band audio is enough, but speech-to-text hears a browser's
 * 16 kHz microphone whole. Frames are kept by reference: a stream hands each frame over for good.
 * A session that never reads the turn's audio says so (`keepsAudio` false): then no frame outlives
 * its own handling, and a turn's `audio` is empty.
 */
export class SilenceTurnDetector implements TurnDetector {
  private mediaMs = 0;
  private voicedRun = 0;
  private silentRun = 0;
  private inSpeech = false;
  private voicedMs = 0;
  private lastVoiceMs = 0;
  private preRoll: Uint8Array[] = [];
  private preRollMs = 0;
  private turn: Uint8Array[] = [];
  /** Bytes of the stream's audio per ms. */
  private readonly bytesPerMs: number;

  constructor(
    private readonly endOfTurnMs: number,
    private readonly format: MediaFormat = PHONE_FORMAT,
    private readonly keepsAudio = true,
    private readonly activity: VoiceActivityDetector = new EnergyDetector(format),
  ) {
    this.bytesPerMs = frameBytes(format) / 20;
  }

  /** Media time so far, in ms. */
  get now(): number {
    return this.mediaMs;
  }

  get speaking(): boolean {
    return this.inSpeech;
  }

  /** One frame in the stream's format; returns what it changed. */
  push(frame: Uint8Array): TurnEvent | null {
    const frameMs = frame.length / this.bytesPerMs;
    this.mediaMs += frameMs;
    const voiced = this.activity.voiced(frame);
    if (!this.inSpeech) {
      if (this.keepsAudio) {
        this.preRoll.push(frame);
        this.preRollMs += frameMs;
        while (this.preRollMs - this.preRoll[0]!.length / this.bytesPerMs >= PRE_ROLL_MS) {
          this.preRollMs -= this.preRoll.shift()!.length / this.bytesPerMs;
        }
      }
      this.voicedRun = voiced ? this.voicedRun + frameMs : 0;
      if (this.voicedRun < SPEECH_START_MS) return null;
      this.inSpeech = true;
      this.turn = this.preRoll;
      this.preRoll = [];
      this.preRollMs = 0;
      this.voicedMs = this.voicedRun;
      this.silentRun = 0;
      this.lastVoiceMs = this.mediaMs;
      return { type: "speech-start" };
    }
    if (this.keepsAudio) this.turn.push(frame);
    if (voiced) {
      this.voicedMs += frameMs;
      this.silentRun = 0;
      this.lastVoiceMs = this.mediaMs;
      return { type: "voice", voicedMs: this.voicedMs };
    }
    this.silentRun += frameMs;
    if (this.silentRun < this.endOfTurnMs) return null;
    const audio = this.decode(this.turn);
    this.reset();
    return { type: "end-of-turn", audio, speechEndMs: this.lastVoiceMs };
  }

  /** The audio of the turn in progress so far (pre-roll included); empty between turns. */
  currentAudio(): Int16Array {
    return this.decode(this.turn);
  }

  private decode(frames: Uint8Array[]): Int16Array {
    const bytes = new Uint8Array(frames.reduce((sum, frame) => sum + frame.length, 0));
    let offset = 0;
    for (const frame of frames) {
      bytes.set(frame, offset);
      offset += frame.length;
    }
    return decodeAudio(this.format, bytes);
  }

  /** Forgets the turn in progress (its audio was handled another way, e.g. a barge-in). */
  reset(): void {
    this.inSpeech = false;
    this.voicedRun = 0;
    this.voicedMs = 0;
    this.silentRun = 0;
    this.turn = [];
  }
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0.5;
}
