/**
 * How fast the overview (GraphQL `insights`) answers on a large account: a million calls over a year
 * by default, a sample of them with measured turns, chats and bookings, and a second account beside.
 *
 *   pnpm exec tsx bench/console/insights.bench.ts [calls] [days]      (default 1000000 365)
 *
 * The history is written with generate_series (seconds, not hours). Each overview is timed through
 * the whole API (GraphQL over `app.handle`, in process) beside two baselines measured in the same run
 * on the same rows: `SELECT count(*)` of the account's calls (the cheapest look at all of them) and
 * the calls list's first page through the API. Then the plan of every statement the overview sends
 * (EXPLAIN), to show which index carries it. Runs on an in-memory PGlite, or PostgreSQL with
 * DATABASE_URL.
 */
import { performance } from "node:perf_hooks";
import { inProcessApp, percentile, timeSamples } from "../support/in-process-app.ts";

const CALLS = Number(process.argv[2] ?? 1_000_000);
const DAYS = Number(process.argv[3] ?? 365);
const ITERATIONS = 10;
/** The raw computation of a year takes seconds to tens of seconds: fewer samples. */
const RAW_ITERATIONS = 3;
const CHUNK = 100_000;

const app = await inProcessApp();
const prisma = app.db.prisma;

async function account(label: string) {
  const { account, user } = await app.services.accounts.create({
    email: `bench-insights-${label}-${Date.now()}@example.com`,
    password: "bench-password",
  });
  const { token } = await app.services.apiKeys.create(
    { accountId: account.id, userId: user.id },
    { name: "bench" },
  );
  const assistants = await Promise.all(
    ["Sales", "Support", "Billing"].map(
      async (name) =>
        (await app.services.assistants.create({ accountId: account.id, userId: user.id }, { name })).id,
    ),
  );
  return { accountId: account.id, token, assistants };
}

/**
 * `count` calls spread evenly over the last DAYS days: six endings in turn (three unanswered), a
 * fifth evaluated with a score, one in fifty transferred; a tenth with four measured turns.
 */
async function seed(owner: { accountId: number; assistants: number[] }, count: number) {
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
  await prisma.$executeRawUnsafe(
    `INSERT INTO "call_turns" ("callId", "accountId", "speaker", "text", "heardText", "startMs", "endMs",
       "speechEndedAt", "firstAudioAt", "createdAt")
     SELECT "id", "accountId", 'assistant', '', '', k * 10000, k * 10000 + 2000,
       "createdAt" + k * interval '10 seconds',
       "createdAt" + k * interval '10 seconds' + (300 + ("id" * 7 + k * 131) % 900) * interval '1 millisecond',
       "createdAt" + k * interval '10 seconds'
     FROM "calls", generate_series(1, 4) AS k
     WHERE "accountId" = $1 AND "id" % 10 = 0`,
    owner.accountId,
  );
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
}

const seedStarted = performance.now();
const measured = await account("large");
const neighbour = await account("neighbour");
await seed(measured, CALLS);
await seed(neighbour, Math.ceil(CALLS / 10));
console.log(
  `Seeded ${CALLS} calls (+${Math.ceil(CALLS / 10)} of a second account), ${(CALLS / 10) * 4} measured turns, ${Math.ceil(CALLS / 10)} chats, ${Math.ceil(CALLS / 100)} bookings over ${DAYS} days on ${app.db.kind} in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s (the triggers marking dirty buckets included)`,
);
await prisma.$executeRawUnsafe("ANALYZE");
// The rollup of the whole history from scratch, as after migration 0035 on an existing database.
const rollupStarted = performance.now();
let rolledBuckets: number | null = null;
while (rolledBuckets === null) rolledBuckets = await app.services.insightsRollup.drain();
await prisma.$executeRawUnsafe("ANALYZE");
const [rollupRows] = await prisma.$queryRaw<
  { rows: bigint }[]
>`SELECT count(*) AS "rows" FROM "insights_rollups"`;
console.log(
  `Rolled up ${rolledBuckets} dirty 15-minute buckets into ${rollupRows!.rows} rollup rows in ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s\n`,
);

async function gql(query: string, variables: Record<string, unknown> = {}): Promise<void> {
  const response = await app.handle(
    new Request("http://bench.local/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${measured.token}` },
      body: JSON.stringify({ query, variables }),
    }),
  );
  const body = (await response.json()) as { errors?: unknown };
  if (body.errors) throw new Error(JSON.stringify(body.errors));
}

