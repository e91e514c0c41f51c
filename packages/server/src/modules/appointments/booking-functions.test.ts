import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import {
  type FakeChatReply,
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../test/support/fake-openai.ts";
import { findRadicale, type RunningRadicale, startRadicale } from "../../../test/support/radicale.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Assistant, Call } from "../../generated/prisma/client.ts";
import { CalDavProvider } from "../calendars/index.ts";

/**
 * The calendar functions end to end: a scripted model (the fake OpenAI server) books, moves and
 * cancels through the reply engine in a widget conversation, through /ai/generate-reply and on a
 * simulated phone call, and the real CalDAV server (Radicale) shows what it did.
 */

const PASSWORD = `alice-${randomBytes(6).toString("hex")}`;

/** What the model sees of a tool message: the function's result (or its error), parsed. */
type ToolResult = Record<string, unknown> & {
  slots?: { start: string; when: string }[];
  appointment_id?: number;
  appointments?: { appointment_id: number; start: string }[];
  error?: string;
};

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

/** A model that follows a plan per customer message: step n answers after n tool results. */
type Plan = (results: ToolResult[]) => FakeChatReply;

const call = (name: string, args: Record<string, unknown>): FakeChatReply => ({
  toolCalls: [{ name, arguments: args }],
});

/** A weekday at least a week ahead, as YYYY-MM-DD: far from the minimum notice, inside the horizon. */
function weekdayAhead(days: number): string {
  const date = new Date(Date.now() + days * 86_400_000);
  while (date.getUTCDay() === 0 || date.getUTCDay() === 6) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

describe.skipIf(!findRadicale())("calendar functions through the reply engine", () => {
  let radicale: RunningRadicale;
  let calendarUrl: string;
  let fake: FakeOpenAI;
  let t: TestApp;
  let owner: TestAccount;
  let typeId: number;
  const plans = new Map<string, Plan>();
  const finished = new Map<number, (call: Call) => void>();
  const provider = new CalDavProvider({ timeoutMs: 10_000, allowList: ["127.0.0.1"] });
  const day = weekdayAhead(10);
  const otherDay = weekdayAhead(17);

  const calendarEvents = async (date: string) =>
    (
      await provider.busy(
        { url: calendarUrl, readUrls: [], username: "alice", secret: PASSWORD },
        { start: Date.parse(`${date}T00:00:00Z`), end: Date.parse(`${date}T23:59:59Z`) },
        "UTC",
      )
    ).map((interval) => new Date(interval.start).toISOString());

  /** The tool results of every request answering `message`, flattened in order of arrival. */
  const resultsFor = (message: string) => {
    const requests = fake.chatRequests.filter((request) => lastUserMessage(request) === message);
    return requests.length === 0 ? [] : resultsThisTurn(requests.at(-1)!);
  };

  beforeAll(async () => {
    radicale = await startRadicale({ alice: PASSWORD });
    calendarUrl = await radicale.makeCalendar("alice", "practice");
    fake = await startFakeOpenAI();
    t = await startTestApp({
      model: fake,
      env: {
        VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
        VOXGATE_SECRETS_KEY: randomBytes(32).toString("base64"),
        VOXGATE_CALL_CLOCK_SPEED: "20",
        VOXGATE_SMS_PRICE_PER_SEGMENT: "0.0300",
      },
    });
    t.app.services.bus.on("call.finished", async ({ call: ended }) => finished.get(ended.id)?.(ended));
    owner = await t.createAccount({ balance: "10" });
    const connection = await t.app.services.calendars.createConnection(owner.accountId, {
      name: "Practice",
      provider: "caldav",
      url: calendarUrl,
      username: "alice",
      password: PASSWORD,
    });
    typeId = (
      await t.app.services.calendars.createAppointmentType(owner.accountId, {
        connectionId: connection.id,
        name: "Consultation",
        durationMinutes: 60,
        slotGranularityMinutes: 60,
        timezone: "Europe/Berlin",
        businessHours: Object.fromEntries(
          ["mon", "tue", "wed", "thu", "fri"].map((weekday) => [weekday, [{ start: "09:00", end: "12:00" }]]),
        ),
        horizonDays: 90,
      })
    ).id;
    fake.respondWith((request) => {
      if (request.messages[0]?.content?.includes("just answered a phone call"))
        return { content: "Yes, I would like an appointment, please." };
      const plan = plans.get(lastUserMessage(request)) ?? plans.get("*");
      return plan ? plan(resultsThisTurn(request)) : { content: "How can I help?" };
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
    await radicale?.stop();
  });

  async function widgetConversation(assistant: Assistant): Promise<string> {
    const started = await t.rest<{ conversation_id: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {}, headers: { origin: "https://shop.example" } },
    );
    expect(started.status).toBe(201);
    return started.body.conversation_id;
  }
  const say = (conversationId: string, message: string) =>
    t.rest<{ message: string; function_calls: { name: string; succeeded: boolean }[] }>(
      "POST",
      `/api/conversations/${conversationId}/messages`,
      { body: { message } },
    );

  it("books, moves and cancels in widget conversations; a retry books once, and others are not offered the slot", async () => {
    const assistant = await createAssistant(t, owner, {
      appointmentTypeIds: [typeId],
      timezone: "Europe/Berlin",
    });

    // Grace asks for the day: the model checks, books the first slot, then (a retry) books it again.
    const ask = `Book me on ${day}`;
    plans.set(ask, (results) => {
      if (results.length === 0) return call("check_availability", { date: day });
      const slot = results[0]!.slots![0]!;
      const booking = { start: slot.start, customer_name: "Grace Hopper", email: "grace@example.com" };
      if (results.length <= 2) return call("book_appointment", booking);
      return { content: `Booked for ${slot.when}.` };
    });
    const grace = await widgetConversation(assistant);
    const reply = await say(grace, ask);
    expect(reply.status).toBe(200);
    expect(reply.body.function_calls).toEqual([
      { name: "check_availability", succeeded: true },
      { name: "book_appointment", succeeded: true },
      { name: "book_appointment", succeeded: true },
    ]);
    const [offered, first, retried] = resultsFor(ask);
    expect(offered!.timezone).toBe("Europe/Berlin");
    expect(offered!.slots!.map((slot) => slot.start)).toEqual([
      `${day}T09:00:00${offered!.slots![0]!.start.slice(-6)}`,
      `${day}T10:00:00${offered!.slots![0]!.start.slice(-6)}`,
      `${day}T11:00:00${offered!.slots![0]!.start.slice(-6)}`,
    ]);
    expect(offered!.slots![0]!.when).toMatch(/day, .* 9:00/);
    expect(retried!.appointment_id).toBe(first!.appointment_id);
    const bookedStart = new Date(offered!.slots![0]!.start).toISOString();
    expect(await calendarEvents(day)).toEqual([bookedStart]);
    const appointment = await t.app.db.prisma.appointment.findUniqueOrThrow({
      where: { id: first!.appointment_id! },
    });
    expect(appointment).toMatchObject({
      status: "booked",
      conversationId: grace,
      assistantId: assistant.id,
      callId: null,
      customerName: "Grace Hopper",
      customerEmail: "grace@example.com",
    });

    // Another customer asking for the same day is offered the other times only, and cannot touch Grace's booking.
    const other = `Anything on ${day}?`;
    plans.set(other, (results) =>
      results.length === 0
        ? call("check_availability", { date: day })
        : results.length === 1
          ? call("cancel_appointment", { appointment_id: first!.appointment_id })
          : { content: "Done." },
    );
    const linus = await widgetConversation(assistant);
    await say(linus, other);
    const [otherOffer, otherCancel] = resultsFor(other);
    expect(otherOffer!.slots!.map((slot) => new Date(slot.start).toISOString())).not.toContain(bookedStart);
    expect(otherOffer!.slots).toHaveLength(2);
    expect(otherCancel!.error).toContain("no upcoming appointment of this customer");
    expect(await calendarEvents(day)).toEqual([bookedStart]);

    // Grace moves it to another day, then cancels it: the calendar follows.
    const move = `Please move it to ${otherDay}`;
    plans.set(move, (results) => {
      if (results.length === 0) return call("find_appointments", {});
      if (results.length === 1) return call("check_availability", { date: otherDay });
      if (results.length === 2)
        return call("reschedule_appointment", {
          appointment_id: results[0]!.appointments![0]!.appointment_id,
          start: results[1]!.slots![1]!.start,
        });
      return { content: "Moved." };
    });
    await say(grace, move);
    const [found, , moved] = resultsFor(move);
    expect(found!.appointments!.map((entry) => entry.appointment_id)).toEqual([first!.appointment_id]);
    expect(moved!.error).toBeUndefined();
    expect(await calendarEvents(day)).toEqual([]);
    const movedStart = new Date(moved!.start as string).toISOString();
    expect(await calendarEvents(otherDay)).toEqual([movedStart]);

    const cancel = "Cancel it, please";
    plans.set(cancel, (results) =>
      results.length === 0
        ? call("cancel_appointment", { appointment_id: first!.appointment_id })
        : { content: "Cancelled." },
    );
    await say(grace, cancel);
    expect(resultsFor(cancel)[0]).toMatchObject({ status: "cancelled" });
    expect(await calendarEvents(otherDay)).toEqual([]);
    expect(
      (await t.app.db.prisma.appointment.findUniqueOrThrow({ where: { id: first!.appointment_id! } })).status,
    ).toBe("cancelled");
  });

  it("books through /ai/generate-reply, linked to the customer's conversation", async () => {
    const assistant = await createAssistant(t, owner, { appointmentTypeIds: [typeId] });
    const ask = `Generate-reply booking on ${otherDay}`;
    plans.set(ask, (results) => {
      if (results.length === 0) return call("check_availability", { date: otherDay });
      if (results.length === 1)
        return call("book_appointment", {
          start: results[0]!.slots![2]!.start,
          customer_name: "Edsger Dijkstra",
          phone: "+31201234567",
        });
      return { content: "Booked." };
    });
    const reply = await t.rest<{ conversation_id: string }>("POST", "/api/ai/generate-reply", {
      token: owner.apiKey,
      body: { assistant_id: assistant.id, customer_identifier: "crm-42", message: ask },
    });
    expect(reply.status).toBe(200);
    const booked = resultsFor(ask)[1]!;
    expect(booked.error).toBeUndefined();
    const appointment = await t.app.db.prisma.appointment.findUniqueOrThrow({
      where: { id: booked.appointment_id! },
    });
    expect(appointment.customerPhone).toBe("+31201234567");
    const conversation = await t.app.db.prisma.conversation.findFirstOrThrow({
      where: { assistantId: assistant.id, customerIdentifier: "crm-42" },
    });
    expect(appointment.conversationId).toBe(conversation.id);
    expect(await calendarEvents(otherDay)).toEqual([appointment.startsAt.toISOString()]);
  });

  it("books on a simulated phone call for the caller's number and texts a confirmation, charged", async () => {
    const number = await telephonyFixtures(t).addNumber(owner);
    const assistant = await createAssistant(t, owner, {
      appointmentTypeIds: [typeId],
      phoneNumberId: number.id,
      timezone: "Europe/Berlin",
    });
    const bookDay = weekdayAhead(24);
    let done = false;
    plans.set("*", (results) => {
      if (done) return { content: "Thank you, goodbye." };
      if (results.length === 0) return call("check_availability", { date: bookDay });
      const slot = results[0]!.slots![0]!;
      if (results.length <= 2)
        return call("book_appointment", { start: slot.start, customer_name: "Alan Turing" });
      if (results.length === 3) return call("send_sms", { body: `Booked: ${slot.when}. See you then!` });
      done = true;
      return { content: "You are booked, and I sent you a text." };
    });
    const to = "+14155550142";
    const placed = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to,
    });
    await new Promise<Call>((resolve) => finished.set(placed.id, resolve));
    plans.delete("*");

    const appointments = await t.app.db.prisma.appointment.findMany({ where: { callId: placed.id } });
    expect(appointments).toHaveLength(1);
    expect(appointments[0]).toMatchObject({
      status: "booked",
      customerName: "Alan Turing",
      customerPhone: to,
      assistantId: assistant.id,
      conversationId: null,
    });
    expect(await calendarEvents(bookDay)).toEqual([appointments[0]!.startsAt.toISOString()]);
    const texts = await t.app.db.prisma.textMessage.findMany({ where: { accountId: owner.accountId, to } });
    expect(texts).toHaveLength(1);
    expect(texts[0]!.body).toMatch(/^Booked: .*9:00.*See you then!$/);
    const ledger = await t.app.db.prisma.ledgerEntry.findMany({ where: { textMessageId: texts[0]!.id } });
    expect(ledger.map((entry) => [entry.kind, entry.amount.toFixed(4)])).toEqual([["sms_debit", "-0.0300"]]);
    // The call's functions: send_sms beside the calendar's, and the assistant's offered list names them all.
    const offered = fake.chatRequests.find((request) =>
      request.tools?.some((tool) => tool.function.name === "send_sms"),
    );
    expect(offered!.tools!.map((tool) => tool.function.name)).toEqual([
      "end_call",
      "send_dtmf",
      "send_sms",
      "check_availability",
      "book_appointment",
      "find_appointments",
      "reschedule_appointment",
      "cancel_appointment",
    ]);
  });

  it("books in a conversation by text for the number that texts, and texts the reply back", async () => {
    const number = await telephonyFixtures(t).addNumber(owner);
    const assistant = await createAssistant(t, owner, {
      appointmentTypeIds: [typeId],
      phoneNumberId: number.id,
      timezone: "Europe/Berlin",
    });
    const bookDay = weekdayAhead(31);
    const ask = `Can I come in on ${bookDay}?`;
    plans.set(ask, (results) => {
      if (results.length === 0) return call("check_availability", { date: bookDay });
      // No phone argument: the number the customer texts from is the contact.
      if (results.length === 1)
        return call("book_appointment", { start: results[0]!.slots![1]!.start, customer_name: "Ada Byron" });
      return { content: `Booked for ${results[0]!.slots![1]!.when}.` };
    });
    const customer = "+14155550177";
    const sent = await t.gql<{ simulateIncomingText: { text: { id: number } } }>(
      `mutation ($input: SimulateIncomingTextInput!) { simulateIncomingText(input: $input) { text { id } } }`,
      { input: { to: number.phoneNumber, from: customer, body: ask } },
      { token: owner.apiKey },
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
    expect(reply.body).toMatch(/^Booked for .*10:00/);
    const conversation = await t.app.db.prisma.conversation.findFirstOrThrow({
      where: { assistantId: assistant.id, channel: "sms", customerIdentifier: customer },
    });
    expect(reply.conversationId).toBe(conversation.id);
    const appointments = await t.app.db.prisma.appointment.findMany({
      where: { conversationId: conversation.id },
    });
    expect(appointments).toHaveLength(1);
    expect(appointments[0]).toMatchObject({
      status: "booked",
      customerName: "Ada Byron",
      customerPhone: customer,
      callId: null,
    });
    expect(await calendarEvents(bookDay)).toEqual([appointments[0]!.startsAt.toISOString()]);
  });

  it("asks which type when there are several, finds the earliest times, and words them in the assistant's language", async () => {
    const connectionId = (await t.app.db.prisma.appointmentType.findUniqueOrThrow({ where: { id: typeId } }))
      .connectionId;
    const quick = await t.app.services.calendars.createAppointmentType(owner.accountId, {
      connectionId,
      name: "Quick call",
      durationMinutes: 30,
      timezone: "Europe/Berlin",
      businessHours: { mon: [{ start: "14:00", end: "16:00" }], thu: [{ start: "14:00", end: "16:00" }] },
      horizonDays: 30,
    });
    const assistant = await createAssistant(t, owner, {
      appointmentTypeIds: [typeId, quick.id],
      timezone: "Europe/Berlin",
      language: "de-DE",
    });
    const ask = "Wann geht es am schnellsten?";
    plans.set(ask, (results) =>
      results.length === 0
        ? call("check_availability", {})
        : results.length === 1
          ? call("check_availability", { appointment_type: "Quick call" })
          : { content: "Gerne." },
    );
    await say(await widgetConversation(assistant), ask);
    const [unnamed, earliest] = resultsFor(ask);
    expect(unnamed!.error).toBe("appointment_type must be one of: Consultation, Quick call.");
    const slots = earliest!.slots!;
    expect(slots).toHaveLength(6);
    const starts = slots.map((slot) => Date.parse(slot.start));
    expect(starts[0]!).toBeGreaterThan(Date.now());
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    for (const slot of slots) {
      expect(slot.when).toMatch(/^(Montag|Donnerstag), \d{1,2}\. \S+ \d{4} um 1[45]:[03]0$/);
      expect(slot.start).toMatch(/T1[45]:[03]0:00\+0[12]:00$/);
    }
    const request = fake.chatRequests.findLast((candidate) => lastUserMessage(candidate) === ask)!;
    const book = request.tools!.find((tool) => tool.function.name === "book_appointment")!;
    expect(book.function.parameters).toMatchObject({
      properties: { appointment_type: { enum: ["Consultation", "Quick call"] } },
      required: ["appointment_type", "start", "customer_name"],
    });
  });

  it("offers no calendar functions to an assistant without appointment types", async () => {
    const assistant = await createAssistant(t, owner);
    const ask = "Can I book something?";
    plans.set(ask, () => ({ content: "Let me check." }));
    const conversation = await widgetConversation(assistant);
    await say(conversation, ask);
    const request = fake.chatRequests.findLast((candidate) => lastUserMessage(candidate) === ask)!;
    expect(request.tools ?? []).toEqual([]);
  });
});
