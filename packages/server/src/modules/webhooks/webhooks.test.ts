import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createKnowledgebase, gqlUpload, waitForDocument } from "../../../test/fixtures/knowledge.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import { startWebhookServer } from "../../../test/fixtures/webhooks.ts";
import {
  freshDatabase,
  ManualClock,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import type { DatabaseTarget } from "../../db/client.ts";

/** Local receivers are allowed through the SSRF guard; retries come after milliseconds, not minutes. */
const ENV = {
  VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
  VOXGATE_WEBHOOK_RETRY_BASE_MS: "20",
  VOXGATE_WEBHOOK_RETRY_MAX_DELAY_MS: "3000",
  VOXGATE_TEST_WEBHOOK_RATE_LIMIT_PER_MINUTE: "3",
  VOXGATE_EVALUATION_RATE_LIMIT_PER_MINUTE: "2",
  // Long enough that an endpoint that never answers holds its attempt for the whole test.
  VOXGATE_WEBHOOK_TIMEOUT_MS: "60000",
};
/** The machine running the tests may be busy: deliveries are waited for generously. */
const PATIENT = { timeout: 20_000, interval: 50 };
const SEND_TEST = "mutation ($url: String) { sendTestWebhook(url: $url) { id webhookId } }";

const ROTATE = `mutation ($overlap: Int) { rotateWebhookSecret(overlapSeconds: $overlap) { secret previousExpiresAt } }`;
const DELIVERIES = `query ($filter: WebhookDeliveryFilter) {
  webhookDeliveries(filter: $filter) { items { id webhookId type status attempts attemptLog { attempt statusCode error } } }
}`;

type Delivery = {
  id: number;
  webhookId: string;
  type: string;
  status: string;
  attempts: number;
  attemptLog: { attempt: number; statusCode: number | null; error: string | null }[];
};

const headersOf = (headers: Record<string, unknown>) => headers as Record<string, string>;

/** A web call (started: its call.started is recorded) of a new assistant sending its events to `url`. */
async function hookedWebCall(t: TestApp, owner: TestAccount, url: string) {
  const assistant = await t.app.services.assistants.create(owner, {
    name: "Hooked",
    isWebhookActive: true,
    webhookUrl: url,
  });
  return t.app.services.callStarts.start(owner.accountId, { assistantId: assistant.id, type: "web" });
}

describe("webhooks", () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let owner: TestAccount;
  let secret: string;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    [t, receiver] = await Promise.all([startTestApp({ env: ENV, clock }), startWebhookReceiver()]);
    owner = await t.createAccount();
    const rotated = await t.gql<{ rotateWebhookSecret: { secret: string } }>(
      ROTATE,
      { overlap: 0 },
      { token: owner.apiKey },
    );
    secret = rotated.data!.rotateWebhookSecret.secret;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  async function deliveries(filter: Record<string, unknown>, token = owner.apiKey) {
    const response = await t.gql<{ webhookDeliveries: { items: Delivery[] } }>(
      DELIVERIES,
      { filter },
      { token },
    );
    return response.data!.webhookDeliveries.items;
  }

  it("signs call events, retries a failing endpoint, keeps them in order and logs every attempt", async () => {
    const assistant = await t.app.services.assistants.create(owner, {
      name: "Hooked",
      isWebhookActive: true,
      webhookUrl: receiver.url,
      includeRecordingInWebhook: true,
    });
    // The first two attempts of call.started fail: call.ended must wait behind it.
    receiver.respondWith((request, attempt) =>
      request.json.type === "call.started" && attempt <= 2
        ? { status: 503, body: "busy" }
        : { status: 200, body: '{"received":true}' },
    );
    const call = await t.app.services.callStarts.start(owner.accountId, {
      assistantId: assistant.id,
      type: "web",
    });
    await t.app.services.callLifecycle.transition(call.id, "in-progress");
    await t.app.services.callLifecycle.transition(call.id, "completed");
    await receiver.waitFor((request) => request.json.type === "call.ended");

    const mine = receiver.received.filter((request) => request.json.data.id === call.id);
    expect(mine.map((request) => request.json.type)).toEqual([
      "call.started",
      "call.started",
      "call.started",
      "call.ended",
    ]);
    expect(new Set(mine.slice(0, 3).map((request) => request.id)).size).toBe(1);
    // An independent implementation of the specification verifies every request.
    const verifier = new Webhook(secret);
    for (const request of mine)
      expect(verifier.verify(request.body, headersOf(request.headers))).toEqual(request.json);
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 7).toString("base64")}`).verify(
        mine[0]!.body,
        headersOf(mine[0]!.headers),
      ),
    ).toThrow();
    const ended = mine[3]!.json.data;
    expect(ended).toMatchObject({
      id: call.id,
      status: "completed",
      assistant_id: assistant.id,
      recording_url: null,
    });

    await vi.waitFor(async () => {
      const log = await deliveries({ callId: call.id });
      expect(log.map((delivery) => [delivery.type, delivery.status])).toEqual([
        ["call.ended", "delivered"],
        ["call.started", "delivered"],
      ]);
      expect(log[1]!.attemptLog.map((attempt) => attempt.statusCode)).toEqual([503, 503, 200]);
    }, PATIENT);
    const stored = await t.gql<{ call: { webhookResponse: Record<string, unknown> } }>(
      "query ($id: Int!) { call(id: $id) { webhookResponse } }",
      { id: call.id },
      { token: owner.apiKey },
    );
    expect(stored.data!.call.webhookResponse).toMatchObject({
      status: "delivered",
      status_code: 200,
      data: { received: true },
      webhook_id: mine[3]!.id,
    });
    // Another account sees none of it.
    const stranger = await t.createAccount();
    expect(await deliveries({ callId: call.id }, stranger.apiKey)).toEqual([]);
  });

  it("sends call events only for completed calls when asked, and nothing while webhooks are off", async () => {
    const completedOnly = await t.app.services.assistants.create(owner, {
      name: "Completed only",
      isWebhookActive: true,
      webhookUrl: receiver.url,
      sendWebhookOnlyOnCompleted: true,
    });
    const off = await t.app.services.assistants.create(owner, {
      name: "Off",
      isWebhookActive: false,
      webhookUrl: receiver.url,
    });
    const completed = await t.app.services.callStarts.start(owner.accountId, {
      assistantId: completedOnly.id,
      type: "web",
    });
    await t.app.services.callLifecycle.transition(completed.id, "in-progress");
    await t.app.services.callLifecycle.transition(completed.id, "completed");
    const failed = await t.app.services.callStarts.start(owner.accountId, {
      assistantId: completedOnly.id,
      type: "web",
    });
    await t.app.services.callLifecycle.transition(failed.id, "failed");
    const silent = await t.app.services.callStarts.start(owner.accountId, {
      assistantId: off.id,
      type: "web",
    });
    await t.app.services.callLifecycle.transition(silent.id, "in-progress");
    await t.app.services.callLifecycle.transition(silent.id, "completed");
    // Events are recorded with the transitions (the outbox): what is not there now is never sent.
    const recorded = await t.app.db.prisma.webhookEvent.findMany({
      where: { callId: { in: [completed.id, failed.id, silent.id] } },
      select: { callId: true, type: true },
    });
    expect(recorded).toEqual([{ callId: completed.id, type: "call.ended" }]);
    await receiver.waitFor(
      (request) => request.json.type === "call.ended" && request.json.data.id === completed.id,
    );
  });

  it("keeps an account's dead endpoint to its share of deliveries; other accounts' go out meanwhile", async () => {
    const dead = await startWebhookServer(() => ({ body: "", delayMs: 600_000 }));
    try {
      const stuck = await t.createAccount();
      const assistant = await t.app.services.assistants.create(stuck, {
        name: "Dead end",
        isWebhookActive: true,
        webhookUrl: dead.url,
      });
      // Five streams of the account, one event each: four in flight (VOXGATE_WEBHOOK_ACCOUNT_CONCURRENCY).
      for (let n = 0; n < 5; n++)
        await t.app.services.callStarts.start(stuck.accountId, { assistantId: assistant.id, type: "web" });
      await vi.waitFor(() => expect(dead.calls).toHaveLength(4), PATIENT);
      const other = await t.createAccount();
      const sent = await t.gql<{ sendTestWebhook: { webhookId: string } }>(
        SEND_TEST,
        { url: receiver.url },
        { token: other.apiKey },
      );
      await receiver.waitFor((request) => request.id === sent.data!.sendTestWebhook.webhookId);
      // None of the four has been answered (nor timed out, VOXGATE_WEBHOOK_TIMEOUT_MS): the fifth waits.
      expect(dead.calls).toHaveLength(4);
    } finally {
      await dead.close();
    }
  });

  it("does not retry a 4xx other than 408 and 429, and redelivers on demand with the same id", async () => {
    receiver.respondWith((request, attempt) =>
      request.json.type === "webhook.test" && attempt === 1 ? { status: 400, body: "no" } : { status: 204 },
    );
    const sent = await t.gql<{ sendTestWebhook: { id: number; webhookId: string } }>(
      "mutation ($url: String) { sendTestWebhook(url: $url) { id webhookId } }",
      { url: receiver.url },
      { token: owner.apiKey },
    );
    const { id, webhookId } = sent.data!.sendTestWebhook;
    await vi.waitFor(async () => {
      const [failed] = (await deliveries({ type: "webhook.test" })).filter((delivery) => delivery.id === id);
      expect(failed).toMatchObject({ status: "failed", attempts: 1 });
    }, PATIENT);
    const again = await t.gql(
      "mutation ($id: Int!) { redeliverWebhook(id: $id) { status } }",
      { id },
      { token: owner.apiKey },
    );
    expect(again.errors).toBeUndefined();
    await vi.waitFor(async () => {
      const [delivered] = (await deliveries({ type: "webhook.test" })).filter(
        (delivery) => delivery.id === id,
      );
      expect(delivered).toMatchObject({ status: "delivered" });
    }, PATIENT);
    expect(receiver.received.filter((request) => request.id === webhookId)).toHaveLength(2);
    const stranger = await t.createAccount();
    const foreign = await t.gql(
      "mutation ($id: Int!) { redeliverWebhook(id: $id) { status } }",
      { id },
      { token: stranger.apiKey },
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("refuses endpoints on private networks (SSRF guard) without retrying", async () => {
    // The allow-list names 127.0.0.1 only: a private address is refused before connecting.
    const sent = await t.gql<{ sendTestWebhook: { id: number } }>(
      'mutation { sendTestWebhook(url: "http://10.255.255.1/hooks") { id } }',
      {},
      { token: owner.apiKey },
    );
    await vi.waitFor(async () => {
      const [refused] = (await deliveries({ type: "webhook.test" })).filter(
        (delivery) => delivery.id === sent.data!.sendTestWebhook.id,
      );
      expect(refused).toMatchObject({ status: "failed", attempts: 1 });
      expect(refused!.attemptLog[0]!.error).toContain("not allowed");
    }, PATIENT);
  });

  it("asks the inbound webhook for a call's variables before answering, and falls back to the defaults", async () => {
    const number = await telephonyFixtures(t).addNumber(owner);
    await t.app.services.assistants.create(owner, {
      name: "Reception",
      phoneNumberId: number.id,
      inboundWebhookUrl: receiver.url,
    });
    receiver.respondWith((request) =>
      request.json.type === "call.inbound"
        ? { status: 200, body: '{"variables":{"name":"Ada"}}' }
        : { status: 200 },
    );
    const answered = await t.app.services.inboundCalls.simulateInbound(owner.accountId, {
      phoneNumberId: number.id,
      from: "+14155550123",
    });
    expect(answered.variables).toEqual({ name: "Ada" });
    const asked = await receiver.waitFor((request) => request.json.type === "call.inbound");
    expect(new Webhook(secret).verify(asked.body, headersOf(asked.headers))).toMatchObject({
      data: { from: "+14155550123", to: number.phoneNumber, phone_number_id: number.id },
    });
    await t.app.services.callLifecycle.end(owner.accountId, answered.id);
    receiver.respondWith(() => ({ status: 500 }));
    const fallback = await t.app.services.inboundCalls.simulateInbound(owner.accountId, {
      phoneNumberId: number.id,
      from: "+14155550124",
    });
    expect(fallback).toMatchObject({ status: "in_progress", variables: {} });
    await t.app.services.callLifecycle.end(owner.accountId, fallback.id);
  });

  it("signs with both secrets during a rotation's overlap", async () => {
    const rotated = await t.gql<{ rotateWebhookSecret: { secret: string; previousExpiresAt: string } }>(
      ROTATE,
      { overlap: 3600 },
      { token: owner.apiKey },
    );
    const next = rotated.data!.rotateWebhookSecret.secret;
    expect(rotated.data!.rotateWebhookSecret.previousExpiresAt).not.toBeNull();
    receiver.respondWith(() => ({ status: 200 }));
    const sent = await t.gql<{ sendTestWebhook: { webhookId: string } }>(
      "mutation ($url: String) { sendTestWebhook(url: $url) { webhookId } }",
      { url: receiver.url },
      { token: owner.apiKey },
    );
    const request = await receiver.waitFor((r) => r.id === sent.data!.sendTestWebhook.webhookId);
    for (const key of [secret, next])
      expect(new Webhook(key).verify(request.body, headersOf(request.headers))).toEqual(request.json);
    secret = next;
  });

  it("records an event only with the change that raises it (the outbox)", async () => {
    const prisma = t.app.db.prisma;
    const webhooks = t.app.services.webhooks;
    const call = await hookedWebCall(t, owner, receiver.url);
    await receiver.waitFor(
      (request) => request.json.type === "call.started" && request.json.data.id === call.id,
    );
    const ended = { type: "call.evaluated" as const, call: { ...call, evaluationStatus: "done" } };
    // A change that fails after its event was recorded takes the event with it.
    await expect(
      prisma.$transaction(async (tx) => {
        await webhooks.emit(tx, ended);
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await prisma.webhookEvent.count({ where: { callId: call.id, type: "call.evaluated" } })).toBe(0);
    // The same change committed: recorded and delivered.
    await prisma.$transaction((tx) => webhooks.emit(tx, ended));
    await receiver.waitFor(
      (request) => request.json.type === "call.evaluated" && request.json.data.id === call.id,
    );
    expect(await prisma.webhookEvent.count({ where: { callId: call.id, type: "call.evaluated" } })).toBe(1);
  });

  it("delivers conversation.message for customer and operator messages, signed", async () => {
    const assistant = await t.app.services.assistants.create(owner, {
      name: "Chatty",
      isWebhookActive: true,
      webhookUrl: receiver.url,
    });
    const conversations = t.app.services.conversations;
    const conversation = await conversations.startTest(owner.accountId, { assistantId: assistant.id });
    await conversations.setAiDisabled(owner.accountId, conversation.id, true);
    await conversations.sendTestMessage(owner.accountId, {
      conversationId: conversation.id,
      message: "Hi there",
    });
    const operator = await conversations.sendOperatorMessage(owner.accountId, {
      conversationId: conversation.id,
      content: "A person here: how can I help?",
    });
    const mine = (request: { json: { type: string; data: Record<string, unknown> } }) =>
      request.json.type === "conversation.message" && request.json.data.conversation_id === conversation.id;
    await receiver.waitFor(
      (request) =>
        mine(request) &&
        request.json.data.message !== undefined &&
        (request.json.data.message as { role: string }).role === "operator",
    );
    const received = receiver.received.filter(mine);
    expect(received.map((request) => request.json.data.message)).toEqual([
      expect.objectContaining({ role: "user", content: "Hi there" }),
      {
        id: operator.id,
        role: "operator",
        content: "A person here: how can I help?",
        created_at: operator.createdAt.toISOString(),
      },
    ]);
    const verifier = new Webhook(secret);
    for (const request of received) {
      expect(verifier.verify(request.body, headersOf(request.headers))).toEqual(request.json);
      expect(request.json).toMatchObject({ data: { assistant_id: assistant.id } });
      expect(new Date(request.json.timestamp).toISOString()).toBe(request.json.timestamp);
    }
    // Webhooks off: messages are stored, no event is recorded.
    await t.app.services.assistants.update(owner.accountId, assistant.id, { isWebhookActive: false });
    await conversations.sendOperatorMessage(owner.accountId, {
      conversationId: conversation.id,
      content: "Bye",
    });
    expect(await deliveries({ type: "conversation.message" })).toHaveLength(2);
  });

  it("delivers document.status as a document is added, processed and deleted", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    await t.app.services.assistants.create(owner, {
      name: "Librarian",
      knowledgebaseId: kb,
      isWebhookActive: true,
      webhookUrl: receiver.url,
    });
    const created = await gqlUpload<{ createDocument: { id: number } }>(
      t,
      owner.apiKey,
      `mutation ($kb: Int!, $input: CreateDocumentInput!) { createDocument(knowledgebaseId: $kb, input: $input) { id } }`,
      { kb, input: { name: "Notes", type: "txt" } },
      { name: "notes.txt", content: new TextEncoder().encode("The office cat is named Biscuit.") },
    );
    const documentId = created.data!.createDocument.id;
    expect((await waitForDocument(t, owner.apiKey, documentId)).status).toBe("ACTIVE");
    await t.gql(
      "mutation ($id: Int!) { deleteDocument(id: $id) { deletedId } }",
      { id: documentId },
      {
        token: owner.apiKey,
      },
    );
    const ofDocument = (request: { json: { type: string; data: Record<string, unknown> } }) =>
      request.json.type === "document.status" && request.json.data.document_id === documentId;
    await receiver.waitFor((request) => ofDocument(request) && request.json.data.status === "deleted");
    const received = receiver.received.filter(ofDocument);
    expect(received.map((request) => request.json.data)).toEqual([
      {
        document_id: documentId,
        knowledgebase_id: kb,
        status: "processing",
        failure_reason: null,
        chunk_count: 0,
      },
      expect.objectContaining({ status: "active", failure_reason: null, chunk_count: 1 }),
      expect.objectContaining({ status: "deleted" }),
    ]);
    for (const request of received)
      expect(new Webhook(secret).verify(request.body, headersOf(request.headers))).toEqual(request.json);
  });

  it("shows the first signing secret in the answer that turns webhooks on, once", async () => {
    const newcomer = await t.createAccount();
    // A test event before any assistant has webhooks on is signed with a secret nobody was shown…
    const early = await t.gql<{ sendTestWebhook: { webhookId: string } }>(
      SEND_TEST,
      { url: receiver.url },
      {
        token: newcomer.apiKey,
      },
    );
    await receiver.waitFor((request) => request.id === early.data!.sendTestWebhook.webhookId);
    const CREATE = `mutation ($input: CreateAssistantInput!) { createAssistant(input: $input) { id webhookSigningSecret } }`;
    const input = { name: "First", isWebhookActive: true, webhookUrl: receiver.url };
    const first = await t.gql<{ createAssistant: { webhookSigningSecret: string | null } }>(
      CREATE,
      { input },
      { token: newcomer.apiKey },
    );
    // …so the first assistant with webhooks on replaces it with one its owner sees.
    const shown = first.data!.createAssistant.webhookSigningSecret;
    expect(shown).toMatch(/^whsec_/);
    const second = await t.gql<{ createAssistant: { webhookSigningSecret: string | null } }>(
      CREATE,
      { input: { ...input, name: "Second" } },
      { token: newcomer.apiKey },
    );
    expect(second.data!.createAssistant.webhookSigningSecret).toBeNull();
    const later = await t.gql<{ sendTestWebhook: { webhookId: string } }>(
      SEND_TEST,
      { url: receiver.url },
      {
        token: newcomer.apiKey,
      },
    );
    const request = await receiver.waitFor((r) => r.id === later.data!.sendTestWebhook.webhookId);
    expect(new Webhook(shown!).verify(request.body, headersOf(request.headers))).toEqual(request.json);
  });

  it("limits test events and conversation evaluations per account, with the seconds to wait", async () => {
    const busy = await t.createAccount();
    for (let n = 0; n < 3; n++) {
      const sent = await t.gql(SEND_TEST, { url: receiver.url }, { token: busy.apiKey });
      expect(sent.errors).toBeUndefined();
    }
    const refused = await t.gql(SEND_TEST, { url: receiver.url }, { token: busy.apiKey });
    expect(refused.errors?.[0]?.extensions).toMatchObject({
      code: "RATE_LIMITED",
      retryAfter: expect.any(Number),
    });
    // Another account has its own budget.
    const other = await t.createAccount();
    expect((await t.gql(SEND_TEST, { url: receiver.url }, { token: other.apiKey })).errors).toBeUndefined();

    const EVALUATE = "mutation ($id: String!) { evaluateConversation(id: $id) { evaluation } }";
    const missing = { id: "00000000-0000-4000-8000-000000000000" };
    for (let n = 0; n < 2; n++) {
      const answer = await t.gql(EVALUATE, missing, { token: busy.apiKey });
      expect(answer.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    }
    const limited = await t.gql(EVALUATE, missing, { token: busy.apiKey });
    expect(limited.errors?.[0]?.extensions).toMatchObject({
      code: "RATE_LIMITED",
      retryAfter: expect.any(Number),
    });
  });

  it("deletes finished deliveries past the retention period, and keeps those still pending", async () => {
    receiver.respondWith(() => ({ status: 503 }));
    const keeper = await t.createAccount();
    const sent = await t.gql<{ sendTestWebhook: { id: number; webhookId: string } }>(
      SEND_TEST,
      { url: receiver.url },
      { token: keeper.apiKey },
    );
    const pending = sent.data!.sendTestWebhook;
    await receiver.waitFor((request) => request.id === pending.webhookId);
    const retention = t.app.services.webhookLogRetention;
    expect((await deliveries({})).length).toBeGreaterThan(1);
    clock.advanceMinutes(29 * 24 * 60);
    expect(await retention.sweep()).toBe(0);
    clock.advanceMinutes(2 * 24 * 60);
    expect(await retention.sweep()).toBeGreaterThan(0);
    expect(await deliveries({})).toEqual([]);
    expect(
      await t.app.db.prisma.webhookAttempt.count({ where: { event: { accountId: owner.accountId } } }),
    ).toBe(0);
    const kept = await deliveries({}, keeper.apiKey);
    expect(kept.map((delivery) => [delivery.id, delivery.status])).toEqual([[pending.id, "pending"]]);
  });
});

describe("webhook delivery across restarts and instances", () => {
  it("finishes a delivery waiting for its retry, and delivers an event committed while no worker ran", async () => {
    const receiver = await startWebhookReceiver();
    const { first: firstTarget, next: target, cleanup } = await durableDatabase();
    // The first attempt asks for a second's pause: the server stops during it.
    receiver.respondWith((_request, attempt) =>
      attempt === 1 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 },
    );
    try {
      const first = await startTestApp({ env: ENV, database: firstTarget });
      const owner = await first.createAccount();
      const sent = await first.gql<{ sendTestWebhook: { webhookId: string } }>(
        "mutation ($url: String) { sendTestWebhook(url: $url) { webhookId } }",
        { url: receiver.url },
        { token: owner.apiKey },
      );
      const id = sent.data!.sendTestWebhook.webhookId;
      await receiver.waitFor((request) => request.id === id);
      // Deliveries stop (as in a crash right after a commit); a call's start is committed meanwhile.
      await first.app.services.webhooks.stop();
      const call = await hookedWebCall(first, owner, receiver.url);
      await first.close();
      expect(receiver.received.some((request) => request.json.type === "call.started")).toBe(false);
      const second = await startTestApp({ env: ENV, database: target });
      try {
        const secondAttempt = receiver.waitFor(
          (request) => request.id === id && receiver.received.filter((r) => r.id === id).length === 2,
        );
        await secondAttempt;
        expect(receiver.received.filter((request) => request.id === id)).toHaveLength(2);
        await receiver.waitFor(
          (request) => request.json.type === "call.started" && request.json.data.id === call.id,
        );
      } finally {
        await second.close();
      }
    } finally {
      await receiver.close();
      await cleanup();
    }
  }, 90_000);

  it.skipIf(testDatabaseKind() !== "postgres")(
    "delivers each event once, and sweeps the log on one instance at a time, when two instances share the work",
    async () => {
      const receiver = await startWebhookReceiver();
      const { next: target, cleanup } = await durableDatabase();
      // Twelve test events from one account: above the rate limit the other tests use.
      const env = { ...ENV, VOXGATE_TEST_WEBHOOK_RATE_LIMIT_PER_MINUTE: "100" };
      const [a, b] = [
        await startTestApp({ env, database: target }),
        await startTestApp({ env, database: target }),
      ];
      try {
        const owner = await a.createAccount();
        const ids = await Promise.all(
          Array.from({ length: 12 }, async (_, n) => {
            const app = n % 2 === 0 ? a : b;
            const sent = await app.gql<{ sendTestWebhook: { webhookId: string } }>(
              "mutation ($url: String) { sendTestWebhook(url: $url) { webhookId } }",
              { url: receiver.url },
              { token: owner.apiKey },
            );
            return sent.data!.sendTestWebhook.webhookId;
          }),
        );
        await Promise.all(ids.map((id) => receiver.waitFor((request) => request.id === id)));
        const counts = ids.map((id) => receiver.received.filter((request) => request.id === id).length);
        expect(counts).toEqual(ids.map(() => 1));

        // Retention: more finished events than one batch of the sweep deletes, a day old: past the
        // cutoff used here (an hour ago, which leaves the events just delivered), not past the one of
        // the sweeps both instances ran at start (30 days).
        const prisma = a.app.db.prisma;
        const aged = new Date(Date.now() - 86_400_000);
        const finished = 6_000;
        await prisma.webhookEvent.createMany({
          data: Array.from({ length: finished }, (_, n) => ({
            messageId: `msg_aged${n}`,
            accountId: owner.accountId,
            type: "webhook.test",
            url: receiver.url,
            streamKey: `test:aged${n}`,
            payload: {},
            status: n % 2 === 0 ? ("delivered" as const) : ("failed" as const),
            updatedAt: aged,
          })),
        });
        const aging = { accountId: owner.accountId, messageId: { startsWith: "msg_aged" } };
        const cutoff = new Date(Date.now() - 3_600_000);
        // While one instance holds the sweep's try-lock (its namespace "WH", key -1), the other skips.
        await prisma.$transaction(async (tx) => {
          await tx.$executeRaw`SELECT pg_advisory_xact_lock(${0x5748}::integer, -1)`;
          expect(await b.app.services.webhooks.purgeLog(cutoff)).toBeNull();
        });
        expect(await prisma.webhookEvent.count({ where: aging })).toBe(finished);
        // Both at once: no error, every event deleted once (the counts add up), none left.
        const swept = await Promise.all([
          a.app.services.webhooks.purgeLog(cutoff),
          b.app.services.webhooks.purgeLog(cutoff),
        ]);
        expect(swept.some((deleted) => deleted !== null)).toBe(true);
        expect((swept[0] ?? 0) + (swept[1] ?? 0)).toBe(finished);
        expect(await prisma.webhookEvent.count({ where: aging })).toBe(0);
      } finally {
        await a.close();
        await b.close();
        await receiver.close();
        await cleanup();
      }
    },
    90_000,
  );
});

/**
 * A database that outlives one app: a PostgreSQL database, or a PGlite directory on disk that the
 * first app fills from the migrated template (`first`) and later apps reopen (`next`).
 */
async function durableDatabase(): Promise<{
  first: DatabaseTarget;
  next: DatabaseTarget;
  cleanup(): Promise<void>;
}> {
  if (testDatabaseKind() === "postgres") {
    const database = await freshDatabase();
    return { first: database.target, next: database.target, cleanup: () => database.drop() };
  }
  const dataDir = mkdtempSync(join(tmpdir(), "voxgate-webhooks-"));
  const loadDataDir = new Blob([readFileSync(inject("pgliteTemplatePath"))]);
  return {
    first: { kind: "pglite", dataDir, loadDataDir },
    next: { kind: "pglite", dataDir },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
