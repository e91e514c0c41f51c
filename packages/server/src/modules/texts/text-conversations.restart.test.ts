import { afterAll, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { durableDatabase } from "../../../test/fixtures/durable-database.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp } from "../../../test/support/test-app.ts";
import { type DatabaseTarget, openDatabase } from "../../db/client.ts";

/** A text recorded by one process is answered by the next when the first stopped before answering it. */

const cleanups: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** Texts sent to `customer`, read from the database while no app has it open. */
async function countReplies(target: DatabaseTarget, customer: string): Promise<number> {
  const db = await openDatabase(target);
  try {
    return await db.prisma.textMessage.count({ where: { direction: "outbound", to: customer } });
  } finally {
    await db.close();
  }
}

/** Polls until `read` gives a value `done` accepts; the test's own timeout bounds the wait. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

it("answers a text after a restart: its job outlives the process that received it", {
  timeout: 120_000,
}, async () => {
  const database = await durableDatabase();
  cleanups.push(() => database.drop());
  const model = await startFakeOpenAI();
  cleanups.push(() => model.close());
  // The model is down until the first process has stopped.
  let restarted = false;
  const down = { error: { status: 500, message: "The server had an error." } };
  model.respondWith(() => (restarted ? { content: "Yes, we open at 9 tomorrow." } : down));

  const env = { VOXGATE_MESSAGE_PRICE: "0.0100", VOXGATE_SMS_PRICE_PER_SEGMENT: "0.0200" };
  const first = await startTestApp({ database: database.first, model, env });
  const owner = await first.createAccount({ balance: "5" });
  const number = await telephonyFixtures(first).addNumber(owner);
  await createAssistant(first, owner, { phoneNumberId: number.id });
  const customer = uniqueUsNumber();
  const { text } = await first.app.services.texts.simulateInbound(owner.accountId, {
    to: number.phoneNumber,
    from: customer,
    body: "Are you open tomorrow?",
  });
  // One try (two requests: the client retries once) failed; stopping waits for its job to be put back.
  await until(
    async () => model.chatRequests.length,
    (count) => count >= 2,
  );
  await first.close();
  expect(await countReplies(database.next, customer)).toBe(0);
  restarted = true;

  const second = await startTestApp({ database: database.next, model, env });
  cleanups.push(() => second.close());
  const prisma = second.app.db.prisma;
  const [reply] = await until(
    () => prisma.textMessage.findMany({ where: { direction: "outbound", to: customer } }),
    (texts) => texts.length > 0,
  );
  expect(reply).toMatchObject({ from: number.phoneNumber, body: "Yes, we open at 9 tomorrow." });
  const inbound = await prisma.textMessage.findUniqueOrThrow({ where: { id: text.id } });
  expect(inbound.conversationId).toBe(reply!.conversationId);
  const messages = await prisma.message.findMany({
    where: { conversationId: reply!.conversationId! },
    orderBy: { id: "asc" },
  });
  expect(messages.map((message) => [message.role, message.content])).toEqual([
    ["user", "Are you open tomorrow?"],
    ["assistant", "Yes, we open at 9 tomorrow."],
  ]);
  // The failed tries were given back: the account paid the exchange once, and the reply's text.
  const account = await prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } });
  expect(account.balance.toFixed(4)).toBe("4.9700");
});
