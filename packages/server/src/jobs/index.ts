import type { Database } from "../db/client.ts";
import type { Logger } from "../logger.ts";
import { EmbeddedJobQueue } from "./embedded-queue.ts";
import { GraphileJobQueue } from "./graphile-queue.ts";
import type { JobQueue } from "./job-queue.ts";

export type { JobContext, JobPayload, JobQueue, TaskDefinition } from "./job-queue.ts";

/** graphile-worker on PostgreSQL (shared by every instance); the in-process runner on PGlite. */
export function createJobQueue(deps: { db: Database; logger: Logger }, concurrency: number): JobQueue {
  if (deps.db.kind === "postgres" && deps.db.pgPool) {
    return new GraphileJobQueue({ pgPool: deps.db.pgPool, logger: deps.logger }, concurrency);
  }
  return new EmbeddedJobQueue(deps, concurrency);
}
