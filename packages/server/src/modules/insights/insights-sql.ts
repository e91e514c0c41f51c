import { Prisma } from "../../generated/prisma/client.ts";

/**
 * Width of a rollup bucket. Every time zone in use today is a whole number of quarter hours from
 * UTC (India +5:30, Nepal +5:45, Chatham +12:45 included), so the local hours and days of any
 * account are unions of whole buckets. Hours would serve only whole-hour zones.
 */
export const ROLLUP_BUCKET_MS = 15 * 60_000;
/** The same, as the SQL the triggers of migration 0035 use to cut buckets. */
export const BUCKET_OF = (column: Prisma.Sql) =>
  Prisma.sql`date_bin('15 minutes', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`;
/**
 * The daily level's width: a UTC day (migration 0037), 96 buckets. In SQL always "24 hours", never
 * "1 day", whose length follows the session's time zone.
 */
export const ROLLUP_DAY_MS = 24 * 60 * 60_000;
/** The UTC day of an instant, as the daily level is keyed. */
export const DAY_OF = (column: string) =>
  Prisma.raw(`date_bin('24 hours', ${column}, TIMESTAMPTZ '2000-01-01 00:00:00+00')`);

/**
 * A call whose evaluation has no boolean `success` (or `successful`) field is judged by its `score`
 * (the default post_call_schema's 0-10 field): at least this is a success.
 */
export const SUCCESS_SCORE = 7;

/**
 * Lower bounds (ms) of the turn latency histogram's buckets, from which the p95 is read: 50 ms wide
 * up to 2 s, then 250 ms to 3 s, 500 ms to 5 s, 1 s to 10 s, then 15, 20 and 30 s (the last bucket
 * is everything above). Bucket 0 holds negative latencies (clock skew), read as 0.
 */
export const INSIGHTS_LATENCY_BOUNDS: readonly number[] = [
  ...Array.from({ length: 41 }, (_, index) => index * 50),
  2250,
  2500,
  2750,
  3000,
  3500,
  4000,
  4500,
  5000,
  6000,
  7000,
  8000,
  9000,
  10000,
  15000,
  20000,
  30000,
];
/** Histogram slots: one per bound, plus bucket 0 below the first. */
export const HISTOGRAM_SIZE = INSIGHTS_LATENCY_BOUNDS.length + 1;

const BOUNDS = Prisma.raw(`ARRAY[${INSIGHTS_LATENCY_BOUNDS.join(", ")}]::numeric[]`);

/** The histogram bucket (0..HISTOGRAM_SIZE-1) of a latency in ms. */
export const histogramSlot = (ms: Prisma.Sql) => Prisma.sql`width_bucket(${ms}, ${BOUNDS})`;

/** A dense histogram from rows grouped by slot (`slot`, `turns`): one statement-side array. */
export const histogramOf = (slot: string, count: string) =>
  Prisma.raw(
    `ARRAY[${Array.from({ length: HISTOGRAM_SIZE }, (_, index) => `coalesce(sum(${count}) FILTER (WHERE ${slot} = ${index}), 0)`).join(", ")}]::int[]`,
  );

/** The element-wise sum of a histogram column over rows. */
export const histogramSum = (column: string) =>
  Prisma.raw(
    `ARRAY[${Array.from({ length: HISTOGRAM_SIZE }, (_, index) => `coalesce(sum(${column}[${index + 1}]), 0)`).join(", ")}]::bigint[]`,
  );

/** What the caller waits: from the end of their speech to the answer's first audio byte. */
export const TURN_MS = Prisma.sql`extract(epoch FROM "t"."firstAudioAt" - "t"."speechEndedAt") * 1000`;
export const MEASURED_TURN = Prisma.sql`"t"."speechEndedAt" IS NOT NULL AND "t"."firstAudioAt" IS NOT NULL`;

/** Per-call figures of a calls row aliased "c", 0 or 1 each, as the rollup and the raw reads sum them. */
const verdict = Prisma.sql`CASE
    WHEN jsonb_typeof("c"."evaluation"->'success') = 'boolean' THEN ("c"."evaluation"->>'success')::boolean
    WHEN jsonb_typeof("c"."evaluation"->'successful') = 'boolean' THEN ("c"."evaluation"->>'successful')::boolean
    WHEN jsonb_typeof("c"."evaluation"->'score') = 'number' THEN ("c"."evaluation"->>'score')::numeric >= ${SUCCESS_SCORE}
  END`;
export const FINISHED = Prisma.sql`"c"."status" NOT IN ('initiated', 'ringing', 'in-progress')`;
export const CALL_FIGURES = Prisma.sql`
  1 AS "calls",
  (${FINISHED})::int AS "finished",
  ("c"."startedAt" IS NOT NULL AND ${FINISHED})::int AS "answered",
  "c"."duration"::bigint AS "seconds",
  "c"."totalCost"::numeric AS "cost",
  ("c"."evaluationStatus" = 'done')::int AS "evaluated",
  ("c"."evaluationStatus" = 'done' AND (${verdict}) IS NOT NULL)::int AS "judged",
  coalesce("c"."evaluationStatus" = 'done' AND (${verdict}), false)::int AS "successful",
  ("c"."transferState" <> '')::int AS "transfers",
  0 AS "conversations",
  0 AS "bookings"`;
/** The same columns for a chat (counted in conversations) and a booking. */
export const CONVERSATION_FIGURES = Prisma.sql`0, 0, 0, 0::bigint, 0::numeric, 0, 0, 0, 0, 1, 0`;
export const BOOKING_FIGURES = Prisma.sql`0, 0, 0, 0::bigint, 0::numeric, 0, 0, 0, 0, 0, 1`;
/** Chats of the console's test panel and pending (unconfirmed) bookings are not the business's traffic. */
export const COUNTED_CONVERSATION = Prisma.sql`"v"."channel" <> 'test'`;
export const COUNTED_BOOKING = Prisma.sql`"b"."status" <> 'pending'`;
