import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type RunView, readRun, runEnded } from "../../../test/fixtures/test-runs.ts";
import {
  type FakeChatReply,
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../test/support/fake-openai.ts";
import { startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Call } from "../../generated/prisma/client.ts";
import { TEST_CALLER_NUMBER } from "../calls/index.ts";

const lastText = (request: RecordedChatRequest) => String(request.messages.at(-1)?.content ?? "");
const offers = (request: RecordedChatRequest, name: string) =>
  request.tools?.some((tool) => tool.function.name === name) ?? false;
const isPersona = (request: RecordedChatRequest) =>
  request.messages[0]?.content?.includes("called a business and reached its AI assistant on the phone") ??
  false;

/**
 * The stand-in assistant on the phone: looks orders up, texts a confirmation, transfers to a
 * person and hangs up when the caller says goodbye. The persona caller asks once, then is done.
 */
function answer(request: RecordedChatRequest): FakeChatReply {
  if (isPersona(request)) {
    const turn = request.messages.filter((message) => message.role === "assistant").length;
    return { content: turn === 0 ? "Hi, is order 42 on its way?" : "Great, thanks. Bye! [DONE]" };
  }
  const last = request.messages.at(-1)!;
  if (last.role === "tool") {
    const said = String(request.messages.filter((message) => message.role === "user").at(-1)?.content ?? "");
    if (/goodbye/i.test(said)) return { content: "Goodbye!" };
    if (/person/i.test(said)) return { content: "Connecting you now." };
    if (/text me/i.test(said)) return { content: "Done." };
    return { content: `Your order status: ${last.content}` };
  }
  const text = lastText(request);
  if (/order 42/i.test(text) && offers(request, "lookup_order"))
    return { toolCalls: [{ name: "lookup_order", arguments: { order_id: "42" } }] };
  if (/text me/i.test(text) && offers(request, "send_sms"))
    return { toolCalls: [{ name: "send_sms", arguments: { message: "Your order 42 has shipped." } }] };
  if (/person/i.test(text) && offers(request, "transfer_call"))
    return { toolCalls: [{ name: "transfer_call", arguments: { destination_id: destinationId } }] };
  if (/goodbye/i.test(text)) return { toolCalls: [{ name: "end_call", arguments: {} }] };
  return { content: `Happy to help with: ${text}` };
}

let t: TestApp;
let fake: FakeOpenAI;
let owner: TestAccount;
let assistantId: number;
let destinationId = 0;
let webhookHits = 0;
let webhook: Server;

async function scenario(input: Record<string, unknown>): Promise<number> {
  const created = await t.gql<{ createTestScenario: { id: number; channel: string } }>(
    "mutation ($input: CreateTestScenarioInput!) { createTestScenario(input: $input) { id channel } }",
    { input: { assistantId, channel: "phone", ...input } },
    { token: owner.apiKey },
  );
  expect(created.errors).toBeUndefined();
  expect(created.data!.createTestScenario.channel).toBe("phone");
  return created.data!.createTestScenario.id;
}

/** Runs a suite of `scenarioIds` to its end (the run's job plays it) and reads the run. */
async function run(scenarioIds: number[]): Promise<RunView> {
  const suite = await t.app.services.testScenarios.createSuite(owner.accountId, {
    name: "Phone",
    scenarioIds,
  });
  const started = await t.app.services.testRuns.runSuite(owner.accountId, suite.id, {});
  await runEnded(t, owner.accountId, started.id);
  return readRun(t, started.id, owner.apiKey);
}

const money = async () => ({
  balance: (
    await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } })
  ).balance.toString(),
  ledger: await t.app.db.prisma.ledgerEntry.count({ where: { accountId: owner.accountId } }),
});

