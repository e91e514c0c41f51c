import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { measuredAnswer } from "../../../test/fixtures/insights.ts";
import { ManualClock, startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { RateLimitedError } from "../../errors.ts";
import { type CallStatus, Prisma } from "../../generated/prisma/client.ts";
import { seededRandom } from "../../seeded-random.ts";
import { INSIGHTS_CONCURRENCY, INSIGHTS_LATENCY_BOUNDS } from "./index.ts";
import { percentileOf } from "./insights.service.ts";

/**
 * The overview read through the rollup equals the same figures computed from the raw rows alone,
 * over a seeded history in four time zones (whole-hour with daylight saving, +5:30, +5:45, UTC),
 * periods cut on and off bucket boundaries, per assistant and all, and after late changes: an
 * evaluation arriving, a call ending, a call erased, turns removed by retention. The daily level
 * (whole UTC days, charted at their noon's local day with the buckets of other local days moved) is
 * read by every period of several days, and stays the sum of its days' 15-minute rows.
 */

const NOW = new Date("2027-04-01T12:07:00Z");
/** Each comparison computes 40 overviews twice: minutes on a loaded machine. */
const SLOW = { timeout: 240_000 };
const DAY = 86_400_000;
const STATUSES: CallStatus[] = [
  "completed",
  "ended_by_customer",
  "no_answer",
  "busy",
  "failed",
  "ended",
  "in_progress",
];

let t: TestApp;
let clock: ManualClock;
const accounts: { account: TestAccount; assistants: number[] }[] = [];

const rollUp = async () => {
  // Another run (the app's own, at start) may hold the lock for a moment: ask until this one ran.
  while ((await t.app.services.insightsRollup.drain()) === null) await new Promise(setImmediate);
};

async function seed(account: TestAccount, assistants: number[], seedNumber: number) {
  const random = seededRandom(seedNumber);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const at = () => new Date(NOW.getTime() - Math.floor(random() * 45 * DAY));
  const calls: Prisma.CallCreateManyInput[] = Array.from({ length: 160 }, () => {
    const status = pick(STATUSES);
    const answered = !["no_answer", "busy", "failed"].includes(status);
    const createdAt = at();
    const evaluation = pick([
      null,
      { success: true },
      { success: false, score: 9 },
      { successful: true },
      { score: Math.floor(random() * 11) },
      { outcome: "asked for a person" },
    ]);
    return {
      accountId: account.accountId,
      assistantId: pick(assistants),
      type: "outbound",
      status,
      createdAt,
      startedAt: answered ? createdAt : null,
      duration: answered ? Math.floor(random() * 600) : 0,
      totalCost: answered ? (random() * 3).toFixed(4) : "0",
      evaluationStatus: evaluation ? "done" : pick(["none", "pending", "failed"]),
      evaluation: evaluation ?? {},
      transferState: random() < 0.1 ? "connected" : "",
      endReason: status === "failed" ? pick(["no balance", "carrier error"]) : "",
      test: random() < 0.05,
    };
  });
  await t.app.db.prisma.call.createMany({ data: calls });
  const created = await t.app.db.prisma.call.findMany({
    where: { accountId: account.accountId },
    select: { id: true, createdAt: true },
  });
  await t.app.db.prisma.callTurn.createMany({
    data: created.flatMap((call) =>
      Array.from({ length: Math.floor(random() * 4) }, (_, index) => {
        const speechEndedAt = new Date(call.createdAt.getTime() + 10_000 * (index + 1));
        // Now and then a latency on a bucket's bound, past the last bound, or negative (clock skew).
        const ms = pick([
          Math.floor(random() * 3000),
          50 * Math.floor(random() * 40),
          45_000,
          -20,
          random() * 900,
        ]);
        return measuredAnswer({ callId: call.id, accountId: account.accountId }, speechEndedAt, ms);
      }),
    ),
  });
  await t.app.db.prisma.conversation.createMany({
    data: Array.from({ length: 40 }, () => ({
      accountId: account.accountId,
      assistantId: pick(assistants),
      channel: pick(["widget", "sms", "api", "test"] as const),
      createdAt: at(),
    })),
  });
  await t.app.db.prisma.appointment.createMany({
    data: Array.from({ length: 30 }, (_, index) => ({
      accountId: account.accountId,
      assistantId: pick(assistants),
      appointmentTypeId: 1,
      appointmentTypeName: "Visit",
      timezone: "UTC",
      connectionId: 1,
      provider: "caldav",
      externalId: `event-${seedNumber}-${index}`,
      startsAt: NOW,
      endsAt: NOW,
      status: pick(["booked", "cancelled", "pending"] as const),
      customerName: "Ada",
      idempotencyKey: `rollup-${seedNumber}-${index}`,
      createdAt: at(),
    })),
  });
}

/**
 * Periods: on day bounds, ragged ends, one hour-charted day, one reaching into the open bucket, one
 * hour-charted holding a whole UTC day (2027-03-10).
 */
const periods = [
  { from: new Date(NOW.getTime() - 30 * DAY), to: NOW },
  { from: new Date("2027-02-20T00:00:00Z"), to: new Date("2027-03-20T00:00:00Z") },
  { from: new Date("2027-03-03T05:07:13.250Z"), to: new Date("2027-03-19T17:52:00.001Z") },
  { from: new Date("2027-03-14T03:10:00Z"), to: new Date("2027-03-15T09:55:00Z") },
  { from: new Date("2027-02-15T00:00:00Z"), to: new Date("2027-04-02T00:00:00Z") },
  { from: new Date("2027-03-09T22:00:00Z"), to: new Date("2027-03-11T02:00:00Z") },
];

async function expectRollupEqualsRaw() {
  const insights = t.app.services.insights;
  for (const { account, assistants } of accounts) {
    for (const period of periods) {
      for (const assistantId of [null, assistants[0]!]) {
        const request = { ...period, assistantId };
        const [rolled, raw] = [
          await insights.overview(account.accountId, request),
          await insights.rawOverview(account.accountId, request),
        ];
        expect(rolled).toEqual(raw);
      }
    }
  }
}

const rollupRows = (accountId: number) => t.app.db.prisma.insightsRollup.count({ where: { accountId } });
const dailyRows = (accountId: number) => t.app.db.prisma.insightsDailyRollup.count({ where: { accountId } });

/** Every daily row is the sum of its UTC day's 15-minute rows, and every such day has its rows. */
async function expectDailyIsSumOfQuarters() {
  const prisma = t.app.db.prisma;
  const expected = new Map<string, ReturnType<typeof normalised>>();
  for (const row of await prisma.insightsRollup.findMany()) {
    const day = new Date(Math.floor(row.bucket.getTime() / DAY) * DAY);
    const key = `${row.accountId}/${row.assistantId}/${day.toISOString()}`;
    const sum = expected.get(key);
    const { bucket: _bucket, ...fields } = row;
    const next = normalised({ ...fields, day });
    if (!sum) {
      expected.set(key, next);
      continue;
    }
    for (const field of COUNTS) sum[field] += next[field];
    sum.seconds += next.seconds;
    sum.cost = new Prisma.Decimal(sum.cost).add(next.cost).toFixed(4);
    sum.latencyMs = new Prisma.Decimal(sum.latencyMs).add(next.latencyMs).toFixed(3);
    sum.latencyHistogram = sum.latencyHistogram.map((count, slot) => count + next.latencyHistogram[slot]!);
    const endings = new Map(
      sum.endings.map((ending) => [`${ending.status}/${ending.reason}`, { ...ending }]),
    );
    for (const ending of next.endings) {
      const same = endings.get(`${ending.status}/${ending.reason}`);
      if (same) same.calls += ending.calls;
      else endings.set(`${ending.status}/${ending.reason}`, { ...ending });
    }
    sum.endings = sortEndings([...endings.values()]);
  }
  const daily = await prisma.insightsDailyRollup.findMany();
  expect(daily.length).toBe(expected.size);
  for (const row of daily) {
    expect(normalised(row)).toEqual(
      expected.get(`${row.accountId}/${row.assistantId}/${row.day.toISOString()}`),
    );
  }
}

const COUNTS = [
  "calls",
  "finished",
  "answered",
  "evaluated",
  "judged",
  "successful",
  "transfers",
  "conversations",
  "bookings",
  "turns",
] as const;

function normalised(row: Prisma.InsightsDailyRollupGetPayload<object>) {
  return {
    ...row,
    seconds: row.seconds,
    cost: row.cost.toFixed(4),
    latencyMs: row.latencyMs.toFixed(3),
    // A bucket without turns has no histogram; a day's is all zeros.
    latencyHistogram: row.latencyHistogram.length
      ? row.latencyHistogram
      : new Array<number>(INSIGHTS_LATENCY_BOUNDS.length + 1).fill(0),
    endings: sortEndings(row.endings),
  };
}
const dirtyBefore = (before: Date) =>
  t.app.db.prisma.insightsDirtyBucket.count({ where: { bucket: { lt: before } } });

beforeAll(async () => {
  clock = new ManualClock(NOW);
  t = await startTestApp({ clock });
  for (const [index, timezone] of ["America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "UTC"].entries()) {
    const account = await t.createAccount({ timezone });
    const assistants = [
      (await createAssistant(t, account, { name: "First" })).id,
      (await createAssistant(t, account, { name: "Second" })).id,
    ];
    await seed(account, assistants, 33 + index);
    accounts.push({ account, assistants });
  }
});

afterAll(() => t?.close());

describe("insights rollup", () => {
  it(
    "reads closed buckets from the rollup and equals the raw figures in every zone and period",
    SLOW,
    async () => {
      // Before any rollup everything is dirty: read raw.
      await expectRollupEqualsRaw();
      await rollUp();
      for (const { account } of accounts) {
        expect(await rollupRows(account.accountId)).toBeGreaterThan(50);
        expect(await dailyRows(account.accountId)).toBeGreaterThan(20);
      }
      const open = new Date(Math.floor(NOW.getTime() / 900_000) * 900_000);
      expect(await dirtyBefore(open)).toBe(0);
      await expectDailyIsSumOfQuarters();
      await expectRollupEqualsRaw();
    },
  );

  it("stays exact through late changes, before and after they are rolled up", SLOW, async () => {
    await rollUp();
    const { account } = accounts[0]!;
    const prisma = t.app.db.prisma;
    const period = { from: new Date("2027-02-15T00:00:00Z"), to: new Date("2027-04-02T00:00:00Z") };
    const before = await t.app.services.insights.overview(account.accountId, period);

    // An evaluation arrives for an old call, a live call ends, a call is erased, retention removes turns.
    const [evaluated, live, erased, expired] = await Promise.all([
      prisma.call.findFirstOrThrow({
        where: {
          accountId: account.accountId,
          evaluationStatus: "pending",
          test: false,
          createdAt: { gte: period.from },
        },
      }),
      prisma.call.findFirstOrThrow({
        where: {
          accountId: account.accountId,
          status: "in_progress",
          test: false,
          createdAt: { gte: period.from },
        },
      }),
      prisma.call.findFirstOrThrow({
        where: {
          accountId: account.accountId,
          status: "completed",
          test: false,
          createdAt: { gte: period.from },
        },
        orderBy: { duration: "desc" },
      }),
      prisma.call.findFirstOrThrow({
        where: {
          accountId: account.accountId,
          test: false,
          createdAt: { gte: period.from },
          turns: { some: { speechEndedAt: { not: null } } },
        },
      }),
    ]);
    await prisma.call.update({
      where: { id: evaluated.id },
      data: { evaluationStatus: "done", evaluation: { success: true } },
    });
    await prisma.call.update({
      where: { id: live.id },
      data: { status: "completed", startedAt: live.createdAt, duration: 90, totalCost: "0.5" },
    });
    const erasedDay = {
      accountId: account.accountId,
      assistantId: erased.assistantId!,
      day: new Date(Math.floor(erased.createdAt.getTime() / DAY) * DAY),
    };
    const dayBefore = await prisma.insightsDailyRollup.findUniqueOrThrow({
      where: { accountId_day_assistantId: erasedDay },
    });
    await prisma.call.delete({ where: { id: erased.id } });
    await prisma.callTurn.deleteMany({ where: { callId: expired.id } });
    // And a call of the current, open bucket.
    await prisma.call.create({
      data: {
        accountId: account.accountId,
        assistantId: accounts[0]!.assistants[0],
        type: "web",
        status: "completed",
        startedAt: NOW,
        duration: 30,
        createdAt: new Date(NOW.getTime() - 60_000),
      },
    });

    const after = await t.app.services.insights.overview(account.accountId, period);
    expect(after.evaluatedCalls).toBe(
      before.evaluatedCalls + 1 - (erased.evaluationStatus === "done" ? 1 : 0),
    );
    expect(after.finishedCalls).toBe(before.finishedCalls + 1);
    expect(after.calls).toBe(before.calls);
    expect(after.minutes).toBeCloseTo(before.minutes + (90 - live.duration - erased.duration + 30) / 60, 10);
    expect(after.measuredTurns).toBeLessThan(before.measuredTurns);
    // Exact before the job ran (the changed buckets are dirty, read raw) ...
    await expectRollupEqualsRaw();
    await rollUp();
    // ... and after; the open bucket stays raw until it closes. The erased call's old day was rebuilt.
    expect(await t.app.services.insights.overview(account.accountId, period)).toEqual(after);
    await expectRollupEqualsRaw();
    await expectDailyIsSumOfQuarters();
    const dayAfter = await prisma.insightsDailyRollup.findUnique({
      where: { accountId_day_assistantId: erasedDay },
    });
    expect(dayAfter?.calls ?? 0).toBe(dayBefore.calls - 1);
    const open = new Date(Math.floor(NOW.getTime() / 900_000) * 900_000);
    expect(
      await prisma.insightsDirtyBucket.count({ where: { accountId: account.accountId, bucket: open } }),
    ).toBeGreaterThan(0);
  });

  it("recomputes by replacing: twice, or on two instances at once, gives the same rows", SLOW, async () => {
    await rollUp();
    const prisma = t.app.db.prisma;
    const snapshot = async () => ({
      quarters: (
        await prisma.insightsRollup.findMany({
          orderBy: [{ accountId: "asc" }, { bucket: "asc" }, { assistantId: "asc" }],
        })
      ).map((row) => ({ ...row, endings: sortEndings(row.endings) })),
      days: (
        await prisma.insightsDailyRollup.findMany({
          orderBy: [{ accountId: "asc" }, { day: "asc" }, { assistantId: "asc" }],
        })
      ).map((row) => ({ ...row, endings: sortEndings(row.endings) })),
    });
    const first = await snapshot();
    // Every rolled bucket dirty again, then two runs at once (the second finds the lock taken, or nothing left).
    await prisma.$executeRaw`
      INSERT INTO "insights_dirty_buckets" ("accountId", "bucket")
      SELECT DISTINCT "accountId", "bucket" FROM "insights_rollups"`;
    await Promise.all([t.app.services.insightsRollup.drain(), t.app.services.insightsRollup.drain()]);
    await rollUp();
    expect(await snapshot()).toEqual(first);
    await expectRollupEqualsRaw();
  });

  it(
    "reads a clean UTC day from its daily row, at its noon's local day, until one of its buckets is dirty",
    SLOW,
    async () => {
      await rollUp();
      const prisma = t.app.db.prisma;
      const insights = t.app.services.insights;
      const day = new Date("2027-03-10T00:00:00Z");
      const daily = { from: new Date("2027-02-20T00:00:00Z"), to: new Date("2027-03-20T00:00:00Z") };
      const hourly = periods.at(-1)!;
      for (const { account } of accounts) {
        const where = { accountId: account.accountId, day };
        const rows = await prisma.insightsDailyRollup.count({ where });
        expect(rows).toBeGreaterThan(0);
        const raw = await insights.rawOverview(account.accountId, daily);
        // A probe, not a state the job makes: a daily row that says more than its buckets. Whatever
        // reads it shows it; whatever reads the buckets does not.
        await prisma.insightsDailyRollup.updateMany({ where, data: { calls: { increment: 1000 } } });
        const probed = await insights.overview(account.accountId, daily);
        expect(probed.calls).toBe(raw.calls + 1000 * rows);
        // Charted at the local day of its noon (UTC 12:00), whatever the zone.
        const noon = new Intl.DateTimeFormat("en-CA", { timeZone: probed.timezone }).format(
          new Date(day.getTime() + DAY / 2),
        );
        for (const [index, point] of probed.series.entries()) {
          const local = new Intl.DateTimeFormat("en-CA", { timeZone: probed.timezone }).format(point.start);
          expect(point.calls - raw.series[index]!.calls).toBe(local === noon ? 1000 * rows : 0);
        }
        // Charted per hour, a day is read per bucket.
        expect(await insights.overview(account.accountId, hourly)).toEqual(
          await insights.rawOverview(account.accountId, hourly),
        );
        // One dirty bucket in the day: the day is read per bucket (that one raw), exact again.
        await prisma.insightsDirtyBucket.create({
          data: { accountId: account.accountId, bucket: new Date(day.getTime() + 5 * 3_600_000) },
        });
        expect(await insights.overview(account.accountId, daily)).toEqual(raw);
        // The job cleans the bucket and rebuilds the day from its 96 buckets' rows.
        await rollUp();
        expect(await insights.overview(account.accountId, daily)).toEqual(raw);
      }
      await expectDailyIsSumOfQuarters();
      await expectRollupEqualsRaw();
    },
  );

  it("a deleted account's rollup goes with its next run", async () => {
    const { account } = accounts.pop()!;
    expect(await rollupRows(account.accountId)).toBeGreaterThan(0);
    await t.app.db.prisma.account.delete({ where: { id: account.accountId } });
    await rollUp();
    expect(await rollupRows(account.accountId)).toBe(0);
    expect(await dailyRows(account.accountId)).toBe(0);
  });

  it("computes at most INSIGHTS_CONCURRENCY overviews of an account at once, RATE_LIMITED beyond", async () => {
    const { account } = accounts[0]!;
    const { account: other } = accounts[1]!;
    const period = periods[0]!;
    const insights = t.app.services.insights;
    // A place is taken before the first await: these calls hold both places when the third asks.
    const running = Array.from({ length: INSIGHTS_CONCURRENCY }, () =>
      insights.overview(account.accountId, period),
    );
    const refused = insights.overview(account.accountId, period);
    const neighbour = insights.overview(other.accountId, period);
    await expect(refused).rejects.toBeInstanceOf(RateLimitedError);
    await expect(refused).rejects.toMatchObject({
      extensions: { code: "RATE_LIMITED", retryAfter: 1 },
      message: `At most ${INSIGHTS_CONCURRENCY} overviews of an account are computed at once. Try again in a moment.`,
    });
    await Promise.all([...running, neighbour]);
    // The places are free again once those ended, failed or not.
    await expect(
      insights.overview(account.accountId, { from: period.to, to: period.from }),
    ).rejects.toThrow();
    await expect(insights.overview(account.accountId, period)).resolves.toMatchObject({ from: period.from });
  });
});

describe("p95 from the latency histogram", () => {
  const histogramOf = (latencies: number[]) => {
    const histogram = new Array<number>(INSIGHTS_LATENCY_BOUNDS.length + 1).fill(0);
    for (const ms of latencies) {
      const slot = INSIGHTS_LATENCY_BOUNDS.filter((bound) => bound <= ms).length;
      histogram[slot]! += 1;
    }
    return histogram;
  };

  it("lies in the bucket of the nearest-rank p95, so within that bucket's width of it", () => {
    const random = seededRandom(95);
    for (let round = 0; round < 200; round++) {
      const latencies = Array.from({ length: 1 + Math.floor(random() * 500) }, () =>
        Math.floor(random() * 4000),
      );
      const sorted = [...latencies].sort((a, b) => a - b);
      const exact = sorted[Math.ceil(0.95 * sorted.length) - 1]!;
      const estimate = percentileOf(histogramOf(latencies), latencies.length, 0.95);
      const slot = INSIGHTS_LATENCY_BOUNDS.filter((bound) => bound <= exact).length;
      expect(estimate).toBeGreaterThanOrEqual(INSIGHTS_LATENCY_BOUNDS[slot - 1]!);
      expect(estimate).toBeLessThanOrEqual(INSIGHTS_LATENCY_BOUNDS[slot]!);
      if (exact < 2000) expect(Math.abs(estimate - exact)).toBeLessThanOrEqual(50);
    }
  });

  it("reads negative latencies as 0 and those past the last bound as it", () => {
    expect(percentileOf(histogramOf([-5, -5]), 2, 0.95)).toBe(0);
    expect(percentileOf(histogramOf([45_000, 60_000]), 2, 0.95)).toBe(30_000);
  });
});

function sortEndings(endings: unknown) {
  return [...(endings as { status: string; reason: string; calls: number }[])].sort((a, b) =>
    `${a.status}/${a.reason}`.localeCompare(`${b.status}/${b.reason}`),
  );
}
