import { describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { useChatTestApp } from "../../../test/fixtures/chat-app.ts";
import { startWebhookServer } from "../../../test/fixtures/webhooks.ts";
import type { TestAccount } from "../../../test/support/test-app.ts";
import { startTestApp } from "../../../test/support/test-app.ts";

const chat = useChatTestApp({
  OPENAI_MODEL: "fake-model",
  VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
  VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE: "1000",
  VOXGATE_REPLY_PRICE: "0.02",
});

const generate = (token: string, body: unknown) =>
  chat.t.rest<Record<string, unknown>>("POST", "/api/ai/generate-reply", { token, body });

async function balanceOf(account: TestAccount): Promise<string> {
  const row = await chat.t.app.db.prisma.account.findUniqueOrThrow({ where: { id: account.accountId } });
  return row.balance.toFixed(4);
}

describe("POST /api/ai/generate-reply", () => {
  it("answers through the model, keeps one conversation per customer and sends the history", async () => {
    const assistant = await createAssistant(chat.t, chat.alice);
    const first = await generate(chat.alice.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "+33612345678",
      message: "Do you open on Sunday?",
    });
    expect(first.status).toBe(200);
    expect(Object.keys(first.body).sort()).toEqual(
      ["ai_disabled", "conversation_id", "customer_identifier", "function_calls", "reply", "success"].sort(),
    );
    expect(first.body).toMatchObject({
      success: true,
      customer_identifier: "+33612345678",
      reply: "Echo: Do you open on Sunday?",
      function_calls: [],
      ai_disabled: false,
    });
    expect(first.body.conversation_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(chat.fake.chatRequests[0]).toMatchObject({
      model: "fake-model",
      temperature: 0.7,
      stream: true,
      authorization: "Bearer sk-test",
    });

    const second = await generate(chat.alice.apiKey, {
      assistant_id: String(assistant.id),
      customer_identifier: "+33612345678",
      message: "And on Monday?",
    });
    expect(second.body.conversation_id).toBe(first.body.conversation_id);
    const sent = chat.fake.chatRequests[1]!.messages.map((message) => [message.role, message.content]);
    expect(sent.slice(1)).toEqual([
      ["user", "Do you open on Sunday?"],
      ["assistant", "Echo: Do you open on Sunday?"],
      ["user", "And on Monday?"],
    ]);

    const other = await generate(chat.alice.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "crm-42",
      message: "Hi",
    });
    expect(other.body.conversation_id).not.toBe(first.body.conversation_id);
    const stored = await chat.t.app.db.prisma.message.findMany({
      where: { conversationId: String(first.body.conversation_id) },
      orderBy: { id: "asc" },
    });
    expect(stored.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("sends the newest 29 stored messages of a long conversation, oldest first, without internal ones", async () => {
    const assistant = await createAssistant(chat.t, chat.alice);
    const { id: conversationId } = await chat.t.app.db.prisma.conversation.create({
      data: {
        accountId: chat.alice.accountId,
        assistantId: assistant.id,
        channel: "api",
        customerIdentifier: "long",
      },
    });
    const roles = ["user", "assistant", "operator", "system"] as const;
    await chat.t.app.db.prisma.message.createMany({
      data: Array.from({ length: 40 }, (_, index) => ({
        conversationId,
        role: roles[index % roles.length]!,
        content: `message ${index + 1}`,
      })),
    });
    chat.fake.reset();
    await generate(chat.alice.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "long",
      message: "the newest",
    });
    const sent = chat.fake.chatRequests[0]!.messages.slice(1).map((message) => message.content);
    const visible = Array.from({ length: 40 }, (_, index) => index + 1).filter((number) => number % 4 !== 0);
    expect(sent).toEqual([
      ...visible
        .slice(-29)
        .map((number) =>
          number % 4 === 3 ? `[A human colleague wrote:] message ${number}` : `message ${number}`,
        ),
      "the newest",
    ]);
  });

  it("substitutes variables (assistant < conversation < request), keeps them, and tells the time in the assistant's zone", async () => {
    const assistant = await createAssistant(chat.t, chat.alice, {
      systemPrompt: "Customer: {{name}}. Plan: {{ plan }}. City: {{city}}. Unknown: {{missing}}.",
      variables: { name: "Anonymous", plan: "free", city: "Lyon" },
      timezone: "Asia/Tokyo",
    });
    await generate(chat.alice.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "vars-1",
      message: "hello",
      variables: { name: "Ada", plan: "pro" },
    });
    await generate(chat.alice.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "vars-1",
      message: "again",
      variables: { plan: "enterprise" },
    });
    const [firstPrompt, secondPrompt] = chat.fake.chatRequests.map((request) => request.messages[0]!);
    expect(firstPrompt!.role).toBe("system");
    expect(firstPrompt!.content).toContain("Customer: Ada. Plan: pro. City: Lyon. Unknown: {{missing}}.");
    expect(secondPrompt!.content).toContain("Customer: Ada. Plan: enterprise. City: Lyon.");
    expect(secondPrompt!.content).toMatch(/Current date and time: .*\(Asia\/Tokyo, UTC\+09:00\)/);
    const conversation = await chat.t.app.db.prisma.conversation.findFirstOrThrow({
      where: { assistantId: assistant.id, customerIdentifier: "vars-1" },
    });
    expect(conversation.variables).toEqual({ name: "Ada", plan: "enterprise" });
  });

  it("charges the reply price exactly, with a ledger entry linked to the customer's message", async () => {
    const account = await chat.t.createAccount({ balance: "0.05" });
    const assistant = await createAssistant(chat.t, account);
    const reply = await generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "c",
      message: "hi",
    });
    expect(reply.status).toBe(200);
    expect(await balanceOf(account)).toBe("0.0300");
    const entries = await chat.t.app.db.prisma.ledgerEntry.findMany({
      where: { accountId: account.accountId, kind: "reply_debit" },
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]!.amount.toFixed(4)).toBe("-0.0200");
    expect(entries[0]!.balanceAfter.toFixed(4)).toBe("0.0300");
    const message = await chat.t.app.db.prisma.message.findUniqueOrThrow({
      where: { id: entries[0]!.messageId! },
    });
    expect(message).toMatchObject({
      role: "user",
      content: "hi",
      conversationId: reply.body.conversation_id,
    });

    // Later messages of the conversation are reserved by the statement that reads it: the same
    // charge, and the same refusal (before the model) once the balance cannot cover it.
    const second = await generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "c",
      message: "again",
    });
    expect(second.status).toBe(200);
    const modelCalls = chat.fake.chatRequests.length;
    const third = await generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "c",
      message: "once more",
    });
    expect(third.status).toBe(402);
    expect(third.body.error_code).toBe("INSUFFICIENT_BALANCE");
    expect(chat.fake.chatRequests).toHaveLength(modelCalls);
    expect(await balanceOf(account)).toBe("0.0100");
    const ledger = await chat.t.app.db.prisma.ledgerEntry.findMany({
      where: { accountId: account.accountId },
      orderBy: { id: "asc" },
      include: { message: true },
    });
    expect(
      ledger.map((entry) => [
        entry.kind,
        entry.amount.toFixed(4),
        entry.message?.content ?? null,
        entry.heldUntil,
      ]),
    ).toEqual([
      ["credit", "0.0500", null, null],
      ["reply_debit", "-0.0200", "hi", null],
      ["reply_debit", "-0.0200", "again", null],
    ]);
    expect(ledger[2]!.description).toBe(`Generated reply in conversation ${reply.body.conversation_id}`);
  });

  it("refuses invalid input with 422, the documented body and field messages, and charges nothing", async () => {
    const assistant = await createAssistant(chat.t, chat.alice);
    const before = await balanceOf(chat.alice);
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customer_identifier: "x", message: "hi" }, "assistant_id", "The assistant id field is required."],
      [
        { assistant_id: "abc", customer_identifier: "x", message: "hi" },
        "assistant_id",
        "The assistant id field must be an integer.",
      ],
      [
        { assistant_id: assistant.id, message: "hi" },
        "customer_identifier",
        "The customer identifier field is required.",
      ],
      [
        { assistant_id: assistant.id, customer_identifier: "x".repeat(256), message: "hi" },
        "customer_identifier",
        "The customer identifier field must not be greater than 255 characters.",
      ],
      [{ assistant_id: assistant.id, customer_identifier: "x" }, "message", "The message field is required."],
      [
        { assistant_id: assistant.id, customer_identifier: "x", message: "   " },
        "message",
        "The message field is required.",
      ],
      [
        { assistant_id: assistant.id, customer_identifier: "x", message: "hi", variables: ["a"] },
        "variables",
        "The variables field must be an object.",
      ],
      [
        {
          assistant_id: assistant.id,
          customer_identifier: "x",
          message: "hi",
          variables: { nested: { a: 1 } },
        },
        "variables.nested",
        "The variables.nested field must be a string, number, boolean or null.",
      ],
    ];
    for (const [body, field, message] of cases) {
      const response = await generate(chat.alice.apiKey, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body).toEqual({
        success: false,
        error_code: "VALIDATION_FAILED",
        message,
        errors: { [field]: [message] },
      });
    }
    expect(chat.fake.chatRequests).toHaveLength(0);
    expect(await balanceOf(chat.alice)).toBe(before);
  });

  it("answers ASSISTANT_NOT_FOUND for another account's, a deleted or an unknown assistant", async () => {
    const bobs = await createAssistant(chat.t, chat.bob);
    const deleted = await createAssistant(chat.t, chat.alice);
    await chat.t.app.db.prisma.assistant.update({
      where: { id: deleted.id },
      data: { deletedAt: new Date() },
    });
    for (const id of [bobs.id, deleted.id, 999_999]) {
      const response = await generate(chat.alice.apiKey, {
        assistant_id: id,
        customer_identifier: "x",
        message: "hi",
      });
      expect(response.status).toBe(404);
      expect(response.body).toEqual({
        success: false,
        error_code: "ASSISTANT_NOT_FOUND",
        message: "Assistant not found.",
      });
    }
    const graphql = await chat.t.gql(
      `mutation($input: GenerateReplyInput!) { generateReply(input: $input) { reply } }`,
      { input: { assistantId: bobs.id, customerIdentifier: "x", message: "hi" } },
      { token: chat.alice.apiKey },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe("ASSISTANT_NOT_FOUND");
    expect(chat.fake.chatRequests).toHaveLength(0);
  });

  it("answers 401 in the documented shape without a valid credential", async () => {
    const response = await chat.t.rest("POST", "/api/ai/generate-reply", {
      body: { assistant_id: 1, customer_identifier: "x", message: "hi" },
    });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({
      success: false,
      error_code: "UNAUTHENTICATED",
      message: "Unauthenticated.",
    });
  });

  it("refuses with INSUFFICIENT_BALANCE (402) when the balance cannot pay the reply, without calling the model", async () => {
    const poor = await chat.t.createAccount({ balance: "0.0199" });
    const assistant = await createAssistant(chat.t, poor);
    const response = await generate(poor.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "x",
      message: "hi",
    });
    expect(response.status).toBe(402);
    expect(response.body).toEqual({
      success: false,
      error_code: "INSUFFICIENT_BALANCE",
      message: "Insufficient balance. Please top up your account.",
    });
    expect(chat.fake.chatRequests).toHaveLength(0);
    expect(await balanceOf(poor)).toBe("0.0199");
    expect(
      await chat.t.app.db.prisma.message.count({ where: { conversation: { accountId: poor.accountId } } }),
    ).toBe(0);
  });

  it("reports a failing model as 502, stores nothing and gives the money back", async () => {
    const account = await chat.t.createAccount({ balance: "0.50" });
    const assistant = await createAssistant(chat.t, account);
    chat.fake.respondWith(() => ({ error: { status: 500, message: "the model is on fire" } }));
    const response = await generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "x",
      message: "hi",
    });
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      success: false,
      error_code: "UPSTREAM_FAILED",
      message: "Failed to process message: the AI provider answered HTTP 500 (the model is on fire).",
    });
    // The client retries a server error once before giving up.
    expect(chat.fake.chatRequests).toHaveLength(2);
    expect(await balanceOf(account)).toBe("0.5000");
    expect(
      await chat.t.app.db.prisma.message.count({ where: { conversation: { accountId: account.accountId } } }),
    ).toBe(0);
    const ledger = await chat.t.app.db.prisma.ledgerEntry.findMany({
      where: { accountId: account.accountId },
      orderBy: { id: "asc" },
    });
    expect(ledger.map((entry) => [entry.kind, entry.amount.toFixed(4), entry.messageId])).toEqual([
      ["credit", "0.5000", null],
      ["reply_debit", "-0.0200", null],
      ["adjustment", "0.0200", null],
    ]);
  });

  it("refuses a reply that outlived its reservation's hold, storing nothing unpaid", async () => {
    const account = await chat.t.createAccount({ balance: "0.50" });
    const assistant = await createAssistant(chat.t, account);
    let answer!: () => void;
    chat.fake.enqueue({
      content: "A late answer.",
      after: new Promise<void>((resolve) => (answer = resolve)),
    });
    const pending = generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "x",
      message: "hi",
    });
    await vi.waitFor(() => expect(chat.fake.chatRequests).toHaveLength(1));
    // While the model writes, the hold runs out (moved into the past rather than waited for) and the
    // sweep gives the money back, as it would after VOXGATE_RESERVATION_HOLD_SECONDS.
    const prisma = chat.t.app.db.prisma;
    await prisma.$executeRaw`
      UPDATE "ledger_entries" SET "heldUntil" = now() - interval '1 second'
      WHERE "accountId" = ${account.accountId}::integer AND "heldUntil" IS NOT NULL`;
    expect(await chat.t.app.services.billing.refundExpiredHolds()).toHaveLength(1);
    answer();
    const response = await pending;
    expect(response.status).toBe(502);
    expect(response.body).toEqual({
      success: false,
      error_code: "UPSTREAM_FAILED",
      message:
        "Failed to process message: the reply took longer than the balance is held for it; nothing was stored or charged.",
    });
    expect(await prisma.message.count({ where: { conversation: { accountId: account.accountId } } })).toBe(0);
    const ledger = await prisma.ledgerEntry.findMany({
      where: { accountId: account.accountId },
      orderBy: { id: "asc" },
    });
    expect(ledger.map((entry) => [entry.kind, entry.amount.toFixed(4), entry.messageId])).toEqual([
      ["credit", "0.5000", null],
      ["reply_debit", "-0.0200", null],
      ["adjustment", "0.0200", null],
    ]);
    expect(await balanceOf(account)).toBe("0.5000");

    // A reply within its hold is stored with its debit linked to the customer's message.
    const paid = await generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "x",
      message: "again",
    });
    expect(paid.status).toBe(200);
    const stored = await prisma.message.findMany({
      where: { conversation: { accountId: account.accountId } },
      orderBy: { id: "asc" },
    });
    expect(stored.map((message) => [message.role, message.content])).toEqual([
      ["user", "again"],
      ["assistant", "Echo: again"],
    ]);
    const debit = await prisma.ledgerEntry.findFirstOrThrow({
      where: { accountId: account.accountId, kind: "reply_debit", messageId: { not: null } },
    });
    expect(debit).toMatchObject({ messageId: stored[0]!.id, heldUntil: null });
    expect(await balanceOf(account)).toBe("0.4800");
  });

  it("gives up on a model slower than OPENAI_TIMEOUT_SECONDS with 502 and no charge", async () => {
    const slow = await startTestApp({ model: chat.fake, env: { OPENAI_TIMEOUT_SECONDS: "1" } });
    try {
      const account = await slow.createAccount({ balance: "1" });
      const assistant = await createAssistant(slow, account);
      chat.fake.setLatency(1500);
      const response = await slow.rest<Record<string, unknown>>("POST", "/api/ai/generate-reply", {
        token: account.apiKey,
        body: { assistant_id: assistant.id, customer_identifier: "x", message: "hi" },
      });
      expect(response.status).toBe(502);
      expect(response.body.message).toBe(
        "Failed to process message: the AI provider did not answer in time.",
      );
      const row = await slow.app.db.prisma.account.findUniqueOrThrow({ where: { id: account.accountId } });
      expect(row.balance.toFixed(4)).toBe("1.0000");
    } finally {
      chat.fake.setLatency(0);
      await slow.close();
    }
  });

  it("stores but does not answer or charge while a person has taken over, and answers again once handed back", async () => {
    const account = await chat.t.createAccount({ balance: "1" });
    const assistant = await createAssistant(chat.t, account);
    const first = await generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "vip",
      message: "hi",
    });
    const conversationId = String(first.body.conversation_id);

    const stolen = await chat.t.gql(
      `mutation($id: ID!) { takeOverConversation(id: $id) { aiDisabled } }`,
      { id: conversationId },
      { token: chat.bob.apiKey },
    );
    expect(stolen.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");

    const takeOver = await chat.t.gql<{ takeOverConversation: { aiDisabled: boolean } }>(
      `mutation($id: ID!) { takeOverConversation(id: $id) { aiDisabled } }`,
      { id: conversationId },
      { token: account.apiKey },
    );
    expect(takeOver.data?.takeOverConversation.aiDisabled).toBe(true);
    const balance = await balanceOf(account);
    chat.fake.reset();

    const quiet = await generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "vip",
      message: "a human please",
    });
    expect(quiet.status).toBe(200);
    expect(quiet.body).toMatchObject({
      success: true,
      reply: "",
      ai_disabled: true,
      function_calls: [],
      conversation_id: conversationId,
    });
    expect(chat.fake.chatRequests).toHaveLength(0);
    expect(await balanceOf(account)).toBe(balance);
    const last = await chat.t.app.db.prisma.message.findFirstOrThrow({
      where: { conversationId },
      orderBy: { id: "desc" },
    });
    expect(last).toMatchObject({ role: "user", content: "a human please" });

    await chat.t.gql(
      `mutation($id: ID!) { handBackConversation(id: $id) { aiDisabled } }`,
      { id: conversationId },
      { token: account.apiKey },
    );
    const back = await generate(account.apiKey, {
      assistant_id: assistant.id,
      customer_identifier: "vip",
      message: "thanks",
    });
    expect(back.body).toMatchObject({ reply: "Echo: thanks", ai_disabled: false });
  });
});

