import { builder } from "../../builder.ts";
import type { TestRun as TestRunRecord, TestScenarioResult } from "../../generated/prisma/client.ts";
import { startingWith } from "../../pubsub.ts";
import { given } from "./agent-tests.schema.ts";
import type { VerdictChange } from "./runs.service.ts";
import type { CheckResult, CriterionVerdict, Divergence, TranscriptEntry } from "./scenario-rules.ts";

const TestTranscriptLine = builder.objectRef<TranscriptEntry>("TestTranscriptLine").implement({
  fields: (t) => ({
    role: t.exposeString("role", { description: "customer or assistant." }),
    content: t.exposeString("content"),
    latencyMs: t.int({
      nullable: true,
      description: "Assistant lines: how long the reply took.",
      resolve: (line) => line.latencyMs ?? null,
    }),
  }),
});

const TestCheckResult = builder.objectRef<CheckResult>("TestCheckResult").implement({
  fields: (t) => ({
    kind: t.exposeString("kind"),
    description: t.exposeString("description"),
    passed: t.exposeBoolean("passed"),
    detail: t.exposeString("detail"),
  }),
});

const TestCriterionVerdict = builder.objectRef<CriterionVerdict>("TestCriterionVerdict").implement({
  fields: (t) => ({
    criterion: t.exposeString("criterion"),
    passed: t.exposeBoolean("passed"),
    reasoning: t.exposeString("reasoning"),
  }),
});

const TestDivergence = builder.objectRef<Divergence>("TestDivergence").implement({
  fields: (t) => ({
    turn: t.exposeInt("turn"),
    expected: t.exposeString("expected"),
    actual: t.exposeString("actual"),
  }),
});

const TestScenarioResultRef = builder.prismaObject("TestScenarioResult", {
  description: "A scenario's outcome in a run.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    scenarioId: t.exposeInt("scenarioId"),
    scenarioName: t.exposeString("scenarioName"),
    position: t.exposeInt("position"),
    status: t.exposeString("status", { description: "pending, running, passed, failed or error." }),
    transcript: t.field({
      type: [TestTranscriptLine],
      resolve: (result) => result.transcript as unknown as TranscriptEntry[],
    }),
    functionCalls: t.field({ type: "JSON", resolve: (result) => result.functionCalls }),
    checks: t.field({
      type: [TestCheckResult],
      resolve: (result) => result.checks as unknown as CheckResult[],
    }),
    judge: t.field({
      type: [TestCriterionVerdict],
      resolve: (result) => result.judge as unknown as CriterionVerdict[],
    }),
    evaluation: t.field({ type: "JSON", nullable: true, resolve: (result) => result.evaluation }),
    divergences: t.field({
      type: [TestDivergence],
      description: "Scenarios made from traffic: turns where the answer differs from the recorded one.",
      resolve: (result) => result.divergences as unknown as Divergence[],
    }),
    endedBy: t.exposeString("endedBy", {
      description:
        "customer, handoff or turn_limit; on the phone also assistant (it hung up) or transferred.",
    }),
    callId: t.exposeInt("callId", {
      nullable: true,
      description:
        "A phone scenario's test call (read it with call(id); calls lists it only with includeTests).",
    }),
    turnLatencies: t.exposeIntList("turnLatencies", { description: "Milliseconds per assistant reply." }),
    cost: t.field({
      type: "Decimal",
      description:
        "What it would have cost, never charged: chat replies at the reply price, a phone call's minutes at the per-minute price.",
      resolve: (result) => result.cost.toFixed(4),
    }),
    error: t.exposeString("error"),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true }),
    finishedAt: t.expose("finishedAt", { type: "DateTime", nullable: true }),
  }),
});

const TestRun = builder.prismaObject("TestRun", {
  description: "One run of a suite.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    suiteId: t.exposeInt("suiteId"),
    status: t.exposeString("status", {
      description: "queued, running, passed, failed (a scenario failed or errored) or timed_out.",
    }),
    concurrency: t.exposeInt("concurrency"),
    overrides: t.field({ type: "JSON", resolve: (run) => run.overrides }),
    total: t.exposeInt("total"),
    done: t.int({ resolve: (run) => run.passed + run.failed + run.errored }),
    passed: t.exposeInt("passed"),
    failed: t.exposeInt("failed"),
    errored: t.exposeInt("errored"),
    cost: t.field({
      type: "Decimal",
      description: "What the replies would have cost at the reply price; never charged.",
      resolve: (run) => run.cost.toFixed(4),
    }),
    error: t.exposeString("error"),
    deadlineAt: t.expose("deadlineAt", { type: "DateTime" }),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true }),
    finishedAt: t.expose("finishedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    results: t.field({
      type: [TestScenarioResultRef],
      resolve: (run, _args, context) => context.services.testRuns.results(run.id),
    }),
  }),
});

