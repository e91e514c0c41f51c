import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import { readRun } from "../../../test/fixtures/test-runs.ts";
import {
  type FakeChatReply,
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../test/support/fake-openai.ts";
import { subscribeWs } from "../../../test/support/subscriptions.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Call } from "../../generated/prisma/client.ts";
import { parseTranscript } from "../telephony/index.ts";
import { JUDGE_SCHEMA_NAME } from "./judge.ts";

const PROMPT = "You are the front desk of Acme Shop.";
const CAREFUL = `${PROMPT} Never mention refunds.`;

const isJudge = (request: RecordedChatRequest) =>
  (request.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ===
  JUDGE_SCHEMA_NAME;
const schemaName = (request: RecordedChatRequest) =>
  (request.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name;
const isPersona = (request: RecordedChatRequest) =>
  request.messages[0]?.content?.includes("You are a customer writing to a business's chat assistant") ??
  false;
const isCallee = (request: RecordedChatRequest) =>
  request.messages[0]?.content?.includes("just answered a phone call") ?? false;

/**
 * The stand-in assistant: looks orders up with its function, and talks of refunds unless its prompt
 * forbids it (so a changed prompt changes a verdict). The judge and the persona are answered by
 * what the test sets.
 */
let judgeVerdicts: { criterion: number; passed: boolean; reasoning: string }[] = [];
/** While set, every model answer waits for it: a run makes no progress before the test follows it. */
let gate: Promise<void> | null = null;
function responder(request: RecordedChatRequest): FakeChatReply {
  const reply = answer(request);
  return gate ? { ...reply, after: gate } : reply;
}
function answer(request: RecordedChatRequest): FakeChatReply {
  if (isJudge(request)) return { content: JSON.stringify({ verdicts: judgeVerdicts }) };
  if (schemaName(request) === "evaluation") return { content: JSON.stringify({ resolved: true }) };
  if (isPersona(request)) {
    const turn = request.messages.filter((message) => message.role === "assistant").length;
    return { content: turn === 0 ? "Hi, I want to know my order status." : "Thanks, that is all. [DONE]" };
  }
  if (isCallee(request)) {
    const turn = request.messages.filter((message) => message.role === "assistant").length;
    return { content: `Caller line ${turn}` };
  }
  const last = request.messages.at(-1)!;
  // On a phone call (the voice engine offers end_call) the stand-in words its answers otherwise.
  if (request.tools?.some((tool) => tool.function.name === "end_call"))
    return { content: `On the phone: ${String(last.content ?? "")}` };
  if (last.role === "tool") return { content: `Your order status: ${last.content}` };
  const text = String(last.content ?? "");
  if (/order 42/i.test(text) && request.tools?.some((tool) => tool.function.name === "lookup_order"))
    return { toolCalls: [{ name: "lookup_order", arguments: { order_id: "42", verbose: false } }] };
  if (/refund/i.test(text))
    return {
      content: request.messages[0]!.content!.includes("Never mention refunds")
        ? "Let me pass this to a colleague."
        : "You can get a refund within 30 days.",
    };
  return { content: `Happy to help with: ${text}` };
}

let t: TestApp;
let fake: FakeOpenAI;
let owner: TestAccount;
let assistantId: number;
let webhookHits = 0;
let webhook: Server;

async function gql<Data>(query: string, variables: Record<string, unknown> = {}, token = owner.apiKey) {
  const response = await t.gql<Data>(query, variables, { token });
  return response;
}

async function scenario(input: Record<string, unknown>): Promise<number> {
  const created = await gql<{ createTestScenario: { id: number } }>(
    "mutation ($input: CreateTestScenarioInput!) { createTestScenario(input: $input) { id } }",
    { input: { assistantId, ...input } },
  );
  expect(created.errors).toBeUndefined();
  return created.data!.createTestScenario.id;
}

async function suite(scenarioIds: number[]): Promise<number> {
  const created = await gql<{ createTestSuite: { id: number } }>(
    "mutation ($input: TestSuiteInput!) { createTestSuite(input: $input) { id } }",
    { input: { name: "Regression", scenarioIds } },
  );
  expect(created.errors).toBeUndefined();
  return created.data!.createTestSuite.id;
}

/** Starts a run and follows it by subscription to its end; returns the run and every update seen. */
async function runToEnd(suiteId: number, extra: Record<string, unknown> = {}, token = owner.apiKey) {
  let release!: () => void;
  gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  try {
    const started = await gql<{ runTestSuite: { id: number; status: string; total: number } }>(
      "mutation ($suiteId: Int!, $concurrency: Int, $overrides: TestOverridesInput) { runTestSuite(suiteId: $suiteId, concurrency: $concurrency, overrides: $overrides) { id status total } }",
      { suiteId, ...extra },
      token,
    );
    expect(started.errors).toBeUndefined();
    const run = started.data!.runTestSuite;
    expect(run.status).toBe("queued");
    const updates = await subscribeWs<{ testRunUpdated: { status: string; done: number } }>(
      t.url,
      "subscription ($id: Int!) { testRunUpdated(id: $id) { status done } }",
      { connectionParams: { authorization: `Bearer ${token}` }, variables: { id: run.id } },
    );
    // Subscribed before any scenario could finish: its model answers waited for this.
    gate = null;
    release();
    const seen: { status: string; done: number }[] = [];
    try {
      for (;;) {
        const event = await updates.next(30_000);
        const view = event.data!.testRunUpdated;
        seen.push(view);
        if (!["queued", "running"].includes(view.status)) break;
      }
    } finally {
      await updates.close();
    }
    return { run: await readRun(t, run.id, token), seen };
  } finally {
    gate = null;
    release();
  }
}

beforeAll(async () => {
  webhook = createServer((_request, response) => {
    webhookHits++;
    response.end("{}");
  });
  await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
  fake = await startFakeOpenAI();
  fake.respondWith(responder);
  t = await startTestApp({ model: fake, env: { VOXGATE_CALL_CLOCK_SPEED: "20" } });
  owner = await t.createAccount({ balance: "5" });
  const assistant = await createAssistant(t, owner, {
    systemPrompt: PROMPT,
    postCallSchema: [{ name: "resolved", type: "bool", description: "Was the question answered?" }],
    tools: [
      {
        name: "lookup_order",
        description: "Looks an order up",
        parameters: { type: "object", properties: { order_id: { type: "string" } } },
        url: `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/orders`,
        method: "POST",
      },
    ],
  });
  assistantId = assistant.id;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => webhook?.close(resolve));
});

describe("agent tests on the chat channel", () => {
  let passing: number;
  let failing: number;
  let judged: number;
  let suiteId: number;
  let firstRunId: number;

  it("runs a suite: a scripted scenario passes, another fails for the right reason, the judge's verdicts are kept; nothing is charged", async () => {
    passing = await scenario({
      name: "Order status",
      script: ["Where is my order 42?", "Thank you"],
      toolResults: { lookup_order: { status: "shipped" } },
      checks: [
        { kind: "function_called", name: "lookup_order", arguments: { order_id: "42" } },
        { kind: "transcript_contains", phrase: "shipped" },
        { kind: "transcript_excludes", phrase: "refund" },
        { kind: "ended_by", by: "customer" },
        { kind: "latency_under", ms: 600_000 },
        { kind: "evaluation_equals", field: "resolved", value: true },
      ],
    });
    failing = await scenario({
      name: "Refund question",
      script: ["Can I get a refund?"],
      checks: [
        { kind: "transcript_excludes", phrase: "refund" },
        { kind: "function_not_called", name: "lookup_order" },
      ],
    });
    judged = await scenario({
      name: "Persona asks politely",
      persona: "You are Maria, a polite customer.",
      goal: "Learn your order's status.",
      turnLimit: 5,
      criteria: ["The assistant greets the customer", "The assistant offers a discount"],
    });
    suiteId = await suite([passing, failing, judged]);

    const estimate = await gql<{
      testSuiteEstimate: { scenarios: number; replies: number; modelRequests: number; price: string };
    }>("query ($id: Int!) { testSuiteEstimate(suiteId: $id) { scenarios replies modelRequests price } }", {
      id: suiteId,
    });
    // 2 + 1 scripted replies, 5 persona turns; persona lines, the judge and one evaluation on top.
    expect(estimate.data!.testSuiteEstimate).toEqual({
      scenarios: 3,
      replies: 8,
      modelRequests: 2 + 1 + 10 + 1 + 1,
      price: (8 * Number(t.app.config.pricing.replyPrice)).toFixed(4),
    });

    judgeVerdicts = [
      { criterion: 1, passed: true, reasoning: "It said hello." },
      { criterion: 2, passed: false, reasoning: "No discount was offered." },
    ];
    fake.chatRequests.length = 0;
    const ledgerBefore = await t.app.db.prisma.ledgerEntry.count({ where: { accountId: owner.accountId } });
    const { run, seen } = await runToEnd(suiteId, { concurrency: 2 });
    firstRunId = run.id;

    expect(run).toMatchObject({ status: "failed", total: 3, done: 3, passed: 1, failed: 2, errored: 0 });
    // A client that subscribes after the run ended learns its end at once with includeCurrent.
    const late = await subscribeWs<{ testRunUpdated: { status: string; done: number } }>(
      t.url,
      "subscription ($id: Int!) { testRunUpdated(id: $id, includeCurrent: true) { status done } }",
      { connectionParams: { authorization: `Bearer ${owner.apiKey}` }, variables: { id: run.id } },
    );
    try {
      expect((await late.next()).data!.testRunUpdated).toEqual({ status: "failed", done: 3 });
    } finally {
      await late.close();
    }
    const [order, refund, persona] = run.results;
    expect(order!.status).toBe("passed");
    expect(order!.transcript.map((line) => [line.role, line.content])).toEqual([
      ["customer", "Where is my order 42?"],
      ["assistant", 'Your order status: {"status":"shipped"}'],
      ["customer", "Thank you"],
      ["assistant", "Happy to help with: Thank you"],
    ]);
    // The stub's result is what the model read as the function's answer.
    expect(
      fake.chatRequests.some((request) => request.messages.at(-1)?.content === '{"status":"shipped"}'),
    ).toBe(true);
    expect(order!.functionCalls).toMatchObject([
      { name: "lookup_order", arguments: { order_id: "42", verbose: false }, result: { status: "shipped" } },
    ]);
    expect(order!.checks.every((check) => check.passed)).toBe(true);
    expect(order!.turnLatencies).toHaveLength(2);
    expect(order!.endedBy).toBe("customer");
    // The stubbed function never reached the owner's webhook.
    expect(webhookHits).toBe(0);

    // Fails for its reason: the assistant talked of refunds; the other check held.
    expect(refund!.status).toBe("failed");
    expect(refund!.transcript[1]!.content).toBe("You can get a refund within 30 days.");
    expect(refund!.checks).toEqual([
      {
        kind: "transcript_excludes",
        passed: false,
        detail: "found in: You can get a refund within 30 days.",
      },
      { kind: "function_not_called", passed: true, detail: "not called" },
    ]);

    expect(persona!.status).toBe("failed");
    expect(persona!.transcript.map((line) => line.role)).toEqual([
      "customer",
      "assistant",
      "customer",
      "assistant",
    ]);
    expect(persona!.transcript[2]!.content).toBe("Thanks, that is all.");
    expect(persona!.endedBy).toBe("customer");
    expect(persona!.judge).toEqual([
      { criterion: "The assistant greets the customer", passed: true, reasoning: "It said hello." },
      { criterion: "The assistant offers a discount", passed: false, reasoning: "No discount was offered." },
    ]);
    // The judge asked through a strict JSON schema, with the numbered criteria and the transcript.
    const judgeRequest = fake.chatRequests.find(isJudge)!;
    expect(judgeRequest.response_format).toMatchObject({
      type: "json_schema",
      json_schema: { strict: true },
    });
    expect(judgeRequest.messages.at(-1)!.content).toContain("2. The assistant offers a discount");
    expect(judgeRequest.messages.at(-1)!.content).toContain("Customer: Thanks, that is all.");

    // Progress arrived by subscription, up to the final state.
    expect(seen.at(-1)).toEqual({ status: "failed", done: 3 });
    expect(seen.some((update) => update.status === "running")).toBe(true);

    // Test runs are free: no ledger entry, the balance untouched; the cost is what the replies would have been.
    expect(await t.app.db.prisma.ledgerEntry.count({ where: { accountId: owner.accountId } })).toBe(
      ledgerBefore,
    );
    const account = await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } });
    expect(account.balance.toFixed(2)).toBe("5.00");
    expect(Number(run.cost)).toBeCloseTo(5 * Number(t.app.config.pricing.replyPrice), 6);
    // Nor any conversation: test exchanges live in the results only.
    expect(await t.app.db.prisma.conversation.count({ where: { accountId: owner.accountId } })).toBe(0);
  }, 60_000);

  it("compares two runs: a changed prompt (a run's override) changes one verdict", async () => {
    const { run } = await runToEnd(suiteId, { overrides: { systemPrompt: CAREFUL } });
    expect(run.results[1]!.transcript[1]!.content).toBe("Let me pass this to a colleague.");
    const compared = await gql<{
      compareTestRuns: {
        unchanged: number;
        changed: {
          scenarioName: string;
          before: { status: string } | null;
          after: { status: string } | null;
        }[];
      };
    }>(
      "query ($a: Int!, $b: Int!) { compareTestRuns(a: $a, b: $b) { unchanged changed { scenarioName before { status } after { status } } } }",
      { a: firstRunId, b: run.id },
    );
    expect(compared.errors).toBeUndefined();
    expect(compared.data!.compareTestRuns).toEqual({
      unchanged: 2,
      changed: [
        { scenarioName: "Refund question", before: { status: "failed" }, after: { status: "passed" } },
      ],
    });
    const runs = await gql<{ testRuns: { id: number }[] }>(
      "query ($id: Int!) { testRuns(suiteId: $id) { id } }",
      {
        id: suiteId,
      },
    );
    expect(runs.data!.testRuns.map((listed) => listed.id)).toEqual([run.id, firstRunId]);
  }, 60_000);

  it("keeps limits and ownership: suite size, concurrency, turns, another account's suite", async () => {
    const tooMany = await gql(
      "mutation ($input: TestSuiteInput!) { createTestSuite(input: $input) { id } }",
      {
        input: { name: "Big", scenarioIds: Array.from({ length: 51 }, (_, index) => index + 1) },
      },
    );
    expect(tooMany.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const concurrency = await gql("mutation { runTestSuite(suiteId: 1, concurrency: 5) { id } }");
    expect(concurrency.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const turns = await gql(
      "mutation ($input: CreateTestScenarioInput!) { createTestScenario(input: $input) { id } }",
      { input: { assistantId, name: "Long", persona: "Anyone", turnLimit: 31 } },
    );
    expect(turns.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const both = await gql(
      "mutation ($input: CreateTestScenarioInput!) { createTestScenario(input: $input) { id } }",
      { input: { assistantId, name: "Both", persona: "Anyone", script: ["Hi"] } },
    );
    expect(both.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const badCheck = await gql(
      "mutation ($input: CreateTestScenarioInput!) { createTestScenario(input: $input) { id } }",
      { input: { assistantId, name: "Bad", script: ["Hi"], checks: [{ kind: "mood_is", value: "good" }] } },
    );
    expect(badCheck.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const stranger = await t.createAccount();
    const foreign = await gql(
      "mutation ($id: Int!) { runTestSuite(suiteId: $id) { id } }",
      { id: suiteId },
      stranger.apiKey,
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const peek = await gql(
      "query ($id: Int!) { testRun(id: $id) { id } }",
      { id: firstRunId },
      stranger.apiKey,
    );
    expect(peek.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});

describe("agent tests from real traffic", () => {
  it("a recorded simulated call becomes a scenario whose replay says its customer's lines again and shows where answers diverge", async () => {
    const caller = await t.createAccount({ balance: "10" });
    const phoneNumberId = (await telephonyFixtures(t).addNumber(caller)).id;
    const assistant = await createAssistant(t, caller, {
      phoneNumberId,
      systemPrompt: "You sell solar panels.",
    });
    const ended = new Promise<Call>((resolve) =>
      t.app.services.bus.on("call.finished", async ({ call }) => {
        if (call.assistantId === assistant.id) resolve(call);
      }),
    );
    await t.app.services.callStarts.placeOutbound({
      accountId: caller.accountId,
      assistantId: assistant.id,
      to: "+14155550100",
    });
    const call = await ended;
    const recorded = parseTranscript(call.transcript);
    const customerLines = recorded.filter((line) => line.speaker === "customer").map((line) => line.text);
    expect(customerLines).toEqual(["Caller line 0", "Caller line 1", "Caller line 2"]);

    const made = await gql<{
      createTestScenarioFromCall: {
        id: number;
        script: string[];
        expectedReplies: string[];
        sourceCallId: number;
      };
    }>(
      "mutation ($id: Int!) { createTestScenarioFromCall(callId: $id) { id script expectedReplies sourceCallId } }",
      { id: call.id },
      caller.apiKey,
    );
    expect(made.errors).toBeUndefined();
    const scenario = made.data!.createTestScenarioFromCall;
    expect(scenario.script).toEqual(customerLines);
    expect(scenario.sourceCallId).toBe(call.id);
    // What the assistant answered to each line on the call (its greeting answered nothing).
    const answers = recorded
      .slice(1)
      .filter((line) => line.speaker === "assistant")
      .map((line) => line.text);
    expect(scenario.expectedReplies).toEqual(answers);

    const suiteMade = await gql<{ createTestSuite: { id: number } }>(
      "mutation ($input: TestSuiteInput!) { createTestSuite(input: $input) { id } }",
      { input: { name: "Replays", scenarioIds: [scenario.id] } },
      caller.apiKey,
    );
    const { run } = await runToEnd(suiteMade.data!.createTestSuite.id, {}, caller.apiKey);
    const [replayed] = run.results;
    expect(replayed!.status).toBe("passed");
    expect(
      replayed!.transcript.filter((line) => line.role === "customer").map((line) => line.content),
    ).toEqual(customerLines);
    // On chat the stand-in answers "Happy to help with: ..." where the call heard other words.
    expect(replayed!.divergences.map((divergence) => divergence.turn)).toEqual([1, 2, 3]);
    expect(replayed!.divergences[0]).toEqual({
      turn: 1,
      expected: answers[0],
      actual: "Happy to help with: Caller line 0",
    });
    expect(answers[0]).toBe("On the phone: Caller line 0");
  }, 60_000);

  it("a conversation becomes a scripted scenario: its customer's messages, its assistant's answers expected", async () => {
    const started = await gql<{ startTestConversation: { id: string } }>(
      "mutation ($id: Int!) { startTestConversation(input: { assistantId: $id }) { id } }",
      { id: assistantId },
    );
    const conversationId = started.data!.startTestConversation.id;
    for (const message of ["Hello there", "Can I get a refund?"]) {
      const sent = await gql(
        "mutation ($id: ID!, $message: String!) { sendTestMessage(input: { conversationId: $id, message: $message }) { reply } }",
        { id: conversationId, message },
      );
      expect(sent.errors).toBeUndefined();
    }
    const made = await gql<{
      createTestScenarioFromConversation: {
        script: string[];
        expectedReplies: string[];
        sourceConversationId: string;
      };
    }>(
      "mutation ($id: String!) { createTestScenarioFromConversation(conversationId: $id) { script expectedReplies sourceConversationId } }",
      { id: conversationId },
    );
    expect(made.errors).toBeUndefined();
    expect(made.data!.createTestScenarioFromConversation).toEqual({
      script: ["Hello there", "Can I get a refund?"],
      expectedReplies: ["Happy to help with: Hello there", "You can get a refund within 30 days."],
      sourceConversationId: conversationId,
    });
    const missing = await gql(
      'mutation { createTestScenarioFromConversation(conversationId: "not-a-uuid") { id } }',
    );
    expect(missing.errors?.[0]?.extensions?.code).toBe("CONVERSATION_NOT_FOUND");
  });
});
