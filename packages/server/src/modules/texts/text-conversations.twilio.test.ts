import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import {
  PUBLIC_BASE_URL,
  startTestApp,
  type TestAccount,
  type TestApp,
} from "../../../test/support/test-app.ts";
import type { PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * A conversation by text through Twilio Messaging: the fake Twilio posts the customer's texts to the
 * signed inbound webhook, the fake OpenAI answers, and the production Twilio client texts the reply.
 */

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let owner: TestAccount;
let number: PhoneNumber;

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/** Polls until `read` gives a value `done` accepts; the test's own timeout bounds the wait. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const messagesSent = () => twilio.requests.filter((request) => request.resource === "/Messages.json");

beforeAll(async () => {
  twilio = await startFakeTwilio();
  model = await startFakeOpenAI();
  t = await startTestApp({
    model,
    env: {
      VOXGATE_TELEPHONY: "twilio",
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
      TWILIO_API_BASE_URL: twilio.baseUrl,
      VOXGATE_SMS_PRICE_PER_SEGMENT: "0.0100",
    },
  });
  owner = await t.createAccount({ balance: "5" });
  number = await telephonyFixtures(t).addNumber(owner);
  await createAssistant(t, owner, { phoneNumberId: number.id });
});

afterAll(async () => {
  await t?.close();
  await twilio?.close();
  await model?.close();
});

describe("conversations by text through Twilio", () => {
  it("answers the webhook at once, then texts the assistant's reply through Twilio Messaging; a retried MessageSid is one message", async () => {
    model.reset();
    model.enqueue({ content: "Sure, what day suits you?" });
    const customer = uniqueUsNumber();
    const messageSid = `SM${"ab".repeat(16)}`;
    const text = { from: customer, to: number.phoneNumber, body: "I'd like an appointment", messageSid };
    expect(await twilio.receiveText(text, t.url)).toBe(EMPTY_TWIML);
    // Twilio did not hear back in time and delivers the same message again.
    expect(await twilio.receiveText(text, t.url)).toBe(EMPTY_TWIML);

    const reply = await until(
      () => t.app.db.prisma.textMessage.findFirst({ where: { direction: "outbound", to: customer } }),
      (found) => found?.providerMessageId != null,
    ).then((found) => found!);
    const [sent] = messagesSent().filter((request) => request.params.To === customer);
    expect(sent!.params).toEqual({
      From: number.phoneNumber,
      To: customer,
      Body: "Sure, what day suits you?",
      StatusCallback: `${PUBLIC_BASE_URL}/telephony/twilio/sms-status?textId=${reply.id}`,
    });
    const conversation = await t.app.db.prisma.conversation.findUniqueOrThrow({
      where: { id: reply.conversationId! },
      include: { messages: { orderBy: { id: "asc" } } },
    });
    expect(conversation).toMatchObject({ channel: "sms", customerIdentifier: customer });
    expect(conversation.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(await t.app.db.prisma.textMessage.count({ where: { providerMessageId: messageSid } })).toBe(1);
    expect(model.chatRequests).toHaveLength(1);

    // Its status callbacks move the reply on like any text.
    expect(await twilio.reportMessage(reply.providerMessageId!, "delivered", t.url)).toBe(204);
    expect((await t.app.db.prisma.textMessage.findUniqueOrThrow({ where: { id: reply.id } })).status).toBe(
      "delivered",
    );
  });

  it("answers STOP with TwiML only: the model is not asked and nothing more is texted", async () => {
    model.reset();
    const customer = uniqueUsNumber();
    const before = messagesSent().length;
    const stop = await twilio.receiveText({ from: customer, to: number.phoneNumber, body: "Stop" }, t.url);
    expect(stop).toMatch(/<Response><Message>You have been unsubscribed/);
    const later = await twilio.receiveText({ from: customer, to: number.phoneNumber, body: "Hello?" }, t.url);
    expect(later).toBe(EMPTY_TWIML);
    const inbound = await until(
      () => t.app.db.prisma.textMessage.findFirstOrThrow({ where: { from: customer, body: "Hello?" } }),
      (text) => text.messageId !== null,
    );
    expect(inbound.conversationId).not.toBeNull();
    expect(model.chatRequests).toHaveLength(0);
    expect(messagesSent().length).toBe(before);
  });
});
