import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { measuredAnswer } from "../../../test/fixtures/insights.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { CallStatus, Prisma } from "../../generated/prisma/client.ts";
import type { InsightsPoint, Insights as Overview } from "./insights.service.ts";

/**
 * The overview over a seeded history: every figure against what the seed makes it by hand, the
 * period's bounds, one assistant's share, and nothing of another account.
 */

const INSIGHTS = `query ($period: InsightsPeriod!, $assistantId: Int) {
  insights(period: $period, assistantId: $assistantId) {
    from to assistantId timezone bucket calls finishedCalls answeredCalls answerRate conversations minutes cost
    evaluatedCalls judgedCalls successfulCalls successRate measuredTurns averageTurnLatencyMs p95TurnLatencyMs
    transfers bookings endedReasons { status reason calls }
    series { start calls answeredCalls conversations minutes cost bookings }
  }
}`;
const WEEK = { from: "2027-01-01T00:00:00.000Z", to: "2027-01-08T00:00:00.000Z" };

/** The service's figures as they arrive over GraphQL: times as ISO strings. */
type Point = Omit<InsightsPoint, "start"> & { start: string };
type Insights = Omit<Overview, "from" | "to" | "bucket" | "series"> & {
  from: string;
  to: string;
  bucket: string;
  series: Point[];
};

