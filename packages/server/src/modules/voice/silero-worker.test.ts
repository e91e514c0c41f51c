import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { framesOf, vadCorpus } from "../../../test/support/vad-corpus.ts";
import { createLogger } from "../../logger.ts";
import { type MediaFormat, PHONE_FORMAT, WEB_FORMAT } from "../media/index.ts";
import { runSileroBatches, SileroDetector, type SileroWindowMs } from "./silero-vad.ts";
import { SileroWorker } from "./silero-worker.ts";
import { EnergyDetector, type VoiceActivityDetector } from "./voice-activity.ts";

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
 * The reference: Silero batched in this thread, its batch run after every frame (each frame decided on
 * the answers of the windows completed before it: what the worker promises whatever the timing).
 */
function reference(format: MediaFormat) {
  const detector = new SileroDetector(format);
  return (frame: Uint8Array) => {
    const voiced = detector.voiced(frame);
    runSileroBatches();
    return voiced;
  };
}

interface Stream {
  frames: Uint8Array[];
  from: number;
  worker: VoiceActivityDetector;
  reference: (frame: Uint8Array) => boolean;
  /** Per frame: [reference, worker]. */
  decisions: [boolean, boolean][];
}

describe("Silero in a worker thread", () => {
  it("decides frame for frame as in this thread, on phone and web streams joining, leaving and bunched", async () => {
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
      stream(PHONE_FORMAT, 0, 0),
      stream(PHONE_FORMAT, 1, 0, 70),
      stream(WEB_FORMAT, 2, 0),
      stream(PHONE_FORMAT, 3, 9),
      stream(WEB_FORMAT, 4, 15, 60),
      stream(PHONE_FORMAT, 5, 40),
      stream(PHONE_FORMAT, 6, 41),
    ];
    const before = worker.stats();
    for (let tick = 0; tick < 200; tick++) {
      // Every seventh tick each stream gets 4 frames at once (a read that brings several): the worker's
      // answers are then awaited frame by frame, the others come between ticks.
      const bunch = tick % 7 === 3 ? 4 : 1;
      for (const s of streams) {
        const at = tick - s.from;
        if (at < 0 || at >= s.frames.length) continue;
        for (const frame of s.frames.slice(at, at + bunch))
          s.decisions.push([s.reference(frame), s.worker.voiced(frame)]);
        s.frames.splice(at, bunch - 1);
      }
      await nextTurn();
    }
    for (const s of streams) {
      expect(s.decisions.some(([voiced]) => voiced)).toBe(true);
      expect(s.decisions.filter(([reference, inWorker]) => reference !== inWorker)).toEqual([]);
    }
    // The windows went through in batches of several streams.
    const after = worker.stats();
    expect(after.windows - before.windows).toBeGreaterThan(after.runs - before.runs);
  });

  it("decides with the energy detector while its worker is down, and with Silero again once restarted", async () => {
    const { worker, lines } = pool({ restartDelaysMs: [0] });
    await worker.whenReady();
    const frames = framesOf(noisy[7]!.pcm, PHONE_FORMAT);
    const stream = worker.detector(PHONE_FORMAT);
    const inThread = reference(PHONE_FORMAT);
    let at = 0;
    for (; at < 60; at++) expect(stream.voiced(frames[at]!)).toBe(inThread(frames[at]!));
    // A window the model refuses (2 ms: shorter than its own padding) makes the worker's run throw.
    const refused = worker.detectorOf(2 as SileroWindowMs)(PHONE_FORMAT);
    refused.voiced(frames[at]!);
    refused.voiced(frames[at + 1]!);
    expect(worker.ready).toBe(false);
    const energy = new EnergyDetector(PHONE_FORMAT);
    for (const frame of frames.slice(at, at + 10)) expect(stream.voiced(frame)).toBe(energy.voiced(frame));
    at += 10;
    await worker.whenReady();
    expect(worker.ready).toBe(true);
    // The stream starts afresh on the new worker, as a new stream does.
    const fresh = reference(PHONE_FORMAT);
    for (; at < frames.length; at++) expect(stream.voiced(frames[at]!)).toBe(fresh(frames[at]!));
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
});
