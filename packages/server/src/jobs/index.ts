import type { Database } from "../db/client.ts";
import { currentRequestId, type Logger, withRequestId } from "../logger.ts";
import { EmbeddedJobQueue } from "./embedded-queue.ts";
import { GraphileJobQueue } from "./graphile-queue.ts";
import type { JobQueue } from "./job-queue.ts";

export type { EnqueueOptions, JobContext, JobPayload, JobQueue, TaskDefinition } from "./job-queue.ts";

/** graphile-worker on PostgreSQL (shared by every instance); the in-process runner on PGlite. */
export function createJobQueue(deps: { db: Database; logger: Logger }, concurrency: number): JobQueue {
  const queue =
    deps.db.kind === "postgres"
      ? new GraphileJobQueue({ pgPool: deps.db.pgPool, logger: deps.logger }, concurrency)
      : new EmbeddedJobQueue(deps, concurrency);
  return carryingRequestIds(queue);
}

/** The payload key under which a job remembers the request that enqueued it. */
const REQUEST_ID = "requestId";

/**
 * A job enqueued while answering a request keeps that request's id in its payload, and its run
 * logs under it, so one id follows the work from the request to the worker (on any instance).
 */
function carryingRequestIds(queue: JobQueue): JobQueue {
  return {
    define: (task, definition) =>
      queue.define(task, {
        ...definition,
        run: (payload, context) => {
          const requestId = payload[REQUEST_ID];
          const run = () => definition.run(payload, context);
          return typeof requestId === "string" ? withRequestId(requestId, run) : run();
        },
      }),
    enqueue: (task, payload, options) => {
      const requestId = currentRequestId();
      return queue.enqueue(task, requestId ? { ...payload, [REQUEST_ID]: requestId } : payload, options);
    },
    start: () => queue.start(),
    stop: () => queue.stop(),
  };
}