describe("insights", () => {
  let t: TestApp;
  let alice: TestAccount;
  let bob: TestAccount;
  let carol: TestAccount;
  let first: number;
  let second: number;
  let bobs: number;

  const overview = async (account: TestAccount, variables: Record<string, unknown>) => {
    const result = await t.gql<{ insights: Insights }>(INSIGHTS, variables, { token: account.apiKey });
    expect(result.errors).toBeUndefined();
    return result.data!.insights;
  };

  /** One call, with its assistant turns' latencies (ms from end of speech to first audio). */
  async function call(
    account: TestAccount,
    assistantId: number,
    at: string,
    fields: Partial<Prisma.CallUncheckedCreateInput> & { status: CallStatus },
    latencies: number[] = [],
  ) {
    const createdAt = new Date(at);
    const answered = !["no_answer", "busy", "failed", "initiated", "ringing"].includes(fields.status);
    const created = await t.app.db.prisma.call.create({
      data: {
        accountId: account.accountId,
        assistantId,
        type: "outbound",
        createdAt,
        startedAt: answered ? createdAt : null,
        ...fields,
      },
    });
    for (const [index, ms] of latencies.entries()) {
      const speechEndedAt = new Date(createdAt.getTime() + 10_000 * (index + 1));
      await t.app.db.prisma.callTurn.create({
        data: measuredAnswer({ callId: created.id, accountId: account.accountId }, speechEndedAt, ms),
      });
    }
    // Turns that measure nothing: the caller's, and an answer with no end of speech before it (the greeting).
    await t.app.db.prisma.callTurn.createMany({
      data: [
        {
          callId: created.id,
          accountId: account.accountId,
          speaker: "customer",
          text: "Hi",
          heardText: "",
          startMs: 0,
          endMs: 1,
          createdAt,
        },
        {
          callId: created.id,
          accountId: account.accountId,
          speaker: "assistant",
          text: "Hello",
          heardText: "Hello",
          startMs: 0,
          endMs: 1,
          firstAudioAt: createdAt,
          createdAt,
        },
      ],
    });
  }

  const conversation = (account: TestAccount, assistantId: number, at: string) =>
    t.app.db.prisma.conversation.create({
      data: { accountId: account.accountId, assistantId, channel: "widget", createdAt: new Date(at) },
    });

  const appointment = (
    account: TestAccount,
    assistantId: number,
    at: string,
    status: "booked" | "cancelled" | "pending",
  ) =>
    t.app.db.prisma.appointment.create({
      data: {
        accountId: account.accountId,
        assistantId,
        appointmentTypeId: 1,
        appointmentTypeName: "Visit",
        timezone: "UTC",
        connectionId: 1,
        provider: "caldav",
        externalId: `event-${Math.random()}`,
        startsAt: new Date("2027-02-01T10:00:00Z"),
        endsAt: new Date("2027-02-01T10:30:00Z"),
        status,
        customerName: "Ada",
        idempotencyKey: `key-${Math.random()}`,
        createdAt: new Date(at),
      },
    });

  beforeAll(async () => {
    t = await startTestApp();
    [alice, bob, carol] = await Promise.all([
      t.createAccount(),
      t.createAccount(),
      t.createAccount({ timezone: "America/New_York" }),
    ]);
    first = (await createAssistant(t, alice, { name: "First" })).id;
    second = (await createAssistant(t, alice, { name: "Second" })).id;
    bobs = (await createAssistant(t, bob, { name: "Bob's" })).id;
    const carols = (await createAssistant(t, carol, { name: "Carol's" })).id;

    // The first assistant, 2 January.
    await call(
      alice,
      first,
      "2027-01-02T09:00:00Z",
      {
        status: "completed",
        duration: 120,
        totalCost: "0.5",
        evaluationStatus: "done",
        evaluation: { success: true, score: 1 },
      },
      [400, 600],
    );
    await call(
      alice,
      first,
      "2027-01-02T10:00:00Z",
      {
        status: "ended_by_customer",
        duration: 60,
        totalCost: "0.25",
        evaluationStatus: "done",
        evaluation: { sentiment: "positive", score: 8 },
      },
      [800],
    );
    await call(alice, first, "2027-01-02T11:00:00Z", { status: "no_answer" });
    await call(alice, first, "2027-01-02T12:00:00Z", { status: "failed", endReason: "no balance" });
    // 5 January: a poor score, an evaluation that says neither, a transfer.
    await call(alice, first, "2027-01-05T09:00:00Z", {
      status: "completed",
      duration: 30,
      totalCost: "0.1234",
      evaluationStatus: "done",
      evaluation: { score: 3 },
    });
    await call(alice, first, "2027-01-05T10:00:00Z", {
      status: "ended",
      duration: 45,
      totalCost: "0.1",
      evaluationStatus: "done",
      evaluation: { outcome: "asked for a person" },
      transferState: "connected",
    });
    // Live: counted, not finished.
    await call(alice, first, "2027-01-06T09:00:00Z", { status: "in_progress" });
    // The second assistant, 3 January.
    await call(
      alice,
      second,
      "2027-01-03T09:00:00Z",
      {
        status: "completed",
        duration: 600,
        totalCost: "2",
        evaluationStatus: "done",
        evaluation: { success: false, score: 10 },
      },
      [2000],
    );
    // Just outside the period on both sides ("to" is excluded).
    await call(
      alice,
      first,
      "2026-12-31T23:59:59Z",
      { status: "completed", duration: 999, totalCost: "9" },
      [9000],
    );
    await call(
      alice,
      first,
      "2027-01-08T00:00:00Z",
      { status: "completed", duration: 999, totalCost: "9" },
      [9000],
    );
    // Another account's, in the period.
    await call(
      bob,
      bobs,
      "2027-01-02T09:00:00Z",
      { status: "completed", duration: 999, totalCost: "9" },
      [9000],
    );

    // Agent tests' calls and the console's test chats, in the period: not the business's traffic.
    await call(
      alice,
      first,
      "2027-01-02T11:00:00Z",
      { status: "ended_by_assistant", duration: 300, totalCost: "3", test: true, transferState: "connected" },
      [7000],
    );
    await t.app.db.prisma.conversation.create({
      data: {
        accountId: alice.accountId,
        assistantId: first,
        channel: "test",
        createdAt: new Date("2027-01-02T11:00:00Z"),
      },
    });

    await conversation(alice, first, "2027-01-02T08:00:00Z");
    await conversation(alice, first, "2027-01-04T08:00:00Z");
    await conversation(alice, second, "2027-01-04T09:00:00Z");
    await conversation(alice, first, "2027-01-09T08:00:00Z");
    await conversation(bob, bobs, "2027-01-04T08:00:00Z");

    await appointment(alice, first, "2027-01-02T09:30:00Z", "booked");
    await appointment(alice, first, "2027-01-03T09:30:00Z", "cancelled");
    await appointment(alice, first, "2027-01-03T09:40:00Z", "pending");
    await appointment(alice, second, "2027-01-03T09:30:00Z", "booked");
    await appointment(bob, bobs, "2027-01-03T09:30:00Z", "booked");

    // Carol is in New York: 03:00 UTC on 2 January is still 1 January there.
    await call(carol, carols, "2027-01-02T03:00:00Z", {
      status: "completed",
      duration: 60,
      totalCost: "0.1",
    });
  });

  afterAll(() => t?.close());

  it("sums the account's week: calls, rates, minutes, cost, latency, transfers, bookings, endings", async () => {
    const week = await overview(alice, { period: WEEK });
    expect(week).toMatchObject({
      from: WEEK.from,
      to: WEEK.to,
      assistantId: null,
      timezone: "UTC",
      bucket: "day",
      calls: 8,
      finishedCalls: 7,
      answeredCalls: 5,
      conversations: 3,
      minutes: 855 / 60,
      cost: "2.9734",
      evaluatedCalls: 5,
      // { outcome } alone says neither success nor failure; { success: false, score: 10 } is a failure.
      judgedCalls: 4,
      successfulCalls: 2,
      successRate: 0.5,
      measuredTurns: 4,
      averageTurnLatencyMs: 950,
      // From the histogram: rank 0.95 x 4 = 3.8 falls in 2000's bucket [2000, 2250), 0.8 into it.
      p95TurnLatencyMs: 2200,
      transfers: 1,
      bookings: 3,
    });
    expect(week.answerRate).toBeCloseTo(5 / 7, 10);
    expect(week.endedReasons).toEqual([
      { status: "completed", reason: "", calls: 3 },
      { status: "ended", reason: "", calls: 1 },
      { status: "ended_by_customer", reason: "", calls: 1 },
      { status: "failed", reason: "no balance", calls: 1 },
      { status: "no-answer", reason: "", calls: 1 },
    ]);
  });

  it("charts every day of the period, empty days included", async () => {
    const { series } = await overview(alice, { period: WEEK });
    expect(series.map((point) => point.start)).toEqual(
      [1, 2, 3, 4, 5, 6, 7].map((day) => `2027-01-0${day}T00:00:00.000Z`),
    );
    expect(series.map((point) => point.calls)).toEqual([0, 4, 1, 0, 2, 1, 0]);
    expect(series.map((point) => point.answeredCalls)).toEqual([0, 2, 1, 0, 2, 0, 0]);
    expect(series.map((point) => point.conversations)).toEqual([0, 1, 0, 2, 0, 0, 0]);
    expect(series.map((point) => point.bookings)).toEqual([0, 1, 2, 0, 0, 0, 0]);
    expect(series.map((point) => point.cost)).toEqual(
      ["0", "0.75", "2", "0", "0.2234", "0", "0"].map((value) => Number(value).toFixed(4)),
    );
    expect(series[1]!.minutes).toBe(3);
  });

  it("narrows to one assistant", async () => {
    const one = await overview(alice, { period: WEEK, assistantId: first });
    expect(one).toMatchObject({
      assistantId: first,
      calls: 7,
      finishedCalls: 6,
      answeredCalls: 4,
      conversations: 2,
      minutes: 255 / 60,
      cost: "0.9734",
      evaluatedCalls: 4,
      judgedCalls: 3,
      successfulCalls: 2,
      measuredTurns: 3,
      averageTurnLatencyMs: 600,
      // Rank 0.95 x 3 = 2.85 in 800's bucket [800, 850): 800 + 0.85 x 50.
      p95TurnLatencyMs: 843,
      transfers: 1,
      bookings: 2,
    });
    expect(one.answerRate).toBeCloseTo(4 / 6, 10);
    expect(one.successRate).toBeCloseTo(2 / 3, 10);
  });

  it("charts a day per hour, and an empty period as zeros and no rates", async () => {
    const day = await overview(alice, {
      period: { from: "2027-01-02T00:00:00Z", to: "2027-01-03T00:00:00Z" },
    });
    expect(day.bucket).toBe("hour");
    expect(day.series).toHaveLength(24);
    expect(day.series.filter((point) => point.calls > 0).map((point) => point.start)).toEqual([
      "2027-01-02T09:00:00.000Z",
      "2027-01-02T10:00:00.000Z",
      "2027-01-02T11:00:00.000Z",
      "2027-01-02T12:00:00.000Z",
    ]);
    const empty = await overview(alice, {
      period: { from: "2026-06-01T00:00:00Z", to: "2026-06-08T00:00:00Z" },
    });
    expect(empty).toMatchObject({
      calls: 0,
      answerRate: null,
      successRate: null,
      averageTurnLatencyMs: null,
      p95TurnLatencyMs: null,
      cost: "0.0000",
      endedReasons: [],
    });
    expect(empty.series).toHaveLength(7);
  });

  it("cuts days in the account's time zone", async () => {
    const week = await overview(carol, {
      period: { from: "2027-01-01T05:00:00Z", to: "2027-01-04T05:00:00Z" },
    });
    expect(week.timezone).toBe("America/New_York");
    expect(week.series.map((point) => [point.start, point.calls])).toEqual([
      ["2027-01-01T05:00:00.000Z", 1],
      ["2027-01-02T05:00:00.000Z", 0],
      ["2027-01-03T05:00:00.000Z", 0],
    ]);
  });

  it("shows another account nothing of alice's, and refuses her assistant and bad periods", async () => {
    const theirs = await overview(bob, { period: WEEK });
    expect(theirs).toMatchObject({
      calls: 1,
      conversations: 1,
      bookings: 1,
      measuredTurns: 1,
      cost: "9.0000",
    });
    const foreign = await t.gql(INSIGHTS, { period: WEEK, assistantId: first }, { token: bob.apiKey });
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const backwards = await t.gql(
      INSIGHTS,
      { period: { from: WEEK.to, to: WEEK.from } },
      { token: alice.apiKey },
    );
    expect(backwards.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    expect(backwards.errors?.[0]?.message).toBe("The to field must be after from.");
    const long = await t.gql(
      INSIGHTS,
      { period: { from: "2025-01-01T00:00:00Z", to: "2027-01-01T00:00:00Z" } },
      { token: alice.apiKey },
    );
    expect(long.errors?.[0]?.message).toBe("The period must not be longer than 366 days.");
    const anonymous = await t.gql(INSIGHTS, { period: WEEK });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});
