import type { Database } from "../db/client.ts";
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

/** How long an idle runner waits at most before it looks again (another process may add a row). */
const IDLE_POLL_MS = 1_000;
/** The shortest wait: a due job the claim just missed is taken on the next turn, without spinning. */
const MIN_WAIT_MS = 5;

interface ClaimedJob {
  id: number;
  task: string;
  payload: JobPayload;
  attempts: number;
  maxAttempts: number;
}

/**
 * The job runner of the embedded mode: jobs are rows of `background_jobs` in the PGlite database,
 * run in this process. PGlite belongs to one process, so a job still locked at start was cut short by
 * a stop or a crash and goes back to the queue.
 */
export class EmbeddedJobQueue implements JobQueue {
  private readonly tasks = new Map<string, TaskDefinition>();
  private readonly running = new Set<Promise<void>>();
  private stopping = new AbortController();
  private active = false;
  private wake: (() => void) | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly deps: { db: Database; logger: Logger },
    private readonly concurrency: number,
    private readonly idlePollMs = IDLE_POLL_MS,
  ) {}

  define(task: string, definition: TaskDefinition): void {
    this.tasks.set(task, definition);
  }

  async enqueue(task: string, payload: JobPayload, options: EnqueueOptions = {}): Promise<void> {
    const maxAttempts = this.tasks.get(task)?.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const prisma = options.tx ?? this.deps.db.prisma;
    const json = payload as never;
    const runAt = options.runAt ?? new Date();
    if (options.key) {
      // A running job keeps its row until it ends (then deletes it): its key goes to the new job,
      // as graphile-worker's replace mode leaves a locked job alone and adds a new one.
      await prisma.backgroundJob.updateMany({
        where: { jobKey: options.key, lockedAt: { not: null } },
        data: { jobKey: null },
      });
      await prisma.backgroundJob.upsert({
        where: { jobKey: options.key },
        create: { task, payload: json, jobKey: options.key, maxAttempts, runAt },
        update: { task, payload: json, attempts: 0, maxAttempts, runAt, lastError: null },
      });
    } else {
      await prisma.backgroundJob.create({ data: { task, payload: json, maxAttempts, runAt } });
    }
    this.wake?.();
  }

  async start(): Promise<void> {
    // Only this queue's tasks: another queue of the same process (webhooks) may be running its own.
    const { count } = await this.deps.db.prisma.backgroundJob.updateMany({
      where: { lockedAt: { not: null }, task: { in: [...this.tasks.keys()] } },
      data: { lockedAt: null },
    });
    if (count > 0) this.deps.logger.info("resuming interrupted jobs", { count });
    this.stopping = new AbortController();
    this.active = true;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.active = false;
    this.stopping.abort(new JobInterruptedError());
    this.wake?.();
    await this.loop;
    await Promise.allSettled([...this.running]);
  }

  private async run(): Promise<void> {
    while (this.active) {
      if (this.running.size >= this.concurrency) {
        await Promise.race(this.running);
        continue;
      }
      const job = await this.claim().catch((error: unknown) => {
        this.deps.logger.error("claiming a job failed", { error });
        return null;
      });
      if (!job) {
        const waitMs = await this.untilNextDue().catch(() => this.idlePollMs);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs);
          this.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        this.wake = null;
        continue;
      }
      const execution = this.execute(job).finally(() => this.running.delete(execution));
      this.running.add(execution);
    }
  }

  private async claim(): Promise<ClaimedJob | null> {
    const tasks = [...this.tasks.keys()];
    if (tasks.length === 0) return null;
    const rows = await this.deps.db.prisma.$queryRawUnsafe<ClaimedJob[]>(
      `UPDATE "background_jobs" SET "lockedAt" = now(), "attempts" = "attempts" + 1
       WHERE "id" = (
         SELECT "id" FROM "background_jobs"
         WHERE "lockedAt" IS NULL AND "runAt" <= now() AND "task" = ANY($1::text[])
         ORDER BY "runAt", "id" LIMIT 1
       )
       RETURNING "id", "task", "payload", "attempts", "maxAttempts"`,
      tasks,
    );
    return rows[0] ?? null;
  }

  /**
   * Until this queue's next job is due, at most the idle poll: a call's next step or a retry scheduled
   * 200 ms ahead runs then, not on the next poll.
   */
  private async untilNextDue(): Promise<number> {
    const [next] = await this.deps.db.prisma.$queryRawUnsafe<{ waitMs: number | null }[]>(
      `SELECT (EXTRACT(EPOCH FROM (min("runAt") - now())) * 1000)::float8 AS "waitMs"
       FROM "background_jobs" WHERE "lockedAt" IS NULL AND "task" = ANY($1::text[])`,
      [...this.tasks.keys()],
    );
    const waitMs = next?.waitMs ?? this.idlePollMs;
    return Math.min(this.idlePollMs, Math.max(MIN_WAIT_MS, Math.ceil(waitMs)));
  }

  private async execute(job: ClaimedJob): Promise<void> {
    const definition = this.tasks.get(job.task)!;
    const prisma = this.deps.db.prisma;
    const signal = this.stopping.signal;
    try {
      await definition.run(job.payload, { signal });
      await prisma.backgroundJob.delete({ where: { id: job.id } });
    } catch (error) {
      if (signal.aborted) {
        // Stopping is not the job's fault: it goes back, unlocked, with its attempt returned.
        await prisma.backgroundJob
          .update({ where: { id: job.id }, data: { lockedAt: null, attempts: { decrement: 1 } } })
          .catch(() => undefined);
        return;
      }
      metrics.jobFailures.inc({ task: job.task });
      const message = error instanceof Error ? error.message : String(error);
      if (job.attempts >= job.maxAttempts) {
        this.deps.logger.error("job failed for good", { task: job.task, jobId: job.id, error });
        await prisma.backgroundJob.delete({ where: { id: job.id } });
        return;
      }
      this.deps.logger.warn("job failed, retrying", { task: job.task, jobId: job.id, error: message });
      const backoffMs = 1_000 * 2 ** (job.attempts - 1);
      await prisma.backgroundJob.update({
        where: { id: job.id },
        data: { lockedAt: null, lastError: message, runAt: new Date(Date.now() + backoffMs) },
      });
    }
  }
}
