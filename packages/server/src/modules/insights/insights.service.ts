import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, RateLimitedError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import { PerAccountGate } from "../common/per-account-gate.ts";
import {
  BOOKING_FIGURES,
  CALL_FIGURES,
  CONVERSATION_FIGURES,
  COUNTED_BOOKING,
  COUNTED_CONVERSATION,
  DAY_OF,
  FINISHED,
  HISTOGRAM_SIZE,
  histogramSlot,
  histogramSum,
  INSIGHTS_LATENCY_BOUNDS,
  MEASURED_TURN,
  ROLLUP_BUCKET_MS,
  ROLLUP_DAY_MS,
  TURN_MS,
} from "./insights-sql.ts";

/** The figures of a rollup row, 15-minute or daily. */
const ROLLED =
  Prisma.raw(`"calls", "finished", "answered", "seconds", "cost", "evaluated", "judged", "successful",
  "transfers", "conversations", "bookings", "turns", "latencyMs", "latencyHistogram", "endings"`);

/** The longest period one overview covers: a year and a day, so "the last 12 months" always fits. */
export const INSIGHTS_MAX_DAYS = 366;
/** Periods up to this long are charted per hour, longer ones per day. */
const HOURLY_UP_TO_MS = 2 * 86_400_000;
/** How many ended reasons the overview lists. */
const TOP_REASONS = 5;
/**
 * Overviews an account may compute at once (per instance): two members looking at the same time
 * are served; a script hammering the query is told to wait.
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
 * (docs/console.md#insights, bench/console/insights.bench.ts).
 */
export class InsightsService {
  private readonly gate = new PerAccountGate(INSIGHTS_CONCURRENCY);

  constructor(private readonly deps: ServiceDeps) {}

