#!/usr/bin/env node
// `pnpm run check`: the root's `lint`, `deps` and `typecheck:bench` scripts and every workspace package's `typecheck`,
// `schema:check` and `codegen:check` scripts. They read committed files and write nothing, so they
// run side by side, as many at once as there are cores (at least two), typechecks first: they are
// the longest. Each script runs directly from its package.json with the package's binaries on PATH,
// as `pnpm run` would, without a pnpm start-up per step, and its output is printed whole when it
// ends, with its time, so that parallel logs never interleave.
import { spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = fileURLToPath(new URL("../", import.meta.url));
const PACKAGE_SCRIPTS = ["typecheck", "schema:check", "codegen:check"];
const ROOT_SCRIPTS = ["lint", "deps", "typecheck:bench"];

/** Workspace package folders, from pnpm-workspace.yaml's `packages:` list (plain paths or `dir/*`). */
function workspaceDirs() {
  const lines = readFileSync(join(repoRoot, "pnpm-workspace.yaml"), "utf8").split("\n");
  const start = lines.findIndex((line) => line.trim() === "packages:");
  const dirs = [];
  for (const line of lines.slice(start + 1)) {
    const entry = /^\s+-\s+["']?([^"']+)["']?\s*$/.exec(line);
    if (!entry) break;
    const pattern = entry[1];
    if (pattern.endsWith("/*")) {
      const parent = pattern.slice(0, -2);
      for (const name of readdirSync(join(repoRoot, parent)).sort()) dirs.push(`${parent}/${name}`);
    } else {
      dirs.push(pattern);
    }
  }
  return dirs;
}

function scriptsOf(dir) {
  try {
    return JSON.parse(readFileSync(join(repoRoot, dir, "package.json"), "utf8")).scripts ?? {};
  } catch {
    return {};
  }
}

const steps = [];
for (const dir of workspaceDirs()) {
  const scripts = scriptsOf(dir);
  for (const script of PACKAGE_SCRIPTS) {
    if (scripts[script]) steps.push({ name: `${dir} ${script}`, dir, command: scripts[script] });
  }
}
const rootScripts = scriptsOf(".");
for (const script of ROOT_SCRIPTS) steps.push({ name: script, dir: ".", command: rootScripts[script] });
// Typechecks first, the server's (the largest) before all; the rest keep their order.
const rank = (step) => (step.name.endsWith(" typecheck") ? (step.dir === "packages/server" ? 0 : 1) : 2);
steps.sort((a, b) => rank(a) - rank(b));

function run(step) {
  const cwd = join(repoRoot, step.dir);
  const bins = [join(cwd, "node_modules", ".bin"), join(repoRoot, "node_modules", ".bin")];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(step.command, {
      cwd,
      shell: true,
      env: { ...process.env, PATH: [...bins, process.env.PATH].join(delimiter) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const collect = (chunk) => {
      output += chunk;
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    const finish = (ok, error) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1);
      const detail = [error?.message, output.trimEnd()].filter(Boolean).join("\n");
      process.stdout.write(
        `${ok ? "✓" : "✗"} ${step.name}: ${step.command} (${seconds} s)\n${detail ? `${detail}\n` : ""}`,
      );
      resolve(ok);
    };
    child.on("error", (error) => finish(false, error));
    child.on("close", (code) => finish(code === 0));
  });
}

const started = performance.now();
const queue = [...steps];
const failed = [];
const lanes = Math.min(Math.max(2, availableParallelism()), queue.length);
await Promise.all(
  Array.from({ length: lanes }, async () => {
    for (let step = queue.shift(); step; step = queue.shift()) {
      if (!(await run(step))) failed.push(step.name);
    }
  }),
);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
if (failed.length > 0) {
  process.stdout.write(`check failed in ${seconds} s: ${failed.join(", ")}\n`);
  process.exit(1);
}
process.stdout.write(`check passed in ${seconds} s (${steps.length} steps, ${lanes} at once)\n`);
