import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, RateLimitedError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import type { AccountGate } from "../common/per-account-gate.ts";
import { assistantFilter, insightsScope, slotSql } from "./insights-scope.ts";
import {
  BOOKING_FIGURES,
  CALL_FIGURES,
  CONVERSATION_FIGURES,
  COUNTED_BOOKING,
  COUNTED_CONVERSATION,
  FINISHED,
  HISTOGRAM_SIZE,
  histogramSlot,
  histogramSum,
  INSIGHTS_LATENCY_BOUNDS,
  MEASURED_TURN,
  TURN_MS,
} from "./insights-sql.ts";

/** The longest period one overview covers: a year and a day, so "the last 12 months" always fits. */
export const INSIGHTS_MAX_DAYS = 366;
/** Periods up to this long are charted per hour, longer ones per day. */
const HOURLY_UP_TO_MS = 2 * 86_400_000;
/** How many ended reasons the overview lists. */
const TOP_REASONS = 5;
/**
 * Overviews an account may compute at once (across instances with REDIS_URL): two members looking at
 * the same time are served; a script hammering the query is told to wait.
 */
export const INSIGHTS_CONCURRENCY = 2;

const InsightsInput = z
  .object({
    from: z.date({ error: "The from field must be a date and time." }),
    to: z.date({ error: "The to field must be a date and time." }),
    assistantId: z.number().int("The assistant id field must be an integer.").nullish(),
  })
  .refine((input) => input.to > input.from, {
    path: ["to"],
    message: "The to field must be after from.",
  })
  .refine((input) => input.to.getTime() - input.from.getTime() <= INSIGHTS_MAX_DAYS * 86_400_000, {
    path: ["to"],
    message: `The period must not be longer than ${INSIGHTS_MAX_DAYS} days.`,
  });

export interface InsightsRequest {
  from: unknown;
  to: unknown;
  assistantId?: unknown;
}

/** One bucket of the period (an hour or a day of the account's time zone). */
export interface InsightsPoint {
  start: Date;
  calls: number;
  answeredCalls: number;
  conversations: number;
  minutes: number;
  cost: string;
  bookings: number;
}

export interface EndedReason {
  /** The call's final status as the API spells it. */
  status: string;
  /** Why Voxgate ended or failed it ("" when the status says it all). */
  reason: string;
  calls: number;
}

export interface Insights {
  from: Date;
  to: Date;
  assistantId: number | null;
  timezone: string;
  bucket: "hour" | "day";
  calls: number;
  /** Calls that reached a final status: the base of the answer rate. */
  finishedCalls: number;
  answeredCalls: number;
  answerRate: number | null;
  conversations: number;
  minutes: number;
  cost: string;
  evaluatedCalls: number;
  /** Evaluated calls whose evaluation says success or failure (see SUCCESS_SCORE). */
  judgedCalls: number;
  successfulCalls: number;
  successRate: number | null;
  measuredTurns: number;
  averageTurnLatencyMs: number | null;
  /** Read from a histogram (INSIGHTS_LATENCY_BOUNDS): within the width of the bucket of the exact p95. */
  p95TurnLatencyMs: number | null;
  transfers: number;
  bookings: number;
  endedReasons: EndedReason[];
  series: InsightsPoint[];
}

interface BucketRow {
  start: Date;
  calls: bigint;
  finished: bigint;
  answered: bigint;
  seconds: bigint;
  cost: Prisma.Decimal;
  evaluated: bigint;
  judged: bigint;
  successful: bigint;
  transfers: bigint;
  conversations: bigint;
  bookings: bigint;
}

/** Latency figures: the rollup's summed histogram (slot null), then the raw turns per slot. */
interface LatencyRow {
  slot: number | null;
  turns: bigint | null;
  ms: Prisma.Decimal | null;
  histogram: bigint[] | null;
}

/**
 * The overview of an account's calls and conversations over a period, for one assistant or all.
 * Whole UTC days of the period are read from `insights_daily_rollups` and the other whole 15-minute
 * buckets from `insights_rollups` (insights-rollup.ts), unless marked dirty (a dirty bucket's day is
 * read per bucket); dirty buckets, the period's ragged ends and the current bucket are read from the
 * raw rows, each an index range scan. Each statement reads the marks, the rollup and the
 * raw rows in one snapshot, so figures are exact and as fresh as the raw rows
 * (insights-scope.ts, docs/console.md#insights, bench/console/insights.bench.ts).
 */
export class InsightsService {
  /** INSIGHTS_CONCURRENCY places per account, built in the composition root. */
  private readonly gate: AccountGate;

  constructor(
    private readonly deps: ServiceDeps,
    parts: { gate: AccountGate },
  ) {
    this.gate = parts.gate;
  }

  async overview(accountId: number, request: InsightsRequest): Promise<Insights> {
    const input = parseInput(InsightsInput, request);
    const release = await this.gate.enter(accountId);
    if (!release) {
      throw new RateLimitedError(
        `At most ${INSIGHTS_CONCURRENCY} overviews of an account are computed at once. Try again in a moment.`,
        1,
      );
    }
    try {
      return await this.compute(accountId, input, true);
    } finally {
      release();
    }
  }