  async overview(accountId: number, request: InsightsRequest): Promise<Insights> {
    const input = parseInput(InsightsInput, request);
    const release = this.gate.enter(accountId);
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
    // The whole buckets of the period, [rolledFrom, rolledTo); none when reading raw.
    let rolledFrom = new Date(Math.ceil(from.getTime() / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS);
    let rolledTo = new Date(Math.floor(to.getTime() / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS);
    if (!useRollup || rolledFrom >= rolledTo) rolledFrom = rolledTo = to;
    // The whole UTC days among them, [dayFrom, dayTo): the daily level's; none when there is no such day.
    let dayFrom = new Date(Math.ceil(rolledFrom.getTime() / ROLLUP_DAY_MS) * ROLLUP_DAY_MS);
    let dayTo = new Date(Math.floor(rolledTo.getTime() / ROLLUP_DAY_MS) * ROLLUP_DAY_MS);
    if (dayFrom >= dayTo) dayFrom = dayTo = rolledTo;
    const onAssistant = (column: string) =>
      assistantId === null ? Prisma.empty : Prisma.sql`AND ${Prisma.raw(column)} = ${assistantId}`;
    const slotOf = (column: string) =>
      Prisma.sql`date_trunc(${bucket}, ${Prisma.raw(column)} AT TIME ZONE ${timezone})`;
    const dirtyDay = Prisma.sql`"day" IN (SELECT ${DAY_OF(`"bucket"`)} FROM "dirty")`;
    const eachDay = Prisma.sql`generate_series(${dayFrom}::timestamptz, ${dayTo}::timestamptz - interval '24 hours',
      interval '24 hours') AS "day"`;
    // The UTC days of the rollup's range: "split" ones are read per 15-minute row; the others from their
    // daily row, which counts at the day's noon, with the 15-minute rows of [day, head) and
    // [tail, day + 24 h) moved ("moved") from the noon's point to their own. For the totals nothing moves.
    const wholeDays = Prisma.sql`
      SELECT "day", ${dirtyDay} AS "split", "day" AS "head", "day" + interval '24 hours' AS "tail" FROM ${eachDay}`;
    // Charted per local day, a UTC day overlaps two points unless the zone is at UTC+0. Its noon's point
    // holds at least half of it: [start, end) in UTC, the buckets outside it are at most 48. The bounds
    // are the local midnights as PostgreSQL converts them, accepted only where the slots themselves
    // change on them (a midnight skipped or repeated by a daylight saving change is resolved by a
    // convention); otherwise the day is split. Per hour, a day is many points: every day is split.
    const chartedDays =
      bucket === "hour"
        ? Prisma.sql`SELECT "day", true AS "split", "day" AS "head", "day" + interval '24 hours' AS "tail" FROM ${eachDay}`
        : Prisma.sql`
      SELECT "day", (${dirtyDay} OR NOT (
          date_bin('15 minutes', "start", TIMESTAMPTZ '2000-01-01 00:00:00+00') = "start"
          AND date_bin('15 minutes', "end", TIMESTAMPTZ '2000-01-01 00:00:00+00') = "end"
          AND ${slotOf(`"start"`)} = "local" AND ${slotOf(`("start" - interval '15 minutes')`)} < "local"
          AND ${slotOf(`"end"`)} > "local" AND ${slotOf(`("end" - interval '15 minutes')`)} = "local"
          AND "start" <= "day" + interval '12 hours' AND "end" > "day" + interval '12 hours'
        )) AS "split",
        least(greatest("start", "day"), "day" + interval '24 hours') AS "head",
        greatest(least("end", "day" + interval '24 hours'), "day") AS "tail"
      FROM ${eachDay}
      CROSS JOIN LATERAL (SELECT ${slotOf(`("day" + interval '12 hours')`)} AS "local") AS "n"
      CROSS JOIN LATERAL (
        SELECT "local" AT TIME ZONE ${timezone} AS "start", ("local" + interval '1 day') AT TIME ZONE ${timezone} AS "end"
      ) AS "b"`;
    // Shared head of every statement: the dirty buckets, the raw ranges, the clean rollup rows. A
    // whole UTC day none of whose buckets is dirty is read from its daily row, charted at its noon
    // (see `days`); any other day of the rollup's range per 15-minute row. Each range is read LATERAL
    // with OFFSET 0: an index range scan per range; flattened into a join, the planner cannot estimate
    // ranges read from the marks and scanned an assistant's whole history.
    const scope = (charted: boolean) => Prisma.sql`
      "dirty" AS (
        SELECT DISTINCT "bucket" FROM "insights_dirty_buckets"
        WHERE "accountId" = ${accountId} AND "bucket" >= ${rolledFrom} AND "bucket" < ${rolledTo}
      ),
      "days" AS (${charted ? chartedDays : wholeDays}),
      "ranges" AS (
        SELECT "bucket" AS "from", "bucket" + interval '15 minutes' AS "to" FROM "dirty"
        UNION ALL SELECT ${from}::timestamptz, ${rolledFrom}::timestamptz
        UNION ALL SELECT ${rolledTo}::timestamptz, ${to}::timestamptz
      ),
      "quarters" AS (
        SELECT ${rolledFrom}::timestamptz AS "from", ${dayFrom}::timestamptz AS "to"
        UNION ALL SELECT ${dayTo}::timestamptz, ${rolledTo}::timestamptz
        UNION ALL SELECT "day", "day" + interval '24 hours' FROM "days" WHERE "split"
      ),
      "rolled" AS (
        SELECT "q"."bucket", ${ROLLED} FROM "quarters" "w" CROSS JOIN LATERAL (
          SELECT * FROM "insights_rollups" "q" WHERE "q"."accountId" = ${accountId}
            AND "q"."bucket" >= "w"."from" AND "q"."bucket" < "w"."to" ${onAssistant(`"q"."assistantId"`)}
          OFFSET 0
        ) AS "q"
        WHERE "q"."bucket" NOT IN (SELECT "bucket" FROM "dirty")
        UNION ALL
        SELECT "day" + interval '12 hours', ${ROLLED} FROM "insights_daily_rollups"
        WHERE "accountId" = ${accountId} AND "day" >= ${dayFrom} AND "day" < ${dayTo}
          AND "day" IN (SELECT "day" FROM "days" WHERE NOT "split") ${onAssistant(`"assistantId"`)}
      ),
      "moved" AS (
        SELECT "q"."bucket", "w"."day" + interval '12 hours' AS "noon", ${ROLLED}
        FROM (
          SELECT "day", "day" AS "from", "head" AS "to" FROM "days" WHERE NOT "split" AND "head" > "day"
          UNION ALL SELECT "day", "tail", "day" + interval '24 hours' FROM "days"
          WHERE NOT "split" AND "tail" < "day" + interval '24 hours'
        ) AS "w" CROSS JOIN LATERAL (
          SELECT * FROM "insights_rollups" "q" WHERE "q"."accountId" = ${accountId}
            AND "q"."bucket" >= "w"."from" AND "q"."bucket" < "w"."to" ${onAssistant(`"q"."assistantId"`)}
          OFFSET 0
        ) AS "q"
      ),
      "raw_calls" AS (
        SELECT "c".* FROM "ranges" "r" CROSS JOIN LATERAL (
          SELECT * FROM "calls" "c" WHERE "c"."accountId" = ${accountId}
            AND "c"."createdAt" >= "r"."from" AND "c"."createdAt" < "r"."to"
            AND NOT "c"."test" ${onAssistant(`"c"."assistantId"`)}
          OFFSET 0
        ) AS "c"
      )`;

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