beforeAll(async () => {
  webhook = createServer((_request, response) => {
    webhookHits++;
    response.end("{}");
  });
  await new Promise<void>((resolve) => webhook.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}`;
  fake = await startFakeOpenAI();
  fake.respondWith(answer);
  t = await startTestApp({ model: fake, env: { VOXGATE_CALL_CLOCK_SPEED: "20" } });
  owner = await t.createAccount({ balance: "5" });
  const number = await telephonyFixtures(t).addNumber(owner);
  const assistant = await createAssistant(t, owner, {
    phoneNumberId: number.id,
    systemPrompt: "You are the front desk of Acme Shop.",
    // Outgoing webhooks on: a real call of this assistant sends call.started and call.ended here.
    webhookUrl: `${url}/events`,
    isWebhookActive: true,
    tools: [
      {
        name: "lookup_order",
        description: "Looks an order up",
        parameters: { type: "object", properties: { order_id: { type: "string" } } },
        url: `${url}/orders`,
        method: "POST",
      },
    ],
  });
  assistantId = assistant.id;
  destinationId = (
    await t.app.services.transferDestinations.create(owner.accountId, {
      assistantId,
      name: "Front desk",
      description: "Questions a person must answer.",
      phoneNumber: uniqueUsNumber(),
    })
  ).id;
}, 60_000);

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await new Promise((resolve) => webhook?.close(resolve));
});

describe("agent tests on the phone channel", () => {
  let passedCall: number;

  it("a scripted caller talks with the real voice engine on a test call: the scenario passes on its checks, nothing is charged or sent", async () => {
    const before = await money();
    const passing = await scenario({
      name: "Order status by phone",
      // The last line is never said: the assistant hangs up on the goodbye before it.
      script: ["Where is my order 42?", "Please text me the status.", "Thanks, goodbye.", "Hello?"],
      toolResults: { lookup_order: { status: "shipped" } },
      checks: [
        { kind: "function_called", name: "lookup_order", arguments: { order_id: "42" } },
        { kind: "function_called", name: "send_sms" },
        { kind: "transcript_contains", phrase: "shipped" },
        { kind: "transcript_contains", phrase: "Hello! How can I help?" },
        { kind: "ended_by", by: "assistant" },
        { kind: "latency_under", ms: 600_000 },
      ],
    });
    const result = await run([passing]);
    expect(result.status).toBe("passed");
    const [played] = result.results;
    expect(played!.checks.filter((check) => !check.passed)).toEqual([]);
    expect(played!.endedBy).toBe("assistant");
    // The call's turns: the greeting, then each scripted line and its answer.
    expect(played!.transcript.map((entry) => [entry.role, entry.content])).toEqual([
      ["assistant", "Hello! How can I help?"],
      ["customer", "Where is my order 42?"],
      ["assistant", 'Your order status: {"status":"shipped"}'],
      ["customer", "Please text me the status."],
      ["assistant", "Done."],
      ["customer", "Thanks, goodbye."],
      ["assistant", "Goodbye!"],
    ]);
    // A latency per answer (from the caller's end of turn), none for the greeting.
    expect(played!.turnLatencies).toHaveLength(3);
    expect(played!.transcript[0]!.latencyMs).toBeNull();
    // Functions were the scenario's stubs: no order lookup reached the tool's server, no text was sent.
    expect(played!.functionCalls.map((call) => [call.name, call.result])).toEqual([
      ["lookup_order", { status: "shipped" }],
      ["send_sms", { ok: true }],
    ]);
    expect(await t.app.db.prisma.textMessage.count({ where: { accountId: owner.accountId } })).toBe(0);

    // The test call: recorded, carried by the simulation, ended by the assistant, never charged.
    passedCall = played!.callId!;
    const call = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: passedCall } });
    expect(call).toMatchObject({
      test: true,
      type: "inbound",
      status: "ended_by_assistant",
      providerName: "simulated",
      clientPhoneNumber: TEST_CALLER_NUMBER,
    });
    expect(call.totalCost.toString()).toBe("0");
    expect(await money()).toEqual(before);
    // What it would have cost: its minutes at the per-minute price (shown, not charged).
    expect(Number(played!.cost)).toBeGreaterThan(0);
    expect(played!.cost).toBe(result.cost);
    // No webhook event was recorded for the call, so none could be delivered; nothing reached the server.
    expect(await t.app.db.prisma.webhookEvent.count({ where: { callId: passedCall } })).toBe(0);
    expect(await t.app.db.prisma.webhookEvent.count({ where: { accountId: owner.accountId } })).toBe(0);
    expect(webhookHits).toBe(0);
  }, 120_000);

  it("test calls are left out of the calls list unless asked for, and read by id from the run's result", async () => {
    const list = async (filter: Record<string, unknown>) =>
      (
        await t.gql<{ calls: { pageInfo: { total: number }; items: { id: number; test: boolean }[] } }>(
          "query ($filter: CallFilter) { calls(filter: $filter) { pageInfo { total } items { id test } } }",
          { filter },
          { token: owner.apiKey },
        )
      ).data!.calls;
    expect(await list({})).toEqual({ pageInfo: { total: 0 }, items: [] });
    const withTests = await list({ includeTests: true });
    expect(withTests.items.map((call) => call.id)).toContain(passedCall);
    expect(withTests.items.every((call) => call.test)).toBe(true);
    const read = await t.gql<{ call: { id: number; test: boolean; status: string } }>(
      "query ($id: Int!) { call(id: $id) { id test status } }",
      { id: passedCall },
      { token: owner.apiKey },
    );
    expect(read.data!.call).toEqual({ id: passedCall, test: true, status: "ended_by_assistant" });
  });

  it("fails for the right reasons: a function it must not call, a phrase it never said, how the call ended", async () => {
    const failing = await scenario({
      name: "Never looks orders up",
      script: ["Where is my order 42?"],
      checks: [
        { kind: "function_not_called", name: "lookup_order" },
        { kind: "transcript_contains", phrase: "refund" },
        { kind: "ended_by", by: "assistant" },
        { kind: "transcript_contains", phrase: "Your order status" },
      ],
    });
    const result = await run([failing]);
    expect(result.status).toBe("failed");
    const [played] = result.results;
    expect(played!.status).toBe("failed");
    // The caller said its only line, heard the answer and hung up.
    expect(played!.endedBy).toBe("customer");
    expect(played!.checks.map((check) => [check.kind, check.passed, check.detail])).toEqual([
      ["function_not_called", false, "called 1 time(s)"],
      ["transcript_contains", false, "not found"],
      ["ended_by", false, "ended by customer"],
      ["transcript_contains", true, 'found in: Your order status: {"ok":true}'],
    ]);
    const call = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: played!.callId! } });
    expect(call.status).toBe("ended_by_customer");
  }, 120_000);

  it("a transfer is stubbed: the scenario ends transferred and nobody is dialled", async () => {
    const before = await money();
    const transferring = await scenario({
      name: "Asks for a person",
      script: ["Can I speak to a person?", "Hello?"],
      checks: [
        { kind: "ended_by", by: "transferred" },
        { kind: "function_called", name: "transfer_call", arguments: { destination_id: destinationId } },
      ],
    });
    const result = await run([transferring]);
    expect(result.results[0]!.checks.filter((check) => !check.passed)).toEqual([]);
    expect(result.status).toBe("passed");
    // The assistant's part ended after its handover sentence; no leg was recorded (nothing dialled).
    const callId = result.results[0]!.callId!;
    expect(result.results[0]!.transcript.at(-1)).toMatchObject({ content: "Connecting you now." });
    expect(await t.app.db.prisma.call.count({ where: { transferredFromCallId: callId } })).toBe(0);
    expect(await money()).toEqual(before);
  }, 120_000);

  it("a persona caller (the fake model) talks until it is done", async () => {
    const persona = await scenario({
      name: "Persona asks about an order",
      persona: "A customer who ordered a lamp.",
      goal: "Know whether order 42 has shipped.",
      toolResults: { lookup_order: { status: "shipped" } },
      checks: [
        { kind: "ended_by", by: "customer" },
        { kind: "transcript_contains", phrase: "shipped" },
      ],
    });
    const result = await run([persona]);
    expect(result.status).toBe("passed");
    const customerLines = result.results[0]!.transcript.filter((entry) => entry.role === "customer").map(
      (entry) => entry.content,
    );
    // The marker that ends the persona's conversation is not said.
    expect(customerLines).toEqual(["Hi, is order 42 on its way?", "Great, thanks. Bye!"]);
  }, 120_000);

  it("control: a real simulated call of the same assistant sends its webhooks and is listed", async () => {
    const number = await t.app.db.prisma.phoneNumber.findFirstOrThrow({
      where: { accountId: owner.accountId },
    });
    const finished = new Promise<Call>((resolve) =>
      t.app.services.bus.on("call.finished", async ({ call }) => {
        if (!call.test) resolve(call);
      }),
    );
    await t.app.services.inboundCalls.simulateInbound(owner.accountId, {
      phoneNumberId: number.id,
      from: uniqueUsNumber(),
    });
    const call = await finished;
    expect(call.test).toBe(false);
    expect(await t.app.db.prisma.webhookEvent.count({ where: { callId: call.id } })).toBeGreaterThan(0);
    const listed = await t.gql<{ calls: { pageInfo: { total: number } } }>(
      "{ calls { pageInfo { total } } }",
      {},
      { token: owner.apiKey },
    );
    expect(listed.data!.calls.pageInfo.total).toBe(1);
  }, 120_000);
});

describe("phone scenarios beside a real carrier", () => {
  // With a real carrier the clock runs at real speed (env.ts): this call takes a few real seconds.
  it("a deployment on Twilio still carries test calls on the simulation: Twilio is never asked to dial", async () => {
    const twilio = await startFakeTwilio();
    const app = await startTestApp({
      model: fake,
      env: {
        VOXGATE_TELEPHONY: "twilio",
        TWILIO_ACCOUNT_SID: twilio.accountSid,
        TWILIO_AUTH_TOKEN: twilio.authToken,
        TWILIO_API_BASE_URL: twilio.baseUrl,
      },
    });
    try {
      const account = await app.createAccount({ balance: "5" });
      // A number bought from Twilio: the assistant's real calls would go through it.
      const number = await telephonyFixtures(app).addNumber(account);
      const assistant = await createAssistant(app, account, { phoneNumberId: number.id });
      const scenarios = app.app.services.testScenarios;
      const scenario = await scenarios.create(account.accountId, {
        assistantId: assistant.id,
        name: "Greets back by phone",
        channel: "phone",
        script: ["Anyone there?"],
        checks: [{ kind: "transcript_contains", phrase: "Happy to help with: Anyone there?" }],
      });
      const asked = twilio.requests.length;
      const suite = await scenarios.createSuite(account.accountId, {
        name: "On Twilio",
        scenarioIds: [scenario.id],
      });
      const started = await app.app.services.testRuns.runSuite(account.accountId, suite.id, {});
      const run = await runEnded(app, account.accountId, started.id);
      expect(run.status).toBe("passed");
      const [result] = await app.app.services.testRuns.results(started.id);
      const call = await app.app.db.prisma.call.findUniqueOrThrow({ where: { id: result!.callId! } });
      expect(call).toMatchObject({ test: true, providerName: "simulated" });
      expect(twilio.requests.slice(asked)).toEqual([]);
    } finally {
      await app.close();
      await twilio.close();
    }
  }, 120_000);
});