  /**
   * The same figures from the raw rows alone, as before the rollup: what the rollup must equal
   * (insights-rollup.test.ts) and the bench's baseline.
   */
  rawOverview(accountId: number, request: InsightsRequest): Promise<Insights> {
    return this.compute(accountId, parseInput(InsightsInput, request), false);
  }

  private async compute(
    accountId: number,
    input: z.infer<typeof InsightsInput>,
    useRollup: boolean,
  ): Promise<Insights> {
    const prisma = this.deps.db.prisma;
    const assistantId = input.assistantId ?? null;
    if (assistantId !== null) {
      // Deleted assistants stay selectable: their history is still the account's.
      const owned = await prisma.assistant.findFirst({
        where: { id: assistantId, accountId },
        select: { id: true },
      });
      if (!owned) throw new NotFoundError("Assistant");
    }
    const account = await prisma.account.findUniqueOrThrow({
      where: { id: accountId },
      select: { timezone: true },
    });
    const timezone = account.timezone;
    const bucket = input.to.getTime() - input.from.getTime() <= HOURLY_UP_TO_MS ? "hour" : "day";
    const { from, to } = input;
    const onAssistant = (column: string) => assistantFilter(assistantId, column);
    const slotOf = (column: string) => slotSql(bucket, timezone, column);
    const scope = insightsScope({ accountId, assistantId, from, to, timezone, bucket, useRollup });

    // Beside the rollup the raw calls are few: their turns by call, an index probe each (OFFSET 0 keeps
    // the planner, which cannot estimate ranges read from the marks, from hashing the whole turns
    // table). Alone, a period's raw calls are many: a join the planner chooses.
    const turnsOf = useRollup
      ? Prisma.sql`CROSS JOIN LATERAL (
          SELECT * FROM "call_turns" "t" WHERE "t"."callId" = "c"."id" AND ${MEASURED_TURN} OFFSET 0
        ) AS "t"`
      : Prisma.sql`JOIN "call_turns" "t" ON "t"."callId" = "c"."id" WHERE ${MEASURED_TURN}`;
    const [buckets, latency, reasons] = await Promise.all([
      prisma.$queryRaw<BucketRow[]>`
        WITH ${scope(true)},
        "slots" AS (
          SELECT "slot" FROM generate_series(
            date_trunc(${bucket}, ${from}::timestamptz AT TIME ZONE ${timezone}),
            ${to}::timestamptz AT TIME ZONE ${timezone} - interval '1 microsecond',
            ${bucket === "hour" ? "1 hour" : "1 day"}::interval) AS "slot"
        ),
        "parts" AS (
          SELECT ${slotOf(`"bucket"`)} AS "slot", "calls", "finished", "answered", "seconds", "cost"::numeric,
            "evaluated", "judged", "successful", "transfers", "conversations", "bookings"
          FROM "rolled"
          UNION ALL
          SELECT ${slotOf(`"bucket"`)}, "calls", "finished", "answered", "seconds", "cost"::numeric,
            "evaluated", "judged", "successful", "transfers", "conversations", "bookings"
          FROM "moved"
          UNION ALL
          SELECT ${slotOf(`"noon"`)}, -"calls", -"finished", -"answered", -"seconds", -"cost"::numeric,
            -"evaluated", -"judged", -"successful", -"transfers", -"conversations", -"bookings"
          FROM "moved"
          UNION ALL
          SELECT ${slotOf(`"c"."createdAt"`)}, ${CALL_FIGURES} FROM "raw_calls" "c"
          UNION ALL
          SELECT ${slotOf(`"v"."createdAt"`)}, ${CONVERSATION_FIGURES}
          FROM "ranges" "r" CROSS JOIN LATERAL (
            SELECT * FROM "conversations" "v" WHERE "v"."accountId" = ${accountId}
              AND "v"."createdAt" >= "r"."from" AND "v"."createdAt" < "r"."to"
              AND ${COUNTED_CONVERSATION} ${onAssistant(`"v"."assistantId"`)}
            OFFSET 0
          ) AS "v"
          UNION ALL
          SELECT ${slotOf(`"b"."createdAt"`)}, ${BOOKING_FIGURES}
          FROM "ranges" "r" CROSS JOIN LATERAL (
            SELECT * FROM "appointments" "b" WHERE "b"."accountId" = ${accountId}
              AND "b"."createdAt" >= "r"."from" AND "b"."createdAt" < "r"."to"
              AND ${COUNTED_BOOKING} ${onAssistant(`"b"."assistantId"`)}
            OFFSET 0
          ) AS "b"
        )
        SELECT ("slots"."slot" AT TIME ZONE ${timezone}) AS "start",
          coalesce(sum("calls"), 0)::bigint AS "calls", coalesce(sum("finished"), 0)::bigint AS "finished",
          coalesce(sum("answered"), 0)::bigint AS "answered", coalesce(sum("seconds"), 0)::bigint AS "seconds",
          coalesce(sum("cost"), 0) AS "cost", coalesce(sum("evaluated"), 0)::bigint AS "evaluated",
          coalesce(sum("judged"), 0)::bigint AS "judged", coalesce(sum("successful"), 0)::bigint AS "successful",
          coalesce(sum("transfers"), 0)::bigint AS "transfers",
          coalesce(sum("conversations"), 0)::bigint AS "conversations",
          coalesce(sum("bookings"), 0)::bigint AS "bookings"
        FROM "slots" LEFT JOIN "parts" USING ("slot")
        GROUP BY "slots"."slot"
        ORDER BY "slots"."slot"`,
      prisma.$queryRaw<LatencyRow[]>`
        WITH ${scope(false)}
        SELECT NULL::int AS "slot", sum("turns")::bigint AS "turns", sum("latencyMs") AS "ms",
          ${histogramSum(`"latencyHistogram"`)} AS "histogram"
        FROM "rolled"
        UNION ALL
        SELECT ${histogramSlot(TURN_MS)}, count(*), sum(${TURN_MS}), NULL
        FROM "raw_calls" "c" ${turnsOf}
        GROUP BY 1`,
      prisma.$queryRaw<{ status: string; reason: string; calls: bigint }[]>`
        WITH ${scope(false)}
        SELECT "status", "reason", sum("calls")::bigint AS "calls" FROM (
          SELECT "e"."status", "e"."reason", "e"."calls"
          FROM "rolled", jsonb_to_recordset("rolled"."endings") AS "e"("status" text, "reason" text, "calls" int)
          UNION ALL
          SELECT "c"."status"::text, "c"."endReason", 1 FROM "raw_calls" "c" WHERE ${FINISHED}
        ) AS "endings"
        GROUP BY 1, 2
        ORDER BY 3 DESC, 1, 2
        LIMIT ${TOP_REASONS}`,
    ]);

    const histogram = new Array<number>(HISTOGRAM_SIZE).fill(0);
    let turns = 0;
    let latencyMs = new Prisma.Decimal(0);
    for (const row of latency) {
      if (row.turns === null) continue;
      turns += Number(row.turns);
      if (row.ms !== null) latencyMs = latencyMs.add(row.ms);
      if (row.slot !== null) histogram[row.slot]! += Number(row.turns);
      else for (const [slot, count] of (row.histogram ?? []).entries()) histogram[slot]! += Number(count);
    }
    const sum = (pick: (row: BucketRow) => bigint) =>
      buckets.reduce((total, row) => total + Number(pick(row)), 0);
    const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
    const totalCost = buckets.reduce((total, row) => total.add(row.cost), new Prisma.Decimal(0));
    const finishedCalls = sum((row) => row.finished);
    const answeredCalls = sum((row) => row.answered);
    const judgedCalls = sum((row) => row.judged);
    const successfulCalls = sum((row) => row.successful);
    return {
      from,
      to,
      assistantId,
      timezone,
      bucket,
      calls: sum((row) => row.calls),
      finishedCalls,
      answeredCalls,
      answerRate: ratio(answeredCalls, finishedCalls),
      conversations: sum((row) => row.conversations),
      minutes: sum((row) => row.seconds) / 60,
      cost: totalCost.toFixed(4),
      evaluatedCalls: sum((row) => row.evaluated),
      judgedCalls,
      successfulCalls,
      successRate: ratio(successfulCalls, judgedCalls),
      measuredTurns: turns,
      averageTurnLatencyMs: turns === 0 ? null : Math.round(latencyMs.div(turns).toNumber()),
      p95TurnLatencyMs: turns === 0 ? null : Math.round(percentileOf(histogram, turns, 0.95)),
      transfers: sum((row) => row.transfers),
      bookings: sum((row) => row.bookings),
      endedReasons: reasons.map((row) => ({
        status: row.status,
        reason: row.reason,
        calls: Number(row.calls),
      })),
      series: buckets.map((row) => ({
        start: row.start,
        calls: Number(row.calls),
        answeredCalls: Number(row.answered),
        conversations: Number(row.conversations),
        minutes: Number(row.seconds) / 60,
        cost: new Prisma.Decimal(row.cost).toFixed(4),
        bookings: Number(row.bookings),
      })),
    };
  }
}

/**
 * The `fraction` percentile of `total` latencies from their histogram: the value at rank
 * fraction x total, interpolated linearly inside the bucket holding it. It lies in the same bucket as
 * the exact percentile (nearest rank), so it is off by less than that bucket's width: under 50 ms
 * below 2 s (INSIGHTS_LATENCY_BOUNDS). Negative latencies read 0, beyond the last bound its value.
 */
export function percentileOf(histogram: readonly number[], total: number, fraction: number): number {
  const rank = fraction * total;
  let below = 0;
  for (const [slot, count] of histogram.entries()) {
    if (count > 0 && below + count >= rank) {
      if (slot === 0) return 0;
      const lower = INSIGHTS_LATENCY_BOUNDS[slot - 1]!;
      const upper = INSIGHTS_LATENCY_BOUNDS[slot];
      if (upper === undefined) return lower;
      return lower + ((rank - below) / count) * (upper - lower);
    }
    below += count;
  }
  return INSIGHTS_LATENCY_BOUNDS.at(-1)!;
}
