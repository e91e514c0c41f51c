import type { ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import pg from "pg";
import { DEFAULT_PGLITE_RECYCLE_MB, DEFAULT_PGLITE_SHARED_BUFFERS, type PgliteTuning } from "../env.ts";
import { connectPool, runOnConnection } from "./connection.ts";
import { lockDataDir } from "./data-dir-lock.ts";
import type { Database, RecycleOutcome } from "./database.ts";
import { forkWorker, nextMessage, pgliteExecArgv, takePreforked } from "./pglite-process.ts";

/** How long a stopping embedded database may take to flush and close before its process is killed. */
const CLOSE_TIMEOUT_MS = 10_000;
/** Must match BACKGROUND_APPLICATION in pglite-worker.mjs. */
const BACKGROUND_APPLICATION = "voxgate:background";
/** Unix socket paths longer than this do not fit `sockaddr_un`; a deeper data directory uses loopback. */
const MAX_SOCKET_PATH = 100;
/** node-postgres looks for `<host>/.s.PGSQL.<port>` when the host is a directory. */
const SOCKET_PORT = 5432;

export class DatabaseStoppedError extends Error {
  constructor(cause: unknown) {
    super(
      `The embedded database stopped unexpectedly: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = "DatabaseStoppedError";
  }
}

/**
 * How long a recycle waits for queries already running once it holds new ones back: a quiet database
 * has none, so one that is still busy after this is not quiet after all and keeps its process.
 */
const RECYCLE_DRAIN_MS = 100;
/** A quiet database's connections are busy less than this share of the recycle's idle window. */
const RECYCLE_QUIET_SHARE = 0.05;
/** A successor must first hold this much less than the threshold allows, or it is not replaced again. */
const RECYCLE_MARGIN_MB = 32;

/**
 * Opens PGlite in a child process of its own (src/db/pglite-worker.mjs) and connects to it as to a
 * PostgreSQL server, so that queries, migrations and ingestion batches never block the thread that
 * answers requests, and the database's WebAssembly memory (over 100 MB) is not the server's heap to
 * collect or its process to bloat. `loadDataDir` starts from a dump of another PGlite (tests start
 * from an already migrated one); without `dataDir` the database lives in memory.
 *
 * WebAssembly memory grows to the high-water mark of whatever ran (the data directory's creation and
 * the migrations, an ingestion) and is never given back. A database on disk is therefore served by a
 * fresh process once its process holds more than `tuning.recycleMb` and its connections have been
 * quiet for `tuning.recycleIdleMs`: new connections are held back, the old process closes the database
 * (its shutdown checkpoint), the successor (forked and compiled beforehand) opens it, and the held
 * connections go to it (`recycle`).
 */
export async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob,
  sharedBuffers = DEFAULT_PGLITE_SHARED_BUFFERS,
  tuning: Partial<PgliteTuning> = {},
): Promise<
  Database & {
    dumpDataDir(): Promise<Blob>;
    readonly process: ChildProcess;
    /** Replaces the process now (after queries running finish), whatever it holds; false if it cannot. */
    recycle(): Promise<RecycleOutcome | null>;
  }
> {
  const recycleMb = tuning.recycleMb ?? DEFAULT_PGLITE_RECYCLE_MB;
  const recycleIdleMs = tuning.recycleIdleMs ?? 20_000;
  const optimizingCompiler = tuning.optimizingCompiler ?? false;
  let location: string | undefined;
  let socketPath: string | undefined;
  let releaseLock = () => {};
  if (dataDir) {
    location = join(dataDir, "pglite");
    mkdirSync(location, { recursive: true });
    releaseLock = lockDataDir(dataDir);
    const path = join(dataDir, `.s.PGSQL.${SOCKET_PORT}`);
    if (path.length <= MAX_SOCKET_PATH) {
      // Left by a crashed process (the lock above proves no live one owns it).
      rmSync(path, { force: true });
      socketPath = path;
    }
  }
  const initial = loadDataDir ? new Uint8Array(await loadDataDir.arrayBuffer()) : undefined;
  const crashListeners = new Set<(error: DatabaseStoppedError) => void>();
  const recycleListeners = new Set<(outcome: RecycleOutcome) => void>();
  let closing = false;
  let crashed: DatabaseStoppedError | null = null;
  const crash = (cause: unknown) => {
    if (closing || crashed) return;
    crashed = new DatabaseStoppedError(cause);
    for (const listener of crashListeners) listener(crashed);
  };
  const exitOf = new WeakMap<ChildProcess, Promise<void>>();
  /** Watches a process that serves (or is about to): its end is a crash unless it was asked to stop. */
  const watch = (child: ChildProcess) => {
    exitOf.set(child, new Promise<void>((resolve) => child.once("exit", () => resolve())));
    child.on("error", (error) => {
      if (child === current) crash(error);
    });
    child.on("exit", (code, signal) => {
      if (child === current)
        crash(new Error(`its process exited with ${signal ? `signal ${signal}` : `code ${code}`}`));
    });
  };
  const kill = async (child: ChildProcess) => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exitOf.get(child);
  };
  /** Asks a process that serves to close the database and waits for it to end (killed after a while). */
  const stop = async (child: ChildProcess) => {
    if (child.connected) {
      child.send({ kind: "close" });
      await Promise.race([exitOf.get(child), nextMessage(child, "closed", CLOSE_TIMEOUT_MS).catch(() => {})]);
    }
    await kill(child);
  };
  /** Sends a process its options; a successor opens the data directory as its predecessor left it. */
  const boot = (child: ChildProcess, loadDataDir?: Uint8Array) => {
    const ready = nextMessage(child, "ready").then((message) => message.address);
    child.send({ location, loadDataDir, socketPath, sharedBuffers });
    return ready;
  };

  const preforked = takePreforked(pgliteExecArgv(optimizingCompiler));
  let current: ChildProcess = preforked ?? forkWorker(optimizingCompiler);
  watch(current);
  const started = boot(current, initial).catch((error: Error) => {
    throw new Error(`The embedded database did not start: ${error.message}`);
  });
  started.catch(() => {});

  /** Connections checked out or being made; every one goes through `admit`. */
  let inUse = 0;
  /** While set, new connections wait for it: a recycle is switching processes. */
  let held: Promise<void> | null = null;
  /** When the connections were last all free, and how long they were busy in recent stretches. */
  let busySince = 0;
  const busyLog: { end: number; ms: number }[] = [];
  const enter = () => {
    if (inUse++ === 0) busySince = performance.now();
  };
  const leave = () => {
    if (--inUse > 0) return;
    const end = performance.now();
    busyLog.push({ end, ms: end - busySince });
    while (busyLog.length > 0 && busyLog[0]!.end < end - recycleIdleMs) busyLog.shift();
  };
  /** Routes a pool's checkouts through the recycle's gate, and counts them. */
  const admit = (pool: pg.Pool) => {
    const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
    pool.on("release", leave);
    const gated = async () => {
      while (held) await held;
      enter();
      try {
        return await connect();
      } catch (error) {
        leave();
        throw error;
      }
    };
    // pg-pool's own `query` goes through `this.connect` with a callback.
    pool.connect = ((
      callback?: (error: Error | undefined, client?: pg.PoolClient, done?: () => void) => void,
    ) => {
      const connecting = gated();
      if (!callback) return connecting;
      connecting.then(
        (client) => callback(undefined, client, () => client.release()),
        (error: Error) => callback(error),
      );
      return undefined;
    }) as typeof pool.connect;
  };

  let backgroundPool: pg.Pool;
  let pool: pg.Pool;
  let postgres: Database;
  try {
    // A socket path is known before the database is up, so the pools and Prisma's client are set up
    // while it boots (connectPool); a loopback port is only known once the child listens.
    const address = socketPath ? { path: socketPath } : await started;
    const server = {
      ...("path" in address
        ? { host: dirname(address.path), port: SOCKET_PORT }
        : { host: "127.0.0.1", port: address.port }),
      user: "postgres",
      database: "template1",
    };
    // One backend serves every connection in turn; a few connections let one wait at the backend
    // while others are being read or written, and keep a long transaction from starving the pool.
    pool = new pg.Pool({ ...server, max: 4 });
    // The child serves these connections after any waiting request's (their application name says so).
    backgroundPool = new pg.Pool({ ...server, max: 2, application_name: BACKGROUND_APPLICATION });
    backgroundPool.on("error", () => {});
    backgroundPool.on("connect", (client) => client.on("error", () => {}));
    admit(pool);
    admit(backgroundPool);
    postgres = await connectPool(pool, () => "the embedded database", started);
  } catch (error) {
    closing = true;
    await kill(current);
    releaseLock();
    throw error;
  }

  const memoryOf = async (child: ChildProcess) => {
    const reply = nextMessage(child, "memory", CLOSE_TIMEOUT_MS);
    child.send({ kind: "memory" });
    return (await reply).rss / 1e6;
  };
  /** What a successor held once it answered: it is not replaced again for holding that. */
  let floorMb = 0;
  let recycling: Promise<RecycleOutcome | null> | null = null;

  /**
   * Replaces the serving process by a fresh one. New connections wait meanwhile; connections in use
   * get `drainMs` to be released, or the recycle is called off and nothing changed. Only a database
   * on disk reached over its socket can be recycled (its successor listens on the same path).
   */
  const recycle = (drainMs: number): Promise<RecycleOutcome | null> => {
    if (recycling) return recycling;
    if (!socketPath || closing || crashed) return Promise.resolve(null);
    const run = async (): Promise<RecycleOutcome | null> => {
      const beforeMb = await memoryOf(current);
      // Compiling PGlite's WebAssembly and reading its file-system image take the successor most of
      // its start: done before anything is held back.
      const successor = forkWorker(optimizingCompiler);
      const successorExit = new Promise((resolve) => successor.once("exit", resolve));
      try {
        await nextMessage(successor, "preloaded", CLOSE_TIMEOUT_MS);
      } catch {
        successor.kill("SIGKILL");
        return null;
      }
      let release = () => {};
      held = new Promise((resolve) => {
        release = resolve;
      });
      const pausedFrom = performance.now();
      try {
        if (!(await drained(drainMs)) || closing || crashed) {
          successor.kill("SIGKILL");
          await successorExit;
          return null;
        }
        const old = current;
        current = successor;
        watch(successor);
        await stop(old);
        // Its socket file may outlive it; the successor listens on the same path.
        rmSync(socketPath, { force: true });
        // The pools' idle connections were to the old process: they saw their sockets close.
        await settled(() => pool.idleCount === 0 && backgroundPool.idleCount === 0, 1_000);
        await boot(successor);
      } catch (error) {
        crash(error);
        throw error;
      } finally {
        held = null;
        release();
      }
      const pausedMs = performance.now() - pausedFrom;
      const afterMb = await memoryOf(current);
      floorMb = afterMb + RECYCLE_MARGIN_MB;
      const outcome = { beforeMb, afterMb, pausedMs };
      for (const listener of recycleListeners) listener(outcome);
      return outcome;
    };
    recycling = run().finally(() => {
      recycling = null;
    });
    return recycling;
  };
  /** Whether every connection is free within `ms` (new ones are held back meanwhile). */
  const drained = (ms: number) => settled(() => inUse === 0, ms);

  const quiet = () => {
    if (inUse > 0) return false;
    const since = performance.now() - recycleIdleMs;
    const busyMs = busyLog.filter((entry) => entry.end >= since).reduce((sum, entry) => sum + entry.ms, 0);
    return busyMs < recycleIdleMs * RECYCLE_QUIET_SHARE;
  };
  const overgrown = async () => {
    const rss = await memoryOf(current);
    return rss > recycleMb && rss > floorMb;
  };
  const openedAt = performance.now();
  const watchdog =
    socketPath && recycleMb > 0
      ? setInterval(
          () => {
            if (recycling || closing || crashed || performance.now() - openedAt < recycleIdleMs || !quiet())
              return;
            overgrown().then(
              (grown) => (grown && quiet() ? recycle(RECYCLE_DRAIN_MS) : null),
              () => null,
            );
          },
          Math.min(5_000, Math.max(250, recycleIdleMs / 4)),
        )
      : undefined;
  watchdog?.unref();

  return {
    ...postgres,
    withBackgroundConnection: (work) => runOnConnection(backgroundPool, work),
    kind: "pglite",
    ...(dataDir ? { dataDir } : {}),
    get process() {
      return current;
    },
    onCrash: (listener) => {
      crashListeners.add(listener);
      if (crashed) listener(crashed);
    },
    onRecycle: (listener) => {
      recycleListeners.add(listener);
    },
    recycle: () => recycle(Number.POSITIVE_INFINITY),
    releaseMemory: async () => {
      if (recycleMb === 0 || !socketPath) return null;
      return recycle(Number.POSITIVE_INFINITY);
    },
    dumpDataDir: async () => {
      const dump = nextMessage(current, "dump");
      current.send({ kind: "dump" });
      const { buffer } = await dump.catch(() => {
        throw new Error("The embedded database stopped before its dump.");
      });
      return new Blob([buffer as Uint8Array<ArrayBuffer>]);
    },
    close: async () => {
      clearInterval(watchdog);
      await recycling?.catch(() => {});
      closing = true;
      try {
        await Promise.all([postgres.close(), backgroundPool.end()]);
      } finally {
        if (!crashed) await stop(current);
        else await kill(current);
        if (socketPath) rmSync(socketPath, { force: true });
        releaseLock();
      }
    },
  };
}

/** Resolves with true once `condition` holds (checked each turn of the event loop), false after `ms`. */
async function settled(condition: () => boolean, ms: number): Promise<boolean> {
  const until = performance.now() + ms;
  while (!condition()) {
    if (performance.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return true;
}
