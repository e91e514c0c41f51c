import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";

/** The longest period one overview covers: a year and a day, so "the last 12 months" always fits. */
export const INSIGHTS_MAX_DAYS = 366;
/** Periods up to this long are charted per hour, longer ones per day. */
const HOURLY_UP_TO_MS = 2 * 86_400_000;
/** How many ended reasons the overview lists. */
const TOP_REASONS = 5;
/**
 * A call whose evaluation has no boolean `success` (or `successful`) field is judged by its `score`
 * (the default post_call_schema's 0-10 field): at least this is a success.
 */
export const SUCCESS_SCORE = 7;

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

/**
 * The overview of an account's calls and conversations over a period, for one assistant or all:
 * a few aggregate statements, each a range scan of an (account, createdAt) or (assistant,
 * createdAt) index, so its cost follows the period's rows, not the account's history
 * (bench/console/insights.bench.ts).
 */
export class InsightsService {
  constructor(private readonly deps: ServiceDeps) {}

  async overview(accountId: number, request: InsightsRequest): Promise<Insights> {
    const input = parseInput(InsightsInput, request);
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
    const onAssistant = (column: string) =>
      assistantId === null ? Prisma.empty : Prisma.sql`AND ${Prisma.raw(column)} = ${assistantId}`;
    const bucketOf = (column: string) =>
      Prisma.sql`date_trunc(${bucket}, ${Prisma.raw(column)} AT TIME ZONE ${timezone})`;

    // The evaluation's verdict: its boolean success field when it has one, else its score.
    const verdict = Prisma.sql`CASE
        WHEN jsonb_typeof("evaluation"->'success') = 'boolean' THEN ("evaluation"->>'success')::boolean
        WHEN jsonb_typeof("evaluation"->'successful') = 'boolean' THEN ("evaluation"->>'successful')::boolean
        WHEN jsonb_typeof("evaluation"->'score') = 'number' THEN ("evaluation"->>'score')::numeric >= ${SUCCESS_SCORE}
      END`;
    const [buckets, latency, reasons] = await Promise.all([
      prisma.$queryRaw<BucketRow[]>`
        WITH "slots" AS (
          SELECT "slot" FROM generate_series(
            date_trunc(${bucket}, ${from}::timestamptz AT TIME ZONE ${timezone}),
            ${to}::timestamptz AT TIME ZONE ${timezone} - interval '1 microsecond',
            ${bucket === "hour" ? "1 hour" : "1 day"}::interval) AS "slot"
        ),
        "call_buckets" AS (
          SELECT ${bucketOf(`"createdAt"`)} AS "slot",
            count(*) AS "calls",
            count(*) FILTER (WHERE "status" NOT IN ('initiated', 'ringing', 'in-progress')) AS "finished",
            count(*) FILTER (WHERE "startedAt" IS NOT NULL AND "status" NOT IN ('initiated', 'ringing', 'in-progress')) AS "answered",
            coalesce(sum("duration"), 0) AS "seconds",
            coalesce(sum("totalCost"), 0) AS "cost",
            count(*) FILTER (WHERE "evaluationStatus" = 'done') AS "evaluated",
            count(*) FILTER (WHERE "evaluationStatus" = 'done' AND (${verdict}) IS NOT NULL) AS "judged",
            count(*) FILTER (WHERE "evaluationStatus" = 'done' AND (${verdict})) AS "successful",
            count(*) FILTER (WHERE "transferState" <> '') AS "transfers"
          FROM "calls"
          WHERE "accountId" = ${accountId} AND "createdAt" >= ${from} AND "createdAt" < ${to} AND NOT "test"
            ${onAssistant(`"assistantId"`)}
          GROUP BY 1
        ),
        "conversation_buckets" AS (
          SELECT ${bucketOf(`"createdAt"`)} AS "slot", count(*) AS "conversations"
          FROM "conversations"
          WHERE "accountId" = ${accountId} AND "createdAt" >= ${from} AND "createdAt" < ${to}
            AND "channel" <> 'test' ${onAssistant(`"assistantId"`)}
          GROUP BY 1
        ),
        "booking_buckets" AS (
          SELECT ${bucketOf(`"createdAt"`)} AS "slot", count(*) AS "bookings"
          FROM "appointments"
          WHERE "accountId" = ${accountId} AND "createdAt" >= ${from} AND "createdAt" < ${to}
            AND "status" <> 'pending' ${onAssistant(`"assistantId"`)}
          GROUP BY 1
        )
        SELECT ("slots"."slot" AT TIME ZONE ${timezone}) AS "start",
          coalesce("calls", 0) AS "calls", coalesce("finished", 0) AS "finished",
          coalesce("answered", 0) AS "answered", coalesce("seconds", 0) AS "seconds",
          coalesce("cost", 0) AS "cost", coalesce("evaluated", 0) AS "evaluated",
          coalesce("judged", 0) AS "judged", coalesce("successful", 0) AS "successful",
          coalesce("transfers", 0) AS "transfers", coalesce("conversations", 0) AS "conversations",
          coalesce("bookings", 0) AS "bookings"
        FROM "slots"
        LEFT JOIN "call_buckets" USING ("slot")
        LEFT JOIN "conversation_buckets" USING ("slot")
        LEFT JOIN "booking_buckets" USING ("slot")
        ORDER BY "slots"."slot"`,
      // From the caller's end of speech to the first audio byte of the answer: what the caller
      // waits, over the turns of the period's calls. A turn is never older than its call: the
      // lower bound on the turn lets the planner range-scan the turns' own index too.
      prisma.$queryRaw<{ turns: bigint; average: number | null; p95: number | null }[]>`
        SELECT count(*) AS "turns", avg("ms")::float8 AS "average",
          percentile_cont(0.95) WITHIN GROUP (ORDER BY "ms")::float8 AS "p95"
        FROM (
          SELECT extract(epoch FROM "t"."firstAudioAt" - "t"."speechEndedAt") * 1000 AS "ms"
          FROM "call_turns" "t" JOIN "calls" "c" ON "c"."id" = "t"."callId"
          WHERE "t"."accountId" = ${accountId} AND "t"."createdAt" >= ${from}
            AND "c"."accountId" = ${accountId} AND "c"."createdAt" >= ${from} AND "c"."createdAt" < ${to} AND NOT "c"."test"
            AND "t"."speechEndedAt" IS NOT NULL AND "t"."firstAudioAt" IS NOT NULL
            ${onAssistant(`"c"."assistantId"`)}
        ) "latencies"`,
      prisma.$queryRaw<{ status: string; reason: string; calls: bigint }[]>`
        SELECT "status"::text AS "status", "endReason" AS "reason", count(*) AS "calls"
        FROM "calls"
        WHERE "accountId" = ${accountId} AND "createdAt" >= ${from} AND "createdAt" < ${to} ${onAssistant(`"assistantId"`)}
          AND "status" NOT IN ('initiated', 'ringing', 'in-progress') AND NOT "test"
        GROUP BY 1, 2
        ORDER BY 3 DESC, 1, 2
        LIMIT ${TOP_REASONS}`,
    ]);

    const sum = (pick: (row: BucketRow) => bigint) =>
      buckets.reduce((total, row) => total + Number(pick(row)), 0);
    const ratio = (part: number, whole: number) => (whole === 0 ? null : part / whole);
    const totalCost = buckets.reduce((total, row) => total.add(row.cost), new Prisma.Decimal(0));
    const finishedCalls = sum((row) => row.finished);
    const answeredCalls = sum((row) => row.answered);
    const judgedCalls = sum((row) => row.judged);
    const successfulCalls = sum((row) => row.successful);
    const turns = latency[0];
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
      measuredTurns: Number(turns?.turns ?? 0),
      averageTurnLatencyMs:
        turns?.average === null || turns?.average === undefined ? null : Math.round(turns.average),
      p95TurnLatencyMs: turns?.p95 === null || turns?.p95 === undefined ? null : Math.round(turns.p95),
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
