// The console's size budget, gzipped (level 9): what the browser downloads before the first screen
// shows, beside the widget's embed file (Lit included) measured in the same run as the baseline.
//
//   pnpm exec tsx bench/console/size.bench.ts
//
// The console loads each screen's chunk on the first visit of its route (packages/console/src/
// screen-chunks.ts). The initial load is the page, its entry script and what that imports statically:
// enough for sign-in and the navigation. A route's first screen adds its chunks (and theirs). The
// budget holds for the heaviest route's first screen, so a deep link to any screen is within it.
// Rebuilds both first; exits with status 1 when over budget.
import { readFileSync } from "node:fs";
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

function gzipKb(bytes: Buffer | string): number {
  return gzipSync(bytes, { level: 9 }).byteLength / 1024;
}

const built = await build({ root: consoleRoot, logLevel: "warn" });
await build({ root: widgetRoot, mode: "embed", logLevel: "warn" });
const outputs = (Array.isArray(built) ? built : [built]) as import("vite").Rollup.RollupOutput[];

interface Script {
  fileName: string;
  imports: string[];
  gzip: number;
  raw: number;
  source: string | null;
}
const scripts = new Map<string, Script>();
let entry: Script | null = null;
let pageKb = 0;
for (const item of outputs.flatMap((output) => output.output)) {
  if (item.type === "chunk") {
    const script: Script = {
      fileName: item.fileName,
      imports: item.imports,
      gzip: gzipKb(item.code),
      raw: Buffer.byteLength(item.code) / 1024,
      source: item.facadeModuleId ? item.facadeModuleId.slice(join(consoleRoot, "src/").length) : null,
    };
    scripts.set(item.fileName, script);
    if (item.isEntry) entry = script;
  } else if (item.fileName.endsWith(".css")) {
    const source = Buffer.from(item.source);
    scripts.set(item.fileName, {
      fileName: item.fileName,
      imports: [],
      gzip: gzipKb(source),
      raw: source.byteLength / 1024,
      source: null,
    });
  } else if (item.fileName === "index.html") {
    pageKb = gzipKb(readFileSync(join(consoleRoot, "dist/index.html")));
  }
}
if (!entry) throw new Error("The console's build has no entry chunk.");

/** `fileNames` and every script they import statically, transitively. */
function closure(fileNames: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imported of scripts.get(name)?.imports ?? []) visit(imported);
  };
  fileNames.forEach(visit);
  return seen;
}
const sum = (names: Iterable<string>) =>
  [...names].reduce((kb, name) => kb + (scripts.get(name)?.gzip ?? 0), 0);

const initial = closure([entry.fileName]);
const initialKb = pageKb + sum(initial);

// Each route chunk's loader in screen-chunks.ts and the modules it imports, mapped to their chunks.
const bySource = new Map([...scripts.values()].filter((s) => s.source).map((s) => [s.source!, s.fileName]));
const loaders = readFileSync(join(consoleRoot, "src/screen-chunks.ts"), "utf8");
const routes = [...loaders.matchAll(/^ {2}"?([\w-]+)"?: async \(\)[\s\S]*?^ {2}\},$/gm)].map(
  ([block, name]) => {
    const modules = [...block.matchAll(/import\("\.\/([^"]+)"\)/g)].map(([, path]) => path!);
    const files = modules.map((path) => {
      const file = bySource.get(path);
      if (!file) throw new Error(`No chunk for ${path} (route chunk ${name}).`);
      return file;
    });
    const added = [...closure(files)].filter((file) => !initial.has(file));
    return { name: name!, kb: initialKb + sum(added), added: added.length, modules: modules.length };
  },
);
// Every import() of the file read into some route, or the file's shape changed under this reading.
if (
  routes.length === 0 ||
  routes.reduce((n, r) => n + r.modules, 0) !== loaders.split('import("./').length - 1
)
  throw new Error("screen-chunks.ts no longer reads as one block per route chunk; update this bench.");
const heaviest = routes.reduce((a, b) => (b.kb > a.kb ? b : a));
const within = heaviest.kb <= BUDGET_KB;

const kb = (value: number) => `${value.toFixed(2).padStart(7)} KB`;
const all = [...scripts.values()].sort((a, b) => b.gzip - a.gzip);
console.log(`Console size, gzip -9 (budget ${BUDGET_KB.toFixed(2)} KB for a route's first screen)`);
console.log(
  `  initial load: index.html and ${initial.size} script(s)   ${kb(initialKb)}  (sign-in and navigation; no screen yet)`,
);
console.log("  first screen of each route (initial load + its chunks):");
for (const route of [...routes].sort((a, b) => b.kb - a.kb)) {
  console.log(`    ${route.name.padEnd(34)}${kb(route.kb)}  (+${route.added} file(s))`);
}
console.log(
  `  heaviest first screen (${heaviest.name})${" ".repeat(Math.max(1, 19 - heaviest.name.length))}${kb(heaviest.kb)}  ${within ? "within budget" : "OVER BUDGET"}`,
);
console.log(
  `  total, every file (${all.length} script(s) and index.html)     ${kb(pageKb + sum(scripts.keys()))}  (${all.reduce((raw, s) => raw + s.raw, 0).toFixed(2)} KB raw)`,
);
console.log("  each file (gzip, raw; * = initial load):");
for (const script of all) {
  console.log(
    `    ${initial.has(script.fileName) ? "*" : " "} ${script.fileName.padEnd(40)}${kb(script.gzip)}  ${script.raw.toFixed(2).padStart(7)} KB raw`,
  );
}
const widget = readFileSync(join(widgetRoot, "dist/voxgate-chat.js"));
console.log(
  `  baseline: widget embed (with Lit)  ${gzipKb(widget).toFixed(2)} KB  (${(widget.byteLength / 1024).toFixed(2)} KB raw)`,
);
if (!within) process.exitCode = 1;
