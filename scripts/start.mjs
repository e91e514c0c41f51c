#!/usr/bin/env node
// `npm start`: installs and builds only what changed since the last start (scripts/prepare.mjs),
// then runs the compiled server in this process, so one Node process serves (no tsx, no pnpm).
import { fork } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { prepare } from "./prepare.mjs";

const repoRoot = fileURLToPath(new URL("../", import.meta.url));
const serverDist = join(repoRoot, "packages/server/dist");
const workerEntry = join(serverDist, "db/pglite-worker.mjs");

/**
 * The embedded database's process boots for about a second (PGlite's WebAssembly start and recovery)
 * while this process needs only a fraction of that to check the build and load the server: it is
 * forked first, waits for its options, and the server takes it over (src/db/pglite-process.ts,
 * `takePreforked`). Only a guess from the raw environment: the server's validated configuration
 * decides, and a server on PostgreSQL lets it go. The fork options match openPglite's.
 */
function forkEmbeddedDatabase() {
  if (process.env.DATABASE_URL || !existsSync(workerEntry)) return undefined;
  return fork(workerEntry, {
    // pgliteExecArgv (src/db/pglite-process.ts): PGlite on the baseline WebAssembly compiler unless configured.
    execArgv: [
      "--max-semi-space-size=1",
      ...(process.env.VOXGATE_PGLITE_OPTIMIZING_COMPILER === "true" ? [] : ["--liftoff-only"]),
    ],
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

const database = forkEmbeddedDatabase();
let ran;
try {
  ran = prepare();
} catch (error) {
  process.stderr.write(`[voxgate] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
if (database) {
  // A build or an install may have replaced the code it runs: it goes (it has opened nothing yet).
  if (ran.length > 0) database.kill("SIGKILL");
  else globalThis[Symbol.for("voxgate.pglite-process")] = database;
}
await import(pathToFileURL(join(serverDist, "main.js")).href);
