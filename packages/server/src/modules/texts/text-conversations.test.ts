import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { ManualClock, startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { PhoneNumber, TextMessage } from "../../generated/prisma/client.ts";
import { STALE_CLAIM_MS } from "./text-sweep.ts";

/**
 * Conversations by text on the simulated carrier, answered by the fake OpenAI over HTTP: a text to
 * a number with an assistant opens an sms conversation answered through the message pipeline, the
 * reply texted back and billed; STOP, takeover and quiet hours; the sweep of queued texts.
 */

let t: TestApp;
let fake: FakeOpenAI;
let clock: ManualClock;
let owner: TestAccount;
let number: PhoneNumber;

const prisma = () => t.app.db.prisma;

/** Polls until `read` gives a value `done` accepts; the test's own timeout bounds the wait. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const incoming = (to: string, from: string, body: string) =>
  t.gql<{ simulateIncomingText: { text: { id: number }; reply: string | null } }>(
    `mutation ($input: SimulateIncomingTextInput!) { simulateIncomingText(input: $input) { text { id } reply } }`,
    { input: { to, from, body } },
    { token: owner.apiKey },
  );

/**
 * A text recorded as `receiveText` records it, without its job: the state a process that stopped
 * leaves for the job's next run, which the test then makes itself (`answer`).
 */
const arrived = (to: string, from: string, body: string) =>
  prisma().textMessage.create({
    data: {
      accountId: owner.accountId,
      direction: "inbound",
      from,
      to,
      body,
      encoding: "GSM-7",
      segments: 1,
      status: "received",
      providerName: "simulated",
      providerMessageId: `SIMSM${randomBytes(16).toString("hex")}`,
    },
  });

/** The inbound text once its job has linked it to its conversation message. */
const answered = (textId: number) =>
  until(
    () => prisma().textMessage.findUniqueOrThrow({ where: { id: textId } }),
    (text) => text.messageId !== null,
  );

const repliesTo = (customer: string) =>
  prisma().textMessage.findMany({ where: { direction: "outbound", to: customer }, orderBy: { id: "asc" } });

/** The replies texted to `customer` once there are `count`, each handed to the carrier. */
const repliesSent = (customer: string, count: number) =>
  until(
    () => repliesTo(customer),
    (texts) => texts.length === count && texts.every((text) => text.providerMessageId !== null),
  );

const ledgerKinds = async (where: { textMessageId?: number; description?: { contains: string } }) =>
  (await prisma().ledgerEntry.findMany({ where, orderBy: { id: "asc" } })).map(
    (entry) => `${entry.kind} ${entry.amount.toFixed(4)}`,
  );

/** Quiet hours around the clock's present moment, in UTC: from an hour ago to two hours on. */
function quietAroundNow() {
  const now = clock.now();
  const hhmm = (at: Date) =>
    `${String(at.getUTCHours()).padStart(2, "0")}:${String(at.getUTCMinutes()).padStart(2, "0")}`;
  return {
    start: hhmm(new Date(now.getTime() - 60 * 60_000)),
    end: hhmm(new Date(now.getTime() + 2 * 60 * 60_000)),
  };
}

const setQuietHours = (input: { start: string | null; end: string | null }) =>
  t.gql<{ setTextQuietHours: { start: string; end: string; timezone: string } | null }>(
    `mutation ($input: SetTextQuietHoursInput!) { setTextQuietHours(input: $input) { start end timezone } }`,
    { input },
    { token: owner.apiKey },
  );

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // Real time, held still: texts' arrival times (the database's clock) and the services' agree.
  clock = new ManualClock(new Date());
  t = await startTestApp({
    model: fake,
    clock,
    // The sweep runs once at start and then only when the tests call it.
    env: {
      VOXGATE_SMS_PRICE_PER_SEGMENT: "0.0200",
      VOXGATE_MESSAGE_PRICE: "0.0100",
      VOXGATE_TEXT_SWEEP_MS: "3600000",
      VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "3",
    },
  });
  owner = await t.createAccount({ balance: "10" });
  number = await telephonyFixtures(t).addNumber(owner);
  await createAssistant(t, owner, { phoneNumberId: number.id, systemPrompt: "You are the front desk." });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("a conversation by text", () => {
  it("answers a text through the pipeline and texts the reply back, billed; the next text continues it", async () => {
    fake.reset();
    fake.enqueue({ content: "We are open until 6pm today." }, { content: "Yes, on Saturdays 9 to 1." });
    const customer = uniqueUsNumber();
    const first = await incoming(number.phoneNumber, customer, "When are you open?");
    expect(first.errors).toBeUndefined();
    // Not a keyword: nothing fixed is answered; the assistant's reply comes as a text of its own.
    expect(first.data!.simulateIncomingText.reply).toBeNull();
    const inbound = await answered(first.data!.simulateIncomingText.text.id);

    const conversation = await prisma().conversation.findUniqueOrThrow({
      where: { id: inbound.conversationId! },
    });
    expect(conversation).toMatchObject({ channel: "sms", customerIdentifier: customer, aiDisabled: false });
    const messages = await prisma().message.findMany({
      where: { conversationId: conversation.id },
      orderBy: { id: "asc" },
    });
    expect(messages.map((message) => [message.role, message.content])).toEqual([
      ["user", "When are you open?"],
      ["assistant", "We are open until 6pm today."],
    ]);
    expect(inbound.messageId).toBe(messages[0]!.id);
    expect(fake.chatRequests[0]!.messages.at(-1)).toMatchObject({
      role: "user",
      content: "When are you open?",
    });
    // The model is told it writes a text message, so that it keeps it short rather than being cut.
    expect(fake.chatRequests[0]!.messages[0]!.content).toContain("This conversation is by SMS text message.");

    const [reply] = await repliesSent(customer, 1);
    expect(reply).toMatchObject({
      from: number.phoneNumber,
      body: "We are open until 6pm today.",
      conversationId: conversation.id,
      messageId: messages[1]!.id,
      segments: 1,
    });
    expect(reply!.providerMessageId).toMatch(/^SIMSM/);
    // The exchange is charged like a widget message, the text per segment.
    expect(await ledgerKinds({ textMessageId: reply!.id })).toEqual(["sms_debit -0.0200"]);
    expect(await ledgerKinds({ description: { contains: conversation.id } })).toEqual([
      "message_debit -0.0100",
    ]);

    const second = await incoming(number.phoneNumber, customer, "And on weekends?");
    const next = await answered(second.data!.simulateIncomingText.text.id);
    expect(next.conversationId).toBe(conversation.id);
    await repliesSent(customer, 2);
    // The model saw the first exchange.
    expect(fake.chatRequests[1]!.messages.map((message) => message.content)).toEqual(
      expect.arrayContaining(["When are you open?", "We are open until 6pm today.", "And on weekends?"]),
    );

    // The inbox shows it among the account's conversations, and by its channel.
    const inbox = await t.gql<{ conversations: { items: { id: string; channel: string }[] } }>(
      `{ conversations(channel: sms) { items { id channel customerIdentifier } } }`,
      {},
      { token: owner.apiKey },
    );
    expect(inbox.errors).toBeUndefined();
    expect(inbox.data!.conversations.items).toContainEqual(
      expect.objectContaining({ id: conversation.id, channel: "sms" }),
    );
  });

  it("answers no faster than a widget conversation may write: past the limit, texts are stored unanswered", async () => {
    fake.reset();
    const customer = uniqueUsNumber();
    for (const body of ["one", "two", "three", "four"]) {
      const sent = await incoming(number.phoneNumber, customer, body);
      await answered(sent.data!.simulateIncomingText.text.id);
    }
    expect(fake.chatRequests).toHaveLength(3);
    const texts = await repliesSent(customer, 3);
    const { conversationId } = texts[0]!;
    const messages = await prisma().message.findMany({
      where: { conversationId: conversationId! },
      orderBy: { id: "asc" },
    });
    expect(messages.at(-1)).toMatchObject({ role: "user", content: "four" });
    expect(messages.filter((message) => message.role === "assistant")).toHaveLength(3);
  });

  it("answers STOP itself, never by the AI, and then texts the customer nothing", async () => {
    fake.reset();
    const customer = uniqueUsNumber();
    const stop = await incoming(number.phoneNumber, customer, "STOP");
    expect(stop.data!.simulateIncomingText.reply).toMatch(/unsubscribed/);
    const later = await incoming(number.phoneNumber, customer, "Are you there?");
    const inbound = await answered(later.data!.simulateIncomingText.text.id);
    // Shown in the conversation, not answered: the customer opted out.
    const messages = await prisma().message.findMany({ where: { conversationId: inbound.conversationId! } });
    expect(messages.map((message) => [message.role, message.content])).toEqual([["user", "Are you there?"]]);
    expect(fake.chatRequests).toHaveLength(0);
    expect(await repliesTo(customer)).toEqual([]);
    const stopText = await prisma().textMessage.findUniqueOrThrow({
      where: { id: stop.data!.simulateIncomingText.text.id },
    });
    expect(stopText.conversationId).toBeNull();
  });

  it("while taken over, stores texts unanswered, and texts the operator's message to the customer", async () => {
    fake.reset();
    fake.enqueue({ content: "Hello! How can I help?" });
    const customer = uniqueUsNumber();
    const first = await incoming(number.phoneNumber, customer, "Hi");
    const { conversationId } = await answered(first.data!.simulateIncomingText.text.id);
    await repliesSent(customer, 1);
    const takeOver = await t.gql(
      `mutation ($id: ID!) { takeOverConversation(id: $id) { aiDisabled } }`,
      { id: conversationId },
      { token: owner.apiKey },
    );
    expect(takeOver.errors).toBeUndefined();

    const second = await incoming(number.phoneNumber, customer, "I want a person");
    await answered(second.data!.simulateIncomingText.text.id);
    expect(fake.chatRequests).toHaveLength(1);
    expect(await repliesTo(customer)).toHaveLength(1);

    const sent = await t.gql<{ sendOperatorMessage: { id: number; role: string } }>(
      `mutation ($input: SendOperatorMessageInput!) { sendOperatorMessage(input: $input) { id role } }`,
      { input: { conversationId, content: "This is Dana from the front desk." } },
      { token: owner.apiKey },
    );
    expect(sent.errors).toBeUndefined();
    const texts = await repliesTo(customer);
    expect(texts).toHaveLength(2);
    expect(texts[1]).toMatchObject({
      from: number.phoneNumber,
      body: "This is Dana from the front desk.",
      conversationId,
      messageId: Number(sent.data!.sendOperatorMessage.id),
    });
    expect(await ledgerKinds({ textMessageId: texts[1]!.id })).toEqual(["sms_debit -0.0200"]);

    // Once the customer opts out, an operator's message is refused before it is stored.
    await incoming(number.phoneNumber, customer, "STOP");
    const refused = await t.gql(
      `mutation ($input: SendOperatorMessageInput!) { sendOperatorMessage(input: $input) { id } }`,
      { input: { conversationId, content: "Still there?" } },
      { token: owner.apiKey },
    );
    expect(refused.errors?.[0]?.extensions?.code).toBe("RECIPIENT_OPTED_OUT");
    expect(
      await prisma().message.count({ where: { conversationId: conversationId!, role: "operator" } }),
    ).toBe(1);
  });

  it("after a stop between storing the reply and texting it, texts the stored reply without asking the model again", async () => {
    const late = await telephonyFixtures(t).addNumber(owner);
    const customer = uniqueUsNumber();
    const textId = (await arrived(late.phoneNumber, customer, "Can I book for Friday?")).id;
    const assistant = await createAssistant(t, owner, { phoneNumberId: late.id });
    // What a run cut short after the pipeline stored the exchange leaves behind.
    fake.reset();
    fake.enqueue({ content: "Friday works: 10am or 2pm?" });
    const conversation = await prisma().conversation.create({
      data: {
        accountId: owner.accountId,
        assistantId: assistant.id,
        channel: "sms",
        customerIdentifier: customer,
      },
    });
    const pipeline = t.app.services.messagePipeline;
    await pipeline.process(
      (await pipeline.conversation(conversation.id))!,
      "Can I book for Friday?",
      {},
      {
        price: "0.0100",
        kind: "message_debit",
      },
    );
    expect(fake.chatRequests).toHaveLength(1);

    await t.app.services.textConversations.answer(textId);
    await t.app.services.textConversations.answer(textId);
    expect(fake.chatRequests).toHaveLength(1);
    const texts = await repliesTo(customer);
    expect(texts.map((text) => text.body)).toEqual(["Friday works: 10am or 2pm?"]);
    expect(await prisma().message.count({ where: { conversationId: conversation.id } })).toBe(2);
  });
});

describe("accounts that may not answer", () => {
  it("leaves a suspended account's text recorded and unanswered", async () => {
    const customer = uniqueUsNumber();
    const text = await arrived(number.phoneNumber, customer, "Hello?");
    await prisma().account.update({ where: { id: owner.accountId }, data: { suspendedAt: new Date() } });
    try {
      fake.reset();
      await t.app.services.textConversations.answer(text.id);
    } finally {
      await prisma().account.update({ where: { id: owner.accountId }, data: { suspendedAt: null } });
    }
    expect(fake.chatRequests).toHaveLength(0);
    expect(await prisma().textMessage.findUniqueOrThrow({ where: { id: text.id } })).toMatchObject({
      conversationId: null,
      messageId: null,
    });
    expect(await repliesTo(customer)).toEqual([]);
  });
});

describe("quiet hours", () => {
  it("holds a text sent in quiet hours until they end, but not a reply to a customer who just texted", async () => {
    const hours = quietAroundNow();
    const set = await setQuietHours(hours);
    expect(set.errors).toBeUndefined();
    expect(set.data!.setTextQuietHours).toEqual({ ...hours, timezone: "UTC" });
    const invalid = await setQuietHours({ start: "25:00", end: null });
    expect(invalid.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");

    const stranger = uniqueUsNumber();
    const held = await t.gql<{
      sendText: { id: number; status: string; sendAt: string | null; cost: string };
    }>(
      `mutation ($input: SendTextInput!) { sendText(input: $input) { id status sendAt cost } }`,
      { input: { from: number.phoneNumber, to: stranger, body: "Your order has shipped." } },
      { token: owner.apiKey },
    );
    expect(held.errors).toBeUndefined();
    const scheduled = held.data!.sendText;
    expect(scheduled).toMatchObject({ status: "scheduled", cost: "0.0200" });
    const endsAt = new Date(scheduled.sendAt!);
    expect(endsAt.getTime()).toBeGreaterThan(clock.now().getTime());
    expect(endsAt.getUTCHours() * 60 + endsAt.getUTCMinutes()).toBe(
      Number(hours.end.slice(0, 2)) * 60 + Number(hours.end.slice(3)),
    );

    // A customer who texted a moment ago is answered at once.
    fake.reset();
    fake.enqueue({ content: "Yes, we deliver." });
    const customer = uniqueUsNumber();
    const asked = await incoming(number.phoneNumber, customer, "Do you deliver?");
    await answered(asked.data!.simulateIncomingText.text.id);
    const [reply] = await repliesSent(customer, 1);
    expect(reply!.status).not.toBe("scheduled");
    expect(reply!.providerMessageId).not.toBeNull();

    // The sweep leaves it until the hours end, then sends it.
    expect(await t.app.services.textSendQueue.sendDue()).toBe(0);
    clock.set(endsAt);
    expect(await t.app.services.textSendQueue.sendDue()).toBe(1);
    const sent = await prisma().textMessage.findUniqueOrThrow({ where: { id: scheduled.id } });
    expect(sent.status).not.toBe("scheduled");
    expect(sent.providerMessageId).toMatch(/^SIMSM/);
    expect(await ledgerKinds({ textMessageId: sent.id })).toEqual(["sms_debit -0.0200"]);
    await setQuietHours({ start: null, end: null });
  });
});

describe("the sweep of texts left queued", () => {
  /** A text charged and queued by an instance that stopped before handing it to the carrier. */
  async function leftQueued(to: string, claimedMinutesAgo: number): Promise<TextMessage> {
    await setQuietHours(quietAroundNow());
    const text = await t.app.services.texts.send(owner.accountId, {
      from: number.phoneNumber,
      to,
      body: "Reminder",
    });
    await setQuietHours({ start: null, end: null });
    return prisma().textMessage.update({
      where: { id: text.id },
      data: {
        status: "queued",
        sendAt: null,
        claimedAt: new Date(clock.now().getTime() - claimedMinutesAgo * 60_000),
      },
    });
  }

  it("sends a text a stopped instance left queued, once, whichever instances sweep at the same time", async () => {
    const fresh = await leftQueued(uniqueUsNumber(), 1);
    const stale = await leftQueued(uniqueUsNumber(), STALE_CLAIM_MS / 60_000 + 1);
    const [a, b] = await Promise.all([
      t.app.services.textSendQueue.sendDue(),
      t.app.services.textSendQueue.sendDue(),
    ]);
    expect(a + b).toBe(1);
    const after = await prisma().textMessage.findUniqueOrThrow({ where: { id: stale.id } });
    expect(after.providerMessageId).toMatch(/^SIMSM/);
    expect(await ledgerKinds({ textMessageId: stale.id })).toEqual(["sms_debit -0.0200"]);
    // A claim younger than the stale limit may still be on its way to the carrier: left alone.
    expect(
      (await prisma().textMessage.findUniqueOrThrow({ where: { id: fresh.id } })).providerMessageId,
    ).toBeNull();
    expect(await t.app.services.textSendQueue.sendDue()).toBe(0);
  });

  it("fails and refunds a text it finds too late, or whose recipient opted out meanwhile", async () => {
    const customer = uniqueUsNumber();
    const optedOut = await leftQueued(customer, STALE_CLAIM_MS / 60_000 + 1);
    await incoming(number.phoneNumber, customer, "STOP");
    const old = await leftQueued(uniqueUsNumber(), STALE_CLAIM_MS / 60_000 + 1);
    await prisma()
      .$executeRaw`UPDATE "text_messages" SET "createdAt" = "createdAt" - interval '2 days' WHERE "id" = ${old.id}`;
    await t.app.services.textSendQueue.sendDue();
    for (const text of [optedOut, old]) {
      const after = await prisma().textMessage.findUniqueOrThrow({ where: { id: text.id } });
      expect(after).toMatchObject({ status: "failed", providerMessageId: null });
      expect(await ledgerKinds({ textMessageId: text.id })).toEqual([
        "sms_debit -0.0200",
        "adjustment 0.0200",
      ]);
    }
  });
});
