/**
 * Voice activity detectors on the labelled set of `packages/server/test/support/vad-corpus.ts`
 * (espeak-ng voices, sox noise), through the `SilenceTurnDetector` a pipeline session uses. See README.md.
 */
import { performance } from "node:perf_hooks";
import { PHONE_FORMAT, WEB_FORMAT } from "../../packages/server/src/modules/media/index.ts";
import {
  runSileroBatches,
  sileroBatchStats,
  sileroDetector,
  sileroDetectorOf,
} from "../../packages/server/src/modules/voice/silero-vad.ts";
import { SilenceTurnDetector } from "../../packages/server/src/modules/voice/turn-detector.ts";
import {
  energyDetector,
  type VoiceActivityFactory,
} from "../../packages/server/src/modules/voice/voice-activity.ts";
import {
  framesOf,
  scoreDetector,
  type VadScore,
  vadCorpus,
} from "../../packages/server/test/support/vad-corpus.ts";

/** Name, detector, and what runs where the event loop turns after a frame (Silero's batches answer there). */
const detectors: [string, VoiceActivityFactory, (() => void)?][] = [
  ["energy", energyDetector],
  // Batched (the default): on the labelled set one stream at a time, so a batch of one answered before
  // the next frame; the decision comes a frame later than per stream. Its CPU is under "concurrent streams".
  ["silero", sileroDetector, runSileroBatches],
  ["silero/stream", sileroDetectorOf({ inference: "stream" })],
  // The same model over windows twice as long: half the runs per second (a run costs about the same).
  ["silero 64 ms", sileroDetectorOf({ windowMs: 64, inference: "stream" })],
];
const only = (flag: string) => process.argv.includes(flag);

const rssBefore = process.memoryUsage().rss;
sileroDetector(PHONE_FORMAT);
const rssModel = process.memoryUsage().rss;
const corpus = vadCorpus();
console.log(
  `labelled set: ${corpus.turns.length} turns, ${corpus.overAssistant.length} cases over the assistant ` +
    "(backchannels, noise only, real interruptions)",
);

for (const format of only("--cpu") ? [] : [PHONE_FORMAT, WEB_FORMAT]) {
  console.log(`\n== ${format.encoding} ${format.sampleRate} Hz`);
  // Warm-up: the model's load and the first runs are not per-frame cost.
  for (const [, detector, afterFrame] of detectors)
    scoreDetector(
      { turns: corpus.turns.slice(0, 2), overAssistant: [] },
      detector,
      format,
      undefined,
      afterFrame,
    );
  const scores = detectors.map(
    ([name, detector, afterFrame]) =>
      [name, scoreDetector(corpus, detector, format, undefined, afterFrame)] as const,
  );
  const energy = scores[0]![1];
  for (const [name, score] of scores) print(name, score, energy);
}

for (const format of [PHONE_FORMAT, WEB_FORMAT]) concurrentStreams(format, [1, 10, 50, 100], 5);
if (!only("--cpu")) await concurrentCalls(100, 10);

const rssAfter = process.memoryUsage().rss;
const streams = Array.from({ length: 100 }, () => sileroDetector(PHONE_FORMAT));
console.log(
  `\nmemory: the model loaded once per process +${mb(rssModel - rssBefore)} MB RSS; ` +
    `100 more Silero streams: +${mb(process.memoryUsage().rss - rssAfter)} MB (${streams.length} states)`,
);

function print(name: string, score: VadScore, energy: VadScore) {
  const delays = [...score.endDelaysMs].sort((a, b) => a - b);
  const p = (q: number) =>
    delays.length ? delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]! : NaN;
  const usPerFrame = Number(score.cpuNs) / 1000 / score.frames;
  const energyUs = Number(energy.cpuNs) / 1000 / energy.frames;
  const ratio = (a: number, b: number) => (b === 0 ? (a === 0 ? "=" : "∞") : `${(a / b).toFixed(2)}×`);
  console.log(
    `${name.padEnd(12)} false barge-ins: backchannel ${score.falseBargeInsBackchannel}/${score.backchannels} ` +
      `(${ratio(score.falseBargeInsBackchannel, energy.falseBargeInsBackchannel)} energy), ` +
      `noise only ${score.falseBargeInsNoise}/${score.noiseOnly} (${ratio(score.falseBargeInsNoise, energy.falseBargeInsNoise)}); ` +
      `missed interruptions ${score.missedInterruptions}/${score.interruptions}`,
  );
  console.log(
    `        premature cut-offs ${score.prematureCutOffs}/${score.turns} (${ratio(score.prematureCutOffs, energy.prematureCutOffs)}), ` +
      `turns never ended ${score.missedEnds}/${score.turns} (${ratio(score.missedEnds, energy.missedEnds)}); ` +
      `added end-of-turn delay p50 ${p(0.5).toFixed(0)} ms, p95 ${p(0.95).toFixed(0)} ms over ${delays.length} ended turns`,
  );
  console.log(
    `        CPU ${usPerFrame.toFixed(1)} µs per 20 ms frame (${ratio(usPerFrame, energyUs)} energy; ` +
      `${(usPerFrame * 50).toFixed(0)} µs per call-second, ${(20000 / usPerFrame).toFixed(0)} calls per core at most)`,
  );
}

