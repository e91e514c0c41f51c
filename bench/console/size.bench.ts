// The console's size budget: every script the page loads, gzipped (level 9), against a budget, beside
// the widget's embed file (Lit included) measured in the same run as the baseline.
//
//   pnpm exec tsx bench/console/size.bench.ts
//
// Rebuilds both first; exits with status 1 when the console is over budget.
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";

const BUDGET_KB = 70;
const consoleRoot = fileURLToPath(new URL("../../packages/console/", import.meta.url));
const widgetRoot = fileURLToPath(new URL("../../packages/widget/", import.meta.url));

// vite is the console package's dependency; resolve it from there.
const consoleRequire = createRequire(join(consoleRoot, "package.json"));
const { build } = (await import(consoleRequire.resolve("vite"))) as typeof import("vite");

function gzipKb(bytes: Buffer): number {
  return gzipSync(bytes, { level: 9 }).byteLength / 1024;
}

await build({ root: consoleRoot, logLevel: "warn" });
await build({ root: widgetRoot, mode: "embed", logLevel: "warn" });

const assets = join(consoleRoot, "dist/assets");
const scripts = readdirSync(assets).filter((name) => name.endsWith(".js") || name.endsWith(".css"));
let raw = 0;
let gzip = 0;
for (const name of scripts) {
  const bytes = readFileSync(join(assets, name));
  raw += bytes.byteLength / 1024;
  gzip += gzipKb(bytes);
}
const page = gzipKb(readFileSync(join(consoleRoot, "dist/index.html")));
const widget = readFileSync(join(widgetRoot, "dist/voxgate-chat.js"));

const within = gzip + page <= BUDGET_KB;
console.log(`Console size, gzip -9 (budget ${BUDGET_KB.toFixed(2)} KB for the page and its scripts)`);
console.log(
  `  dist/assets (${scripts.length} file(s))            ${gzip.toFixed(2)} KB  (${raw.toFixed(2)} KB raw)`,
);
console.log(`  dist/index.html                    ${page.toFixed(2)} KB`);
console.log(
  `  total                              ${(gzip + page).toFixed(2)} KB  ${within ? "within budget" : "OVER BUDGET"}`,
);
console.log(
  `  baseline: widget embed (with Lit)  ${gzipKb(widget).toFixed(2)} KB  (${(widget.byteLength / 1024).toFixed(2)} KB raw)`,
);
if (!within) process.exitCode = 1;