const INSIGHTS = `query ($period: InsightsPeriod!, $assistantId: Int) { insights(period: $period, assistantId: $assistantId) {
  calls answeredCalls answerRate conversations minutes cost successRate averageTurnLatencyMs p95TurnLatencyMs transfers bookings
  endedReasons { status reason calls } series { start calls conversations cost } } }`;
const now = Date.now();
const lastDays = (days: number) => ({
  from: new Date(now - days * 86_400_000).toISOString(),
  to: new Date(now).toISOString(),
});
const cases: [name: string, variables: Record<string, unknown>][] = [
  ["overview, last 24 hours (per hour)", { period: lastDays(1) }],
  ["overview, last 7 days", { period: lastDays(7) }],
  ["overview, last 30 days", { period: lastDays(30) }],
  ["overview, last 30 days, one assistant", { period: lastDays(30), assistantId: measured.assistants[1] }],
  ["overview, last 90 days", { period: lastDays(90) }],
  ["overview, last 365 days", { period: lastDays(365) }],
];
const rows: [string, number][] = [];
const time = async (run: () => Promise<void>) => percentile(await timeSamples(run, ITERATIONS), 0.5);
rows.push([
  "baseline: SELECT count(*) of the account's calls",
  await time(async () => {
    await prisma.$queryRaw`SELECT count(*) FROM "calls" WHERE "accountId" = ${measured.accountId}`;
  }),
]);
rows.push([
  "baseline: API calls list, first page",
  await time(() => gql("{ calls(page: 1) { items { id status } } }")),
]);
const ratios: [string, number, number][] = [];
for (const [name, variables] of cases) {
  const api = await time(() => gql(INSIGHTS, variables));
  rows.push([`API: ${name}`, api]);
  // The same figures from the raw rows alone (the service without the rollup, no GraphQL layer).
  const raw = percentile(
    await timeSamples(async () => {
      const period = variables.period as { from: string; to: string };
      await app.services.insights.rawOverview(measured.accountId, {
        from: new Date(period.from),
        to: new Date(period.to),
        assistantId: variables.assistantId ?? null,
      });
    }, RAW_ITERATIONS),
    0.5,
  );
  ratios.push([name, api, raw]);
}
console.log(`Median of ${ITERATIONS} after 3 warm-ups, ${app.db.kind}:`);
for (const [name, ms] of rows) console.log(`  ${name.padEnd(56)} ${ms.toFixed(1).padStart(8)} ms`);
console.log(
  `\nBaseline in the same run: the raw computation (median of ${RAW_ITERATIONS}), and the API's share of it:`,
);
for (const [name, api, raw] of ratios)
  console.log(
    `  ${`raw: ${name}`.padEnd(56)} ${raw.toFixed(1).padStart(8)} ms   API/raw ${(api / raw).toFixed(3)}`,
  );

// The statements the overview sends for the last 30 days, as sent, then each one's plan.
const sent: { text: string; values: unknown[] }[] = [];
const watch = (client: { query: (...args: unknown[]) => unknown }) => {
  const query = client.query.bind(client);
  client.query = (...args: unknown[]) => {
    const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined];
    if (typeof first === "string") sent.push({ text: first, values: second ?? [] });
    else if (first && typeof first.text === "string")
      sent.push({ text: first.text, values: first.values ?? [] });
    return query(...args);
  };
};
app.db.pgPool.on("acquire", watch);
await gql(INSIGHTS, { period: lastDays(30) });
app.db.pgPool.off("acquire", watch);
const distinct = [...new Map(sent.map((entry) => [entry.text, entry])).values()];
for (const statement of distinct.filter((entry) => /FROM "(calls|call_turns)"|"slots"/.test(entry.text))) {
  const plan = await app.db.pgPool.query(`EXPLAIN ${statement.text}`, statement.values);
  const lines = plan.rows.map((row: Record<string, string>) => row["QUERY PLAN"]);
  console.log(`\nEXPLAIN ${statement.text.replace(/\s+/g, " ").slice(0, 90)}…`);
  for (const line of lines) if (/Scan|Aggregate|Join|Nested|Sort|Limit/.test(line)) console.log(`  ${line}`);
}
await app.close();
