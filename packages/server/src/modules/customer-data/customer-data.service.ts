import type { Clock } from "../../clock.ts";
import { PartsTable } from "../../db/binary-parts.ts";
import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import { CustomerErasedError, NotFoundError, RateLimitedError } from "../../errors.ts";
import { type Actor, type EventSink, systemActor } from "../../events.ts";
import type { CustomerDataJob, ErasureEventLeft, Prisma } from "../../generated/prisma/client.ts";
import { type CalendarEventRewriter, ERASURE_STEPS, type ErasureContext } from "./erasure.ts";
import { buildArchive, collectCustomerRecords, type RecordingSource } from "./export.ts";
import {
  type CustomerIdentifier,
  type CustomerIdentifierRequest,
  defaultCountryOf,
  type IdentifierKind,
  identifierHash,
  parseIdentifier,
  saltOf,
} from "./identifiers.ts";
import { type Claim, CustomerDataJobRunner, MAX_ATTEMPTS } from "./job-runner.ts";
import { Tombstones } from "./tombstones.ts";

/** How long an export's archive may be downloaded; then it is deleted. */
export const ARCHIVE_TTL_MS = 24 * 60 * 60 * 1000;

/** Jobs of an account that may wait or run at once: a bound on work one caller can queue. */
export const MAX_OPEN_JOBS = 20;

/** Bytes per stored archive part (as recordings'). */
const ARCHIVE_PART_BYTES = 256 * 1024;

export type CustomerDataJobKind = "export" | "erase";

/** Who asked, as the job and the tombstone record it. */
export interface Requester {
  accountId: number;
  /** "user:<id>" or "cli". */
  requestedBy: string;
}

/** The path an export's archive is downloaded from (with the owner's credential). */
export function archivePath(jobId: number): string {
  return `/customer-data/exports/${jobId}.zip`;
}

/**
 * Export and erasure of everything tied to one customer (docs/data-governance.md#erasure-and-export).
 * A request records a job; `CustomerDataJobRunner` runs it on whichever instance claims it. An
 * erasure goes step by step (`ERASURE_STEPS`), each in bounded batches committed with its progress,
 * and ends with a tombstone; an export builds a zip archive kept for `ARCHIVE_TTL_MS`.
 */
