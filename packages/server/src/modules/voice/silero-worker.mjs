// @ts-check
// Plain JavaScript on purpose: Node 20 applies no loader hooks to a worker's entry, so the build copies
// this file beside the compiled ones (scripts/build-server.mjs). The protocol is described in
// silero-worker.ts, which starts this thread.
import { readlinkSync } from "node:fs";
import { createRequire } from "node:module";
import { parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";

const require = createRequire(import.meta.url);

/** @typedef {{ windows: Float32Array; states: Float32Array; probabilities: Float32Array }} Slot */
/**
 * @typedef {{ id: number; sampleRate: number; windowLength: number; header: Int32Array; slots: [Slot, Slot] }} ChannelMessage
 * @typedef {ChannelMessage & { done: number; input: Float32Array; rate: unknown }} Channel
 */

const LAYER = 64;
const STATE = 4 * LAYER;
/** Words of the pool's control array and of each channel's header (silero-worker.ts). */
const BELL = 0;
const STOP = 1;
const DEAD = 2;
const READY = 3;
const PAUSE = 4;
const REQUESTED = 0;
const DONE = 1;
const SIZE = 2;

const { control, modelPath, runWindows, pauseMs } =
  /** @type {{ control: Int32Array; modelPath: string; runWindows: number; pauseMs: number }} */ (workerData);
const port = /** @type {import("node:worker_threads").MessagePort} */ (parentPort);

const { binding, initOrt } = require("onnxruntime-node/dist/binding.js");
const { Tensor } = require("onnxruntime-node");
const ALLOCATE_OUTPUTS = { output: null, hn: null, cn: null };
const h = new Float32Array(2 * runWindows * LAYER);
const c = new Float32Array(2 * runWindows * LAYER);
/** @type {Channel[]} */
const channels = [];

/** @param {ChannelMessage} message @returns {Channel} */
function open(message) {
  return {
    ...message,
    done: Atomics.load(message.header, DONE),
    // The model reads its input from memory of this thread: the shared slots are copied in.
    input: new Float32Array(runWindows * message.windowLength),
    rate: new Tensor("int64", BigInt64Array.of(BigInt(message.sampleRate)), []),
  };
}

/**
 * One model run over the windows `from` to `from + count` of a slot: states gathered layer by layer
 * across the batch ([2, count, 64]), as the model wants them, and scattered back in place.
 * @param {Channel} channel @param {Slot} slot @param {number} from @param {number} count
 */
function run(channel, slot, from, count) {
  const length = channel.windowLength;
  channel.input.set(slot.windows.subarray(from * length, (from + count) * length));
  for (let b = 0; b < count; b++) {
    const state = (from + b) * STATE;
    for (let layer = 0; layer < 2; layer++) {
      const at = (layer * count + b) * LAYER;
      h.set(slot.states.subarray(state + layer * LAYER, state + (layer + 1) * LAYER), at);
      c.set(slot.states.subarray(state + (2 + layer) * LAYER, state + (3 + layer) * LAYER), at);
    }
  }
  const outputs = session.run(
    {
      input: new Tensor("float32", channel.input.subarray(0, count * length), [count, length]),
      sr: channel.rate,
      h: new Tensor("float32", h.subarray(0, 2 * count * LAYER), [2, count, LAYER]),
      c: new Tensor("float32", c.subarray(0, 2 * count * LAYER), [2, count, LAYER]),
    },
    ALLOCATE_OUTPUTS,
    {},
  );
  for (let b = 0; b < count; b++) {
    const state = (from + b) * STATE;
    for (let layer = 0; layer < 2; layer++) {
      const at = (layer * count + b) * LAYER;
      slot.states.set(outputs.hn.data.subarray(at, at + LAYER), state + layer * LAYER);
      slot.states.set(outputs.cn.data.subarray(at, at + LAYER), state + (2 + layer) * LAYER);
    }
    slot.probabilities[from + b] = outputs.output.data[b];
  }
}

/** Whether the model ran since this thread last slept. */
let ranSinceSleep = false;

/**
 * `run`, after stepping off the core for `pauseMs` if the model ran since this thread last slept: the
 * relay's thread shares the core, and the scheduler does not always take it back from a running thread
 * when a frame wakes it (a run of 16 windows held it 1.5 ms). Between short runs it gets the core at once.
 * @param {Channel} channel @param {Slot} slot @param {number} from @param {number} count
 */
function runPaced(channel, slot, from, count) {
  if (ranSinceSleep) Atomics.wait(control, PAUSE, 0, pauseMs);
  run(channel, slot, from, count);
  ranSinceSleep = true;
}

/** @param {Channel} channel @param {number} requested */
function serve(channel, requested) {
  const index = requested & 1;
  const slot = channel.slots[index];
  const size = channel.header[SIZE + index] ?? 0;
  for (let from = 0; from < size; from += runWindows)
    runPaced(channel, slot, from, Math.min(runWindows, size - from));
  channel.done = requested;
  Atomics.store(channel.header, DONE, requested);
  // Wakes a relay thread waiting for this batch synchronously; one that is not reads DONE at its streams'
  // next frames (no message: nothing is allocated or woken on the relay's thread per batch).
  Atomics.notify(channel.header, DONE);
}

/**
 * This thread's id in the kernel (`/proc/thread-self` links to `<pid>/task/<tid>`), so that the relay can
 * set its scheduling slice; null where there is no such link (not Linux).
 * @returns {number | null}
 */
function kernelThreadId() {
  try {
    return Number(readlinkSync("/proc/thread-self").split("/").at(-1));
  } catch {
    return null;
  }
}

/** @type {{ run: Function }} */
let session;
// This thread has no event loop of its own: it sleeps on the bell until the relay rings it, reads the
// channels it was sent meanwhile, and serves every channel with a batch requested.
try {
  initOrt();
  const loaded = new binding.InferenceSession();
  // One thread: a run of a batch is a few ms at most; this thread shares the relay's core.
  loaded.loadModel(modelPath, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: "sequential",
    graphOptimizationLevel: "all",
  });
  session = loaded;
  // The relay's thread may be waiting for the first start synchronously; others wait for the message.
  Atomics.store(control, READY, 1);
  Atomics.notify(control, READY);
  port.postMessage({ ready: true, threadId: kernelThreadId() });
  for (;;) {
    const bell = Atomics.load(control, BELL);
    for (let received = receiveMessageOnPort(port); received; received = receiveMessageOnPort(port))
      channels.push(open(received.message));
    if (Atomics.load(control, STOP) !== 0) break;
    let served = false;
    for (const channel of channels) {
      const requested = Atomics.load(channel.header, REQUESTED);
      if (requested === channel.done) continue;
      serve(channel, requested);
      served = true;
    }
    if (!served) {
      Atomics.wait(control, BELL, bell);
      ranSinceSleep = false;
    }
  }
} catch (error) {
  // A relay thread waiting for a batch synchronously cannot see this thread's error event: it is woken
  // (its awaited number will not come) and reads that this worker is dead.
  Atomics.store(control, DEAD, 1);
  Atomics.notify(control, READY);
  for (const channel of channels) {
    Atomics.store(channel.header, DONE, -1);
    Atomics.notify(channel.header, DONE);
  }
  throw error;
}
port.close();
