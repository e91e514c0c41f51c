/**
 * What the campaign dialer costs the database as campaigns grow.
 *
 *   pnpm exec tsx bench/dialer/run.ts [leads-per-campaign]      (default 5000, 20 active campaigns)
 *
 * Runs on an in-memory PGlite, or on PostgreSQL when DATABASE_URL is set. It measures the two
 * queries that run no matter how busy the campaigns are: one sweep of the dialer (repair, due
 * campaigns, completion; every VOXGATE_DIALER_SWEEP_MS on every instance) and one campaign's
 * progress counters (read again for every `campaignProgress` event). The baseline, measured in the
 * same run, is the same work after dropping the index migration 0006 adds on leads
 * (campaignId, status, nextAttemptAt). Target: sweep median at most 50 ms on PGlite with 100000 leads.
 */
import { performance } from "node:perf_hooks";
import { buildApp, createLogger, loadConfig, type Prisma } from "@voxgate/server";

const LEADS_PER_CAMPAIGN = Number(process.argv[2] ?? 5_000);
const CAMPAIGNS = 20;
const ITERATIONS = 30;
const TARGET_SWEEP_P50_MS = 50;

const base = loadConfig();
// 03:00 UTC: outside every campaign's 09:00–17:00 window, so the sweep finds due leads but places no call.
const clock = { now: () => new Date("2026-03-02T03:00:00Z") };
const app = await buildApp(
  { ...base, logLevel: "silent" as const, seedDemo: false },
  {
    database: base.databaseUrl
      ? { kind: "postgres", url: base.databaseUrl }
      : { kind: "pglite", dataDir: undefined },
    logger: createLogger("silent"),
    clock,
  },
);
const prisma = app.db.prisma;
const { account, user } = await app.services.accounts.create({
  email: `bench-dialer-${Date.now()}@example.com`,
  password: "bench-password",
});
const assistant = await app.services.assistants.create(
  { accountId: account.id, userId: user.id },
  { name: "Caller" },
);

const seedStarted = performance.now();
const campaigns = [];
for (let c = 0; c < CAMPAIGNS; c++) {
  const campaign = await app.services.campaigns.create(account.id, {
    name: `Bench ${c}`,
    status: "active",
    assistantId: assistant.id,
  });
  campaigns.push(campaign);
  // Most leads are done; some wait for a retry later today; a few were never called.
  const statuses = [
    "completed",
    "reached_max_retries",
    "completed",
    "rescheduled",
    "completed",
    "created",
  ] as const;
  const batch: Prisma.LeadCreateManyInput[] = [];
  for (let index = 0; index < LEADS_PER_CAMPAIGN; index++) {
    const status = statuses[index % statuses.length]!;
    batch.push({
      accountId: account.id,
      campaignId: campaign.id,
      phoneNumber: `+1415${String(2_000_000 + index).padStart(7, "0")}`,
      status,
      attempts: status === "created" ? 0 : 1,
      nextAttemptAt: status === "rescheduled" ? new Date("2026-03-02T12:00:00Z") : null,
    });
    if (batch.length === 2000) await prisma.lead.createMany({ data: batch.splice(0) });
  }
  if (batch.length > 0) await prisma.lead.createMany({ data: batch });
}
await prisma.$executeRawUnsafe(`ANALYZE "leads"`);
console.log(
  `Seeded ${CAMPAIGNS * LEADS_PER_CAMPAIGN} leads in ${CAMPAIGNS} active campaigns on ${app.db.kind} in ${Math.round(performance.now() - seedStarted)} ms\n`,
);

async function sweep() {
  await app.services.dialer.reconcile();
  await app.services.dialer.requestDueDials();
  await app.services.campaigns.completeIfDone();
}
const progress = () => app.services.dialer.progress(campaigns[0]!);

async function measure(work: () => Promise<unknown>) {
  await work();
  const times: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
  return { p50: Number(at(0.5)), line: `median ${at(0.5)} ms, p95 ${at(0.95)} ms` };
}

const withIndex = { sweep: await measure(sweep), progress: await measure(progress) };
await prisma.$executeRawUnsafe(`DROP INDEX "leads_campaignId_status_nextAttemptAt_idx"`);
await prisma.$executeRawUnsafe(`ANALYZE "leads"`);
const baseline = { sweep: await measure(sweep), progress: await measure(progress) };

console.log(
  `dialer sweep          ${withIndex.sweep.line}   (baseline without the 0006 index: ${baseline.sweep.line})`,
);
console.log(
  `campaign progress     ${withIndex.progress.line}   (baseline without the 0006 index: ${baseline.progress.line})`,
);
await app.close();
if (withIndex.sweep.p50 > TARGET_SWEEP_P50_MS) {
  console.log(`\nMISSED: sweep median above ${TARGET_SWEEP_P50_MS} ms`);
  process.exitCode = 1;
}
