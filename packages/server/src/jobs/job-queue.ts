import type { Lifecycle } from "../deps.ts";
import type { Prisma } from "../generated/prisma/client.ts";

export type JobPayload = Record<string, unknown>;

export interface JobContext {
  /** Aborted when the server stops: the job should end quickly; it runs again on the next start. */
  signal: AbortSignal;
}

export interface TaskDefinition {
  run(payload: JobPayload, context: JobContext): Promise<void>;
  /** How many times a job may run: a run that throws is retried after a pause, up to this; default 3. */
  maxAttempts?: number;
}

/**
 * Durable background work. Jobs survive restarts: the embedded runner keeps them in a table of the
 * PGlite database; on PostgreSQL graphile-worker shares them between every instance.
 */
export interface JobQueue extends Lifecycle {
  define(task: string, definition: TaskDefinition): void;
  /**
   * `key` deduplicates: a pending job with the same key is replaced rather than doubled. `runAt`
   * delays the job until then (a timer that survives restarts); default now.
   */
  enqueue(task: string, payload: JobPayload, options?: EnqueueOptions): Promise<void>;
}

export interface EnqueueOptions {
  key?: string;
  runAt?: Date;
  /**
   * Enqueue within this transaction: the job exists iff the transaction commits (a transactional
   * outbox: the work and the record that asks for it are one change).
   */
  tx?: Prisma.TransactionClient;
}

export const DEFAULT_MAX_ATTEMPTS = 3;

export class JobInterruptedError extends Error {
  constructor() {
    super("The job was interrupted because the server is stopping.");
    this.name = "JobInterruptedError";
  }
}
