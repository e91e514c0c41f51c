import type { MediaFormat } from "../media/index.ts";
import type { Channel, ChannelMember } from "./silero-channel.ts";
import {
  fillWindow,
  frameSamples,
  quietWindow,
  SILERO_STATE_LENGTH,
  type SileroWindowMs,
  speakingAfter,
  WINDOW_MS,
} from "./silero-vad.ts";
import { EnergyDetector, type VoiceActivityDetector } from "./voice-activity.ts";

/** What a stream needs of the worker pool (`SileroWorker`). */
export interface DetectorPool {
  readonly ready: boolean;
  /** Counts the workers that became ready: a stream holding an older one's state starts afresh. */
  readonly generation: number;
  ensureStarted(): void;
  /** The channel of a rate and window length, opened on the first stream that needs it. */
  channel(sampleRate: number, windowLength: number): Channel;
}

/**
 * Windows a stream may have waiting behind its window in flight (16 × 32 ms: frames bunched by reads half
 * a second late; 16 or 32 KB per stream, allocated when it first happens). Waiting costs the relay's
 * thread nothing: when every stream is behind, each batch takes a window of each, the largest batches.
 * Past that the relay's thread waits for the worker: decisions lag by half a second at most (64 windows,
 * 2 s, kept a caller that sent a sentence and 2.5 s of noise at once from ever ending the turn in time).
 */
const MAX_WAITING = 16;

/**
 * Silero on one stream, through the worker: the same windows, quiet floor, hysteresis and decision lag
 * as `SileroDetector`'s batched inference. While the worker is not ready (restarting after a failure,
 * given up, stopped), the stream decides with the energy detector.
 */
export class WorkerSileroDetector implements VoiceActivityDetector, ChannelMember {
  readonly state = new Float32Array(SILERO_STATE_LENGTH);
  private readonly window: Float32Array;
  private filled = 0;
  /** This stream's window is in a batch not answered yet. */
  private pending = false;
  /**
   * Windows completed while the previous one was not answered (frames arriving bunched), oldest first,
   * each with whether it was quiet; allocated on the first such window.
   */
  private waiting: { windows: Float32Array; quiet: Uint8Array; first: number; count: number } | null = null;
  private speaking = false;
  /** The worker this stream's state comes from. */
  private generation = 0;
  private readonly fallback: EnergyDetector;
  private opened: Channel | null = null;
  /** The latest answered window's speech probability (0..1). */
  probability = 0;

  constructor(
    private readonly pool: DetectorPool,
    private readonly format: MediaFormat,
    windowMs: SileroWindowMs = WINDOW_MS,
  ) {
    this.window = new Float32Array((format.sampleRate * windowMs) / 1000);
    this.fallback = new EnergyDetector(format);
    pool.ensureStarted();
  }

  /** Opened on the first window (a channel outlives workers: it is kept). */
  private get channel(): Channel {
    this.opened ??= this.pool.channel(this.format.sampleRate, this.window.length);
    return this.opened;
  }

  voiced(frame: Uint8Array): boolean {
    const { pool } = this;
    if (!pool.ready) return this.fallback.voiced(frame);
    if (this.generation !== pool.generation) this.restart(pool.generation);
    // Answers the worker finished since the channel's last frame are applied before this one is decided.
    this.opened?.collect();
    const samples = frameSamples(this.format, frame);
    for (let sample = 0; sample < samples; ) {
      const count = fillWindow(this.format, frame, sample, this.window, this.filled);
      sample += count;
      this.filled += count;
      if (this.filled === this.window.length) {
        this.filled = 0;
        if (!this.windowDone()) return this.fallback.voiced(frame);
      }
    }
    return this.speaking;
  }

  answered(probability: number): void {
    this.pending = false;
    this.probability = probability;
    this.speaking = speakingAfter(this.speaking, probability);
  }

  next(): void {
    const waiting = this.waiting;
    while (!this.pending && waiting && waiting.count > 0) {
      const slot = waiting.first;
      waiting.first = (slot + 1) % MAX_WAITING;
      waiting.count--;
      const length = this.window.length;
      if (waiting.quiet[slot]) this.silence();
      else this.queue(waiting.windows, slot * length);
    }
  }

  lost(): void {
    this.pending = false;
    if (this.waiting) this.waiting.count = 0;
  }

  /** False when the worker failed meanwhile. */
  private windowDone(): boolean {
    const quiet = quietWindow(this.window);
    if (this.pending) return this.wait(quiet);
    if (quiet) this.silence();
    else this.queue(this.window);
    return this.pool.ready;
  }

  private queue(source: Float32Array, from = 0): void {
    this.pending = true;
    this.channel.queue(this, source, from);
  }

  /** The previous window is not answered yet: this one waits behind it (or for it, past `MAX_WAITING`). */
  private wait(quiet: boolean): boolean {
    const length = this.window.length;
    this.waiting ??= {
      windows: new Float32Array(MAX_WAITING * length),
      quiet: new Uint8Array(MAX_WAITING),
      first: 0,
      count: 0,
    };
    // Half a second behind: every stream's waiting windows go through now, a window of each per run.
    if (this.waiting.count === MAX_WAITING && !this.channel.settleAll()) return false;
    if (!this.pending) {
      if (quiet) this.silence();
      else this.queue(this.window);
      return this.pool.ready;
    }
    const waiting = this.waiting;
    const slot = (waiting.first + waiting.count) % MAX_WAITING;
    waiting.windows.set(this.window, slot * length);
    waiting.quiet[slot] = quiet ? 1 : 0;
    waiting.count++;
    return true;
  }

  /** A quiet window: the model starts afresh on the next sound, as on a new stream. */
  private silence(): void {
    this.state.fill(0);
    this.answered(0);
  }

  /** A new worker: this stream's state and window start afresh, as on a new stream. */
  private restart(generation: number): void {
    this.generation = generation;
    this.state.fill(0);
    this.filled = 0;
    this.pending = false;
    if (this.waiting) this.waiting.count = 0;
    this.speaking = false;
    this.probability = 0;
  }
}
