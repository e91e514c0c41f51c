/**
 * How fast the overview (`insights`) answers on a large account: a million calls over a year by
 * default, a sample of them with measured turns, chats and bookings, and a second account beside.
 *
 *   pnpm exec tsx bench/console/insights.bench.ts [calls] [days] [--postgres]
 *
 * Runs on an in-memory PGlite, then, with `--postgres` (a throw-away PostgreSQL started on loopback,
 * packages/server/test/support/services.ts) or DATABASE_URL, the same on PostgreSQL in the same
 * process. For each period it times the overview as served (rollup: daily rows, 15-minute rows, raw
 * rows where dirty) beside the same figures from the raw rows alone (`InsightsService.rawOverview`),
 * both through the service on the same rows, and `SELECT count(*)` of the account's calls.
 *
 * The history is written set-based (INSERT ... SELECT FROM generate_series, 100,000 rows a statement)
 * with the insights triggers off, then marked dirty as migration 0035 marks existing history (one mark
 * per bucket holding rows: the set the triggers would have left), so the seed costs the rows and their
 * indexes, not a million trigger calls.
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { findPostgresBinaries, startPostgres } from "../../packages/server/test/support/services.ts";
import { inProcessApp, percentile, timeSamples } from "../support/in-process-app.ts";

const args = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const CALLS = Number(args[0] ?? 1_000_000);
const DAYS = Number(args[1] ?? 365);
const ITERATIONS = 10;
/** The raw computation of a year takes seconds to tens of seconds: fewer samples. */
const RAW_ITERATIONS = 3;
const CHUNK = 100_000;
/** A zone with daylight saving: its local days straddle UTC days (the daily level moves buckets). */
const TIMEZONE = "America/New_York";
const PERIODS: [name: string, days: number][] = [
  ["24 hours", 1],
  ["30 days", 30],
  ["90 days", 90],
  ["365 days", 365],
];
const TRIGGERS: [table: string, trigger: string][] = [
  ["calls", "calls_insights_write"],
  ["call_turns", "call_turns_insights_insert"],
  ["conversations", "conversations_insights_write"],
  ["appointments", "appointments_insights_write"],
];

type App = Awaited<ReturnType<typeof inProcessApp>>;

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(", ");

async function account(app: App, label: string, timezone: string) {
  const { account, user } = await app.services.accounts.create({
    email: `bench-insights-${label}-${Date.now()}@example.com`,
    password: "bench-password",
    timezone,
  });
  const assistants = await Promise.all(
    ["Sales", "Support", "Billing"].map(
      async (name) =>
        (await app.services.assistants.create({ accountId: account.id, userId: user.id }, { name })).id,
    ),
  );
  return { accountId: account.id, assistants };
}

/**
 * `count` calls spread evenly over the last DAYS days: six endings in turn (three unanswered), a
 * fifth evaluated with a score, one in fifty transferred; a tenth with four measured turns.
 */
