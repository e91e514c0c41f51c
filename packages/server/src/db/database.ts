import type pg from "pg";
import type { PrismaClient } from "../generated/prisma/client.ts";

// What an open store offers the rest of the server, the same on PGlite and PostgreSQL (client.ts opens one).

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

/** What a replacement of the embedded database's process did (`Database.onRecycle`). */
export interface RecycleOutcome {
  /** Resident memory of the process replaced, and of its successor once it answered, in MB. */
  beforeMb: number;
  afterMb: number;
  /** How long new connections were held back: the old process's close and the new one's start. */
  pausedMs: number;
}
