import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import {
  BOOKING_FIGURES,
  CALL_FIGURES,
  CONVERSATION_FIGURES,
  COUNTED_BOOKING,
  COUNTED_CONVERSATION,
  DAY_OF,
  FINISHED,
  histogramOf,
  histogramSlot,
  histogramSum,
  MEASURED_TURN,
  ROLLUP_BUCKET_MS,
  TURN_MS,
} from "./insights-sql.ts";

/** How often an instance looks for dirty buckets; until then they are read from the raw rows. */
const ROLLUP_INTERVAL_MS = 60_000;
/** Buckets recomputed per transaction: short transactions, bounded statements. */
const ROLLUP_BATCH = 200;
/** Namespace and key of the rollup's advisory lock ("IR"): one writer at a time over all instances. */
const LOCK_NAMESPACE = 0x4952;
const LOCK_KEY = 1;

/**
 * The one writer of `insights_rollups`. Triggers (migration 0035) append the (account, 15-minute
 * bucket) of every counted change to `insights_dirty_buckets` in the writer's transaction; this job
 * takes closed dirty buckets in batches and, in one transaction under an advisory lock, deletes
 * their dirty marks and replaces their rollup rows with what the raw rows say. Replace, not add:
 * running twice gives the same rows, and a second instance finds the lock taken and leaves. A change
 * committed after the marks were deleted left a new mark, so its bucket is recomputed again; until
 * then the overview reads it raw. The current bucket is left for when it closes (it is read raw).
 *
 * The daily level (`insights_daily_rollups`, one row per account, assistant and UTC day) is the sum
 * of a day's 15-minute rows, and this job keeps it so: the transaction that replaces 15-minute rows
 * rebuilds the days holding them from their 96 buckets' rows. A day is read at the daily level only
 * while none of its buckets is marked dirty: its 15-minute rows are then all right, and so is their
 * sum, which was rebuilt when the last of them was replaced. No separate day marks: a bucket's mark is
 * its day's.
 */
export class InsightsRollup extends PeriodicSweep {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly clock: Clock,
  ) {
    super("insights rollup", ROLLUP_INTERVAL_MS, deps.logger);
  }

  protected runOnce() {
    return this.drain();
  }

  /** Rolls up every closed dirty bucket; the count of buckets, or null when another instance is at it. */
  async drain(): Promise<number | null> {
    let total = 0;
    for (;;) {
      const done = await this.batch();
      if (done === null) return total || null;
      total += done;
      if (done < ROLLUP_BATCH) return total;
    }
  }

  private batch(): Promise<number | null> {
    const open = new Date(Math.floor(this.clock.now().getTime() / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS);
    return this.deps.db.prisma.$transaction(
      async (tx) => {
        const [lock] = await tx.$queryRaw<{ taken: boolean }[]>`
          SELECT pg_try_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${LOCK_KEY}::integer) AS "taken"`;
        if (!lock?.taken) return null;
        const picked = await tx.$queryRaw<{ accountId: number; bucket: Date }[]>`
          SELECT DISTINCT "accountId", "bucket" FROM "insights_dirty_buckets"
          WHERE "bucket" < ${open}
          ORDER BY "accountId", "bucket"
          LIMIT ${ROLLUP_BATCH}`;
        if (picked.length === 0) return 0;
        const accounts = picked.map((row) => row.accountId);
        const buckets = picked.map((row) => row.bucket);
        const pairs = Prisma.sql`SELECT * FROM unnest(${accounts}::int[], ${buckets}::timestamptz[]) AS "p"("accountId", "bucket")`;
        // Marks first: one committed after this statement survives it, and recomputes the bucket again.
        await tx.$executeRaw`
          DELETE FROM "insights_dirty_buckets" "d" USING (${pairs}) "p"
          WHERE "d"."accountId" = "p"."accountId" AND "d"."bucket" = "p"."bucket"`;
        await tx.$executeRaw`
          DELETE FROM "insights_rollups" "r" USING (${pairs}) "p"
          WHERE "r"."accountId" = "p"."accountId" AND "r"."bucket" = "p"."bucket"`;
        await tx.$executeRaw(recompute(pairs));
        const days = Prisma.sql`SELECT DISTINCT "accountId", ${DAY_OF(`"bucket"`)} AS "day" FROM (${pairs}) AS "p"`;
        await tx.$executeRaw`
          DELETE FROM "insights_daily_rollups" "d" USING (${days}) "p"
          WHERE "d"."accountId" = "p"."accountId" AND "d"."day" = "p"."day"`;
        await tx.$executeRaw(rebuildDays(days));
        return picked.length;
      },
      { timeout: 120_000 },
    );
  }
}

