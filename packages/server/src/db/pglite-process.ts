import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";

// The embedded database's process (pglite-worker.mjs): how it is forked and spoken to, and the one
// `npm start` forked ahead of the server.

/** What the database's process sends over its IPC channel. */
export type WorkerMessage =
  | { kind: "preloaded" }
  | { kind: "ready"; address: { port: number } | { path: string } }
  | { kind: "dump"; buffer: Uint8Array }
  | { kind: "memory"; rss: number }
  | { kind: "closed" };

/** The V8 flag that keeps PGlite on the baseline WebAssembly compiler (see PgliteTuning). */
const BASELINE_ONLY = "--liftoff-only";

const workerPath = fileURLToPath(new URL("./pglite-worker.mjs", import.meta.url));

/** The flags the database's process runs with; scripts/start.mjs forks it with the same. */
export function pgliteExecArgv(optimizingCompiler: boolean): string[] {
  // A young generation of 1 MB instead of 16: the process's JavaScript only relays protocol messages,
  // and its idle resident memory is ~10-15 MB lower.
  return ["--max-semi-space-size=1", ...(optimizingCompiler ? [] : [BASELINE_ONLY])];
}

export function forkWorker(optimizingCompiler: boolean): ChildProcess {
  return fork(workerPath, {
    // The parent's loader flags (tsx) and inspector are not needed: the child is plain JavaScript.
    execArgv: pgliteExecArgv(optimizingCompiler),
    // Structured clone, so that a dump travels as bytes rather than as JSON (scripts/start.mjs forks
    // the same way).
    serialization: "advanced",
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
}

/** The next message of `kind` from `child`; rejects if it exits first or after `timeoutMs`. */
export function nextMessage<K extends WorkerMessage["kind"]>(
  child: ChildProcess,
  kind: K,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<Extract<WorkerMessage, { kind: K }>> {
  return new Promise((resolve, reject) => {
    const done = () => {
      child.off("message", onMessage);
      child.off("exit", onExit);
      clearTimeout(timer);
    };
    const onMessage = (message: WorkerMessage) => {
      if (message.kind !== kind) return;
      done();
      resolve(message as Extract<WorkerMessage, { kind: K }>);
    };
    const onExit = (code: number | null) => {
      done();
      reject(new Error(`The embedded database's process exited (code ${code}) before "${kind}".`));
    };
    const timer = Number.isFinite(timeoutMs)
      ? setTimeout(() => {
          done();
          reject(new Error(`The embedded database's process sent no "${kind}" within ${timeoutMs} ms.`));
        }, timeoutMs)
      : undefined;
    child.on("message", onMessage);
    child.once("exit", onExit);
  });
}

/** Where scripts/start.mjs leaves the database process it forked before loading the server. */
const PREFORKED = Symbol.for("voxgate.pglite-process");

/**
 * The embedded database's process that `npm start` forked before it checked the build and loaded this
 * code, so that its boot overlaps both; it waits for its options (openPglite sends them). Taken once:
 * a second database of the process (none in production) forks its own.
 */
export function takePreforked(execArgv: string[]): ChildProcess | undefined {
  const holder = globalThis as { [PREFORKED]?: ChildProcess };
  const child = holder[PREFORKED];
  delete holder[PREFORKED];
  // Forked on a guess from the raw environment: flags other than the configuration's mean another fork.
  const flags = child?.spawnargs.slice(1, -1) ?? [];
  if (child?.connected && flags.join(" ") === execArgv.join(" ")) return child;
  child?.kill("SIGKILL");
  return undefined;
}
