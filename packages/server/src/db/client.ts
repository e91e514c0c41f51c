import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { vector } from "@electric-sql/pglite/vector";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "../generated/prisma/client.ts";

export type { PrismaClient };

/** Plain SQL access beside Prisma, for migrations, locks and vector/full-text queries. */
export interface SqlRunner {
  /** Runs a script of several statements (no parameters). */
  exec(script: string): Promise<void>;
  query<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
}

export interface Database {
  kind: "pglite" | "postgres";
  /** The directory of an on-disk embedded database; files kept beside the data go under it. */
  dataDir?: string;
  prisma: PrismaClient;
  /** The connection pool on PostgreSQL, for libraries that open their own sessions (the job queue). */
  pgPool?: pg.Pool;
  /**
   * Runs `work` on one dedicated connection: statements inside see each other's session state
   * (transactions, advisory locks). PGlite has a single connection, so work is serialised.
   */
  withConnection<T>(work: (sql: SqlRunner) => Promise<T>): Promise<T>;
  /** Tells the driver that types were created (migrations ran), so that values of them are encoded right. */
  typesChanged(): Promise<void>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: "pglite"; dataDir: string | undefined; loadDataDir?: Blob }
  | { kind: "postgres"; url: string };

/**
 * Opens the configured store: a real PostgreSQL when a URL is given, otherwise PGlite on disk
 * under `<dataDir>/pglite` (or in memory when `dataDir` is undefined, for tests).
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === "postgres"
    ? openPostgres(target.url)
    : openPglite(target.dataDir, target.loadDataDir);
}

/** `loadDataDir` starts from a dump of another PGlite (tests start from an already migrated one). */
export async function openPglite(
  dataDir: string | undefined,
  loadDataDir?: Blob,
): Promise<Database & { pglite: PGlite }> {
  let location: string | undefined;
  let releaseLock = () => {};
  if (dataDir) {
    location = join(dataDir, "pglite");
    mkdirSync(location, { recursive: true });
    releaseLock = lockDataDir(dataDir);
  }
  const pglite = await PGlite.create({
    ...(location ? { dataDir: location } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { vector },
  });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(pglite) });
  const runner: SqlRunner = {
    exec: async (script) => {
      await pglite.exec(script);
    },
    query: async <Row>(sql: string, params: unknown[] = []) => (await pglite.query<Row>(sql, params)).rows,
  };
  let queue: Promise<unknown> = Promise.resolve();
  return {
    kind: "pglite",
    ...(dataDir ? { dataDir } : {}),
    pglite,
    prisma,
    withConnection: <T>(work: (sql: SqlRunner) => Promise<T>) => {
      const run = queue.then(() => work(runner));
      queue = run.catch(() => undefined);
      return run;
    },
    // PGlite reads the array types once, when it opens: an enum created later (a fresh data directory
    // migrated by this process) would have its arrays sent as plain strings ("malformed array literal").
    typesChanged: () => pglite.refreshArrayTypes(),
    close: async () => {
      await prisma.$disconnect();
      // PGlite's Emscripten runtime sets process.exitCode to 0 when it shuts down, which would
      // turn a failing CLI command or test run into a success: keep whatever was set before.
      const exitCode = process.exitCode;
      await pglite.close();
      process.exitCode = exitCode;
      releaseLock();
    },
  };
}

/**
 * PGlite is a single-process database: two processes writing one data directory corrupt it. A pid
 * file refuses the second opener with a clear message; one left by a crashed process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = join(dataDir, "pglite.pid");
  try {
    writeFileSync(lockPath, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number(readFileSync(lockPath, "utf8"));
    if (holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `The embedded database in ${dataDir} is in use by process ${holder} (a running server?). ` +
          "Stop it first, or use DATABASE_URL with PostgreSQL for several processes.",
      );
    }
    writeFileSync(lockPath, String(process.pid));
  }
  return () => rmSync(lockPath, { force: true });
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
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A connection that the server drops (restart, failover) emits "error" on the pool and on its client;
  // without listeners Node would crash the process. The pool discards that client, and the next query that
  // needs the database reports the failure to its caller.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  // Fail at start with a clear message rather than on the first request.
  const probe = await pool.connect().catch((error: Error) => {
    throw new Error(`Cannot connect to DATABASE_URL (${redact(url)}): ${error.message}`);
  });
  probe.release();
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  return {
    kind: "postgres",
    prisma,
    pgPool: pool,
    withConnection: async (work) => {
      const client = await pool.connect();
      try {
        return await work({
          exec: async (script) => {
            await client.query(script);
          },
          query: async <Row>(sql: string, params: unknown[] = []) =>
            (await client.query(sql, params)).rows as Row[],
        });
      } finally {
        client.release();
      }
    },
    // node-postgres sends parameters as text and lets the server infer their types.
    typesChanged: async () => {},
    close: async () => {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}

export function redact(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
