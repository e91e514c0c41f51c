import { EventEmitter } from "node:events";
import type { Logger as GraphileLogger, Runner, Task, WorkerEvents, WorkerUtils } from "graphile-worker";
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

/** How long the runner waits before starting again after it died (doubling up to the longest). */
const RESTART_DELAY_MS = { first: 500, longest: 15_000 };

/**
 * Jobs on PostgreSQL through graphile-worker: every instance runs a worker on the same tables, so
 * the instances share the work, and a job cut short by a stop is retried by whichever is running.
 *
 * A database outage must not end the process nor the work. graphile-worker 0.17 records a job's
 * outcome without awaiting it when outcomes are not batched (a failure there, e.g. "Connection
 * terminated unexpectedly" in batchFailJobs, is an unhandled rejection that ends the process); batched
 * (after 0 ms), a failure reaches its handler, which shuts the runner down. So outcomes are batched, and
 * a runner that dies is started again, with backoff, until the database answers; the jobs its workers
 * held locked are unlocked then, to run again (a job runs at least once).
 */
export class GraphileJobQueue implements JobQueue {
  private readonly tasks = new Map<string, TaskDefinition>();
  private runner: Runner | null = null;
  private utils: WorkerUtils | null = null;
  private stopping = new AbortController();
  private restartTimer: NodeJS.Timeout | undefined;
  private restartDelayMs = RESTART_DELAY_MS.first;
  /** Worker pools of runners that died: their locked jobs are released once the database answers. */
  private readonly deadPools = new Set<string>();

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
    await this.startRunner();
  }

  async stop(): Promise<void> {
    this.stopping.abort(new JobInterruptedError());
    clearTimeout(this.restartTimer);
    const runner = this.runner;
    this.runner = null;
    // A runner that already died rejects its stop: there is nothing left to stop.
    await runner?.stop().catch(() => undefined);
    await this.utils?.release();
    this.utils = null;
  }

  private async startRunner(): Promise<void> {
    const taskList: Record<string, Task> = {};
    for (const [name, definition] of this.tasks)
      taskList[name] = (payload, helpers) =>
        this.runTask(definition, payload as JobPayload, helpers).catch((error: unknown) => {
          if (!this.stopping.signal.aborted) metrics.jobFailures.inc({ task: name });
          throw error;
        });
    // Jobs are locked in the name of the worker pool (`locked_by`), announced while `run` starts it.
    const pools = new Set<string>();
    const events: WorkerEvents = new EventEmitter();
    events.on("pool:create", ({ workerPool }) => pools.add(workerPool.id));
    const runner = await graphileWorker().run({
      events,
      pgPool: this.deps.pgPool,
      concurrency: this.concurrency,
      noHandleSignals: true,
      pollInterval: 1_000,
      taskList,
      logger: graphileLogger(this.deps.logger),
      preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    });
    if (this.stopping.signal.aborted) {
      // Stopped while this (re)start was under way.
      await runner.stop().catch(() => undefined);
      return;
    }
    this.runner = runner;
    runner.promise.then(
      () => this.restartIfStopped(runner, pools, null),
      (error: unknown) => this.restartIfStopped(runner, pools, error),
    );
  }

  /** The runner ended without being asked to (its pool shut down after a database error). */
  private restartIfStopped(runner: Runner, pools: Set<string>, error: unknown): void {
    if (this.stopping.signal.aborted || this.runner !== runner) return;
    this.runner = null;
    for (const pool of pools) this.deadPools.add(pool);
    this.deps.logger.warn("job runner stopped; starting it again", { error });
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    this.restartTimer = setTimeout(() => {
      void this.restart();
    }, this.restartDelayMs);
    this.restartDelayMs = Math.min(this.restartDelayMs * 2, RESTART_DELAY_MS.longest);
  }

  private async restart(): Promise<void> {
    if (this.stopping.signal.aborted) return;
    try {
      if (this.deadPools.size > 0) {
        const utils = await this.workerUtils();
        await utils.forceUnlockWorkers([...this.deadPools]);
        this.deadPools.clear();
      }
      await this.startRunner();
      this.restartDelayMs = RESTART_DELAY_MS.first;
      this.deps.logger.info("job runner started again");
    } catch (error) {
      this.deps.logger.warn("job runner cannot start yet", { error });
      if (!this.stopping.signal.aborted) this.scheduleRestart();
    }
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