/**
 * Silero's CPU per 20 ms frame with `n` streams at once, batched against per stream, in `rounds`
 * interleaved rounds: every stream (speech in noise from the set, each starting at its own point and
 * with its windows completing on its own frames) gets one frame per tick, then the batches run, as they do
 * when the event loop turns after reading the sockets; 250 ticks (5 s of media) per round, the process's
 * CPU time. Only the detector (no turn logic), and every window is speech or noise (the model runs).
 */
function concurrentStreams(format: typeof PHONE_FORMAT, counts: number[], rounds: number) {
  const audio = corpus.turns
    .filter((turn) => turn.noiseDb === -40)
    .map((turn) => framesOf(turn.pcm, format).slice(25, 150));
  const ticks = 250;
  const run = (n: number, inference: "batched" | "stream") => {
    const streams = Array.from({ length: n }, () => sileroDetectorOf({ inference })(format));
    // Streams start on their own frames: 5 windows complete every 8 frames, on different frames per stream.
    streams.forEach((stream, i) => {
      for (let k = 0; k < i % 8; k++) stream.voiced(audio[i % audio.length]![k]!);
    });
    runSileroBatches();
    const stats = sileroBatchStats();
    const cpu = process.cpuUsage();
    for (let tick = 0; tick < ticks; tick++) {
      for (let i = 0; i < n; i++) {
        const frames = audio[i % audio.length]!;
        streams[i]!.voiced(frames[(tick + i * 7) % frames.length]!);
      }
      runSileroBatches();
    }
    const used = process.cpuUsage(cpu);
    const after = sileroBatchStats();
    return {
      us: (used.user + used.system) / (n * ticks),
      batch: (after.windows - stats.windows) / Math.max(1, after.runs - stats.runs),
    };
  };
  run(10, "batched");
  run(10, "stream");
  console.log(
    `\n== Silero CPU per 20 ms frame, n ${format.encoding} ${format.sampleRate} Hz streams fed a frame each per tick, ` +
      `batches run after each tick; ${rounds} interleaved rounds of ${ticks} ticks, median (min–max)`,
  );
  for (const n of counts) {
    const results = { batched: [] as number[], stream: [] as number[], batch: [] as number[] };
    for (let round = 0; round < rounds; round++) {
      const batched = run(n, "batched");
      results.batched.push(batched.us);
      results.batch.push(batched.batch);
      results.stream.push(run(n, "stream").us);
    }
    const med = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      return `${sorted[Math.floor(sorted.length / 2)]!.toFixed(1)} (${sorted[0]!.toFixed(1)}–${sorted.at(-1)!.toFixed(1)})`;
    };
    const ratio =
      [...results.batched].sort((a, b) => a - b)[Math.floor(rounds / 2)]! /
      [...results.stream].sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
    console.log(
      `${String(n).padStart(4)} streams: batched ${med(results.batched)} µs, per stream ${med(results.stream)} µs ` +
        `(batched ${ratio.toFixed(2)}×); windows per run ${med(results.batch)}`,
    );
  }
}

/**
 * `calls` pipeline detectors (SilenceTurnDetector over Silero, and over energy) fed one phone frame each every
 * 20 ms for `seconds` from one timer, as the sessions of one process are: how late each tick starts
 * (its lateness includes the previous tick's work) against the same timer loop with no call.
 */
async function concurrentCalls(calls: number, seconds: number) {
  const audio = corpus.turns
    .filter((turn) => turn.noiseDb === -40)
    .map((turn) => framesOf(turn.pcm, PHONE_FORMAT));
  const ticks = seconds * 50;
  const run = async (detector: VoiceActivityFactory | null) => {
    const turns = Array.from(
      { length: calls },
      () => new SilenceTurnDetector(750, PHONE_FORMAT, false, detector?.(PHONE_FORMAT)),
    );
    const late: number[] = [];
    const start = performance.now();
    const cpu = process.cpuUsage();
    for (let tick = 0; tick < ticks; tick++) {
      const due = start + tick * 20;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      late.push(performance.now() - due);
      if (!detector) continue;
      turns.forEach((turn, call) => {
        const frames = audio[call % audio.length]!;
        turn.push(frames[(tick + call * 7) % frames.length]!);
      });
    }
    const used = process.cpuUsage(cpu);
    late.sort((a, b) => a - b);
    const q = (p: number) => late[Math.min(late.length - 1, Math.floor(p * late.length))]!;
    return { p50: q(0.5), p99: q(0.99), cpuPerTickMs: (used.user + used.system) / 1000 / ticks };
  };
  const bare = await run(null);
  console.log(`
== ${calls} concurrent phone calls, one 20 ms frame each per tick, ${seconds} s`);
  for (const [name, detector] of [["none (bare timer)", null], ...detectors] as const) {
    const result = detector === null ? bare : await run(detector);
    console.log(
      `${name.padEnd(18)} tick lateness p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms ` +
        `(p99 − bare ${(result.p99 - bare.p99).toFixed(2)} ms); CPU ${result.cpuPerTickMs.toFixed(2)} ms per tick ` +
        `(${((result.cpuPerTickMs / 20) * 100).toFixed(0)}% of one core)`,
    );
  }
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
