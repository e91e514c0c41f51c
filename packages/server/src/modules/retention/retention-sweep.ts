import { setImmediate as yieldToRequests } from "node:timers/promises";
import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import { CONTENT_KINDS, type ContentKind, DEFAULT_AUDIT_LOG_DAYS } from "./retention.service.ts";

const SWEEP_INTERVAL_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** Rows one statement touches at most: each batch is short, and requests run between batches. */
export const RETENTION_BATCH = 500;
/** Recordings per batch: each is a file (or its parts) removed one by one. */
const RECORDING_BATCH = 50;
/** A recording claimed this long ago and not yet removed was left by a crash: it is claimed again. */
const RECORDING_LEASE_MS = 15 * 60_000;
/** Namespace of the sweep's advisory locks ("RT"); the key is the kind's position in `LOCK_KEYS`. */
const LOCK_NAMESPACE = 0x5254;
const LOCK_KEYS: Record<ContentKind | "auditLog", number> = {
  transcripts: 1,
  recordings: 2,
  messages: 3,
  callTurns: 4,
  webhookLogs: 5,
  texts: 6,
  auditLog: 7,
};
/** Calls that may still change: their content is never swept. */
const LIVE_CALL = Prisma.sql`('initiated', 'ringing', 'in-progress')`;

/** The content one policy covers: an account's (without its overriding assistants), or one assistant's. */
interface Scope {
  accountId: number;
  assistantId: number | null;
  /** Account scope: assistants with their own days for the kind. */
  except: number[];
  cutoff: Date;
}

/** What a sweep did, per kind: rows deleted or cleared; null when another instance was sweeping it. */
export type SweepCounts = Record<ContentKind | "auditLog", number | null>;

/**
 * Deletes what retention says has expired (docs/data-governance.md#retention), on every instance,
 * hourly and at start. Each kind goes in batches of at most `RETENTION_BATCH` rows, one short
 * transaction each under the kind's advisory lock (as the webhook log's purge): another instance
 * sweeping the same kind at the same time finds it taken and leaves it. Cleared rows are stamped,
 * deleted rows are gone, so nothing is processed twice. Ledger entries are never touched.
 */
