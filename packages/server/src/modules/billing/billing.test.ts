import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import type { TestApp } from "../../../test/support/test-app.ts";
import { createAssistant, startAppWithModel } from "../conversations/conversations.fixtures.ts";

let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // A little model latency so that the 50 messages really are in flight together.
  fake.setLatency(30);
  t = await startAppWithModel(fake, {
    VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1000",
    VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "1000",
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("atomic debits", () => {
  it("with money for 20 messages and 50 sent at once, answers and charges exactly 20", async () => {
    const owner = await t.createAccount({ balance: "0.20" });
    const assistant = await createAssistant(t, owner);
    const conversations = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.rest<{ conversation_id: string }>(
          "POST",
          `/api/widget/assistants/${assistant.uuid}/conversations`,
          { body: {} },
        ),
      ),
    );
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        t.rest<{ status: boolean; error?: string }>(
          "POST",
          `/api/conversations/${conversations[index % 5]!.body.conversation_id}/messages`,
          { body: { message: `message ${index}` } },
        ),
      ),
    );
    const answered = responses.filter((response) => response.status === 200);
    const refused = responses.filter((response) => response.status === 402);
    expect(answered).toHaveLength(20);
    expect(refused).toHaveLength(30);
    for (const response of refused) {
      expect(response.body).toEqual({
        status: false,
        error: "Insufficient balance. Please top up your account.",
      });
    }
    const account = await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } });
    expect(account.balance.toFixed(4)).toBe("0.0000");
    const debits = await t.app.db.prisma.ledgerEntry.findMany({
      where: { accountId: owner.accountId, kind: "message_debit" },
    });
    expect(debits).toHaveLength(20);
    expect(debits.every((entry) => entry.messageId !== null)).toBe(true);
    expect(new Set(debits.map((entry) => entry.balanceAfter.toFixed(4))).size).toBe(20);
    const userMessages = await t.app.db.prisma.message.count({
      where: { role: "user", conversation: { assistantId: assistant.id } },
    });
    expect(userMessages).toBe(20);
  });

  it("never charges failed replies, even when failures and successes race for the last cents", async () => {
    const owner = await t.createAccount({ balance: "0.05" });
    const assistant = await createAssistant(t, owner);
    const { body } = await t.rest<{ conversation_id: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {} },
    );
    fake.respondWith((request) => {
      const text = String(request.messages.at(-1)?.content ?? "");
      return text.startsWith("fail") ? { error: { status: 400, message: "bad request" } } : { content: "ok" };
    });
    try {
      const responses = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          t.rest("POST", `/api/conversations/${body.conversation_id}/messages`, {
            body: { message: `${index % 2 === 0 ? "fail" : "pass"} ${index}` },
          }),
        ),
      );
      const statuses = responses.map((response) => response.status);
      const answered = statuses.filter((status) => status === 200).length;
      expect(
        statuses.filter((status) => status === 502).length +
          answered +
          statuses.filter((status) => status === 402).length,
      ).toBe(12);
      expect(answered).toBeGreaterThan(0);
      expect(answered).toBeLessThanOrEqual(5);
      const account = await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } });
      const ledger = await t.app.db.prisma.ledgerEntry.findMany({ where: { accountId: owner.accountId } });
      const linkedDebits = ledger.filter(
        (entry) => entry.kind === "message_debit" && entry.messageId !== null,
      );
      expect(linkedDebits).toHaveLength(answered);
      // Every unanswered debit was refunded: the ledger sums to the balance, and the balance is what the answers cost.
      const sum = ledger.reduce((total, entry) => total + Math.round(Number(entry.amount) * 10_000), 0);
      expect(sum).toBe(Math.round(Number(account.balance) * 10_000));
      expect(account.balance.toFixed(4)).toBe((0.05 - answered * 0.01).toFixed(4));
    } finally {
      fake.respondWith((request) => ({ content: `Echo: ${request.messages.at(-1)?.content}` }));
    }
  });
});
