import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { platform, release, tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, describe, expect, it, vi } from "vitest";
import { framesOf, vadCorpus } from "../../../test/support/vad-corpus.ts";
import { createLogger } from "../../logger.ts";
import { type MediaFormat, PHONE_FORMAT, threadSchedule, WEB_FORMAT } from "../media/index.ts";
import { runSileroBatches, SileroDetector, type SileroWindowMs } from "./silero-vad.ts";
import { SileroWorker } from "./silero-worker.ts";
import { EnergyDetector, type VoiceActivityDetector } from "./voice-activity.ts";

/** EEVDF takes a fair thread's own slice from Linux 6.12 on; the debug file shows it. */
const [major = 0, minor = 0] = release().split(".").map(Number);
const customSlices =
  platform() === "linux" && (major > 6 || (major === 6 && minor >= 12)) && existsSync("/proc/self/sched");

// Real speech in noise (espeak-ng and sox: test/support/vad-corpus.ts), so that decisions change often.
const corpus = vadCorpus();
const noisy = corpus.turns.filter((turn) => turn.noiseDb !== null);

function capturedLogger() {
  const lines: { level: string; msg: string }[] = [];
  const logger = createLogger("info", {
    format: "json",
    destination: { write: (line) => lines.push(JSON.parse(line)) },
  });
  return { logger, lines };
}

const pools: SileroWorker[] = [];
function pool(options: ConstructorParameters<typeof SileroWorker>[1] = {}) {
  const { logger, lines } = capturedLogger();
  const worker = new SileroWorker(logger, options);
  pools.push(worker);
  return { worker, lines };
}
afterAll(async () => {
  await Promise.all(pools.map((worker) => worker.stop()));
});

/**
 * The reference: Silero batched in this thread (`runSileroBatches` where the event loop turns). The
 * worker's batches are awaited at the same points (`runBatches`): both then decide on the answers of the
 * windows completed before, and on older ones for frames that came bunched.
 */
function reference(format: MediaFormat) {
  return new SileroDetector(format);
}

/** Both sides' batches run: the end of a tick. */
function turn(worker: SileroWorker) {
  runSileroBatches();
  worker.runBatches();
}

interface Stream {
  frames: Uint8Array[];
  from: number;
  worker: VoiceActivityDetector & { probability?: number };
  reference: SileroDetector;
  /** Per frame: [reference, worker], but for the frames of reads too late for the windows to wait. */
  decisions: [boolean, boolean][];
}