async function seed(app: App, owner: { accountId: number; assistants: number[] }, count: number) {
  const prisma = app.db.prisma;
  const [a, b, c] = owner.assistants;
  for (let start = 0; start < count; start += CHUNK) {
    const end = Math.min(count, start + CHUNK);
    await prisma.$executeRawUnsafe(
      `INSERT INTO "calls" ("accountId", "assistantId", "type", "status", "duration", "totalCost", "startedAt",
         "createdAt", "updatedAt", "evaluation", "evaluationStatus", "transferState", "endReason")
       SELECT $1, (ARRAY[$2, $3, $4]::int[])[1 + i % 3],
         (ARRAY['inbound', 'outbound', 'web'])[1 + i % 3]::call_type,
         (ARRAY['completed', 'ended_by_customer', 'no-answer', 'busy', 'failed', 'ended'])[1 + i % 6]::call_status,
         CASE WHEN i % 6 IN (2, 3, 4) THEN 0 ELSE i % 600 END,
         CASE WHEN i % 6 IN (2, 3, 4) THEN 0 ELSE (i % 600) * 0.0015 END,
         CASE WHEN i % 6 IN (2, 3, 4) THEN NULL ELSE "at" END,
         "at", "at",
         CASE WHEN i % 5 = 0 THEN jsonb_build_object('score', i % 11) ELSE '{}'::jsonb END,
         CASE WHEN i % 5 = 0 THEN 'done' ELSE 'none' END,
         CASE WHEN i % 50 = 0 THEN 'connected' ELSE '' END,
         CASE WHEN i % 6 = 4 THEN 'carrier error' ELSE '' END
       FROM (SELECT i, now() - (i::float8 / $5) * ($6 * interval '1 day') AS "at"
             FROM generate_series($7::int, $8::int) AS i) AS "history"`,
      owner.accountId,
      a,
      b,
      c,
      count,
      DAYS,
      start,
      end - 1,
    );
  }
  // The turns of every tenth call, a range of call ids at a time.
  const [range] = await prisma.$queryRaw<{ low: number; high: number }[]>`
    SELECT min("id") AS "low", max("id") AS "high" FROM "calls" WHERE "accountId" = ${owner.accountId}`;
  for (let low = range!.low; low <= range!.high; low += CHUNK) {
    await prisma.$executeRawUnsafe(
      `INSERT INTO "call_turns" ("callId", "accountId", "speaker", "text", "heardText", "startMs", "endMs",
         "speechEndedAt", "firstAudioAt", "createdAt")
       SELECT "id", "accountId", 'assistant', '', '', k * 10000, k * 10000 + 2000,
         "createdAt" + k * interval '10 seconds',
         "createdAt" + k * interval '10 seconds' + (300 + ("id" * 7 + k * 131) % 900) * interval '1 millisecond',
         "createdAt" + k * interval '10 seconds'
       FROM "calls", generate_series(1, 4) AS k
       WHERE "accountId" = $1 AND "id" BETWEEN $2 AND $3 AND "id" % 10 = 0`,
      owner.accountId,
      low,
      Math.min(range!.high, low + CHUNK - 1),
    );
  }
  await prisma.$executeRawUnsafe(
    `INSERT INTO "conversations" ("id", "accountId", "assistantId", "channel", "customerIdentifier", "createdAt", "updatedAt")
     SELECT gen_random_uuid(), $1, (ARRAY[$2, $3, $4]::int[])[1 + i % 3], 'api', 'customer-' || i,
       now() - (i::float8 / $5) * ($6 * interval '1 day'), now()
     FROM generate_series(0, $5 - 1) AS i`,
    owner.accountId,
    a,
    b,
    c,
    Math.ceil(count / 10),
    DAYS,
  );
  await prisma.$executeRawUnsafe(
    `INSERT INTO "appointments" ("accountId", "assistantId", "appointmentTypeId", "appointmentTypeName", "timezone",
       "connectionId", "provider", "externalId", "startsAt", "endsAt", "status", "customerName", "idempotencyKey",
       "createdAt", "updatedAt")
     SELECT $1, (ARRAY[$2, $3, $4]::int[])[1 + i % 3], 0, 'Visit', 'UTC', 0, 'caldav', 'event-' || i,
       now(), now() + interval '30 minutes', CASE WHEN i % 7 = 0 THEN 'cancelled' ELSE 'booked' END::appointment_status,
       'Customer', 'bench-' || i, now() - (i::float8 / $5) * ($6 * interval '1 day'), now()
     FROM generate_series(0, $5 - 1) AS i`,
    owner.accountId,
    a,
    b,
    c,
    Math.ceil(count / 100),
    DAYS,
  );
  // What the triggers would have marked: every bucket of the account's rows (a turn's is its call's).
  await prisma.$executeRawUnsafe(
    `INSERT INTO "insights_dirty_buckets" ("accountId", "bucket")
     SELECT DISTINCT "accountId", date_bin('15 minutes', "createdAt", TIMESTAMPTZ '2000-01-01 00:00:00+00')
     FROM (
       SELECT "accountId", "createdAt" FROM "calls" WHERE "accountId" = $1
       UNION ALL SELECT "accountId", "createdAt" FROM "conversations" WHERE "accountId" = $1
       UNION ALL SELECT "accountId", "createdAt" FROM "appointments" WHERE "accountId" = $1
     ) AS "history"`,
    owner.accountId,
  );
}

interface Figures {
  kind: string;
  count: number;
  rows: [period: string, rollup: number, raw: number][];
}