export class CustomerDataService implements Lifecycle {
  readonly tombstones: Tombstones;
  private readonly runner: CustomerDataJobRunner;
  private readonly archives: PartsTable;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      recordings: RecordingSource & { remove(callId: number): Promise<void> };
      events: EventSink;
      clock: Clock;
      /** Erasure rewrites the customer's events in the account's calendars through it. */
      calendars: CalendarEventRewriter;
    },
  ) {
    this.tombstones = new Tombstones(deps);
    this.archives = new PartsTable(deps.db, "customer_data_archive_parts", "jobId", ARCHIVE_PART_BYTES);
    this.runner = new CustomerDataJobRunner(deps, { clock: parts.clock, run: (claim) => this.run(claim) });
  }

  /** Where the archives' download URLs start. */
  get publicBaseUrl(): string {
    return this.deps.config.publicBaseUrl;
  }

  start() {
    return this.runner.start();
  }

  stop() {
    return this.runner.stop();
  }

  /** Runs the jobs ready now in this process (the CLI's --wait), then answers the job as it stands. */
  async runNow(accountId: number, id: number): Promise<CustomerDataJob> {
    await this.runner.drain();
    return this.job(accountId, id);
  }

  requestExport(requester: Requester, request: CustomerIdentifierRequest): Promise<CustomerDataJob> {
    return this.request("export", requester, request);
  }

  requestErasure(requester: Requester, request: CustomerIdentifierRequest): Promise<CustomerDataJob> {
    return this.request("erase", requester, request);
  }

  /**
   * Records the job. The same request while an equal one waits or runs answers that job, so a
   * retried request never queues the work twice.
   */
  private async request(
    kind: CustomerDataJobKind,
    requester: Requester,
    request: CustomerIdentifierRequest,
  ): Promise<CustomerDataJob> {
    const prisma = this.deps.db.prisma;
    const who = parseIdentifier(request, await defaultCountryOf(prisma, requester.accountId));
    const hash = identifierHash(await saltOf(prisma, requester.accountId), who);
    const job = await prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('voxgate:customer-data'), ${requester.accountId}::int)`;
      const open = await tx.customerDataJob.findMany({
        where: { accountId: requester.accountId, state: { in: ["pending", "running"] } },
      });
      const same = open.find((job) => job.kind === kind && job.identifierHash === hash);
      if (same) return same;
      if (open.length >= MAX_OPEN_JOBS) {
        throw new RateLimitedError(
          `At most ${MAX_OPEN_JOBS} customer data exports and erasures may be under way at once.`,
          60,
        );
      }
      return tx.customerDataJob.create({
        data: {
          accountId: requester.accountId,
          kind,
          identifierKind: who.kind,
          identifier: who.value,
          identifierHash: hash,
          requestedBy: requester.requestedBy,
          stepsTotal: kind === "erase" ? ERASURE_STEPS.length + 1 : 2,
        },
      });
    });
    this.deps.logger.info("customer data job requested", {
      accountId: requester.accountId,
      jobId: job.id,
      kind,
    });
    this.runner.wake();
    return job;
  }

  async job(accountId: number, id: number): Promise<CustomerDataJob> {
    const job = await this.deps.db.prisma.customerDataJob.findFirst({ where: { id, accountId } });
    if (!job) throw new NotFoundError("Customer data job");
    return job;
  }

  /** The calendar events the erasure job left, oldest first (the job is the account's already). */
  eventsLeft(job: CustomerDataJob): Promise<ErasureEventLeft[]> {
    return this.deps.db.prisma.erasureEventLeft.findMany({
      where: { jobId: job.id, accountId: job.accountId },
      orderBy: { id: "asc" },
    });
  }

  /** Marks a left event erased by hand; NOT_FOUND for another account's. The first mark stays. */
  async markEventLeftHandled(accountId: number, id: number, by: string): Promise<ErasureEventLeft> {
    const prisma = this.deps.db.prisma;
    await prisma.erasureEventLeft.updateMany({
      where: { id, accountId, handledAt: null },
      data: { handledAt: this.parts.clock.now(), handledBy: by },
    });
    const left = await prisma.erasureEventLeft.findFirst({ where: { id, accountId } });
    if (!left) throw new NotFoundError("Erased event left");
    this.deps.logger.info("erased event left marked handled", { accountId, id, by });
    return left;
  }

  /** Whether an export's archive may be downloaded now. */
  downloadable(job: CustomerDataJob): boolean {
    return (
      job.kind === "export" &&
      job.state === "done" &&
      !!job.expiresAt &&
      job.expiresAt > this.parts.clock.now()
    );
  }

  /** The account's export archive, NOT_FOUND unless it is done and not expired. */
  async archive(accountId: number, id: number) {
    const job = await this.job(accountId, id);
    if (!this.downloadable(job)) throw new NotFoundError("Export archive");
    const { bytes } = await this.archives.size(id);
    const archives = this.archives;
    return {
      size: bytes,
      async *read() {
        for (let part = 0; ; part++) {
          const content = await archives.part(id, part);
          if (!content) return;
          yield content;
        }
      },
    };
  }

  /**
   * CUSTOMER_ERASED naming the first field (of field name to E.164 number) whose number belongs to a
   * customer the account erased: lead creation does not add them back silently.
   */
  async requireNotErased(accountId: number, fields: Record<string, string>): Promise<void> {
    for (const [field, number] of Object.entries(fields)) {
      if (await this.tombstones.has(accountId, { kind: "phone", value: number }))
        throw new CustomerErasedError(field);
    }
  }

  /** Whether the dialer must skip the number: its customer was erased. */
  isSuppressed(accountId: number, phoneNumber: string): Promise<boolean> {
    return this.tombstones.has(accountId, { kind: "phone", value: phoneNumber });
  }

  /** Deletes export archives past their time. */
  async removeExpiredArchives(): Promise<number> {
    const { count } = await this.deps.db.prisma.customerDataJob.deleteMany({
      where: { kind: "export", state: "done", expiresAt: { lt: this.parts.clock.now() } },
    });
    return count;
  }

  private async run(claim: Claim): Promise<void> {
    await this.removeExpiredArchives();
    const { job } = claim;
    const who: CustomerIdentifier = { kind: job.identifierKind as IdentifierKind, value: job.identifier };
    if (job.kind === "export") return this.runExport(claim, who);
    return this.runErasure(claim, who);
  }

  private async runExport(claim: Claim, who: CustomerIdentifier): Promise<void> {
    const { job } = claim;
    const now = this.parts.clock.now();
    const records = await collectCustomerRecords(this.deps.db.prisma, job.accountId, who, now);
    await claim.transaction((tx) =>
      tx.customerDataJob.update({ where: { id: job.id }, data: { stepsDone: 1, counts: records.counts } }),
    );
    const chunks = await buildArchive(records, job.accountId, this.parts.recordings);
    if (claim.signal.aborted) throw claim.signal.reason;
    // Replaces what an interrupted run wrote.
    await this.archives.write(job.id, chunks);
    const bytes = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
    await claim.transaction(async (tx) => {
      const done = await tx.customerDataJob.update({
        where: { id: job.id },
        data: {
          state: "done",
          stepsDone: 2,
          archiveBytes: bytes,
          expiresAt: new Date(this.parts.clock.now().getTime() + ARCHIVE_TTL_MS),
          finishedAt: this.parts.clock.now(),
          claimToken: null,
          leaseUntil: null,
          error: null,
        },
      });
      await this.parts.events.emit(tx, {
        type: "customer.exported",
        accountId: done.accountId,
        actor: requesterActor(done.requestedBy),
        target: { type: "customer", id: done.identifierHash },
        details: { jobId: done.id, identifierKind: done.identifierKind, counts: records.counts },
      });
    });
    this.deps.logger.info("customer data exported", { accountId: job.accountId, jobId: job.id, bytes });
  }

  /** The tombstone of the job's customer; a later erasure of the same customer renews it. */
  private async recordTombstone(
    tx: Prisma.TransactionClient,
    job: CustomerDataJob,
    fields: { textsOptedOut?: boolean } = {},
  ): Promise<void> {
    const now = this.parts.clock.now();
    await tx.customerTombstone.upsert({
      where: {
        accountId_identifierKind_identifierHash: {
          accountId: job.accountId,
          identifierKind: job.identifierKind,
          identifierHash: job.identifierHash,
        },
      },
      create: {
        accountId: job.accountId,
        identifierKind: job.identifierKind,
        identifierHash: job.identifierHash,
        erasedBy: job.requestedBy,
        jobId: job.id,
        erasedAt: now,
        ...fields,
      },
      update: { erasedBy: job.requestedBy, jobId: job.id, erasedAt: now, ...fields },
    });
  }

  private async runErasure(claim: Claim, who: CustomerIdentifier): Promise<void> {
    const { job } = claim;
    const counts = { ...(job.counts as Record<string, number>) };
    for (let index = job.stepsDone; index < ERASURE_STEPS.length; index++) {
      const step = ERASURE_STEPS[index]!;
      const context: ErasureContext = {
        prisma: this.deps.db.prisma,
        accountId: job.accountId,
        job,
        who,
        recordings: this.parts.recordings,
        calendars: this.parts.calendars,
        logger: this.deps.logger,
        lastAttempt: job.attempts >= MAX_ATTEMPTS,
        signal: claim.signal,
        tombstone: (tx, fields) => this.recordTombstone(tx, job, fields),
        commit: (work, also = {}) =>
          claim.transaction(async (tx) => {
            const changed = await work(tx);
            counts[step.name] = (counts[step.name] ?? 0) + changed;
            for (const [key, value] of Object.entries(also)) counts[key] = (counts[key] ?? 0) + value;
            await tx.customerDataJob.update({ where: { id: job.id }, data: { counts } });
            return changed;
          }),
      };
      for (;;) {
        if (claim.signal.aborted) throw claim.signal.reason;
        if ((await step.batch(context)) === 0) break;
      }
      await claim.transaction((tx) =>
        tx.customerDataJob.update({ where: { id: job.id }, data: { stepsDone: index + 1 } }),
      );
      this.deps.logger.info("customer erasure step done", { jobId: job.id, step: step.name });
    }
    await claim.transaction(async (tx) => {
      // Exports of the same customer hold their data: they go too (archives with them).
      await tx.customerDataJob.deleteMany({
        where: {
          accountId: job.accountId,
          kind: "export",
          identifierHash: job.identifierHash,
          id: { not: job.id },
        },
      });
      await this.recordTombstone(tx, job);
      // Other erasure jobs of the same customer (failed ones keep the identifier to be asked again).
      await tx.customerDataJob.updateMany({
        where: {
          accountId: job.accountId,
          kind: "erase",
          identifierHash: job.identifierHash,
          state: "failed",
        },
        data: { identifier: "" },
      });
      await tx.customerDataJob.update({
        where: { id: job.id },
        data: {
          state: "done",
          identifier: "",
          stepsDone: ERASURE_STEPS.length + 1,
          finishedAt: this.parts.clock.now(),
          claimToken: null,
          leaseUntil: null,
          error: null,
        },
      });
      await this.parts.events.emit(tx, {
        type: "customer.erased",
        accountId: job.accountId,
        actor: requesterActor(job.requestedBy),
        target: { type: "customer", id: job.identifierHash },
        details: { jobId: job.id, identifierKind: job.identifierKind, counts: counts },
      });
    });
    this.deps.logger.info("customer erased", { accountId: job.accountId, jobId: job.id, counts });
  }
}

/**
 * The audit log's actor for a job's requester ("user:<id>" from the API, "cli" from the command line).
 * The job runs later, possibly on another instance, so the request's address is not known here.
 */
function requesterActor(requestedBy: string): Actor {
  const userId = /^user:(\d+)$/.exec(requestedBy)?.[1];
  return userId ? { kind: "user", id: Number(userId), userId: Number(userId), ip: null } : systemActor;
}