describe("Silero in a worker thread", () => {
  it("decides frame for frame as batching in this thread, on streams joining, leaving and bunched", async () => {
    const { worker } = pool();
    await worker.whenReady();
    const stream = (format: MediaFormat, item: number, from: number, length = 150): Stream => ({
      frames: framesOf(noisy[item % noisy.length]!.pcm, format).slice(0, length),
      from,
      worker: worker.detector(format),
      reference: reference(format),
      decisions: [],
    });
    const streams = [
      stream(PHONE_FORMAT, 0, 0, 300),
      stream(PHONE_FORMAT, 1, 0, 70),
      stream(WEB_FORMAT, 2, 0),
      stream(PHONE_FORMAT, 3, 9),
      stream(WEB_FORMAT, 4, 15, 60),
      stream(PHONE_FORMAT, 5, 40),
      stream(PHONE_FORMAT, 6, 41),
    ];
    const before = worker.stats();
    for (let tick = 0; tick < 200; tick++) {
      // Every seventh tick each stream gets 4 frames at once, and every 23rd 40 (a read that brings
      // several; 40 frames: more windows than may wait): their windows wait behind each other.
      const bunch = tick % 23 === 5 ? 40 : tick % 7 === 3 ? 4 : 1;
      for (const s of streams) {
        const at = tick - s.from;
        if (at < 0 || at >= s.frames.length) continue;
        for (const frame of s.frames.slice(at, at + bunch)) {
          const decided = [s.reference.voiced(frame), s.worker.voiced(frame)] as [boolean, boolean];
          // Past 16 waiting windows this thread runs one batch, the worker answers every stream's waiting.
          if (bunch < 40) s.decisions.push(decided);
        }
        s.frames.splice(at, bunch - 1);
      }
      // On odd ticks the batches' waits end and the worker answers on its own before the batches are awaited.
      if (tick % 2 === 1) await new Promise((resolve) => setTimeout(resolve, 10));
      turn(worker);
      // Every window answered on both sides: the same latest probability.
      for (const s of streams)
        if (tick >= s.from) expect(s.worker.probability).toBeCloseTo(s.reference.probability, 4);
      await nextTurn();
    }
    expect(streams.filter((s) => s.decisions.some(([voiced]) => voiced)).length).toBeGreaterThan(4);
    for (const s of streams)
      expect(s.decisions.filter(([reference, inWorker]) => reference !== inWorker)).toEqual([]);
    // The windows went through in batches of several streams.
    const after = worker.stats();
    expect(after.windows - before.windows).toBeGreaterThan(after.runs - before.runs);
  });

  it("applies the worker's answers at the streams' next frames, with frames paced as a call sends them", async () => {
    const { worker } = pool();
    await worker.whenReady();
    const frames = framesOf(noisy[3]!.pcm, PHONE_FORMAT).slice(0, 120);
    const streams = [0, 1, 2].map(
      () => worker.detector(PHONE_FORMAT) as VoiceActivityDetector & { probability: number },
    );
    const alone = new SileroDetector(PHONE_FORMAT, { inference: "stream" });
    const before = worker.stats();
    // The in-thread detector's probability after each frame so far.
    const history: number[] = [0];
    let caughtUp = 0;
    for (const frame of frames) {
      // Each frame first takes the answers the worker wrote since the last one: the stream then holds the
      // probability the in-thread detector held after the previous frame (one frame late), or, if the
      // worker got no CPU meanwhile, after an earlier one, never one it did not hold.
      for (const stream of streams) stream.voiced(frame);
      const held = history.findLastIndex((p) => Math.abs(p - streams[0]!.probability) < 1e-4);
      expect(held).toBeGreaterThanOrEqual(0);
      if (held === history.length - 1) caughtUp++;
      alone.voiced(frame);
      history.push(alone.probability);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const after = worker.stats();
    // Nothing ever waited on the relay's side, no batch was awaited explicitly, and yet every window was
    // answered: the three streams' windows went through together.
    // Without the answers applied at the frames, every stream would wait for the worker each 16 windows (4-5
    // times here); one wait at most allows for a worker that got no CPU for half a second on a busy machine.
    expect(after.waits - before.waits).toBeLessThanOrEqual(1);
    const windows = Math.floor((frames.length * 160) / 256);
    expect(after.windows - before.windows).toBeGreaterThanOrEqual(
      streams.length * (windows - 1) - streams.length * 8,
    );
    expect(after.runs - before.runs).toBeLessThan(after.windows - before.windows);
    expect(new Set(streams.map((stream) => stream.probability.toFixed(5))).size).toBe(1);
    // Caught up at the next frame on many frames (20 ms for a 5 ms wait and a run of under 1 ms): a bound loose
    // enough for a busy machine, which only answers arriving by the frames can meet.
    expect(caughtUp).toBeGreaterThan(frames.length / 4);
  });

  it("decides with the energy detector while its worker is down, and with Silero again once restarted", async () => {
    const { worker, lines } = pool({ restartDelaysMs: [0] });
    await worker.whenReady();
    const frames = framesOf(noisy[7]!.pcm, PHONE_FORMAT);
    const stream = worker.detector(PHONE_FORMAT);
    const inThread = reference(PHONE_FORMAT);
    const both = (frame: Uint8Array) => {
      const decisions = [inThread.voiced(frame), stream.voiced(frame)];
      turn(worker);
      return decisions;
    };
    let at = 0;
    for (; at < 60; at++) {
      const [expected, actual] = both(frames[at]!);
      expect(actual).toBe(expected);
    }
    // A window the model refuses (2 ms: shorter than its own padding) makes the worker's run throw.
    const refused = worker.detectorOf(2 as SileroWindowMs)(PHONE_FORMAT);
    // 10 windows a frame: 2 frames are more than may wait, and the relay's thread waits for the worker.
    for (const frame of frames.slice(at, at + 2)) refused.voiced(frame);
    expect(worker.ready).toBe(false);
    const energy = new EnergyDetector(PHONE_FORMAT);
    for (const frame of frames.slice(at, at + 10)) expect(stream.voiced(frame)).toBe(energy.voiced(frame));
    at += 10;
    await worker.whenReady();
    expect(worker.ready).toBe(true);
    // The stream starts afresh on the new worker, as a new stream does.
    const fresh = reference(PHONE_FORMAT);
    for (; at < frames.length; at++) {
      const expected = fresh.voiced(frames[at]!);
      expect(stream.voiced(frames[at]!)).toBe(expected);
      turn(worker);
    }
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: "error",
        msg: "Silero worker failed; Silero calls use the energy detector until it restarts",
      }),
    );
  });

  it("gives up after its bounded restarts when the model does not load, and streams keep energy", async () => {
    const dir = mkdtempSync(join(tmpdir(), "silero-"));
    const modelPath = join(dir, "not-a-model.onnx");
    writeFileSync(modelPath, "not an ONNX file");
    try {
      const { worker, lines } = pool({ modelPath, restartDelaysMs: [0, 0, 0] });
      await worker.whenReady();
      expect(worker.ready).toBe(false);
      // The first start and three restarts, then no more.
      const errors = lines.filter((line) => line.level === "error").map((line) => line.msg);
      expect(errors.filter((msg) => msg.endsWith("until it restarts"))).toHaveLength(3);
      expect(errors.filter((msg) => msg.endsWith("from now on"))).toHaveLength(1);
      const stream = worker.detector(WEB_FORMAT);
      const energy = new EnergyDetector(WEB_FORMAT);
      for (const frame of framesOf(noisy[1]!.pcm, WEB_FORMAT).slice(0, 100))
        expect(stream.voiced(frame)).toBe(energy.voiced(frame));
      await worker.whenReady();
      expect(worker.ready).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("ends its thread on stop; streams then decide with energy and it does not start again", async () => {
    const { worker } = pool();
    await worker.whenReady();
    const stream = worker.detector(PHONE_FORMAT);
    const frames = framesOf(noisy[2]!.pcm, PHONE_FORMAT);
    for (const frame of frames.slice(0, 50)) stream.voiced(frame);
    await worker.stop();
    expect(worker.ready).toBe(false);
    const energy = new EnergyDetector(PHONE_FORMAT);
    const later = worker.detector(PHONE_FORMAT);
    for (const frame of frames.slice(50, 100)) {
      expect(stream.voiced(frame)).toBe(energy.voiced(frame));
      expect(later.voiced(frame)).toBe(energy.voiced(frame));
    }
    await worker.whenReady();
    expect(worker.ready).toBe(false);
  });

  it.runIf(customSlices)(
    "runs its thread in the background of the relay when asked (batch policy, 10 ms slice), else as the kernel has it",
    async () => {
      const background = pool({ background: true });
      await background.worker.whenReady();
      await vi.waitFor(() =>
        expect(background.lines).toContainEqual(
          expect.objectContaining({ msg: "Silero worker thread in the background", status: "set" }),
        ),
      );
      const thread = background.worker.threadId!;
      // The worker's own thread, not this one's: the relay's thread keeps its policy.
      expect(thread).not.toBe(process.pid);
      expect(await threadSchedule(thread)).toEqual({ sliceNs: 10_000_000, policy: 3 });
      expect((await threadSchedule(process.pid)).policy).toBe(0);

      const plain = pool();
      await plain.worker.whenReady();
      await vi.waitFor(() => expect(plain.worker.threadId).not.toBeNull());
      expect((await threadSchedule(plain.worker.threadId!)).policy).toBe(0);
      expect(plain.lines.map((line) => line.msg)).not.toContain("Silero worker thread in the background");
    },
  );
});