describe("function calls", () => {
  it("calls a webhook tool with the model's arguments and reports it in function_calls", async () => {
    const webhook = await startWebhookServer((call) => ({
      body: { available: true, echoed: JSON.parse(call.body || "{}") },
    }));
    try {
      const assistant = await createAssistant(chat.t, chat.alice, {
        tools: [
          {
            name: "check_availability",
            description: "Checks a date",
            parameters: { type: "object", properties: { date: { type: "string" } }, required: ["date"] },
            url: `${webhook.url}/availability`,
            method: "POST",
            headers: { "x-secret": "s3cret" },
            timeout: 5,
          },
        ],
      });
      chat.fake.enqueue({ toolCalls: [{ name: "check_availability", arguments: { date: "2026-12-01" } }] });
      chat.fake.respondWith((request) => {
        const toolMessage = request.messages.find((message) => message.role === "tool");
        return { content: `Tool said ${toolMessage?.content}` };
      });
      const response = await generate(chat.alice.apiKey, {
        assistant_id: assistant.id,
        customer_identifier: "tools",
        message: "Free on Dec 1?",
      });
      expect(response.status).toBe(200);
      expect(chat.fake.chatRequests[0]!.tools?.map((tool) => tool.function.name)).toEqual([
        "check_availability",
      ]);
      expect(webhook.calls).toHaveLength(1);
      expect(webhook.calls[0]).toMatchObject({
        method: "POST",
        url: "/availability",
        body: '{"date":"2026-12-01"}',
      });
      expect(webhook.calls[0]!.headers["x-secret"]).toBe("s3cret");
      const calls = response.body.function_calls as Record<string, unknown>[];
      expect(calls).toHaveLength(1);
      expect(calls[0]).toMatchObject({
        name: "check_availability",
        arguments: { date: "2026-12-01" },
        result: { available: true, echoed: { date: "2026-12-01" } },
        error: null,
      });
      expect(Object.keys(calls[0]!).sort()).toEqual(["arguments", "duration_ms", "error", "name", "result"]);
      expect(calls[0]!.duration_ms).toBeTypeOf("number");
      expect(response.body.reply).toBe('Tool said {"available":true,"echoed":{"date":"2026-12-01"}}');
      const stored = await chat.t.app.db.prisma.message.findFirstOrThrow({
        where: { conversationId: String(response.body.conversation_id), role: "assistant" },
      });
      expect(stored.functionCalls).toEqual(calls);
    } finally {
      await webhook.close();
    }
  });

  it("reports failing webhooks (HTTP error, redirect to a blocked address, timeout) as errors the model is told about", async () => {
    const webhook = await startWebhookServer((call) => {
      if (call.url.startsWith("/broken")) return { status: 500, body: { oops: true } };
      if (call.url.startsWith("/redirect"))
        return { status: 302, body: "", headers: { location: "http://169.254.169.254/latest/meta-data" } };
      return { body: { late: true }, delayMs: 2500 };
    });
    try {
      const tool = (name: string, path: string, method = "GET") => ({
        name,
        parameters: { type: "object", properties: {} },
        url: `${webhook.url}${path}`,
        method,
        timeout: 1,
      });
      const assistant = await createAssistant(chat.t, chat.alice, {
        tools: [tool("broken", "/broken"), tool("sneaky", "/redirect"), tool("slow", "/slow", "POST")],
      });
      chat.fake.enqueue({
        toolCalls: [
          { name: "broken", arguments: { q: "a b" } },
          { name: "sneaky", arguments: {} },
          { name: "slow", arguments: {} },
          { name: "imaginary", arguments: {} },
        ],
      });
      chat.fake.respondWith(() => ({ content: "Sorry, something went wrong." }));
      const response = await generate(chat.alice.apiKey, {
        assistant_id: assistant.id,
        customer_identifier: "fail",
        message: "go",
      });
      expect(response.status).toBe(200);
      const calls = response.body.function_calls as { name: string; error: string | null; result: unknown }[];
      expect(calls.map((call) => [call.name, call.result])).toEqual([
        ["broken", null],
        ["sneaky", null],
        ["slow", null],
        ["imaginary", null],
      ]);
      expect(calls[0]!.error).toBe("The webhook answered HTTP 500.");
      expect(calls[1]!.error).toMatch(/not allowed/);
      expect(calls[2]!.error).toMatch(/timed out/);
      expect(calls[3]!.error).toBe("There is no function named imaginary.");
      expect(webhook.calls[0]!.url).toBe("/broken?q=a+b");
      const toolMessages = chat.fake.chatRequests[1]!.messages.filter((message) => message.role === "tool");
      expect(toolMessages).toHaveLength(4);
      expect(toolMessages[0]!.content).toBe(JSON.stringify({ error: "The webhook answered HTTP 500." }));
    } finally {
      await webhook.close();
    }
  });

  it("shows owners every call in full, and website visitors only each call's name and outcome", async () => {
    const webhook = await startWebhookServer((call) =>
      call.url.startsWith("/orders")
        ? { body: { order: "A-17", internalNote: "customer owes 300 EUR" } }
        : { status: 500, body: { oops: true } },
    );
    try {
      const tool = (name: string, path: string) => ({
        name,
        parameters: { type: "object", properties: { order: { type: "string" } } },
        url: `${webhook.url}${path}`,
        method: "POST",
      });
      const assistant = await createAssistant(chat.t, chat.alice, {
        tools: [tool("lookup_order", "/orders"), tool("cancel_order", "/cancel")],
      });
      const useTools = () => {
        chat.fake.enqueue({
          toolCalls: [
            { name: "lookup_order", arguments: { order: "A-17" } },
            { name: "cancel_order", arguments: { order: "A-17" } },
          ],
        });
        chat.fake.respondWith(() => ({ content: "Your order A-17 is on its way." }));
      };
      const visitorView = [
        { name: "lookup_order", succeeded: true },
        { name: "cancel_order", succeeded: false },
      ];
      const secret = /owes 300 EUR|oops|A-17"|"order"/;

      // Website visitors: REST send and history, and the public GraphQL operations.
      useTools();
      const started = await chat.t.rest<{ conversation_id: string }>(
        "POST",
        `/api/widget/assistants/${assistant.uuid}/conversations`,
        { body: {} },
      );
      const conversationId = started.body.conversation_id;
      const sent = await chat.t.rest<{ function_calls: unknown[] }>(
        "POST",
        `/api/conversations/${conversationId}/messages`,
        { body: { message: "Where is A-17?" } },
      );
      expect(sent.status).toBe(200);
      expect(sent.body.function_calls).toEqual(visitorView);
      expect(JSON.stringify(sent.body)).not.toMatch(secret);
      const history = await chat.t.rest<{ messages: { role: string; function_calls: unknown[] }[] }>(
        "GET",
        `/api/conversations/${conversationId}/messages`,
      );
      expect(history.body.messages.map((message) => message.function_calls)).toEqual([[], visitorView]);
      expect(JSON.stringify(history.body)).not.toMatch(secret);

      useTools();
      const publicSend = await chat.t.gql<{ sendWidgetMessage: { functionCalls: unknown[] } }>(
        `mutation($input: SendWidgetMessageInput!) {
          sendWidgetMessage(input: $input) { functionCalls { name succeeded } }
        }`,
        { input: { conversationId, message: "And now?" } },
      );
      expect(publicSend.data?.sendWidgetMessage.functionCalls).toEqual(visitorView);
      for (const query of [
        `query($id: ID!) { widgetConversation(id: $id) { messages { functionCalls { result } } } }`,
        `mutation($id: ID!) { sendWidgetMessage(input: { conversationId: $id, message: "x" }) { conversation { id } } }`,
      ]) {
        const probe = await chat.t.gql(query, { id: conversationId });
        expect(probe.errors?.[0]?.message).toMatch(/Cannot query field/);
      }

      // The owner: generate-reply with an API key and the conversation over authenticated GraphQL.
      useTools();
      const reply = await generate(chat.alice.apiKey, {
        assistant_id: assistant.id,
        customer_identifier: "owner-view",
        message: "Where is A-17?",
      });
      expect(reply.body.function_calls).toMatchObject([
        {
          name: "lookup_order",
          arguments: { order: "A-17" },
          result: { internalNote: "customer owes 300 EUR" },
        },
        { name: "cancel_order", result: null, error: "The webhook answered HTTP 500." },
      ]);
      const owned = await chat.t.gql<{
        conversation: { messages: { functionCalls: { result: unknown }[] }[] };
      }>(
        `query($id: ID!) { conversation(id: $id) { messages { functionCalls { name arguments result error } } } }`,
        { id: conversationId },
        { token: chat.alice.apiKey },
      );
      expect(owned.data?.conversation.messages[1]?.functionCalls).toMatchObject([
        { name: "lookup_order", arguments: { order: "A-17" }, result: { order: "A-17" } },
        { name: "cancel_order", error: "The webhook answered HTTP 500." },
      ]);
    } finally {
      await webhook.close();
    }
  });

  it("bounds the loop: after five model calls the model must answer without functions", async () => {
    const webhook = await startWebhookServer(() => ({ body: { again: true } }));
    try {
      const assistant = await createAssistant(chat.t, chat.alice, {
        tools: [{ name: "loop", parameters: { type: "object", properties: {} }, url: `${webhook.url}/loop` }],
      });
      chat.fake.respondWith((request) =>
        request.tool_choice === "none"
          ? { content: "Final answer." }
          : { toolCalls: [{ name: "loop", arguments: {} }] },
      );
      const response = await generate(chat.alice.apiKey, {
        assistant_id: assistant.id,
        customer_identifier: "loop",
        message: "go",
      });
      expect(response.body.reply).toBe("Final answer.");
      expect(chat.fake.chatRequests).toHaveLength(5);
      expect(chat.fake.chatRequests.at(-1)!.tool_choice).toBe("none");
      expect(response.body.function_calls).toHaveLength(4);
      expect(webhook.calls).toHaveLength(4);
    } finally {
      await webhook.close();
    }
  });
});