async function measure(databaseUrl: string | undefined): Promise<Figures> {
  const app = await inProcessApp(databaseUrl);
  const prisma = app.db.prisma;
  console.log(`\n== ${app.db.kind} (load average ${load()})`);
  const seedStarted = performance.now();
  const measured = await account(app, "large", TIMEZONE);
  const neighbour = await account(app, "neighbour", "UTC");
  for (const [table, trigger] of TRIGGERS)
    await prisma.$executeRawUnsafe(`ALTER TABLE "${table}" DISABLE TRIGGER "${trigger}"`);
  await seed(app, measured, CALLS);
  await seed(app, neighbour, Math.ceil(CALLS / 10));
  for (const [table, trigger] of TRIGGERS)
    await prisma.$executeRawUnsafe(`ALTER TABLE "${table}" ENABLE TRIGGER "${trigger}"`);
  await prisma.$executeRawUnsafe("ANALYZE");
  console.log(
    `Seeded ${CALLS} calls (+${Math.ceil(CALLS / 10)} of a second account), ${(CALLS / 10) * 4} measured turns, ${Math.ceil(CALLS / 10)} chats, ${Math.ceil(CALLS / 100)} bookings over ${DAYS} days in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (load average ${load()})`,
  );
  // The rollup of the whole history from scratch, as after migration 0035 on an existing database.
  const rollupStarted = performance.now();
  let rolledBuckets: number | null = null;
  while (rolledBuckets === null) rolledBuckets = await app.services.insightsRollup.drain();
  await prisma.$executeRawUnsafe("ANALYZE");
  const [sizes] = await prisma.$queryRaw<{ quarters: bigint; days: bigint }[]>`
    SELECT (SELECT count(*) FROM "insights_rollups") AS "quarters",
      (SELECT count(*) FROM "insights_daily_rollups") AS "days"`;
  console.log(
    `Rolled up ${rolledBuckets} dirty 15-minute buckets into ${sizes!.quarters} 15-minute rows and ${sizes!.days} daily rows in ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s (load average ${load()})`,
  );

  const count = percentile(
    await timeSamples(async () => {
      await prisma.$queryRaw`SELECT count(*) FROM "calls" WHERE "accountId" = ${measured.accountId}`;
    }, ITERATIONS),
    0.5,
  );
  const now = Date.now();
  const rows: Figures["rows"] = [];
  for (const [name, days] of PERIODS) {
    const period = { from: new Date(now - days * 86_400_000), to: new Date(now) };
    const insights = app.services.insights;
    const [rolled, raw] = [
      await insights.overview(measured.accountId, period),
      await insights.rawOverview(measured.accountId, period),
    ];
    if (JSON.stringify(rolled) !== JSON.stringify(raw)) throw new Error(`${name}: rollup and raw differ`);
    const rollup = percentile(
      await timeSamples(async () => {
        await insights.overview(measured.accountId, period);
      }, ITERATIONS),
      0.5,
    );
    const rawMs = percentile(
      await timeSamples(
        async () => {
          await insights.rawOverview(measured.accountId, period);
        },
        RAW_ITERATIONS,
        1,
      ),
      0.5,
    );
    rows.push([name, rollup, rawMs]);
  }
  console.log(
    `Medians (rollup: ${ITERATIONS} after 3 warm-ups; raw: ${RAW_ITERATIONS} after 1), one account of ${CALLS} calls in ${TIMEZONE}, load average ${load()}:`,
  );
  console.log(`  baseline: SELECT count(*) of the account's calls  ${count.toFixed(1).padStart(9)} ms`);
  for (const [name, rollup, raw] of rows)
    console.log(
      `  overview, last ${name.padEnd(9)} rollup ${rollup.toFixed(1).padStart(8)} ms   raw ${raw.toFixed(1).padStart(9)} ms   rollup/raw ${(rollup / raw).toFixed(3)}`,
    );
  const kind = app.db.kind;
  await app.close();
  return { kind, count, rows };
}

const results: Figures[] = [await measure(undefined)];
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) results.push(await measure(databaseUrl));
else if (process.argv.includes("--postgres")) {
  if (!findPostgresBinaries()) console.log("\nNo PostgreSQL binaries found: PostgreSQL skipped.");
  else {
    const postgres = await startPostgres();
    try {
      results.push(await measure(postgres.url));
    } finally {
      await postgres.stop();
    }
  }
}
if (results.length > 1) {
  console.log(`\nSame run, rollup/raw per period: ${results.map((result) => result.kind).join(" | ")}`);
  for (const [index, [name]] of PERIODS.entries())
    console.log(
      `  ${name.padEnd(9)} ${results.map((result) => `${result.rows[index]![1].toFixed(1)} / ${result.rows[index]![2].toFixed(1)} ms = ${(result.rows[index]![1] / result.rows[index]![2]).toFixed(3)}`).join(" | ")}`,
    );
}
