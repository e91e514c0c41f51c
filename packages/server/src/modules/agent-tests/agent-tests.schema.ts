import { builder } from "../../builder.ts";
import type { Customer } from "./scenario-rules.ts";
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

/** The fields of an input object that were given a value (null reads as not given). */
export function given<T extends object>(input: T | null | undefined): Partial<T> {
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