/**
 * The rollup rows of the (account, bucket) pairs selected by `pairs`, from the raw rows. Each bucket
 * and each call is looked up LATERAL with OFFSET 0 (which keeps the planner from flattening it into
 * a join): an index range scan per bucket and per call. As a plain join the planner cannot estimate
 * a range bounded by another table's column and hashed the whole calls and turns tables per batch.
 */
export function recompute(pairs: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
          WITH "p" AS (${pairs}),
          "c" AS (
            SELECT "c"."id", "c"."accountId", "c"."assistantId", "c"."status", "c"."startedAt", "c"."duration",
              "c"."totalCost", "c"."evaluationStatus", "c"."evaluation", "c"."transferState", "c"."endReason", "p"."bucket"
            FROM "p" CROSS JOIN LATERAL (
              SELECT * FROM "calls" "c"
              WHERE "c"."accountId" = "p"."accountId" AND "c"."createdAt" >= "p"."bucket"
                AND "c"."createdAt" < "p"."bucket" + interval '15 minutes' AND NOT "c"."test"
              OFFSET 0
            ) AS "c"
          ),
          "figures" AS (
            SELECT "c"."accountId", coalesce("c"."assistantId", 0) AS "assistantId", "c"."bucket", ${CALL_FIGURES} FROM "c"
            UNION ALL
            SELECT "v"."accountId", "v"."assistantId", "p"."bucket", ${CONVERSATION_FIGURES}
            FROM "p" CROSS JOIN LATERAL (
              SELECT * FROM "conversations" "v" WHERE "v"."accountId" = "p"."accountId"
                AND "v"."createdAt" >= "p"."bucket" AND "v"."createdAt" < "p"."bucket" + interval '15 minutes'
                AND ${COUNTED_CONVERSATION}
              OFFSET 0
            ) AS "v"
            UNION ALL
            SELECT "b"."accountId", coalesce("b"."assistantId", 0), "p"."bucket", ${BOOKING_FIGURES}
            FROM "p" CROSS JOIN LATERAL (
              SELECT * FROM "appointments" "b" WHERE "b"."accountId" = "p"."accountId"
                AND "b"."createdAt" >= "p"."bucket" AND "b"."createdAt" < "p"."bucket" + interval '15 minutes'
                AND ${COUNTED_BOOKING}
              OFFSET 0
            ) AS "b"
          ),
          "sums" AS (
            SELECT "accountId", "assistantId", "bucket",
              sum("calls") AS "calls", sum("finished") AS "finished", sum("answered") AS "answered",
              sum("seconds") AS "seconds", sum("cost") AS "cost", sum("evaluated") AS "evaluated",
              sum("judged") AS "judged", sum("successful") AS "successful", sum("transfers") AS "transfers",
              sum("conversations") AS "conversations", sum("bookings") AS "bookings"
            FROM "figures" GROUP BY 1, 2, 3
          ),
          "slots" AS (
            SELECT "c"."accountId", coalesce("c"."assistantId", 0) AS "assistantId", "c"."bucket",
              ${histogramSlot(TURN_MS)} AS "slot", count(*) AS "turns", sum(${TURN_MS}) AS "ms"
            FROM "c" CROSS JOIN LATERAL (
              SELECT * FROM "call_turns" "t" WHERE "t"."callId" = "c"."id" AND ${MEASURED_TURN}
              OFFSET 0
            ) AS "t"
            GROUP BY 1, 2, 3, 4
          ),
          "latency" AS (
            SELECT "accountId", "assistantId", "bucket", sum("turns") AS "turns", sum("ms") AS "ms",
              ${histogramOf(`"slot"`, `"turns"`)} AS "histogram"
            FROM "slots" GROUP BY 1, 2, 3
          ),
          "endings" AS (
            SELECT "accountId", "assistantId", "bucket",
              jsonb_agg(jsonb_build_object('status', "status", 'reason', "reason", 'calls', "calls")) AS "endings"
            FROM (
              SELECT "c"."accountId", coalesce("c"."assistantId", 0) AS "assistantId", "c"."bucket",
                "c"."status"::text AS "status", "c"."endReason" AS "reason", count(*) AS "calls"
              FROM "c" WHERE ${FINISHED}
              GROUP BY 1, 2, 3, 4, 5
            ) AS "grouped"
            GROUP BY 1, 2, 3
          )
          INSERT INTO "insights_rollups" ("accountId", "assistantId", "bucket", "calls", "finished", "answered",
            "seconds", "cost", "evaluated", "judged", "successful", "transfers", "conversations", "bookings",
            "turns", "latencyMs", "latencyHistogram", "endings")
          SELECT "s"."accountId", "s"."assistantId", "s"."bucket", "s"."calls", "s"."finished", "s"."answered",
            "s"."seconds", "s"."cost", "s"."evaluated", "s"."judged", "s"."successful", "s"."transfers",
            "s"."conversations", "s"."bookings", coalesce("l"."turns", 0), coalesce("l"."ms", 0),
            "l"."histogram", coalesce("e"."endings", '[]'::jsonb)
          FROM "sums" "s"
          LEFT JOIN "latency" "l" USING ("accountId", "assistantId", "bucket")
          LEFT JOIN "endings" "e" USING ("accountId", "assistantId", "bucket")`;
}

/**
 * The daily rows of the (account, UTC day) pairs selected by `days`, summed from their 15-minute
 * rows (one index range scan per day): counts and sums add up, histograms slot by slot, endings by
 * (status, reason).
 */
function rebuildDays(days: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`
          WITH "q" AS (
            SELECT "q".*, "p"."day" FROM (${days}) AS "p" CROSS JOIN LATERAL (
              SELECT * FROM "insights_rollups" "q" WHERE "q"."accountId" = "p"."accountId"
                AND "q"."bucket" >= "p"."day" AND "q"."bucket" < "p"."day" + interval '24 hours'
              OFFSET 0
            ) AS "q"
          ),
          "sums" AS (
            SELECT "accountId", "assistantId", "day", sum("calls") AS "calls", sum("finished") AS "finished",
              sum("answered") AS "answered", sum("seconds") AS "seconds", sum("cost") AS "cost",
              sum("evaluated") AS "evaluated", sum("judged") AS "judged", sum("successful") AS "successful",
              sum("transfers") AS "transfers", sum("conversations") AS "conversations", sum("bookings") AS "bookings",
              sum("turns") AS "turns", sum("latencyMs") AS "latencyMs",
              ${histogramSum(`"latencyHistogram"`)}::int[] AS "latencyHistogram"
            FROM "q" GROUP BY 1, 2, 3
          ),
          "endings" AS (
            SELECT "accountId", "assistantId", "day",
              jsonb_agg(jsonb_build_object('status', "status", 'reason', "reason", 'calls', "calls")) AS "endings"
            FROM (
              SELECT "q"."accountId", "q"."assistantId", "q"."day", "e"."status", "e"."reason", sum("e"."calls") AS "calls"
              FROM "q", jsonb_to_recordset("q"."endings") AS "e"("status" text, "reason" text, "calls" int)
              GROUP BY 1, 2, 3, 4, 5
            ) AS "grouped"
            GROUP BY 1, 2, 3
          )
          INSERT INTO "insights_daily_rollups" ("accountId", "assistantId", "day", "calls", "finished", "answered",
            "seconds", "cost", "evaluated", "judged", "successful", "transfers", "conversations", "bookings",
            "turns", "latencyMs", "latencyHistogram", "endings")
          SELECT "s"."accountId", "s"."assistantId", "s"."day", "s"."calls", "s"."finished", "s"."answered",
            "s"."seconds", "s"."cost", "s"."evaluated", "s"."judged", "s"."successful", "s"."transfers",
            "s"."conversations", "s"."bookings", "s"."turns", "s"."latencyMs", "s"."latencyHistogram",
            coalesce("e"."endings", '[]'::jsonb)
          FROM "sums" "s" LEFT JOIN "endings" "e" USING ("accountId", "assistantId", "day")`;
}
