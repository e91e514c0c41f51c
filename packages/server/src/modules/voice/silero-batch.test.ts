import { setImmediate as nextTurn } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { framesOf, vadCorpus } from "../../../test/support/vad-corpus.ts";
import { type MediaFormat, PHONE_FORMAT, WEB_FORMAT } from "../media/index.ts";
import { MAX_BATCH, runSileroBatches, SileroDetector, sileroBatchStats } from "./silero-vad.ts";

// Real speech (espeak-ng, sox noise: test/support/vad-corpus.ts) so that probabilities move across the
// whole range; the model is the one the service runs.
const corpus = vadCorpus();
const noisy = corpus.turns.filter((turn) => turn.noiseDb !== null);
const TOLERANCE = 1e-5;

/** One stream heard twice: by a detector running each window alone, and by a batched one. */
interface Pair {
  frames: Uint8Array[];
  /** The tick of its first frame; it leaves after its last. */
  from: number;
  alone: SileroDetector;
  batched: SileroDetector;
  /** Per frame: the alone detector's decision, the batched one's. */
  decisions: [boolean, boolean][];
}

function pair(format: MediaFormat, item: number, from: number, length = 120): Pair {
  const frames = framesOf(noisy[item % noisy.length]!.pcm, format).slice(0, length);
  return {
    frames,
    from,
    alone: new SileroDetector(format, { inference: "stream" }),
    batched: new SileroDetector(format),
    decisions: [],
  };
}

/**
 * Feeds every pair its frame of each tick (`bunch(tick)` frames at once, as when a socket's messages
 * arrive together), then lets the event loop turn, as the sockets' poll phase ends: the batch runs
 * there. After the turn both detectors of a pair must hold the same probability.
 */
async function play(pairs: Pair[], ticks: number, bunch: (tick: number) => number = () => 1) {
  const mismatches: string[] = [];
  for (let tick = 0; tick < ticks; tick++) {
    for (const p of pairs) {
      const at = tick - p.from;
      if (at < 0 || at >= p.frames.length) continue;
      const count = Math.min(bunch(tick), p.frames.length - at);
      for (const frame of p.frames.slice(at, at + count))
        p.decisions.push([p.alone.voiced(frame), p.batched.voiced(frame)]);
      // The stream's later frames move earlier.
      p.frames.splice(at, count - 1);
    }
    await nextTurn();
    for (const [index, p] of pairs.entries())
      if (Math.abs(p.alone.probability - p.batched.probability) > TOLERANCE)
        mismatches.push(
          `tick ${tick}, stream ${index}: ${p.alone.probability} alone, ${p.batched.probability} batched`,
        );
  }
  return mismatches;
}

describe("Silero's batched inference", () => {
  it("gives each of many streams the probabilities it gets alone, as streams join and leave", async () => {
    const before = sileroBatchStats();
    // Phone and web streams (two batchers), starting at different ticks and of different lengths, so
    // that batches change members from one run to the next.
    const pairs = [
      pair(PHONE_FORMAT, 0, 0),
      pair(PHONE_FORMAT, 1, 0, 60),
      pair(WEB_FORMAT, 2, 0),
      pair(PHONE_FORMAT, 3, 7),
      pair(WEB_FORMAT, 4, 13, 50),
      pair(PHONE_FORMAT, 5, 40),
      pair(WEB_FORMAT, 6, 41),
    ];
    expect(await play(pairs, 170)).toEqual([]);
    const after = sileroBatchStats();
    // Runs took more than one window.
    expect(after.windows - before.windows).toBeGreaterThan(after.runs - before.runs);
    for (const p of pairs) {
      // Some speech was heard; the batched decision is the alone one of the previous frame (the model's
      // answer comes after the frame that completed the window), or of this frame (a quiet window is
      // decided without the model).
      expect(p.decisions.some(([alone]) => alone)).toBe(true);
      const lagged = p.decisions.filter(([, batched], i) => i > 0 && batched === p.decisions[i - 1]![0]);
      const differing = p.decisions.filter(
        ([alone, batched], i) => i > 0 && batched !== p.decisions[i - 1]![0] && batched !== alone,
      );
      expect(differing).toEqual([]);
      expect(lagged.length).toBeGreaterThan(0);
    }
  });

  it("runs a stream's windows in order when its frames come bunched, a few or many at once", async () => {
    const before = sileroBatchStats();
    const pairs = [
      pair(PHONE_FORMAT, 7, 0, 400),
      pair(WEB_FORMAT, 8, 0, 400),
      pair(PHONE_FORMAT, 9, 3, 400),
      pair(PHONE_FORMAT, 10, 1, 400),
    ];
    // Every fourth tick each stream gets 2, 6 or 40 frames before the event loop turns: windows
    // complete while the stream's previous one still waits (40 frames: more than may wait).
    const sizes = [2, 6, 40];
    expect(await play(pairs, 250, (tick) => (tick % 4 === 1 ? sizes[(tick >> 2) % 3]! : 1))).toEqual([]);
    // The windows that waited went through in batches with the other streams', not one by one.
    const after = sileroBatchStats();
    expect(after.windows - before.windows).toBeGreaterThan(after.runs - before.runs);
  });

  it(`runs at once when ${MAX_BATCH} windows wait, and keeps every stream's state apart`, async () => {
    const before = sileroBatchStats();
    const pairs = Array.from({ length: MAX_BATCH + 8 }, (_, i) => pair(PHONE_FORMAT, i, 0, 40));
    expect(await play(pairs, 40)).toEqual([]);
    const after = sileroBatchStats();
    // The streams complete their windows on the same frames: a full batch, then the rest after the turn.
    const runs = after.runs - before.runs;
    expect(after.windows - before.windows).toBeGreaterThan(runs);
    expect(after.windows - before.windows).toBeLessThanOrEqual(runs * MAX_BATCH);
  });

  it("lets go of a stream that ends with a window queued", async () => {
    const frames = framesOf(noisy[0]!.pcm, PHONE_FORMAT);
    const ending = new SileroDetector(PHONE_FORMAT);
    const staying = new SileroDetector(PHONE_FORMAT);
    const alone = new SileroDetector(PHONE_FORMAT, { inference: "stream" });
    // Frames into speech, up to the frame that completes a window of the ending stream: it is queued.
    let at = 0;
    const start = sileroBatchStats();
    for (; at < 60; at++) {
      ending.voiced(frames[at]!);
      staying.voiced(frames[at]!);
      alone.voiced(frames[at]!);
      await nextTurn();
    }
    const queuedBefore = sileroBatchStats();
    ending.voiced(frames[at]!);
    ending.voiced(frames[at + 1]!);
    // The call ends here: nothing feeds `ending` again. The other stream goes on.
    for (; at < 120; at++) {
      staying.voiced(frames[at]!);
      alone.voiced(frames[at]!);
      await nextTurn();
      expect(Math.abs(staying.probability - alone.probability)).toBeLessThan(TOLERANCE);
    }
    // Its window was run with the others' and nothing of it stays queued: a run now has nothing to do.
    const end = sileroBatchStats();
    expect(end.windows).toBeGreaterThan(queuedBefore.windows);
    expect(queuedBefore.windows).toBeGreaterThan(start.windows);
    runSileroBatches();
    expect(sileroBatchStats()).toEqual(end);
  });
});
