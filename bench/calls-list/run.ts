/**
 * How fast GET /api/user/calls answers on a large call history, per filter.
 *
 *   pnpm exec tsx bench/calls-list/run.ts [calls-per-account]      (default 20000)
 *
 * Runs on an in-memory PGlite, or on PostgreSQL when DATABASE_URL is set. For each query it prints
 * the full API path (REST route -> GraphQL -> service -> database, in process, no sockets) beside a
 * baseline measured in the same run: the same rows fetched with two direct Prisma queries. The
 * difference is what the API layers cost; the baseline shows whether the indexes carry the filter.
 * Target: median of every API query at most 100 ms on PGlite with 20000 calls per account (the median,
 * because p95 on a shared 2-core machine mostly measures the neighbours).
 */
import { performance } from "node:perf_hooks";
import type { Prisma } from "@voxgate/server";
import { inProcessApp, percentile, timeSamples } from "../support/in-process-app.ts";

const CALLS_PER_ACCOUNT = Number(process.argv[2] ?? 20_000);
const ITERATIONS = 40;
const TARGET_P50_MS = 100;

const app = await inProcessApp();
const prisma = app.db.prisma;

async function seedAccount(label: string) {
  const { account, user } = await app.services.accounts.create({
    email: `bench-${label}-${Date.now()}@example.com`,
    password: "bench-password",
    timezone: "America/New_York",
  });
  const { token } = await app.services.apiKeys.create(
    { accountId: account.id, userId: user.id },
    { name: "bench" },
  );
  const assistants = await Promise.all(
    ["Sales", "Support", "Billing"].map((name) =>
      app.services.assistants.create({ accountId: account.id, userId: user.id }, { name }),
    ),
  );
  const campaign = await app.services.campaigns.create(account.id, { name: "Bench campaign" });
  const statuses = ["completed", "ended_by_customer", "no_answer", "busy", "failed", "ended"] as const;
  const types = ["inbound", "outbound", "web"] as const;
  const start = Date.UTC(2026, 0, 1);
  const batch: Prisma.CallCreateManyInput[] = [];
  for (let index = 0; index < CALLS_PER_ACCOUNT; index++) {
    const assistant = assistants[index % assistants.length]!;
    batch.push({
      accountId: account.id,
      assistantId: assistant.id,
      assistantName: assistant.name,
      campaignId: index % 4 === 0 ? campaign.id : null,
      campaignName: index % 4 === 0 ? campaign.name : "",
      type: types[index % types.length]!,
      status: statuses[index % statuses.length]!,
      clientPhoneNumber: `+1415${String(2_000_000 + (index % 5000)).padStart(7, "0")}`,
      duration: index % 600,
      // About 300 days of history, a few calls an hour.
      createdAt: new Date(start + index * ((300 * 86_400_000) / CALLS_PER_ACCOUNT)),
    });
    if (batch.length === 2000) await prisma.call.createMany({ data: batch.splice(0) });
  }
  if (batch.length > 0) await prisma.call.createMany({ data: batch });
  return { accountId: account.id, token, assistantId: assistants[1]!.id, campaignId: campaign.id };
}

const seedStarted = performance.now();
const measured = await seedAccount("a");
await seedAccount("b");
console.log(
  `Seeded ${CALLS_PER_ACCOUNT * 2} calls over 2 accounts on ${app.db.kind} in ${Math.round(performance.now() - seedStarted)} ms\n`,
);

const startOf = (day: string) => new Date(`${day}T05:00:00Z`);
const cases: { name: string; query: string; where: Prisma.CallWhereInput; skip?: number }[] = [
  { name: "no filter, page 1", query: "", where: {} },
  { name: "status=completed", query: "status=completed", where: { status: "completed" } },
  { name: "type=web", query: "type=web", where: { type: "web" } },
  {
    name: "phone_number",
    query: "phone_number=%2B14152000042",
    where: { clientPhoneNumber: "+14152000042" },
  },
  {
    name: "assistant + one month",
    query: `assistant_id=${measured.assistantId}&date_from=2026-03-01&date_to=2026-03-31`,
    where: {
      assistantId: measured.assistantId,
      createdAt: { gte: startOf("2026-03-01"), lt: new Date("2026-04-01T04:00:00Z") },
    },
  },
  {
    name: "campaign_id",
    query: `campaign_id=${measured.campaignId}`,
    where: { campaignId: measured.campaignId },
  },
  { name: "page 500 (deep offset)", query: "page=500", where: {}, skip: 499 * 15 },
];

const time = (run: () => Promise<void>) => timeSamples(run, ITERATIONS);

const rows: string[][] = [];
let failures = 0;
for (const benchCase of cases) {
  const api = await time(async () => {
    const response = await app.handle(
      new Request(`http://bench.local/api/user/calls?${benchCase.query}`, {
        headers: { authorization: `Bearer ${measured.token}` },
      }),
    );
    if (response.status !== 200)
      throw new Error(`${benchCase.name}: HTTP ${response.status} ${await response.text()}`);
    await response.json();
  });
  const where = { accountId: measured.accountId, ...benchCase.where };
  const direct = await time(async () => {
    await Promise.all([
      prisma.call.count({ where }),
      prisma.call.findMany({
        where,
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: benchCase.skip ?? 0,
        take: 15,
      }),
    ]);
  });
  const apiP50 = percentile(api, 0.5);
  if (apiP50 > TARGET_P50_MS) failures++;
  rows.push([
    benchCase.name,
    apiP50.toFixed(1),
    percentile(api, 0.95).toFixed(1),
    percentile(direct, 0.5).toFixed(1),
    percentile(direct, 0.95).toFixed(1),
    apiP50 <= TARGET_P50_MS ? "ok" : "SLOW",
  ]);
}

const header = [
  "query",
  "API p50 ms",
  "API p95 ms",
  "baseline p50 ms",
  "baseline p95 ms",
  `p50 <= ${TARGET_P50_MS} ms`,
];
const widths = header.map((title, column) =>
  Math.max(title.length, ...rows.map((row) => row[column]!.length)),
);
for (const row of [header, ...rows])
  console.log(row.map((cell, column) => cell.padEnd(widths[column]!)).join("  "));
console.log(
  `\n${ITERATIONS} timed runs per query after 3 warm-ups; baseline = direct Prisma count + page query.`,
);

await app.close();
process.exitCode = failures > 0 ? 1 : 0;
