import { builder } from "../../builder.ts";
import type { TestRun as TestRunRecord, TestScenarioResult } from "../../generated/prisma/client.ts";
import { startingWith } from "../../pubsub.ts";
import type { VerdictChange } from "./runs.service.ts";
import type {
  CheckResult,
  CriterionVerdict,
  Customer,
  Divergence,
  TranscriptEntry,
} from "./scenario-rules.ts";
import type { SuiteWithScenarios } from "./scenarios.service.ts";

const TestScenario = builder.prismaObject("TestScenario", {
  description:
    "A situation an assistant must keep handling: the customer (script or persona) and what success means (docs/testing-assistants.md).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    assistantId: t.exposeInt("assistantId"),
    name: t.exposeString("name"),
    channel: t.exposeString("channel", {
      description:
        "chat (the reply engine, turn by turn) or phone (a simulated test call through the voice engine).",
    }),
    script: t.stringList({
      nullable: true,
      description: "The customer's lines, said in order (a scripted customer); null for a persona.",
      resolve: (scenario) => {
        const customer = scenario.customer as unknown as Customer;
        return customer.kind === "scripted" ? customer.lines : null;
      },
    }),
    persona: t.string({
      nullable: true,
      description: "Who the customer is, played by the model; null for a script.",
      resolve: (scenario) => {
        const customer = scenario.customer as unknown as Customer;
        return customer.kind === "persona" ? customer.prompt : null;
      },
    }),
    goal: t.string({
      nullable: true,
      description: "What the persona customer wants.",
      resolve: (scenario) => {
        const customer = scenario.customer as unknown as Customer;
        return customer.kind === "persona" ? customer.goal : null;
      },
    }),
    variables: t.field({ type: "JSON", resolve: (scenario) => scenario.variables }),
    turnLimit: t.exposeInt("turnLimit", { description: "Customer messages at most (1-30)." }),
    criteria: t.stringList({
      description: "What the judge model decides, one pass/fail each.",
      resolve: (scenario) => scenario.criteria as string[],
    }),
    checks: t.field({
      type: "JSON",
      description: "Checks decided without a model (docs/testing-assistants.md#checks).",
      resolve: (scenario) => scenario.checks,
    }),
    toolResults: t.field({
      type: "JSON",
      description: "What stubbed functions answer, by function name (others answer {ok: true}).",
      resolve: (scenario) => scenario.toolResults,
    }),
    useRealTools: t.exposeBoolean("useRealTools", {
      description: "Bookings and webhook tools run for real (a hand-off never does).",
    }),
    expectedReplies: t.stringList({
      description: "Made from traffic: what the assistant answered then, turn by turn.",
      resolve: (scenario) => scenario.expectedReplies as string[],
    }),
    sourceCallId: t.exposeInt("sourceCallId", { nullable: true }),
    sourceConversationId: t.exposeString("sourceConversationId", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const TestSuite = builder.objectRef<SuiteWithScenarios>("TestSuite").implement({
  description: "Scenarios run together (at most 50).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    scenarioIds: t.exposeIntList("scenarioIds"),
    scenarios: t.field({
      type: [TestScenario],
      resolve: (suite, _args, context) =>
        context.services.testScenarios.suiteScenarios(suite.accountId, suite.id),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

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

const CreateTestScenarioInput = builder.inputType("CreateTestScenarioInput", {
  description: "The customer is either a script or a persona (with a goal).",
  fields: (t) => ({
    assistantId: t.int({ required: true }),
    name: t.string({ required: true }),
    channel: t.string({
      description: "chat (default) or phone: a simulated test call through the voice engine, never charged.",
    }),
    script: t.stringList({ description: "The customer's lines, said in order (at most 30)." }),
    persona: t.string({ description: "Who the customer is; the model plays them." }),
    goal: t.string({ description: "What the persona customer wants." }),
    variables: t.field({ type: "JSON", description: "Prompt variables of the scenario ({{name}})." }),
    turnLimit: t.int({
      description: "Customer messages at most, 1-30 (default 10, or the script's length).",
    }),
    criteria: t.stringList({ description: "Plain-words criteria for the judge (at most 20)." }),
    checks: t.field({
      type: "JSON",
      description: "Checks without a model (docs/testing-assistants.md#checks).",
    }),
    toolResults: t.field({ type: "JSON", description: "What stubbed functions answer, by function name." }),
    useRealTools: t.boolean({ description: "Run bookings and webhook tools for real (default false)." }),
  }),
});

const UpdateTestScenarioInput = builder.inputType("UpdateTestScenarioInput", {
  description: "Only the given fields change.",
  fields: (t) => ({
    name: t.string(),
    channel: t.string({ description: "chat or phone." }),
    script: t.stringList(),
    persona: t.string(),
    goal: t.string(),
    variables: t.field({ type: "JSON" }),
    turnLimit: t.int(),
    criteria: t.stringList(),
    checks: t.field({ type: "JSON" }),
    toolResults: t.field({ type: "JSON" }),
    useRealTools: t.boolean(),
  }),
});

const TestSuiteInput = builder.inputType("TestSuiteInput", {
  fields: (t) => ({
    name: t.string(),
    scenarioIds: t.intList({ description: "In run order; 1 to 50 of the account's scenarios." }),
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

/** The fields of an input object that were given a value (null reads as not given). */
function given<T extends object>(input: T | null | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(input ?? {}).filter(([, value]) => value != null)) as Partial<T>;
}

builder.queryField("testScenario", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestScenario,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.testScenarios.scenario(context.viewer.accountId, id),
  }),
);

builder.queryField("testScenarios", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [TestScenario],
    description: "The account's scenarios (or one assistant's), oldest first.",
    args: { assistantId: t.arg.int() },
    resolve: (_root, { assistantId }, context) =>
      context.services.testScenarios.scenarios(context.viewer.accountId, assistantId),
  }),
);

builder.queryField("testSuite", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestSuite,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.testScenarios.suite(context.viewer.accountId, id),
  }),
);

builder.queryField("testSuites", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [TestSuite],
    resolve: (_root, _args, context) => context.services.testScenarios.suites(context.viewer.accountId),
  }),
);

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

builder.mutationField("createTestScenario", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestScenario,
    args: { input: t.arg({ type: CreateTestScenarioInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.testScenarios.create(context.viewer.accountId, given(input)),
  }),
);

builder.mutationField("updateTestScenario", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestScenario,
    args: {
      id: t.arg.int({ required: true }),
      input: t.arg({ type: UpdateTestScenarioInput, required: true }),
    },
    resolve: (_root, { id, input }, context) =>
      context.services.testScenarios.update(context.viewer.accountId, id, given(input)),
  }),
);

builder.mutationField("deleteTestScenario", (t) =>
  t.withAuth({ authenticated: true }).boolean({
    description: "Removes it from its suites too; runs keep its results.",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.testScenarios.delete(context.viewer.accountId, id),
  }),
);

builder.mutationField("createTestScenarioFromCall", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestScenario,
    description:
      "A scripted scenario from a call: its customer's lines, and its assistant's answers as the expected ones.",
    args: { callId: t.arg.int({ required: true }) },
    resolve: (_root, { callId }, context) =>
      context.services.trafficReplays.fromCall(context.viewer.accountId, callId),
  }),
);

builder.mutationField("createTestScenarioFromConversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestScenario,
    description: "A scripted scenario from a chat conversation, as createTestScenarioFromCall.",
    args: { conversationId: t.arg.string({ required: true }) },
    resolve: (_root, { conversationId }, context) =>
      context.services.trafficReplays.fromConversation(context.viewer.accountId, conversationId),
  }),
);

builder.mutationField("createTestSuite", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestSuite,
    args: { input: t.arg({ type: TestSuiteInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.testScenarios.createSuite(context.viewer.accountId, given(input)),
  }),
);

builder.mutationField("updateTestSuite", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TestSuite,
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: TestSuiteInput, required: true }) },
    resolve: (_root, { id, input }, context) =>
      context.services.testScenarios.updateSuite(context.viewer.accountId, id, given(input)),
  }),
);

builder.mutationField("deleteTestSuite", (t) =>
  t.withAuth({ authenticated: true }).boolean({
    description: "Deletes the suite and its runs (the scenarios stay).",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.testScenarios.deleteSuite(context.viewer.accountId, id),
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
