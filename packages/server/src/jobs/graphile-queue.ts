import type { Logger as GraphileLogger, Runner, Task, WorkerUtils } from "graphile-worker";
import type pg from "pg";
import { lazyRequire } from "../lazy-require.ts";
import type { Logger } from "../logger.ts";
import { metrics } from "../metrics.ts";
import {
  DEFAULT_MAX_ATTEMPTS,
  type EnqueueOptions,
  JobInterruptedError,
  type JobPayload,
  type JobQueue,
  type TaskDefinition,
} from "./job-queue.ts";

/** graphile-worker (~11 MB) serves PostgreSQL only: the embedded store never loads it. */
const graphileWorker = lazyRequire<typeof import("graphile-worker")>("graphile-worker");

/**
 * Jobs on PostgreSQL through graphile-worker: every instance runs a worker on the same tables, so
 * the instances share the work, and a job cut short by a stop is retried by whichever is running.
 */
export class GraphileJobQueue implements JobQueue {
  private readonly tasks = new Map<string, TaskDefinition>();
  private runner: Runner | null = null;
  private utils: WorkerUtils | null = null;
  private stopping = new AbortController();

  constructor(
    private readonly deps: { pgPool: pg.Pool; logger: Logger },
    private readonly concurrency: number,
  ) {}

  define(task: string, definition: TaskDefinition): void {
    this.tasks.set(task, definition);
  }

  async enqueue(task: string, payload: JobPayload, options: EnqueueOptions = {}): Promise<void> {
    const maxAttempts = this.tasks.get(task)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    if (options.tx) {
      // graphile-worker's own SQL entry point (what addJob runs), on the caller's connection.
      await options.tx.$executeRaw`SELECT graphile_worker.add_job(
        identifier => ${task}::text, payload => ${JSON.stringify(payload)}::json,
        run_at => ${options.runAt ?? null}::timestamptz, max_attempts => ${maxAttempts}::int,
        job_key => ${options.key ?? null}::text,
        job_key_mode => ${options.key ? "replace" : null}::text)`;
      return;
    }
    const utils = await this.workerUtils();
    await utils.addJob(task, payload, {
      maxAttempts,
      ...(options.runAt ? { runAt: options.runAt } : {}),
      ...(options.key ? { jobKey: options.key, jobKeyMode: "replace" as const } : {}),
    });
  }

  async start(): Promise<void> {
    this.stopping = new AbortController();
    const taskList: Record<string, Task> = {};
    for (const [name, definition] of this.tasks)
      taskList[name] = (payload, helpers) =>
        this.runTask(definition, payload as JobPayload, helpers).catch((error: unknown) => {
          if (!this.stopping.signal.aborted) metrics.jobFailures.inc({ task: name });
          throw error;
        });
    this.runner = await graphileWorker().run({
      pgPool: this.deps.pgPool,
      concurrency: this.concurrency,
      noHandleSignals: true,
      pollInterval: 1_000,
      taskList,
      logger: graphileLogger(this.deps.logger),
    });
  }

  async stop(): Promise<void> {
    this.stopping.abort(new JobInterruptedError());
    await this.runner?.stop();
    this.runner = null;
    await this.utils?.release();
    this.utils = null;
  }

  private async runTask(
    definition: TaskDefinition,
    payload: JobPayload,
    helpers: Parameters<Task>[1],
  ): Promise<void> {
    const signal = AbortSignal.any([this.stopping.signal, helpers.abortSignal]);
    await definition.run(payload, { signal });
  }

  private async workerUtils(): Promise<WorkerUtils> {
    this.utils ??= await graphileWorker().makeWorkerUtils({
      pgPool: this.deps.pgPool,
      logger: graphileLogger(this.deps.logger),
    });
    return this.utils;
  }
}

/** graphile-worker's messages, sent to our logger at matching levels. */
function graphileLogger(logger: Logger): GraphileLogger {
  return new (graphileWorker().Logger)((scope) => (level, message, meta) => {
    const fields = { scope, meta };
    if (level === "error") logger.error(message, fields);
    else if (level === "warning") logger.warn(message, fields);
    else if (level === "info") logger.info(message, fields);
    else logger.debug(message, fields);
  });
}