export class RetentionSweep extends PeriodicSweep {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { recordings: { remove(callId: number): Promise<void> }; clock: Clock },
  ) {
    super("retention sweep", SWEEP_INTERVAL_MS, deps.logger);
  }

  protected runOnce() {
    return this.sweep();
  }

  async sweep(): Promise<SweepCounts> {
    const now = this.parts.clock.now();
    const scopes = await this.scopes(now);
    const counts = {} as SweepCounts;
    for (const kind of Object.keys(CONTENT_KINDS) as ContentKind[]) {
      let total: number | null = 0;
      for (const scope of scopes[kind]) {
        const swept =
          kind === "recordings" ? await this.recordings(scope, now) : await this.drain(kind, scope, now);
        if (swept === null) {
          total = total || null;
          break;
        }
        total = (total ?? 0) + swept;
      }
      counts[kind] = total;
    }
    counts.auditLog = await this.drainAuditLog(now);
    const done = Object.entries(counts).filter(([, count]) => count);
    if (done.length > 0)
      this.logger.info("retention sweep removed expired content", Object.fromEntries(done));
    return counts;
  }

  /** Every policy that limits a kind, as scopes: accounts' first, then assistants' overrides. */
  private async scopes(now: Date): Promise<Record<ContentKind, Scope[]>> {
    const { prisma } = this.deps.db;
    const [accounts, assistants] = await Promise.all([
      prisma.retentionPolicy.findMany({ orderBy: { accountId: "asc" } }),
      prisma.assistantRetentionPolicy.findMany({ orderBy: { assistantId: "asc" } }),
    ]);
    const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS);
    const scopes = {} as Record<ContentKind, Scope[]>;
    for (const [kind, column] of Object.entries(CONTENT_KINDS) as [
      ContentKind,
      (typeof CONTENT_KINDS)[ContentKind],
    ][]) {
      const overriding = assistants.filter((row) => row[column] !== null);
      scopes[kind] = [
        ...accounts.flatMap((row) => {
          const days = row[column];
          if (days === null) return [];
          const except = overriding.filter((o) => o.accountId === row.accountId).map((o) => o.assistantId);
          return [{ accountId: row.accountId, assistantId: null, except, cutoff: cutoff(days) }];
        }),
        ...overriding.flatMap((row) => {
          const days = row[column]!;
          // 0 keeps the assistant's content forever, whatever its account says.
          return days === 0
            ? []
            : [{ accountId: row.accountId, assistantId: row.assistantId, except: [], cutoff: cutoff(days) }];
        }),
      ];
    }
    return scopes;
  }

  /** Batches of `kind` in `scope` until none is left; null when another instance holds the kind. */
  private async drain(
    kind: Exclude<ContentKind, "recordings">,
    scope: Scope,
    now: Date,
  ): Promise<number | null> {
    let swept = 0;
    for (;;) {
      const batch = await this.locked(kind, (tx) => tx.$executeRaw(this.statement(kind, scope, now)));
      if (batch === null) return swept > 0 ? swept : null;
      swept += batch;
      if (batch < RETENTION_BATCH) return swept;
      await yieldToRequests();
    }
  }

  private statement(kind: Exclude<ContentKind, "recordings">, scope: Scope, now: Date): Prisma.Sql {
    const { cutoff } = scope;
    switch (kind) {
      case "transcripts":
        // The call row stays with its money fields, status and duration; what was said goes.
        return Prisma.sql`
          WITH "picked" AS (
            SELECT c."id" FROM "calls" c
            WHERE ${inScope(scope, Prisma.sql`c."accountId"`, Prisma.sql`c."assistantId"`)}
              AND c."transcriptExpiredAt" IS NULL AND c."createdAt" < ${cutoff}
              AND c."status"::text NOT IN ${LIVE_CALL}
            ORDER BY c."id" LIMIT ${RETENTION_BATCH} FOR UPDATE SKIP LOCKED),
          "turns" AS (
            UPDATE "call_turns" SET "text" = '', "heardText" = '', "functionCalls" = '[]'
            WHERE "callId" IN (SELECT "id" FROM "picked"))
          UPDATE "calls" SET "transcript" = '', "evaluation" = '{}', "transcriptExpiredAt" = ${now}
          WHERE "id" IN (SELECT "id" FROM "picked")`;
      case "callTurns":
        return Prisma.sql`
          DELETE FROM "call_turns" WHERE "id" IN (
            SELECT t."id" FROM "call_turns" t JOIN "calls" c ON c."id" = t."callId"
            WHERE ${inScope(scope, Prisma.sql`c."accountId"`, Prisma.sql`c."assistantId"`)}
              AND c."createdAt" < ${cutoff} AND c."status"::text NOT IN ${LIVE_CALL}
            LIMIT ${RETENTION_BATCH})`;
      case "messages":
        // A message's charge keeps its ledger entry (the foreign key only forgets the message).
        return Prisma.sql`
          DELETE FROM "messages" WHERE "id" IN (
            SELECT m."id" FROM "messages" m JOIN "conversations" v ON v."id" = m."conversationId"
            WHERE ${inScope(scope, Prisma.sql`v."accountId"`, Prisma.sql`v."assistantId"`)}
              AND m."createdAt" < ${cutoff}
            LIMIT ${RETENTION_BATCH})`;
      case "texts":
        // The row stays (its cost, segments and ledger entries); its body goes. Texts waiting to
        // be sent keep theirs.
        return Prisma.sql`
          UPDATE "text_messages" SET "body" = '', "bodyExpiredAt" = ${now} WHERE "id" IN (
            SELECT x."id" FROM "text_messages" x LEFT JOIN "conversations" v ON v."id" = x."conversationId"
            WHERE ${inScope(scope, Prisma.sql`x."accountId"`, Prisma.sql`v."assistantId"`)}
              AND x."bodyExpiredAt" IS NULL AND x."createdAt" < ${cutoff}
              AND x."status"::text NOT IN ('queued', 'scheduled')
            ORDER BY x."id" LIMIT ${RETENTION_BATCH} FOR UPDATE OF x SKIP LOCKED)`;
      case "webhookLogs":
        // Finished events only, with their attempts (cascade); pending ones are still being delivered.
        return Prisma.sql`
          DELETE FROM "webhook_events" WHERE "id" IN (
            SELECT e."id" FROM "webhook_events" e
            WHERE ${inScope(scope, Prisma.sql`e."accountId"`, Prisma.sql`e."assistantId"`)}
              AND e."status"::text IN ('delivered', 'failed') AND e."updatedAt" < ${cutoff}
            LIMIT ${RETENTION_BATCH})`;
    }
  }

  /**
   * Recordings are files (embedded store) or parts rows (PostgreSQL): a batch is claimed first
   * (recordingStatus "expiring", stamped), removed from storage outside any transaction, then
   * marked "expired". A claim a crash left behind is taken again after `RECORDING_LEASE_MS`;
   * removing a recording already gone is not an error.
   */
  private async recordings(scope: Scope, now: Date): Promise<number | null> {
    let swept = 0;
    const staleClaim = new Date(now.getTime() - RECORDING_LEASE_MS);
    for (;;) {
      const claimed = await this.locked(
        "recordings",
        (tx) =>
          tx.$queryRaw<{ id: number }[]>`
          UPDATE "calls" SET "recordingStatus" = 'expiring', "recordingExpiredAt" = ${now}
          WHERE "id" IN (
            SELECT c."id" FROM "calls" c
            WHERE ${inScope(scope, Prisma.sql`c."accountId"`, Prisma.sql`c."assistantId"`)}
              AND c."createdAt" < ${scope.cutoff}
              AND (c."recordingStatus" = 'stored'
                OR (c."recordingStatus" = 'expiring' AND c."recordingExpiredAt" < ${staleClaim}))
            ORDER BY c."id" LIMIT ${RECORDING_BATCH} FOR UPDATE SKIP LOCKED)
          RETURNING "id"`,
      );
      if (claimed === null) return swept > 0 ? swept : null;
      const removed: number[] = [];
      for (const { id } of claimed) {
        try {
          await this.parts.recordings.remove(id);
          removed.push(id);
        } catch (error) {
          this.logger.error("an expired recording could not be removed; retried later", {
            callId: id,
            error,
          });
        }
      }
      if (removed.length > 0) {
        await this.deps.db.prisma.$executeRaw`
          UPDATE "calls" SET "recordingStatus" = 'expired', "recordingUrl" = '', "recordingExpiredAt" = ${now}
          WHERE "id" IN (${Prisma.join(removed)}) AND "recordingStatus" = 'expiring'`;
      }
      swept += removed.length;
      if (claimed.length < RECORDING_BATCH) return swept;
      await yieldToRequests();
    }
  }

  /** Audit entries past their account's audit retention (365 days for an account that set none). */
  private async drainAuditLog(now: Date): Promise<number | null> {
    // No entry younger than the shortest retention allowed can expire: the index on "at" bounds the scan.
    const earliest = new Date(now.getTime() - DAY_MS);
    let swept = 0;
    for (;;) {
      const batch = await this.locked(
        "auditLog",
        (tx) => tx.$executeRaw`
          DELETE FROM "audit_entries" WHERE "id" IN (
            SELECT a."id" FROM "audit_entries" a
            LEFT JOIN "retention_policies" p ON p."accountId" = a."accountId"
            WHERE a."at" < ${earliest}
              AND a."at" < ${now}::timestamptz - make_interval(days => CASE
                WHEN p."accountId" IS NULL THEN ${DEFAULT_AUDIT_LOG_DAYS}::integer ELSE p."auditLogDays" END)
            LIMIT ${RETENTION_BATCH})`,
      );
      if (batch === null) return swept > 0 ? swept : null;
      swept += batch;
      if (batch < RETENTION_BATCH) return swept;
      await yieldToRequests();
    }
  }

  /** Runs `work` in a transaction holding the kind's lock; null when another instance holds it. */
  private locked<T>(
    kind: ContentKind | "auditLog",
    work: (tx: Prisma.TransactionClient) => Promise<T>,
  ): Promise<T | null> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      const [lock] = await tx.$queryRaw<{ taken: boolean }[]>`
        SELECT pg_try_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${LOCK_KEYS[kind]}::integer) AS "taken"`;
      return lock?.taken ? work(tx) : null;
    });
  }
}

/** The rows a scope covers, by their account and assistant columns. */
function inScope(scope: Scope, account: Prisma.Sql, assistant: Prisma.Sql): Prisma.Sql {
  if (scope.assistantId !== null)
    return Prisma.sql`${account} = ${scope.accountId}::integer AND ${assistant} = ${scope.assistantId}::integer`;
  if (scope.except.length === 0) return Prisma.sql`${account} = ${scope.accountId}::integer`;
  return Prisma.sql`${account} = ${scope.accountId}::integer
    AND (${assistant} IS NULL OR ${assistant} NOT IN (${Prisma.join(scope.except)}))`;
}
