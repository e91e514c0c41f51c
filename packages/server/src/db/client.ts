import { type ChildProcess, fork } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve as resolvePath } from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import {
  type Config,
  DEFAULT_PGLITE_RECYCLE_MB,
  DEFAULT_PGLITE_SHARED_BUFFERS,
  type PgliteTuning,
} from "../env.ts";
import type { PrismaClient } from "../generated/prisma/client.ts";

export type { PrismaClient };

/** Plain SQL access beside Prisma, for migrations, locks and vector/full-text queries. */
export interface SqlRunner {
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /**
   * `query` as a named prepared statement of this connection: parsed and planned on its first run,
   * after that its plan is reused (PostgreSQL's plan cache: a generic plan once it costs no more than
   * the custom ones), for a hot statement whose planning costs milliseconds. A generic plan does not
   * see the parameters' values, so it is for statements whose best plan does not depend on them.
   */
  prepared<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  /**
   * The pooled connection this runs on: the same object for every run on it, for callers that keep
   * settings in its session instead of setting them again each time (a round trip each).
   */
  readonly session: object;
}

export interface Database {
  kind: "pglite" | "postgres";
  /** The directory of an on-disk embedded database; files kept beside the data go under it. */
  dataDir?: string;
  prisma: PrismaClient;
  /** The connection pool, for libraries that open their own sessions (the job queue). */
  pgPool: pg.Pool;
  /**
   * Runs `work` on one dedicated connection: statements inside see each other's session state
   * (transactions, advisory locks). On PGlite every connection shares its single backend: a
   * transaction has it to itself, but session-level advisory locks do not exclude other connections.
   */
  withConnection<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * `withConnection` for background work that no request waits on (ingestion's batches). On the
   * embedded store its exchanges yield the single backend to requests' (see pglite-worker.mjs), so
   * such work keeps each statement short; on PostgreSQL, where every connection has a backend of its
   * own, it is `withConnection`.
   */
  withBackgroundConnection<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T>;
  /**
   * Called once if the database goes away for good while open: the embedded database's process died
   * (PostgreSQL connections recover by themselves, so it never calls there).
   */
  onCrash(listener: (error: Error) => void): void;
  close(): Promise<void>;
  /**
   * On the embedded store, replaces the database's process by a fresh one (after queries running
   * finish), for a moment nothing else runs (after a start that migrated: whatever it holds, a fresh
   * process holds less, since the migrations ran in this one; it held 214 to 787 MB against ~147 MB);
   * resolves with what it did, or null. PostgreSQL has nothing to give back: null.
   */
  releaseMemory(): Promise<RecycleOutcome | null>;
  /** Called after each replacement of the embedded database's process (never on PostgreSQL). */
  onRecycle(listener: (outcome: RecycleOutcome) => void): void;
}

export type DatabaseTarget =
  | {
      kind: "pglite";
      dataDir: string | undefined;
      loadDataDir?: Blob;
      sharedBuffers?: string;
      tuning?: Partial<PgliteTuning>;
    }
  | { kind: "postgres"; url: string };

/** Where the configuration says data lives. */
export function databaseTarget(config: Config): DatabaseTarget {
  return config.databaseUrl
    ? { kind: "postgres", url: config.databaseUrl }
    : {
        kind: "pglite",
        dataDir: config.dataDir,
        sharedBuffers: config.pgliteSharedBuffers,
        tuning: config.pglite,
      };
}

/**
 * Opens the configured store: a real PostgreSQL when a URL is given, otherwise PGlite on disk
 * under `<dataDir>/pglite` (or in memory when `dataDir` is undefined, for tests).
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === "postgres"
    ? openPostgres(target.url)
    : openPglite(target.dataDir, target.loadDataDir, target.sharedBuffers, target.tuning);
}

/** How long a stopping embedded database may take to flush and close before its process is killed. */
const CLOSE_TIMEOUT_MS = 10_000;
/** How long closing waits for queries still running before it cuts their connections. */
const CLOSE_GRACE_MS = 2_000;
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

type WorkerMessage =
  | { kind: "preloaded" }
  | { kind: "ready"; address: { port: number } | { path: string } }
  | { kind: "dump"; buffer: Uint8Array }
  | { kind: "memory"; rss: number }
  | { kind: "closed" };

/** What a replacement of the embedded database's process did (`Database.onRecycle`). */
export interface RecycleOutcome {
  /** Resident memory of the process replaced, and of its successor once it answered, in MB. */
  beforeMb: number;
  afterMb: number;
  /** How long new connections were held back: the old process's close and the new one's start. */
  pausedMs: number;
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
/** The V8 flag that keeps PGlite on the baseline WebAssembly compiler (see PgliteTuning). */
const BASELINE_ONLY = "--liftoff-only";

const workerPath = fileURLToPath(new URL("./pglite-worker.mjs", import.meta.url));

/** The flags the database's process runs with; scripts/start.mjs forks it with the same. */
export function pgliteExecArgv(optimizingCompiler: boolean): string[] {
  // A young generation of 1 MB instead of 16: the process's JavaScript only relays protocol messages,
  // and its idle resident memory is ~10-15 MB lower.
  return ["--max-semi-space-size=1", ...(optimizingCompiler ? [] : [BASELINE_ONLY])];
}

function forkWorker(optimizingCompiler: boolean): ChildProcess {
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
function nextMessage<K extends WorkerMessage["kind"]>(
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

/** Where scripts/start.mjs leaves the database process it forked before loading the server. */
const PREFORKED = Symbol.for("voxgate.pglite-process");

/**
 * The embedded database's process that `npm start` forked before it checked the build and loaded this
 * code, so that its boot overlaps both; it waits for its options (openPglite sends them). Taken once:
 * a second database of the process (none in production) forks its own.
 */
function takePreforked(execArgv: string[]): ChildProcess | undefined {
  const holder = globalThis as { [PREFORKED]?: ChildProcess };
  const child = holder[PREFORKED];
  delete holder[PREFORKED];
  // Forked on a guess from the raw environment: flags other than the configuration's mean another fork.
  const flags = child?.spawnargs.slice(1, -1) ?? [];
  if (child?.connected && flags.join(" ") === execArgv.join(" ")) return child;
  child?.kill("SIGKILL");
  return undefined;
}

/** Data directories opened by this process: the pid file alone cannot tell two opens in one process apart. */
const openHere = new Set<string>();

/**
 * PGlite is a single-process database: two processes writing one data directory corrupt it. A pid
 * file refuses the second opener with a clear message; one left by a crashed process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = join(dataDir, "pglite.pid");
  const inUse = (holder: number) =>
    new Error(
      `The embedded database in ${dataDir} is in use by process ${holder} (a running server?). ` +
        "Stop it first, or use DATABASE_URL with PostgreSQL for several processes.",
    );
  const key = resolvePath(dataDir);
  if (openHere.has(key)) throw inUse(process.pid);
  try {
    writeFileSync(lockPath, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number(readFileSync(lockPath, "utf8"));
    if (holder !== process.pid && isAlive(holder)) throw inUse(holder);
    writeFileSync(lockPath, String(process.pid));
  }
  openHere.add(key);
  return () => {
    openHere.delete(key);
    rmSync(lockPath, { force: true });
  };
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

async function openPostgres(url: string): Promise<Database> {
  // Not needed on PostgreSQL (start.mjs forks on a guess from the raw environment).
  takePreforked([])?.kill("SIGKILL");
  return connectPool(new pg.Pool({ connectionString: url, max: 10 }), () => `DATABASE_URL (${redact(url)})`);
}

/**
 * Both stores are reached the same way: node-postgres, Prisma's pg adapter, graphile-worker's pool.
 * `ready` settles when the server can accept connections (the embedded database's boot).
 */
async function connectPool(
  pool: pg.Pool,
  describe: () => string,
  ready: Promise<unknown> = Promise.resolve(),
): Promise<Database> {
  // A connection that the server drops (restart, failover) emits "error" on the pool and on its client;
  // without listeners Node would crash the process. The pool discards that client, and the next query that
  // needs the database reports the failure to its caller.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const checkedOut = new Set<pg.PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_error, client) => checkedOut.delete(client));
  // Prisma's client needs no connection to start its query compiler (WebAssembly, a few hundred
  // milliseconds of CPU): it starts while the database boots or the first connection is made, rather
  // than after them on the start's critical path.
  const starting = startPrisma(pool);
  starting.catch(() => {});
  await ready;
  // Fail at start with a clear message rather than on the first request.
  const probe = await pool.connect().catch((error: Error) => {
    throw new Error(`Cannot connect to ${describe()}: ${error.message}`);
  });
  probe.release();
  const prisma = await starting;
  return {
    kind: "postgres",
    prisma,
    pgPool: pool,
    withConnection: (work) => runOnConnection(pool, work),
    withBackgroundConnection: (work) => runOnConnection(pool, work),
    onCrash: () => {},
    releaseMemory: async () => null,
    onRecycle: () => {},
    close: async () => {
      // What is still running (a call's last writes as its stream closes with the server) ends first.
      await allReleased(pool, checkedOut, CLOSE_GRACE_MS);
      await prisma.$disconnect();
      // A transaction Prisma was opening when it disconnected is abandoned (its query fails with
      // "Unknown transaction status") on a connection left checked out inside BEGIN: `pool.end()`
      // waits for every checked-out connection, so it would wait forever. Released as broken, the
      // connection is closed, and the server rolls the transaction back.
      for (const client of checkedOut) client.release(true);
      await pool.end();
    },
  };
}

/** Resolves once no connection of `pool` is checked out, or after `ms`. */
function allReleased(pool: pg.Pool, checkedOut: Set<pg.PoolClient>, ms: number): Promise<void> {
  if (checkedOut.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pool.off("release", check);
      resolve();
    };
    const check = () => {
      if (checkedOut.size === 0) done();
    };
    const timer = setTimeout(done, ms);
    pool.on("release", check);
  });
}

async function startPrisma(pool: pg.Pool): Promise<PrismaClient> {
  // Loaded here rather than with this module, so that a server can start its embedded database's
  // process before loading these and the rest of its code (see main.ts).
  const [{ PrismaClient }, { PrismaPg }] = await Promise.all([
    import("../generated/prisma/client.ts"),
    import("@prisma/adapter-pg"),
  ]);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  await prisma.$connect();
  return prisma;
}

/**
 * A number per pooled connection, in the names of its prepared statements: the embedded store's
 * connections share one backend, where two connections' statements of one name would collide (its
 * process drops a connection's statements when it closes).
 */
const connectionNumbers = new WeakMap<pg.PoolClient, number>();
let connectionsNumbered = 0;

function statementName(client: pg.PoolClient, sql: string): string {
  let number = connectionNumbers.get(client);
  if (number === undefined) {
    number = ++connectionsNumbered;
    connectionNumbers.set(client, number);
  }
  return `voxgate_${number}_${createHash("sha1").update(sql).digest("hex").slice(0, 24)}`;
}

async function runOnConnection<T>(pool: pg.Pool, work: (sql: SqlRunner) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await work({
      session: client,
      exec: async (script) => {
        await client.query(script);
      },
      query: async <Row>(sql: string, params: unknown[] = []) =>
        (await client.query(sql, params)).rows as Row[],
      prepared: async <Row>(sql: string, params: unknown[] = []) =>
        (await client.query({ name: statementName(client, sql), text: sql, values: params })).rows as Row[],
    });
  } finally {
    client.release();
  }
}

export function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