const TestSuiteEstimate = builder
  .objectRef<{ scenarios: number; replies: number; modelRequests: number; price: string }>(
    "TestSuiteEstimate",
  )
  .implement({
    description: "What a run of the suite costs at most, before running it.",
    fields: (t) => ({
      scenarios: t.exposeInt("scenarios"),
      replies: t.exposeInt("replies", { description: "Assistant replies at most (turns × scenarios)." }),
      modelRequests: t.exposeInt("modelRequests", {
        description: "Model requests at most: replies, persona lines, judge and evaluation.",
      }),
      price: t.field({
        type: "Decimal",
        description: "The replies at the reply price: the provider's cost to expect; never charged.",
        resolve: (estimate) => estimate.price,
      }),
    }),
  });

const TestVerdictChange = builder.objectRef<VerdictChange>("TestVerdictChange").implement({
  fields: (t) => ({
    scenarioId: t.exposeInt("scenarioId"),
    scenarioName: t.exposeString("scenarioName"),
    before: t.field({
      type: TestScenarioResultRef,
      nullable: true,
      resolve: (change) => change.before as TestScenarioResult | null,
    }),
    after: t.field({
      type: TestScenarioResultRef,
      nullable: true,
      resolve: (change) => change.after as TestScenarioResult | null,
    }),
  }),
});

const TestRunComparison = builder
  .objectRef<{
    before: TestRunRecord;
    after: TestRunRecord;
    changed: VerdictChange[];
    unchanged: number;
  }>("TestRunComparison")
  .implement({
    fields: (t) => ({
      before: t.field({ type: TestRun, resolve: (comparison) => comparison.before }),
      after: t.field({ type: TestRun, resolve: (comparison) => comparison.after }),
      changed: t.field({ type: [TestVerdictChange], resolve: (comparison) => comparison.changed }),
      unchanged: t.exposeInt("unchanged"),
    }),
  });

const TestOverridesInput = builder.inputType("TestOverridesInput", {
  description: "Settings replacing the assistant's for one run (replay against a changed assistant).",
  fields: (t) => ({
    systemPrompt: t.string(),
    llmModelId: t.int(),
    llmTemperature: t.float(),
    knowledgebaseId: t.int(),
  }),
});

builder.queryField("testSuiteEstimate", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestSuiteEstimate,
    description:
      "What a run of the suite costs at most (turns × scenarios × the reply price), before running it.",
    args: { suiteId: t.arg.int({ required: true }) },
    resolve: (_root, { suiteId }, context) =>
      context.services.testRuns.estimate(context.viewer.accountId, suiteId),
  }),
);

builder.queryField("testRun", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestRun,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.testRuns.get(context.viewer.accountId, id),
  }),
);

builder.queryField("testRuns", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [TestRun],
    description: "A suite's runs, newest first.",
    args: { suiteId: t.arg.int({ required: true }), limit: t.arg.int({ description: "1-200, default 50." }) },
    resolve: (_root, { suiteId, limit }, context) =>
      context.services.testRuns.list(context.viewer.accountId, suiteId, limit ?? 50),
  }),
);

builder.queryField("compareTestRuns", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestRunComparison,
    description: "Scenarios whose verdict differs between run a (before) and run b (after), side by side.",
    args: { a: t.arg.int({ required: true }), b: t.arg.int({ required: true }) },
    resolve: (_root, { a, b }, context) => context.services.testRuns.compare(context.viewer.accountId, a, b),
  }),
);

builder.mutationField("runTestSuite", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestRun,
    description:
      "Queues a run of the suite and returns it at once; follow it with testRunUpdated. Replies are never charged. At most 3 runs of an account queued or running.",
    args: {
      suiteId: t.arg.int({ required: true }),
      concurrency: t.arg.int({ description: "Scenarios at once, 1-4 (default 2)." }),
      overrides: t.arg({ type: TestOverridesInput }),
    },
    resolve: (_root, { suiteId, concurrency, overrides }, context) =>
      context.services.testRuns.runSuite(context.viewer.accountId, suiteId, {
        ...(concurrency != null ? { concurrency } : {}),
        ...(overrides ? { overrides: given(overrides) } : {}),
      }),
  }),
);

builder.subscriptionField("testRunUpdated", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestRun,
    description:
      "The run as it moves: a scenario started or finished, the run finished. With includeCurrent, the run as it is when the subscription starts comes first (and again after a client's reconnect), so nothing between a read and the subscription is missed.",
    args: {
      id: t.arg.int({ required: true }),
      includeCurrent: t.arg.boolean({ description: "The run as it is first, then as it moves." }),
    },
    subscribe: async (_root, { id, includeCurrent }, context) => {
      await context.services.testRuns.get(context.viewer.accountId, id);
      const live = context.pubsub.subscribe("test-run:updated", id);
      return includeCurrent ? startingWith(live, async () => ({ runId: id })) : live;
    },
    resolve: (event: { runId: number }, _args, context) =>
      context.services.testRuns.get(context.viewer.accountId, event.runId),
  }),
);
