#!/usr/bin/env node
// Installs and builds once, not on every start: each step (install, prisma client, widget, server
// build) records a fingerprint of its inputs (content hashes of the files it reads, and the Node
// version for the install) under node_modules/.cache/voxgate/, and runs again only when that
// fingerprint changes or one of its outputs is missing. Deleting node_modules starts from scratch.
//
//   node scripts/prepare.mjs [install] [prisma] [widget] [console] [server]   (no names: all, in that order)
//
// Only Node built-ins are imported here: on a fresh clone nothing else is installed yet.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../", import.meta.url));

/** Folders never read as inputs: installed or generated trees that no step builds from. */
const SKIPPED_DIRS = new Set(["node_modules", "dist", ".git", "__screenshots__"]);

function isInputFile(name) {
  return !name.endsWith(".test.ts");
}

/** Files under the folder `path`, relative to `root`. */
function listFiles(root, path) {
  const files = [];
  const walk = (relativeDir) => {
    for (const entry of readdirSync(join(root, relativeDir), { withFileTypes: true })) {
      const relativePath = `${relativeDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(relativePath);
      } else if (isInputFile(entry.name)) {
        files.push(relativePath);
      }
    }
  };
  walk(path);
  return files;
}

/**
 * A file whose modification is this recent is not remembered by its size and time: a write within
 * the file system's timestamp granularity after hashing would keep both ("racy git").
 */
const RACY_MS = 2_000;

/**
 * Content digests of the inputs, remembered under node_modules/.cache/voxgate/ with each file's
 * size, modification time and inode: a file whose three are unchanged is not read and hashed again
 * (the server's sources are most of `npm start`'s check). Any change of the three rehashes the
 * content, so a checkout that only touches times changes nothing.
 */
function digestCache(root) {
  const file = join(cacheDir(root), "file-digests.json");
  let entries = {};
  try {
    entries = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    // No cache yet, or an unreadable one: every file is hashed.
  }
  let changed = false;
  return {
    digest(relativePath) {
      const absolute = join(root, relativePath);
      const stat = statSync(absolute);
      const key = `${stat.size}:${stat.mtimeMs}:${stat.ino}`;
      const known = entries[relativePath];
      if (known?.key === key) return known.digest;
      const digest = createHash("sha256").update(readFileSync(absolute)).digest("hex");
      if (Date.now() - stat.mtimeMs > RACY_MS) {
        entries[relativePath] = { key, digest };
        changed = true;
      }
      return digest;
    },
    save() {
      if (!changed || !existsSync(join(root, "node_modules"))) return;
      mkdirSync(cacheDir(root), { recursive: true });
      writeFileSync(`${file}.${process.pid}.tmp`, JSON.stringify(entries));
      renameSync(`${file}.${process.pid}.tmp`, file);
    },
  };
}

/**
 * A hash of every input's path and content, plus `extra` (e.g. the Node version). Content rather
 * than modification times: a checkout or a copy touches times without changing anything.
 */
export function fingerprint(root, inputs, extra = "") {
  const hash = createHash("sha256");
  const digests = digestCache(root);
  hash.update(extra);
  for (const input of inputs) {
    const absolute = join(root, input);
    if (!existsSync(absolute)) {
      hash.update(`\0missing:${input}`);
      continue;
    }
    const files = statSync(absolute).isDirectory() ? listFiles(root, input).sort() : [input];
    for (const file of files) {
      hash.update(`\0${file}\0`);
      hash.update(digests.digest(file));
    }
  }
  digests.save();
  return hash.digest("hex");
}

function cacheDir(root) {
  return join(root, "node_modules", ".cache", "voxgate");
}

function stampFile(root, name) {
  return join(cacheDir(root), `${name}.stamp`);
}

/** Whether a step must run: no stamp, a different fingerprint, or a missing output. */
export function isStale(root, step) {
  const hash = fingerprint(root, step.inputs(root), step.extra?.() ?? "");
  const file = stampFile(root, step.name);
  const recorded = existsSync(file) ? readFileSync(file, "utf8").trim() : null;
  const outputsPresent = step.outputs.every((output) => existsSync(join(root, output)));
  return { stale: recorded !== hash || !outputsPresent, hash };
}

/** Written after the step succeeded, atomically, so an interrupted step runs again next time. */
export function recordStamp(root, step, hash) {
  const file = stampFile(root, step.name);
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(`${file}.tmp`, `${hash}\n`);
  renameSync(`${file}.tmp`, file);
}

function packageManifests(root) {
  const dir = join(root, "packages");
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(dir, entry.name, "package.json")))
    .map((entry) => `packages/${entry.name}/package.json`)
    .sort();
}

/** Runs a tool as a package script would: with the package's and the root's node_modules/.bin on PATH. */
function run(command, args, cwd) {
  const bins = [join(cwd, "node_modules", ".bin"), join(repoRoot, "node_modules", ".bin")];
  // What a step builds is served by `npm start` too: a NODE_ENV of the caller (a test run's "test")
  // would make Vite bundle Lit's development build into the console and the widget.
  const { NODE_ENV: _callers, ...inherited } = process.env;
  const env = { ...inherited, PATH: [...bins, process.env.PATH].join(delimiter) };
  const result = spawnSync(command, args, { cwd, env, stdio: "inherit" });
  if (result.status !== 0) {
    throw new Error(
      `${[command, ...args].join(" ")} failed (${result.error?.message ?? `exit ${result.status}`})`,
    );
  }
}

const node = process.execPath;

/** The steps in dependency order; every step also depends on the lockfile (tool versions). */
export const steps = [
  {
    name: "install",
    description: "pnpm install",
    inputs: (root) => [
      "pnpm-lock.yaml",
      "pnpm-workspace.yaml",
      ".npmrc",
      "package.json",
      ...packageManifests(root),
      // A workspace project too (pnpm-workspace.yaml): its dependencies come with the same install.
      "examples/typed-client/package.json",
    ],
    // Native modules and pnpm's layout depend on the Node build the install ran with.
    extra: () => `${process.version} ${process.platform} ${process.arch}`,
    outputs: ["node_modules/.modules.yaml"],
    run: (root) => run(node, [join(root, "scripts/pnpm.mjs"), "install", "--frozen-lockfile"], root),
  },
  {
    name: "prisma",
    description: "Prisma client generation",
    inputs: () => [
      "pnpm-lock.yaml",
      "packages/server/prisma/schema.prisma",
      "packages/server/prisma.config.ts",
      "packages/server/scripts/prisma.mjs",
    ],
    outputs: [
      "packages/server/src/generated/prisma/client.ts",
      "packages/server/src/generated/pothos-types.ts",
    ],
    run: (root) => run(node, ["scripts/prisma.mjs", "generate"], join(root, "packages/server")),
  },
  {
    name: "widget",
    description: "widget build",
    inputs: () => [
      "pnpm-lock.yaml",
      "packages/widget/package.json",
      "packages/widget/tsconfig.json",
      "packages/widget/vite.config.ts",
      "packages/widget/custom-elements-manifest.config.mjs",
      "packages/widget/src",
    ],
    outputs: ["packages/widget/dist/index.js", "packages/widget/dist/voxgate-chat.js"],
    run: (root) => run(node, [join(root, "scripts/pnpm.mjs"), "run", "build"], join(root, "packages/widget")),
  },
  {
    name: "console",
    description: "console build",
    inputs: () => [
      "pnpm-lock.yaml",
      "packages/console/package.json",
      "packages/console/tsconfig.json",
      "packages/console/vite.config.ts",
      "packages/console/index.html",
      "packages/console/src",
    ],
    outputs: ["packages/console/dist/index.html"],
    run: (root) =>
      run(node, [join(root, "scripts/pnpm.mjs"), "run", "build"], join(root, "packages/console")),
  },
  {
    name: "server",
    description: "server build (JavaScript in packages/*/dist)",
    inputs: () => [
      "pnpm-lock.yaml",
      "scripts/build-server.mjs",
      "packages/server/package.json",
      "packages/server/src",
      "packages/rest-compat/package.json",
      "packages/rest-compat/src",
    ],
    outputs: ["packages/server/dist/main.js", "packages/rest-compat/dist/index.js"],
    run: (root) => run(node, [join(root, "scripts/build-server.mjs")], root),
  },
];

/** Set for the steps' own processes (the install's postinstall scripts): their parent holds the lock. */
const LOCK_HELD = "VOXGATE_PREPARE_LOCK_HELD";

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function processAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}

/**
 * One preparation at a time per checkout (two `npm start`s, a test run beside a start): the lock
 * is a directory, created atomically, naming its holder's pid; a holder that died leaves a lock the
 * next one takes over.
 */
function withLock(root, work) {
  if (process.env[LOCK_HELD]) return work();
  const lock = join(cacheDir(root), "prepare.lock");
  mkdirSync(cacheDir(root), { recursive: true });
  let announced = false;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
    }
    const pidFile = join(lock, "pid");
    const holder = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8")) : Number.NaN;
    if (Number.isInteger(holder) && !processAlive(holder)) {
      rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (!announced) process.stdout.write("[voxgate] waiting for another install or build of this checkout\n");
    announced = true;
    sleepSync(200);
  }
  writeFileSync(join(lock, "pid"), String(process.pid));
  process.env[LOCK_HELD] = "1";
  try {
    return work();
  } finally {
    delete process.env[LOCK_HELD];
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Runs the named steps (all by default) whose inputs changed, in order; returns the names of those
 * run. `root` and `steps` are replaceable for tests.
 */
export function prepare(names, options = {}) {
  const root = options.root ?? repoRoot;
  const all = options.steps ?? steps;
  const wanted = names ?? all.map((step) => step.name);
  return withLock(root, () => {
    const ran = [];
    for (const step of all.filter((candidate) => wanted.includes(candidate.name))) {
      // Fingerprinted before the run, so that a file edited during a build makes the next start
      // build again; each step is checked only once the previous one ran (the server build reads
      // what the prisma step generates).
      const { stale, hash } = isStale(root, step);
      if (!stale) continue;
      process.stdout.write(`[voxgate] ${step.description}: inputs changed, running\n`);
      step.run(root);
      recordStamp(root, step, hash);
      ran.push(step.name);
    }
    return ran;
  });
}

if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !steps.some((step) => step.name === name));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown step(s): ${unknown.join(", ")}; known: ${steps.map((s) => s.name).join(", ")}\n`,
    );
    process.exit(2);
  }
  try {
    prepare(names.length > 0 ? names : undefined);
  } catch (error) {
    process.stderr.write(`[voxgate] ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
