/**
 * Silero on the event loop against Silero in its worker thread, without sockets: `calls` phone streams of
 * one process, each fed a 20 ms frame of espeak-ng speech in noise on its own clock (staggered across the
 * 20 ms) from a 1 ms timer, for `seconds`, in alternating rounds, beside the same clocks with the energy
 * detector (the baseline: no model anywhere). Measured per variant: how late the
 * frames are fed (the frame clock's lateness, p50 / p99: what every other call of a relay waits), the
 * event loop's delay p99, this thread's GC pauses, the process's CPU per call-frame (the worker's
 * included) and the windows per model run.
 *
 *   pnpm exec tsx bench/voice/silero-loop.ts [calls=100] [seconds=5] [rounds=3]   (pin it: taskset -c 1)
 */
import { loadavg } from "node:os";
import { monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";
import { createLogger } from "../../packages/server/src/logger.ts";
import { PHONE_FORMAT } from "../../packages/server/src/modules/media/index.ts";
import {
  runSileroBatches,
  SileroDetector,
  sileroBatchStats,
} from "../../packages/server/src/modules/voice/silero-vad.ts";
import { SileroWorker } from "../../packages/server/src/modules/voice/silero-worker.ts";
import {
  EnergyDetector,
  type VoiceActivityDetector,
} from "../../packages/server/src/modules/voice/voice-activity.ts";
import { framesOf, vadCorpus } from "../../packages/server/test/support/vad-corpus.ts";

const arg = (index: number, fallback: number) => Number(process.argv[2 + index] ?? fallback);
const CALLS = arg(0, 100);
const SECONDS = arg(1, 5);
const ROUNDS = arg(2, 3);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" / ");

// Speech in street-level noise: every window is loud enough to go to the model.
const frames = vadCorpus()
  .turns.filter((turn) => turn.noiseDb === -26)
  .flatMap((turn) => framesOf(turn.pcm, PHONE_FORMAT));
const worker = new SileroWorker(createLogger("warn"));
await worker.whenReady();

const gc: number[] = [];
let measuring = false;
new PerformanceObserver((list) => {
  if (measuring) for (const entry of list.getEntries()) gc.push(entry.duration);
}).observe({ entryTypes: ["gc"] });

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
};

async function measure(
  name: string,
  make: () => VoiceActivityDetector,
  stats: () => { runs: number; windows: number },
) {
  const streams = Array.from({ length: CALLS }, make);
  const fed = new Array<number>(CALLS).fill(0);
  const lateness: number[] = [];
  const loop = monitorEventLoopDelay({ resolution: 1 });
  const before = stats();
  gc.length = 0;
  measuring = true;
  loop.enable();
  const cpu = process.cpuUsage();
  const start = performance.now();
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const now = performance.now() - start;
      for (let call = 0; call < CALLS; call++) {
        const offset = (call * 20) / CALLS;
        for (;;) {
          const due = offset + fed[call]! * 20;
          if (due > now) break;
          lateness.push(now - due);
          streams[call]!.voiced(frames[(fed[call]! + call * 7) % frames.length]!);
          fed[call]!++;
        }
      }
      if (now >= SECONDS * 1000) {
        clearInterval(timer);
        resolve();
      }
    }, 1);
  });
  const used = process.cpuUsage(cpu);
  loop.disable();
  measuring = false;
  const after = stats();
  const callFrames = fed.reduce((sum, count) => sum + count, 0);
  const runs = after.runs - before.runs;
  console.log(
    `  ${name}: frame lateness p50 ${percentile(lateness, 50).toFixed(2)} ms, p99 ${percentile(lateness, 99).toFixed(2)} ms; loop delay p99 ${(loop.percentile(99) / 1e6).toFixed(2)} ms; GC ${gc.length} pauses, ${gc.reduce((a, b) => a + b, 0).toFixed(0)} ms; CPU ${((used.user + used.system) / callFrames).toFixed(1)} µs per call-frame; ${((after.windows - before.windows) / Math.max(1, runs)).toFixed(1)} windows per run (load ${load()})`,
  );
}

console.log(
  `${CALLS} phone streams, a frame each every 20 ms (staggered), ${SECONDS} s per variant, ${ROUNDS} rounds, load average ${load()} (1 / 5 / 15 min):`,
);
for (let round = 1; round <= ROUNDS; round++) {
  console.log(`round ${round}`);
  // The baseline: the same clocks and frames with the energy detector (no model anywhere).
  await measure(
    "energy detector (baseline)",
    () => new EnergyDetector(PHONE_FORMAT),
    () => ({ runs: 0, windows: 0 }),
  );
  // In-process batches run where the event loop turns, as on the relay.
  let scheduled = false;
  const inLoop = () => {
    const detector = new SileroDetector(PHONE_FORMAT);
    return {
      voiced(frame: Uint8Array) {
        const voiced = detector.voiced(frame);
        if (!scheduled) {
          scheduled = true;
          setImmediate(() => {
            scheduled = false;
            runSileroBatches();
          });
        }
        return voiced;
      },
    };
  };
  await measure("Silero batched on the event loop", inLoop, sileroBatchStats);
  await measure(
    "Silero in its worker thread",
    () => worker.detector(PHONE_FORMAT),
    () => worker.stats(),
  );
}
await worker.stop();
