import { Prisma } from "../../generated/prisma/client.ts";
import { DAY_OF, ROLLUP_BUCKET_MS, ROLLUP_DAY_MS } from "./insights-sql.ts";

/** The figures of a rollup row, 15-minute or daily. */
const ROLLED =
  Prisma.raw(`"calls", "finished", "answered", "seconds", "cost", "evaluated", "judged", "successful",
  "transfers", "conversations", "bookings", "turns", "latencyMs", "latencyHistogram", "endings"`);

/** `AND column = assistantId` when the overview is narrowed to one assistant. */
export const assistantFilter = (assistantId: number | null, column: string) =>
  assistantId === null ? Prisma.empty : Prisma.sql`AND ${Prisma.raw(column)} = ${assistantId}`;

/** The chart point (local hour or day) of an instant column. */
export const slotSql = (bucket: "hour" | "day", timezone: string, column: string) =>
  Prisma.sql`date_trunc(${bucket}, ${Prisma.raw(column)} AT TIME ZONE ${timezone})`;

export interface ScopeInput {
  accountId: number;
  assistantId: number | null;
  from: Date;
  to: Date;
  timezone: string;
  bucket: "hour" | "day";
  /** False: everything from the raw rows (InsightsService.rawOverview). */
  useRollup: boolean;
}

/**
 * Where an overview reads each part of its period (docs/console.md#insights), as the head of a
 * statement's WITH: "rolled" (clean daily and 15-minute rollup rows), "moved" (15-minute rows of
 * days read whole to move from their noon's chart point to their own; only for `charted`
 * statements) and "raw_calls" with "ranges" (the raw rows' ranges). `charted`: the statement sums
 * per chart point, not only in total.
 */
export function insightsScope({
  accountId,
  assistantId,
  from,
  to,
  timezone,
  bucket,
  useRollup,
}: ScopeInput): (charted: boolean) => Prisma.Sql {
  // The whole buckets of the period, [rolledFrom, rolledTo); none when reading raw.
  let rolledFrom = new Date(Math.ceil(from.getTime() / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS);
  let rolledTo = new Date(Math.floor(to.getTime() / ROLLUP_BUCKET_MS) * ROLLUP_BUCKET_MS);
  if (!useRollup || rolledFrom >= rolledTo) rolledFrom = rolledTo = to;
  // The whole UTC days among them, [dayFrom, dayTo): the daily level's; none when there is no such day.
  let dayFrom = new Date(Math.ceil(rolledFrom.getTime() / ROLLUP_DAY_MS) * ROLLUP_DAY_MS);
  let dayTo = new Date(Math.floor(rolledTo.getTime() / ROLLUP_DAY_MS) * ROLLUP_DAY_MS);
  if (dayFrom >= dayTo) dayFrom = dayTo = rolledTo;
  const onAssistant = (column: string) => assistantFilter(assistantId, column);
  const slotOf = (column: string) => slotSql(bucket, timezone, column);
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
  // (see `wholeDays`, `chartedDays`); any other day of the rollup's range per 15-minute row. Each range is read LATERAL
  // with OFFSET 0: an index range scan per range; flattened into a join, the planner cannot estimate
  // ranges read from the marks and scanned an assistant's whole history.
  return (charted: boolean) => Prisma.sql`
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
}
