import { afterEach, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { durableDatabase } from "../../../test/fixtures/durable-database.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestApp } from "../../../test/support/test-app.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("agent test runs across a restart", () => {
  it("resume: the finished scenario keeps its result, the interrupted one is played again on the next server", {
    timeout: 120_000,
  }, async () => {
    const database = await durableDatabase();
    cleanups.push(() => database.drop());
    const model: FakeOpenAI = await startFakeOpenAI();
    cleanups.push(() => model.close());
    let releaseSecond!: () => void;
    const secondHeld = new Promise<void>((resolve) => {
      releaseSecond = resolve;
    });
    let holding = true;
    model.respondWith((request) => {
      const text = String(request.messages.at(-1)?.content ?? "");
      return { content: `Echo: ${text}`, ...(holding && text === "two" ? { after: secondHeld } : {}) };
    });

    const first: TestApp = await startTestApp({ model, database: database.first });
    let closed = false;
    cleanups.push(() => (closed ? undefined : first.close()));
    const owner = await first.createAccount();
    const assistant = await createAssistant(first, owner);
    const scenarios = first.app.services.testScenarios;
    const ids = [];
    for (const line of ["one", "two"])
      ids.push(
        (
          await scenarios.create(owner.accountId, {
            assistantId: assistant.id,
            name: `Says ${line}`,
            script: [line],
            checks: [{ kind: "transcript_contains", phrase: `Echo: ${line}` }],
          })
        ).id,
      );
    const suite = await scenarios.createSuite(owner.accountId, { name: "Resumable", scenarioIds: ids });
    const run = await first.app.services.testRuns.runSuite(owner.accountId, suite.id, { concurrency: 1 });

    // The first scenario finished; the second is waiting for its reply when the server stops.
    const results = () => first.app.services.testRuns.results(run.id);
    const before = await until(
      results,
      ([one, two]) => one?.status === "passed" && two?.status === "running",
    );
    const stopping = first.close();
    holding = false;
    releaseSecond();
    await stopping;
    closed = true;

    const second = await startTestApp({ model, database: database.next });
    cleanups.push(() => second.close());
    const finished = await until(
      () => second.app.services.testRuns.get(owner.accountId, run.id),
      (current) => !["queued", "running"].includes(current.status),
    );
    expect(finished).toMatchObject({ status: "passed", total: 2, passed: 2, failed: 0, errored: 0 });
    const [one, two] = await second.app.services.testRuns.results(run.id);
    // Kept as it was: not played again.
    expect(one!.startedAt).toEqual(before[0]!.startedAt);
    expect(one!.finishedAt).toEqual(before[0]!.finishedAt);
    expect(two!.status).toBe("passed");
    expect(two!.transcript).toEqual([
      { role: "customer", content: "two" },
      { role: "assistant", content: "Echo: two", latencyMs: expect.any(Number) },
    ]);
    const asked = model.chatRequests.map((request) => request.messages.at(-1)?.content);
    expect(asked.filter((text) => text === "one")).toHaveLength(1);
    expect(asked.filter((text) => text === "two")).toHaveLength(2);
  });

  it("resume on the phone: a scenario whose test call was cut by a stop is played again with a new call, and neither call costs anything", {
    timeout: 120_000,
  }, async () => {
    const database = await durableDatabase();
    cleanups.push(() => database.drop());
    const model: FakeOpenAI = await startFakeOpenAI();
    cleanups.push(() => model.close());
    let releaseAnswer!: () => void;
    const answerHeld = new Promise<void>((resolve) => {
      releaseAnswer = resolve;
    });
    let holding = true;
    model.respondWith((request) => {
      const text = String(request.messages.at(-1)?.content ?? "");
      return {
        content: `Echo: ${text}`,
        ...(holding && text === "Where is my order?" ? { after: answerHeld } : {}),
      };
    });
    const env = { VOXGATE_CALL_CLOCK_SPEED: "20" };
    const first: TestApp = await startTestApp({ model, database: database.first, env });
    let closed = false;
    cleanups.push(() => (closed ? undefined : first.close()));
    const owner = await first.createAccount({ balance: "5" });
    const assistant = await createAssistant(first, owner);
    const scenarios = first.app.services.testScenarios;
    const scenario = await scenarios.create(owner.accountId, {
      assistantId: assistant.id,
      name: "Order by phone",
      channel: "phone",
      script: ["Where is my order?"],
      checks: [{ kind: "transcript_contains", phrase: "Echo: Where is my order?" }],
    });
    const suite = await scenarios.createSuite(owner.accountId, { name: "Phone", scenarioIds: [scenario.id] });
    const run = await first.app.services.testRuns.runSuite(owner.accountId, suite.id, {});

    // The caller said its line; the assistant's answer is held when the server stops.
    const [cut] = await until(
      () => first.app.services.testRuns.results(run.id),
      ([result]) => result?.callId != null,
    );
    await until(
      async () =>
        model.chatRequests.some((request) => request.messages.at(-1)?.content === "Where is my order?"),
      Boolean,
    );
    const stopping = first.close();
    holding = false;
    releaseAnswer();
    await stopping;
    closed = true;

    const second = await startTestApp({ model, database: database.next, env });
    cleanups.push(() => second.close());
    const finished = await until(
      () => second.app.services.testRuns.get(owner.accountId, run.id),
      (current) => !["queued", "running"].includes(current.status),
    );
    expect(finished).toMatchObject({ status: "passed", passed: 1 });
    const [played] = await second.app.services.testRuns.results(run.id);
    expect(played!.callId).not.toBe(cut!.callId);
    expect(played!.transcript).toEqual([
      { role: "assistant", content: "Hello! How can I help?" },
      { role: "customer", content: "Where is my order?" },
      { role: "assistant", content: "Echo: Where is my order?", latencyMs: expect.any(Number) },
    ]);
    // The cut call ends on the next server (its hang-up, or its lost line's lease), free like the new one.
    const prisma = second.app.db.prisma;
    await until(
      () => prisma.call.findUniqueOrThrow({ where: { id: cut!.callId! } }),
      (call) => call.endedAt !== null,
    );
    const calls = await prisma.call.findMany({ where: { accountId: owner.accountId } });
    expect(calls.map((call) => [call.test, call.totalCost.toString()])).toEqual([
      [true, "0"],
      [true, "0"],
    ]);
    expect(
      await prisma.ledgerEntry.count({ where: { accountId: owner.accountId, callId: { not: null } } }),
    ).toBe(0);
    expect(
      (await prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } })).balance.toString(),
    ).toBe("5");
  });
});
