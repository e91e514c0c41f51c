#!/usr/bin/env node
// `npm start`: installs and builds only what changed since the last start (scripts/prepare.mjs),
// then runs the compiled server in this process, so one Node process serves (no tsx, no pnpm).
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { prepare } from "./prepare.mjs";

const repoRoot = fileURLToPath(new URL("../", import.meta.url));

try {
  prepare();
} catch (error) {
  process.stderr.write(`[voxgate] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
await import(pathToFileURL(join(repoRoot, "packages/server/dist/main.js")).href);
