import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { PhoneNumber, TextMessage } from "../../generated/prisma/client.ts";

/**
 * Texts of an assistant that redacts: the model answers the real words, then the inbound text, its
 * conversation message, the reply and the reply's text are kept redacted (the reply's text once the
 * carrier took it).
 */

let t: TestApp;
let fake: FakeOpenAI;
let owner: TestAccount;
let number: PhoneNumber;

/** Polls until `read` gives a value `done` accepts; the test's own timeout bounds the wait. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({ model: fake, env: { VOXGATE_SMS_PRICE_PER_SEGMENT: "0.0200" } });
  owner = await t.createAccount({ balance: "10" });
  number = await telephonyFixtures(t).addNumber(owner);
  await createAssistant(t, owner, { phoneNumberId: number.id, redactPii: ["card_number", "email"] });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("texts of an assistant that redacts", () => {
  it("are answered from the real words and kept redacted", async () => {
    const prisma = t.app.db.prisma;
    const customer = uniqueUsNumber();
    const said = "Card 4111 1111 1111 1111, receipt to jane@example.com";
    const redacted = "Card [card number], receipt to [email]";
    const received = await t.gql<{ simulateIncomingText: { text: { id: number } } }>(
      `mutation ($input: SimulateIncomingTextInput!) { simulateIncomingText(input: $input) { text { id } } }`,
      { input: { to: number.phoneNumber, from: customer, body: said } },
      { token: owner.apiKey },
    );
    expect(received.errors).toBeUndefined();
    const inbound = await until(
      () =>
        prisma.textMessage.findUniqueOrThrow({ where: { id: received.data!.simulateIncomingText.text.id } }),
      (text) => text.messageId !== null,
    );
    expect(fake.chatRequests.at(-1)!.messages.at(-1)).toMatchObject({ role: "user", content: said });
    expect(inbound.body).toBe(redacted);

    const messages = await prisma.message.findMany({
      where: { conversationId: inbound.conversationId! },
      orderBy: { id: "asc" },
    });
    expect(messages.map((message) => message.content)).toEqual([redacted, `Echo: ${redacted}`]);
    const [reply] = await until(
      () => prisma.textMessage.findMany({ where: { direction: "outbound", to: customer } }),
      (texts: TextMessage[]) => texts.length === 1 && texts[0]!.providerMessageId !== null,
    );
    expect(reply!.body).toBe(`Echo: ${redacted}`);
  });
});
