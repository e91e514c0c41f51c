import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import {
  type FakeChatReply,
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../test/support/fake-openai.ts";
import { ManualClock, startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import type { Assistant, PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * Hand-offs in chat through the widget's REST API and simulated texts, with the fake OpenAI
 * scripting the model's function calls: request_human (waiting, operators, webhook, takeover) and
 * handoff between assistants (context kept, loops bounded, tenants isolated).
 */

type ToolResult = Record<string, unknown> & { error?: string; tell_customer?: string };

/** The tool results the model was sent since the customer's last message, in order. */
function resultsThisTurn(request: RecordedChatRequest): ToolResult[] {
  const lastUser = request.messages.findLastIndex((message) => message.role === "user");
  return request.messages
    .slice(lastUser + 1)
    .filter((message) => message.role === "tool")
    .map((message) => JSON.parse(message.content ?? "{}") as ToolResult);
}

const lastUserMessage = (request: RecordedChatRequest) =>
  request.messages.findLast((message) => message.role === "user")?.content ?? "";
const systemPrompt = (request: RecordedChatRequest) => request.messages[0]?.content ?? "";
const offered = (request: RecordedChatRequest) => request.tools?.map((tool) => tool.function.name) ?? [];

/** A model that follows a plan per customer message: step n answers after n tool results. */
type Plan = (results: ToolResult[], request: RecordedChatRequest) => FakeChatReply;
const call = (name: string, args: Record<string, unknown>): FakeChatReply => ({
  toolCalls: [{ name, arguments: args }],
});

// Wednesday 2026-03-04 10:00 in Berlin: people answer.
const OPEN = "2026-03-04T09:00:00Z";
// Saturday 2026-03-07 12:00 in Berlin: nobody until Monday 09:00.
const CLOSED = "2026-03-07T11:00:00Z";

let fake: FakeOpenAI;
let t: TestApp;
let receiver: WebhookReceiver;
let owner: TestAccount;
let stranger: TestAccount;
const clock = new ManualClock(OPEN);
const plans = new Map<string, Plan>();

const hoursWeekdays = Object.fromEntries(
  ["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ start: "09:00", end: "17:00" }]]),
);

beforeAll(async () => {
  [fake, receiver] = await Promise.all([startFakeOpenAI(), startWebhookReceiver()]);
  t = await startTestApp({ model: fake, clock, env: { VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1" } });
  owner = await t.createAccount({ balance: "10" });
  stranger = await t.createAccount({ balance: "10" });
  resetModel();
});

/** Forgets recorded requests; the model follows `plans` (reset alone restores the echo). */
function resetModel() {
  fake.reset();
  fake.respondWith((request) => {
    const plan = plans.get(lastUserMessage(request));
    return plan ? plan(resultsThisTurn(request), request) : { content: "How can I help?" };
  });
}

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await receiver?.close();
});

const gql = <Data>(query: string, variables: Record<string, unknown> = {}, account = owner) =>
  t.gql<Data>(query, variables, { token: account.apiKey });

async function assistantWithWebhooks(input: Record<string, unknown> = {}): Promise<Assistant> {
  return createAssistant(t, owner, {
    isWebhookActive: true,
    webhookUrl: receiver.url,
    allowedOrigins: ["https://shop.example"],
    ...input,
  });
}

async function widgetConversation(assistant: Assistant, variables: Record<string, unknown> = {}) {
  const started = await t.rest<{ conversation_id: string }>(
    "POST",
    `/api/widget/assistants/${assistant.uuid}/conversations`,
    { body: { variables }, headers: { origin: "https://shop.example" } },
  );
  expect(started.status).toBe(201);
  return started.body.conversation_id;
}

const say = async (conversationId: string, message: string) => {
  const response = await t.rest<{ message: string }>(
    "POST",
    `/api/conversations/${conversationId}/messages`,
    {
      body: { message },
      headers: { origin: "https://shop.example" },
    },
  );
  expect(response.status).toBe(200);
  return response.body.message;
};

const SETTINGS = `mutation ($input: SetChatHandoffSettingsInput!) {
  setChatHandoffSettings(input: $input) {
    assistantId requestHuman timezone humanHours { mon { start end } sat { start end } }
    targets { assistantId name description }
  }
}`;

const CONVERSATION = `query ($id: ID!) {
  conversation(id: $id) { id assistantId activeAssistantId handoffCount waitingForHuman humanRequestedAt aiDisabled }
}`;

interface ConversationView {
  assistantId: number;
  activeAssistantId: number;
  handoffCount: number;
  waitingForHuman: boolean;
  humanRequestedAt: string | null;
  aiDisabled: boolean;
}

async function conversation(id: string): Promise<ConversationView> {
  const response = await gql<{ conversation: ConversationView }>(CONVERSATION, { id });
  expect(response.errors).toBeUndefined();
  return response.data!.conversation;
}

/** request_human, then the sentence its result asks for. */
const asksForPerson: Plan = (results) =>
  results.length === 0
    ? call("request_human", { reason: "wants a person" })
    : { content: results[0]!.tell_customer ?? `error: ${results[0]!.error}` };

describe("request_human in chat", () => {
  it("is offered only when the assistant enables it", async () => {
    const assistant = await assistantWithWebhooks();
    plans.set("Hi there", () => ({ content: "Hello!" }));
    resetModel();
    await say(await widgetConversation(assistant), "Hi there");
    expect(offered(fake.chatRequests.at(-1)!)).not.toContain("request_human");
  });

  it("marks a widget conversation waiting once, tells the customer, notifies operators, and takeover answers it", async () => {
    clock.set(OPEN);
    const assistant = await assistantWithWebhooks();
    const set = await gql<{ setChatHandoffSettings: { requestHuman: boolean; timezone: string } }>(SETTINGS, {
      input: {
        assistantId: assistant.id,
        requestHuman: true,
        timezone: "Europe/Berlin",
        humanHours: hoursWeekdays,
      },
    });
    expect(set.errors).toBeUndefined();
    expect(set.data!.setChatHandoffSettings).toMatchObject({ requestHuman: true, timezone: "Europe/Berlin" });

    const id = await widgetConversation(assistant);
    plans.set("Can I talk to a person?", asksForPerson);
    expect(await say(id, "Can I talk to a person?")).toBe(
      "A person of our team has been asked to join and will answer here shortly.",
    );
    const waiting = await conversation(id);
    expect(waiting.waitingForHuman).toBe(true);
    expect(waiting.humanRequestedAt).toBe(new Date(OPEN).toISOString());

    // Operators find it with the filter (the console's badge counts these).
    const list = await gql<{ conversations: { items: { id: string }[]; pageInfo: { total: number } } }>(
      `query { conversations(waitingForHuman: true) { items { id } pageInfo { total } } }`,
    );
    expect(list.data!.conversations.items.map((item) => item.id)).toContain(id);
    const strangers = await gql<{ conversations: { pageInfo: { total: number } } }>(
      `query { conversations(waitingForHuman: true) { pageInfo { total } } }`,
      {},
      stranger,
    );
    expect(strangers.data!.conversations.pageInfo.total).toBe(0);

    const hook = await receiver.waitFor(
      (request) =>
        request.json.type === "conversation.human_requested" && request.json.data.conversation_id === id,
    );
    expect(hook.json.data).toMatchObject({
      conversation_id: id,
      channel: "widget",
      assistant_id: assistant.id,
      reason: "wants a person",
      requested_at: new Date(OPEN).toISOString(),
      next_open_at: null,
    });

    // Asked again while waiting: the same answer, nothing new for operators.
    plans.set("Hello? A person please.", asksForPerson);
    resetModel();
    await say(id, "Hello? A person please.");
    const again = resultsThisTurn(fake.chatRequests.at(-1)!)[0]!;
    expect(again).toMatchObject({ waiting: true, already_requested: true });
    const events = await t.app.db.prisma.webhookEvent.count({
      where: { type: "conversation.human_requested", streamKey: `conversation:${id}` },
    });
    expect(events).toBe(1);

    const taken = await gql<{ takeOverConversation: { waitingForHuman: boolean; aiDisabled: boolean } }>(
      `mutation ($id: ID!) { takeOverConversation(id: $id) { waitingForHuman aiDisabled } }`,
      { id },
    );
    expect(taken.data!.takeOverConversation).toEqual({ waitingForHuman: false, aiDisabled: true });
    const notWaiting = await gql<{ conversations: { items: { id: string }[] } }>(
      `query { conversations(waitingForHuman: true) { items { id } } }`,
    );
    expect(notWaiting.data!.conversations.items.map((item) => item.id)).not.toContain(id);
  });

  it("outside the hours says when someone will answer, also by text", async () => {
    clock.set(CLOSED);
    const number: PhoneNumber = await telephonyFixtures(t).addNumber(owner);
    const assistant = await assistantWithWebhooks({ phoneNumberId: number.id });
    await gql(SETTINGS, {
      input: {
        assistantId: assistant.id,
        requestHuman: true,
        timezone: "Europe/Berlin",
        humanHours: hoursWeekdays,
      },
    });
    const customer = uniqueUsNumber();
    plans.set("Real person please", asksForPerson);
    const sent = await gql<{ simulateIncomingText: { text: { id: number } } }>(
      `mutation ($input: SimulateIncomingTextInput!) { simulateIncomingText(input: $input) { text { id } } }`,
      { input: { to: number.phoneNumber, from: customer, body: "Real person please" } },
    );
    expect(sent.errors).toBeUndefined();
    // The reply is made by a background job: wait (bounded by the test's timeout) for the text back.
    let reply = null;
    while (!reply) {
      reply = await t.app.db.prisma.textMessage.findFirst({
        where: { accountId: owner.accountId, direction: "outbound", to: customer },
      });
      if (!reply) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(reply.body).toBe(
      "Nobody of our team is available right now; someone will answer here from Monday 09:00 (Europe/Berlin).",
    );
    const stored = await t.app.db.prisma.conversation.findFirstOrThrow({
      where: { assistantId: assistant.id, channel: "sms", customerIdentifier: customer },
    });
    expect(stored.humanRequestedAt).not.toBeNull();
    const hook = await receiver.waitFor(
      (request) =>
        request.json.type === "conversation.human_requested" &&
        request.json.data.conversation_id === stored.id,
    );
    expect(hook.json.data).toMatchObject({
      channel: "sms",
      customer_identifier: customer,
      next_open_at: "2026-03-09T08:00:00.000Z",
    });
  });

  it("validates the settings", async () => {
    const assistant = await assistantWithWebhooks();
    const bad = await gql(SETTINGS, {
      input: {
        assistantId: assistant.id,
        timezone: "Mars/Olympus",
        humanHours: { mon: [{ start: "18:00", end: "09:00" }] },
      },
    });
    expect(bad.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const foreign = await gql(
      SETTINGS,
      { input: { assistantId: assistant.id, requestHuman: true } },
      stranger,
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("ASSISTANT_NOT_FOUND");
  });
});

describe("handoff between assistants in chat", () => {
  it("moves the conversation with its transcript and variables; the new assistant answers from the next message", async () => {
    clock.set(OPEN);
    const reception = await assistantWithWebhooks({ name: "Reception", systemPrompt: "You are Reception." });
    const bookings = await assistantWithWebhooks({
      name: "Bookings",
      systemPrompt: "You are Bookings, helping {{customer}}.",
      allowedOrigins: [],
    });
    const foreign = await createAssistant(t, stranger, { name: "Elsewhere" });

    // Another account's assistant is never a target; nor is the assistant itself.
    const crossAccount = await gql(SETTINGS, {
      input: { assistantId: reception.id, targets: [{ assistantId: foreign.id, description: "Other" }] },
    });
    expect(crossAccount.errors?.[0]?.extensions?.code).toBe("ASSISTANT_NOT_FOUND");
    const itself = await gql(SETTINGS, {
      input: { assistantId: reception.id, targets: [{ assistantId: reception.id, description: "Me" }] },
    });
    expect(itself.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");

    const configured = await gql<{
      setChatHandoffSettings: { targets: { assistantId: number; name: string }[] };
    }>(SETTINGS, {
      input: {
        assistantId: reception.id,
        targets: [{ assistantId: bookings.id, description: "Books appointments." }],
      },
    });
    expect(configured.data!.setChatHandoffSettings.targets).toEqual([
      { assistantId: bookings.id, name: "Bookings", description: "Books appointments." },
    ]);
    await gql(SETTINGS, {
      input: {
        assistantId: bookings.id,
        targets: [{ assistantId: reception.id, description: "General questions." }],
      },
    });

    const id = await widgetConversation(reception, { customer: "Ada" });
    plans.set("I want to book", (results, request) => {
      expect(systemPrompt(request)).toContain("You are Reception.");
      const handoff = request.tools?.find((tool) => tool.function.name === "handoff");
      expect(handoff?.function.description).toContain(`${bookings.id}: Bookings. Books appointments.`);
      return results.length === 0
        ? call("handoff", { assistant_id: bookings.id, reason: "booking" })
        : { content: "Our booking desk takes over now." };
    });
    expect(await say(id, "I want to book")).toBe("Our booking desk takes over now.");
    expect(await conversation(id)).toMatchObject({
      assistantId: reception.id,
      activeAssistantId: bookings.id,
      handoffCount: 1,
    });
    const hook = await receiver.waitFor(
      (request) =>
        request.json.type === "conversation.handed_off" && request.json.data.conversation_id === id,
    );
    expect(hook.json.data).toMatchObject({
      from_assistant_id: reception.id,
      to_assistant_id: bookings.id,
      reason: "booking",
      handoff_count: 1,
    });

    // Bookings answers, with the transcript and the conversation's variables; handing straight
    // back is refused (the loop bound), and the page's own assistant still decides the origins.
    resetModel();
    plans.set("Tuesday at 10?", (results, request) => {
      expect(systemPrompt(request)).toContain("You are Bookings, helping Ada.");
      expect(request.messages.some((message) => message.content === "I want to book")).toBe(true);
      return results.length === 0
        ? call("handoff", { assistant_id: reception.id })
        : { content: `Bookings: ${results[0]!.error ?? "handed"}` };
    });
    const answer = await say(id, "Tuesday at 10?");
    expect(answer).toMatch(/^Bookings: .*handed this conversation over only recently/);
    expect(await conversation(id)).toMatchObject({ activeAssistantId: bookings.id, handoffCount: 1 });
    const elsewhere = await t.rest("POST", `/api/conversations/${id}/messages`, {
      body: { message: "Hi" },
      headers: { origin: "https://evil.example" },
    });
    expect(elsewhere.status).toBe(403);
  });

  it("keeps a handed-off text conversation: the customer's next text is answered by the new assistant", async () => {
    const number = await telephonyFixtures(t).addNumber(owner);
    const front = await assistantWithWebhooks({
      name: "Front",
      systemPrompt: "You are Front.",
      phoneNumberId: number.id,
    });
    const spanish = await assistantWithWebhooks({
      name: "Spanish",
      systemPrompt: "Eres el asistente en español.",
    });
    await gql(SETTINGS, {
      input: {
        assistantId: front.id,
        targets: [{ assistantId: spanish.id, description: "Speaks Spanish." }],
      },
    });
    const customer = uniqueUsNumber();
    plans.set("Hablas español?", (results) =>
      results.length === 0 ? call("handoff", { assistant_id: spanish.id }) : { content: "One moment." },
    );
    plans.set("Quiero una cita", (_results, request) => ({
      content: systemPrompt(request).includes("Eres el asistente") ? "¡Claro!" : "wrong assistant",
    }));
    const text = async (body: string, count: number) => {
      await gql(
        `mutation ($input: SimulateIncomingTextInput!) { simulateIncomingText(input: $input) { text { id } } }`,
        { input: { to: number.phoneNumber, from: customer, body } },
      );
      for (;;) {
        const replies = await t.app.db.prisma.textMessage.findMany({
          where: { direction: "outbound", to: customer },
          orderBy: { id: "asc" },
        });
        if (replies.length >= count) return replies.at(-1)!.body;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    expect(await text("Hablas español?", 1)).toBe("One moment.");
    expect(await text("Quiero una cita", 2)).toBe("¡Claro!");
    const conversations = await t.app.db.prisma.conversation.findMany({
      where: { accountId: owner.accountId, channel: "sms", customerIdentifier: customer },
    });
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({ assistantId: front.id, activeAssistantId: spanish.id });
  });

  it("gives the conversation back to its own assistant when the one it was handed to is deleted", async () => {
    const own = await assistantWithWebhooks({ name: "Own", systemPrompt: "You are Own." });
    const gone = await assistantWithWebhooks({ name: "Gone", systemPrompt: "You are Gone." });
    await gql(SETTINGS, {
      input: { assistantId: own.id, targets: [{ assistantId: gone.id, description: "Soon deleted." }] },
    });
    const id = await widgetConversation(own);
    plans.set("Hand me over", (results) =>
      results.length === 0 ? call("handoff", { assistant_id: gone.id }) : { content: "Over." },
    );
    plans.set("Who is this?", (_results, request) => ({
      content: systemPrompt(request).includes("You are Own.") ? "Own again." : "someone else",
    }));
    await say(id, "Hand me over");
    expect((await conversation(id)).activeAssistantId).toBe(gone.id);
    await t.app.services.assistants.delete(owner.accountId, gone.id);
    expect(await say(id, "Who is this?")).toBe("Own again.");
  });

  it("bounds hand-offs per conversation", async () => {
    const chain = await Promise.all(
      ["One", "Two", "Three", "Four"].map((name) =>
        assistantWithWebhooks({ name, systemPrompt: `You are ${name}.` }),
      ),
    );
    for (const [index, assistant] of chain.entries()) {
      const next = chain[(index + 1) % chain.length]!;
      await gql(SETTINGS, {
        input: { assistantId: assistant.id, targets: [{ assistantId: next.id, description: "Next." }] },
      });
    }
    const id = await widgetConversation(chain[0]!);
    plans.set("Pass it on", (results, request) => {
      const me = chain.findIndex((assistant) => systemPrompt(request).includes(`You are ${assistant.name}.`));
      return results.length === 0
        ? call("handoff", { assistant_id: chain[(me + 1) % chain.length]!.id })
        : { content: results[0]!.error ?? "passed" };
    });
    const answers = [];
    for (let turn = 0; turn < 6; turn++) answers.push(await say(id, "Pass it on"));
    // One→Two→Three→Four→One→Two: five hand-offs, then the sixth is refused.
    expect(answers.slice(0, 5)).toEqual(Array(5).fill("passed"));
    expect(answers[5]).toMatch(/handed off 5 times already/);
    expect(await conversation(id)).toMatchObject({ handoffCount: 5, activeAssistantId: chain[1]!.id });
  });
});
