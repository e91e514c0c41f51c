import { randomUUID } from "node:crypto";
import type { Clock } from "../../clock.ts";
import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import type { CustomerDataJob, Prisma } from "../../generated/prisma/client.ts";

/** How long a claim holds without news from its instance; every committed batch extends it. */
export const LEASE_MS = 60_000;

/** How often an idle instance looks for jobs (requests on this instance wake it at once). */
const SWEEP_MS = 5_000;

/** A run that failed this many times is failed for good. */
export const MAX_ATTEMPTS = 5;

/** The instance's hold on a job: every write of the run goes through it. */
export interface Claim {
  readonly job: CustomerDataJob;
  readonly signal: AbortSignal;
  /**
   * Runs `work` in a transaction that first checks the job is still held with this claim and
   * extends its lease; throws `LostClaimError` (and commits nothing) when another instance took it.
   */
  transaction<T>(work: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T>;
}

export class LostClaimError extends Error {
  constructor(jobId: number) {
    super(`Customer data job ${jobId} is no longer held by this instance.`);
    this.name = "LostClaimError";
  }
}

/**
 * Runs customer data jobs, durably and once at a time each: a job is a row whose claim (a token and
 * a lease) one instance takes with a single conditional UPDATE, so two instances never run it at
 * once. Every instance sweeps: a pending job, or a running one whose lease ran out (its instance
 * died), is claimed and run from where it stands. A stop ends the run between batches and gives
 * the claim back, so the next start (or another instance) resumes at once.
 */
export class CustomerDataJobRunner implements Lifecycle {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();
  private stopping = new AbortController();
  private active = false;
  private again = false;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { clock: Clock; run: (claim: Claim) => Promise<void> },
  ) {}

  async start(): Promise<void> {
    if (this.deps.db.kind === "pglite") {
      // The embedded store belongs to this process: a claim still held was cut short by a crash.
      await this.deps.db.prisma.customerDataJob.updateMany({
        where: { state: "running" },
        data: { claimToken: null, leaseUntil: null },
      });
    }
    this.stopping = new AbortController();
    this.active = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.active = false;
    this.stopping.abort();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** A job was requested on this instance: look now rather than at the next sweep. */
  wake(): void {
    if (!this.active) return;
    this.again = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.schedule(0);
    }
  }

  /**
   * Claims and runs every job ready now, in this process, whether or not the sweep runs (the CLI
   * with no server): claims keep a server's sweep from running the same job meanwhile.
   */
  async drain(): Promise<void> {
    for (;;) {
      const claim = await this.claim();
      if (!claim) return;
      await this.execute(claim);
    }
  }

  private schedule(delay: number) {
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.sweep()
        .catch((error: unknown) => this.deps.logger.error("customer data sweep failed", { error }))
        .finally(() => {
          if (this.active) this.schedule(this.again ? 0 : SWEEP_MS);
        });
    }, delay);
  }

  /** Claims and runs jobs until none is left to take. */
  private async sweep(): Promise<void> {
    this.again = false;
    while (this.active) {
      const claim = await this.claim();
      if (!claim) return;
      await this.execute(claim);
    }
  }

  private async claim(): Promise<Claim | null> {
    const token = randomUUID();
    const now = this.parts.clock.now();
    const [job] = await this.deps.db.prisma.$queryRaw<CustomerDataJob[]>`
      UPDATE "customer_data_jobs"
      SET "state" = 'running', "claimToken" = ${token}, "leaseUntil" = ${new Date(now.getTime() + LEASE_MS)},
          "attempts" = "attempts" + 1, "updatedAt" = now()
      WHERE "id" = (
        SELECT "id" FROM "customer_data_jobs"
        WHERE "state" = 'pending' OR ("state" = 'running' AND ("leaseUntil" IS NULL OR "leaseUntil" < ${now}))
        ORDER BY "id" LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *`;
    if (!job) return null;
    const signal = this.stopping.signal;
    const { prisma } = this.deps.db;
    const clock = this.parts.clock;
    return {
      job,
      signal,
      async transaction(work) {
        return prisma.$transaction(async (tx) => {
          const { count } = await tx.customerDataJob.updateMany({
            where: { id: job.id, claimToken: token, state: "running" },
            data: { leaseUntil: new Date(clock.now().getTime() + LEASE_MS) },
          });
          if (count === 0) throw new LostClaimError(job.id);
          return work(tx);
        });
      },
    };
  }

  private async execute(claim: Claim): Promise<void> {
    const { job } = claim;
    const prisma = this.deps.db.prisma;
    try {
      await this.parts.run(claim);
    } catch (error) {
      if (error instanceof LostClaimError) {
        this.deps.logger.warn("customer data job taken over by another instance", { jobId: job.id });
        return;
      }
      if (claim.signal.aborted) {
        // Stopping is not the job's fault: the claim goes back for the next start or another instance.
        await prisma.customerDataJob
          .updateMany({
            where: { id: job.id, claimToken: job.claimToken },
            data: { claimToken: null, leaseUntil: null, attempts: { decrement: 1 } },
          })
          .catch(() => undefined);
        return;
      }
      const message = error instanceof Error ? error.message : String(error);
      const final = job.attempts >= MAX_ATTEMPTS;
      this.deps.logger.error(
        final ? "customer data job failed for good" : "customer data job failed, retrying",
        {
          jobId: job.id,
          kind: job.kind,
          error,
        },
      );
      // A retry waits for the lease to run out (the sweep's backoff); a failed erasure keeps its
      // identifier so that it can be asked again.
      await prisma.customerDataJob.updateMany({
        where: { id: job.id, claimToken: job.claimToken },
        data: final
          ? {
              state: "failed",
              error: message.slice(0, 500),
              claimToken: null,
              leaseUntil: null,
              finishedAt: new Date(),
            }
          : { error: message.slice(0, 500) },
      });
    }
  }
}
