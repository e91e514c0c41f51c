import { createClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { useChatTestApp } from "../../../test/fixtures/chat-app.ts";
import { startTestApp } from "../../../test/support/test-app.ts";

/**
 * One operation over graphql-ws from a page of `origin` (the browser's Origin header on the upgrade):
 * its first result, or the errors it ended with.
 */
async function overWebSocket(
  query: string,
  variables: Record<string, unknown>,
  origin: string | undefined,
): Promise<{ data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
  class FromPage extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, origin ? { origin } : {});
    }
  }
  const client = createClient({
    url: `${chat.t.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: FromPage,
    retryAttempts: 0,
  });
  try {
    return await new Promise((resolve, reject) => {
      const stop = client.subscribe(
        { query, variables },
        {
          next: (result) => {
            resolve(result as never);
            stop();
          },
          error: (error) => (Array.isArray(error) ? resolve({ errors: error }) : reject(error)),
          complete: () => {},
        },
      );
    });
  } finally {
    await client.dispose();
  }
}

const FORMAT_A = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const SITE = "https://shop.example";

const chat = useChatTestApp({
  VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1000",
  VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "1000",
});

async function startConversation(uuid: string, body: unknown = {}, origin = SITE) {
  return chat.t.rest<Record<string, unknown>>("POST", `/api/widget/assistants/${uuid}/conversations`, {
    body,
    headers: { origin },
  });
}

describe("public widget API", () => {
  it("shows an assistant's widget settings by UUID, and 404 for unknown or deleted ones", async () => {
    const assistant = await createAssistant(chat.t, chat.alice, {
      name: "Shop helper",
      initialMessage: "Hi there!",
    });
    await chat.t.app.db.prisma.assistant.update({
      where: { id: assistant.id },
      data: { widgetSettings: { theme: "dark", color: "#ff0000", position: "bottom-left" } },
    });
    const shown = await chat.t.rest("GET", `/api/widget/assistants/${assistant.uuid}`, {
      headers: { origin: SITE },
    });
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      uuid: assistant.uuid,
      name: "Shop helper",
      initial_message: "Hi there!",
      widget_settings: { theme: "dark", color: "#ff0000", position: "bottom-left", voice: false },
    });
    expect(shown.headers.get("access-control-allow-origin")).toBe(SITE);

    const deleted = await createAssistant(chat.t, chat.alice);
    await chat.t.app.db.prisma.assistant.update({
      where: { id: deleted.id },
      data: { deletedAt: new Date() },
    });
    for (const uuid of [deleted.uuid, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
      const missing = await chat.t.rest("GET", `/api/widget/assistants/${uuid}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ message: "Assistant not found." });
    }
  });

  it("starts a conversation (201) with variables, and answers messages with the documented body", async () => {
    const assistant = await createAssistant(chat.t, chat.alice, {
      initialMessage: "Welcome!",
      systemPrompt: "Customer name: {{name}}",
    });
    const started = await startConversation(assistant.uuid, { variables: { name: "Grace" } });
    expect(started.status).toBe(201);
    expect(Object.keys(started.body).sort()).toEqual(["conversation_id", "created_at", "initial_message"]);
    expect(started.body.initial_message).toBe("Welcome!");
    expect(started.body.created_at).toMatch(FORMAT_A);
    const id = String(started.body.conversation_id);

    const sent = await chat.t.rest("POST", `/api/conversations/${id}/messages`, {
      body: { message: "Where is my order?" },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: true, message: "Echo: Where is my order?", function_calls: [] });
    expect(chat.fake.chatRequests[0]!.messages[0]!.content).toContain("Customer name: Grace");

    const history = await chat.t.rest<{ conversation_id: string; messages: Record<string, unknown>[] }>(
      "GET",
      `/api/conversations/${id}/messages`,
    );
    expect(history.status).toBe(200);
    expect(history.body.conversation_id).toBe(id);
    expect(history.body.messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "Where is my order?"],
      ["assistant", "Echo: Where is my order?"],
    ]);
    expect(Object.keys(history.body.messages[0]!).sort()).toEqual([
      "content",
      "created_at",
      "function_calls",
      "id",
      "role",
    ]);
    expect(history.body.messages[0]!.created_at).toMatch(FORMAT_A);
  });

  it("charges the owner 0.01 per widget message, exactly, with a ledger entry per message", async () => {
    const account = await chat.t.createAccount({ balance: "0.1" });
    const assistant = await createAssistant(chat.t, account);
    const id = String((await startConversation(assistant.uuid)).body.conversation_id);
    for (const text of ["one", "two", "three"]) {
      expect(
        (await chat.t.rest("POST", `/api/conversations/${id}/messages`, { body: { message: text } })).status,
      ).toBe(200);
    }
    const row = await chat.t.app.db.prisma.account.findUniqueOrThrow({ where: { id: account.accountId } });
    expect(row.balance.toFixed(4)).toBe("0.0700");
    const debits = await chat.t.app.db.prisma.ledgerEntry.findMany({
      where: { accountId: account.accountId, kind: "message_debit" },
      include: { message: true },
      orderBy: { id: "asc" },
    });
    expect(debits.map((entry) => [entry.amount.toFixed(4), entry.message?.content])).toEqual([
      ["-0.0100", "one"],
      ["-0.0100", "two"],
      ["-0.0100", "three"],
    ]);
  });

  it("answers errors as {status: false, error} with the documented texts and statuses", async () => {
    const poor = await chat.t.createAccount({ balance: "0" });
    const assistant = await createAssistant(chat.t, poor);
    const id = String((await startConversation(assistant.uuid)).body.conversation_id);
    const send = (conversationId: string, body: unknown) =>
      chat.t.rest("POST", `/api/conversations/${conversationId}/messages`, { body });

    expect(await send("00000000-0000-4000-8000-000000000000", { message: "hi" })).toMatchObject({
      status: 404,
      body: { status: false, error: "Conversation not found" },
    });
    expect(await send("nonsense", { message: "hi" })).toMatchObject({
      status: 404,
      body: { status: false, error: "Conversation not found" },
    });
    expect(await send(id, {})).toMatchObject({
      status: 422,
      body: { status: false, error: "The message field is required." },
    });
    expect(await send(id, { message: "x".repeat(2001) })).toMatchObject({
      status: 422,
      body: { status: false, error: "The message field must not be greater than 2000 characters." },
    });
    expect(await send(id, { message: "hi" })).toMatchObject({
      status: 402,
      body: { status: false, error: "Insufficient balance. Please top up your account." },
    });
    expect(chat.fake.chatRequests).toHaveLength(0);

    await chat.t.app.services.billing.credit(poor.accountId, { amount: "1" });
    chat.fake.respondWith(() => ({ error: { status: 503, message: "overloaded" } }));
    const failed = await send(id, { message: "hi" });
    expect(failed).toMatchObject({
      status: 502,
      body: {
        status: false,
        error: "Failed to process message: the AI provider answered HTTP 503 (overloaded).",
      },
    });
    const row = await chat.t.app.db.prisma.account.findUniqueOrThrow({ where: { id: poor.accountId } });
    expect(row.balance.toFixed(4)).toBe("1.0000");
    const history = await chat.t.rest<{ messages: unknown[] }>("GET", `/api/conversations/${id}/messages`);
    expect(history.body.messages).toEqual([]);

    expect(
      await chat.t.rest("GET", "/api/conversations/00000000-0000-4000-8000-000000000000/messages"),
    ).toMatchObject({
      status: 404,
      body: { status: false, error: "Conversation not found" },
    });
  });

  it("only reaches widget conversations: an API conversation's UUID is not a public capability", async () => {
    const assistant = await createAssistant(chat.t, chat.alice);
    const reply = await chat.t.rest<{ conversation_id: string }>("POST", "/api/ai/generate-reply", {
      token: chat.alice.apiKey,
      body: { assistant_id: assistant.id, customer_identifier: "private", message: "secret" },
    });
    const read = await chat.t.rest("GET", `/api/conversations/${reply.body.conversation_id}/messages`);
    expect(read).toMatchObject({ status: 404, body: { status: false, error: "Conversation not found" } });
  });

  it("enforces the assistant's origin allow-list when a conversation starts", async () => {
    const assistant = await createAssistant(chat.t, chat.alice, {
      allowedOrigins: ["https://shop.example/"],
    });
    expect((await startConversation(assistant.uuid, {}, "https://SHOP.example")).status).toBe(201);
    const refused = await startConversation(assistant.uuid, {}, "https://evil.example");
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: "This origin is not allowed to use this assistant." });
    expect(refused.headers.get("access-control-allow-origin")).toBe("https://evil.example");
    const noOrigin = await chat.t.rest("POST", `/api/widget/assistants/${assistant.uuid}/conversations`, {
      body: {},
    });
    expect(noOrigin.status).toBe(403);
    expect(await chat.t.app.db.prisma.conversation.count({ where: { assistantId: assistant.id } })).toBe(1);
  });

  it("enforces the allow-list, as it is now, on every message and history read (REST and GraphQL)", async () => {
    const owner = await chat.t.createAccount({ balance: "1" });
    const assistant = await createAssistant(chat.t, owner, { allowedOrigins: [SITE] });
    const started = await startConversation(assistant.uuid);
    const id = started.body.conversation_id as string;
    const send = (origin?: string) =>
      chat.t.rest("POST", `/api/conversations/${id}/messages`, {
        body: { message: "hello" },
        headers: origin ? { origin } : {},
      });
    const read = (origin?: string) =>
      chat.t.rest("GET", `/api/conversations/${id}/messages`, { headers: origin ? { origin } : {} });
    const forbidden = { status: false, error: "This origin is not allowed to use this assistant." };

    expect((await send(SITE)).status).toBe(200);
    expect((await read(SITE)).status).toBe(200);
    for (const origin of ["https://evil.example", undefined]) {
      expect(await send(origin)).toMatchObject({ status: 403, body: forbidden });
      expect(await read(origin)).toMatchObject({ status: 403, body: forbidden });
    }
    const gqlSend = await chat.t.gql(
      `mutation($input: SendWidgetMessageInput!) { sendWidgetMessage(input: $input) { reply } }`,
      { input: { conversationId: id, message: "hello" } },
      { headers: { origin: "https://evil.example" } },
    );
    expect(gqlSend.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const gqlRead = await chat.t.gql(
      `query($id: ID!) { widgetConversation(id: $id) { id } }`,
      { id },
      { headers: { origin: "https://evil.example" } },
    );
    expect(gqlRead.errors?.[0]).toMatchObject({
      message: "This origin is not allowed to use this assistant.",
      extensions: { code: "FORBIDDEN" },
    });

    // The owner moves the widget to another site: the conversation started on the old one stops there
    // (at once, though the instance keeps the assistant's settings in its cache).
    await chat.t.app.services.assistants.update(owner.accountId, assistant.id, {
      allowedOrigins: ["https://new.example"],
    });
    expect((await send(SITE)).status).toBe(403);
    expect((await send("https://new.example")).status).toBe(200);

    // Refused messages were neither stored nor charged.
    expect(await chat.t.app.db.prisma.message.count({ where: { conversationId: id } })).toBe(4);
    const account = await chat.t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } });
    expect(account.balance.toFixed(4)).toBe("0.9800");
  });

  it("applies the allow-list to widget operations over graphql-ws by the upgrade's Origin, as over HTTP", async () => {
    const owner = await chat.t.createAccount({ balance: "1" });
    const assistant = await createAssistant(chat.t, owner, { allowedOrigins: [SITE] });
    const start = `mutation($input: StartWidgetConversationInput!) {
      startWidgetConversation(input: $input) { conversationId }
    }`;
    const read = "query($id: ID!) { widgetConversation(id: $id) { id } }";
    const events = "subscription($id: ID!) { widgetConversationEvents(conversationId: $id) { id } }";
    const forbidden = {
      message: "This origin is not allowed to use this assistant.",
      extensions: { code: "FORBIDDEN" },
    };

    const started = await overWebSocket(start, { input: { assistantUuid: assistant.uuid } }, SITE);
    expect(started.errors).toBeUndefined();
    const id = (started.data as { startWidgetConversation: { conversationId: string } })
      .startWidgetConversation.conversationId;
    expect(await overWebSocket(read, { id }, SITE)).toEqual({ data: { widgetConversation: { id } } });

    for (const origin of ["https://evil.example", undefined]) {
      const overHttp = await chat.t.gql(read, { id }, { headers: origin ? { origin } : {} });
      expect(overHttp.errors?.[0]).toMatchObject(forbidden);
      expect((await overWebSocket(read, { id }, origin)).errors?.[0]).toMatchObject(forbidden);
      const refusedStart = await overWebSocket(start, { input: { assistantUuid: assistant.uuid } }, origin);
      expect(refusedStart.errors?.[0]).toMatchObject(forbidden);
      expect((await overWebSocket(events, { id }, origin)).errors?.[0]).toMatchObject(forbidden);
    }
    expect(await chat.t.app.db.prisma.conversation.count({ where: { assistantId: assistant.id } })).toBe(1);
  });

  it("answers CORS preflights and exposes the rate-limit headers to other origins", async () => {
    const assistant = await createAssistant(chat.t, chat.alice);
    const preflight = await fetch(`${chat.t.url}/api/widget/assistants/${assistant.uuid}/conversations`, {
      method: "OPTIONS",
      headers: {
        origin: SITE,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(SITE);
    expect(preflight.headers.get("access-control-allow-methods")).toContain("POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type");
    const messagesPreflight = await fetch(
      `${chat.t.url}/api/conversations/00000000-0000-4000-8000-000000000000/messages`,
      {
        method: "OPTIONS",
        headers: { origin: SITE, "access-control-request-method": "POST" },
      },
    );
    expect(messagesPreflight.status).toBe(204);
    expect(messagesPreflight.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    const started = await startConversation(assistant.uuid);
    expect(started.headers.get("access-control-expose-headers")).toContain("Retry-After");
    expect(started.headers.get("ratelimit-limit")).toBe("1000");
    // Authenticated endpoints are not opened to other origins.
    const privateRoute = await fetch(`${chat.t.url}/api/user/api-keys`, {
      method: "OPTIONS",
      headers: { origin: SITE },
    });
    expect(privateRoute.status).toBe(405);
    expect(privateRoute.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("widget rate limits", () => {
  it("limits messages per conversation and per client IP with 429, Retry-After and RateLimit headers", async () => {
    const limited = await startTestApp({
      model: chat.fake,
      env: {
        VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "2",
        VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "5",
      },
    });
    try {
      const owner = await limited.createAccount({ balance: "1" });
      const assistant = await createAssistant(limited, owner);
      const start = () =>
        limited.rest<{ conversation_id: string }>(
          "POST",
          `/api/widget/assistants/${assistant.uuid}/conversations`,
          { body: {} },
        );
      const first = (await start()).body.conversation_id;
      const send = (id: string) =>
        limited.rest("POST", `/api/conversations/${id}/messages`, { body: { message: "hi" } });
      expect((await send(first)).status).toBe(200);
      const second = await send(first);
      expect(second.status).toBe(200);
      expect(second.headers.get("ratelimit-remaining")).toBe("0");
      const refused = await send(first);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({ status: false, error: "Too many messages. Please wait a moment." });
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.headers.get("ratelimit-limit")).toBe("2");

      // Per IP: 5 messages a minute across conversations; three were counted above.
      const other = (await start()).body.conversation_id;
      expect((await send(other)).status).toBe(200);
      expect((await send(other)).status).toBe(200);
      const third = (await start()).body.conversation_id;
      const perIp = await send(third);
      expect(perIp.status).toBe(429);
      expect(perIp.headers.get("ratelimit-limit")).toBe("5");
      const charged = await limited.app.db.prisma.ledgerEntry.count({
        where: { accountId: owner.accountId, kind: "message_debit" },
      });
      expect(charged).toBe(4);
    } finally {
      await limited.close();
    }
  });
});
