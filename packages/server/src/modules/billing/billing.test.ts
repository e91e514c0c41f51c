import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { echoResponder, type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { FALLBACK_NOTICE } from "../message-pipeline/index.ts";

let t: TestApp;
let fake: FakeOpenAI;

beforeAll(async () => {
  fake = await startFakeOpenAI();
  // A little model latency so that the 50 messages really are in flight together.
  fake.setLatency(30);
  t = await startTestApp({
    model: fake,
    env: {
      VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1000",
      VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "1000",
    },
  });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("balance credits", () => {
  it("adds exact decimals and records each credit in the ledger", async () => {
    const account = await t.createAccount({ balance: "0" });
    for (let i = 0; i < 10; i++) await t.app.services.billing.credit(account.accountId, { amount: "0.1" });
    const credited = await t.app.services.billing.credit(account.accountId, { amount: "0.2" });
    expect(credited.balance.toFixed(4)).toBe("1.2000");
    const ledger = await t.app.db.prisma.ledgerEntry.findMany({
      where: { accountId: account.accountId },
      orderBy: { id: "asc" },
    });
    expect(ledger).toHaveLength(11);
    expect(ledger.at(-1)?.balanceAfter.toFixed(4)).toBe("1.2000");
    await expect(t.app.services.billing.credit(account.accountId, { amount: "-1" })).rejects.toMatchObject({
      code: "VALIDATION_FAILED",
    });
  });

  it("records an account's opening balance as its first credit, with the account it was written with", async () => {
    const { account } = await t.app.services.accounts.create({
      email: `opening-${randomUUID()}@example.com`,
      password: "correct horse battery",
      balance: "2.5",
    });
    expect(account.balance.toFixed(4)).toBe("2.5000");
    const ledger = await t.app.db.prisma.ledgerEntry.findMany({ where: { accountId: account.id } });
    expect(
      ledger.map((entry) => [
        entry.kind,
        entry.amount.toFixed(4),
        entry.balanceAfter.toFixed(4),
        entry.description,
      ]),
    ).toEqual([["credit", "2.5000", "2.5000", "Opening balance"]]);

    const empty = await t.app.services.accounts.create({
      email: `empty-${randomUUID()}@example.com`,
      password: "correct horse battery",
    });
    expect(empty.account.balance.toFixed(4)).toBe("0.0000");
    expect(await t.app.db.prisma.ledgerEntry.count({ where: { accountId: empty.account.id } })).toBe(0);
  });

  it("refuses to credit an account that does not exist, writing nothing", async () => {
    const before = await t.app.db.prisma.ledgerEntry.count();
    await expect(t.app.services.billing.credit(2_000_000_000, { amount: "1" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await t.app.db.prisma.ledgerEntry.count()).toBe(before);
  });
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

/** The account's balance and its ledger (kind, amount, linked or not), oldest entry first. */
async function moneyOf(app: TestApp, owner: TestAccount) {
  const account = await app.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } });
  const ledger = await app.app.db.prisma.ledgerEntry.findMany({
    where: { accountId: owner.accountId },
    orderBy: { id: "asc" },
  });
  return {
    balance: account.balance.toFixed(4),
    ledger: ledger.map((entry) => [entry.kind, entry.amount.toFixed(4), entry.messageId !== null]),
  };
}

const OPENING_CREDIT = ["credit", "1.0000", false];

describe("charging only for stored exchanges", () => {
  it("gives the reservation back whatever makes the paid work fail, with a debit and refund pair", async () => {
    const owner = await t.createAccount({ balance: "1" });
    const charge = {
      accountId: owner.accountId,
      amount: "0.25",
      kind: "message_debit" as const,
      description: "test",
    };
    const failure = new Error("storage refused the row");
    let heldDuringWork: string | undefined;
    await expect(
      t.app.services.billing.payFor(charge, async () => {
        heldDuringWork = (await moneyOf(t, owner)).balance;
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(heldDuringWork).toBe("0.7500");
    const money = await moneyOf(t, owner);
    expect(money.balance).toBe("1.0000");
    expect(money.ledger).toEqual([
      OPENING_CREDIT,
      ["message_debit", "-0.2500", false],
      ["adjustment", "0.2500", false],
    ]);

    // Work that succeeds keeps the money; refused work (no money) never runs and leaves no trace.
    expect(await t.app.services.billing.payFor(charge, async () => "done")).toBe("done");
    let ran = false;
    const poor = await t.createAccount({ balance: "0.10" });
    await expect(
      t.app.services.billing.payFor({ ...charge, accountId: poor.accountId }, async () => {
        ran = true;
      }),
    ).rejects.toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    expect(ran).toBe(false);
    expect(await moneyOf(t, poor)).toEqual({ balance: "0.1000", ledger: [["credit", "0.1000", false]] });
  });

  it("refunds a widget message and a generated reply whose conversation is deleted while the model writes", async () => {
    const owner = await t.createAccount({ balance: "1" });
    const assistant = await createAssistant(t, owner);
    const started = await t.rest<{ conversation_id: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {} },
    );
    const widgetConversation = started.body.conversation_id;
    // The conversation goes while its reply is being written; the reply arrives after that.
    const deleteWhileWriting = (id: () => Promise<string>) =>
      fake.respondWith(() => {
        fake.respondWith(echoResponder);
        return {
          content: "Too late",
          after: id().then((conversationId) =>
            t.app.db.prisma.conversation.delete({ where: { id: conversationId } }),
          ),
        };
      });

    deleteWhileWriting(async () => widgetConversation);
    const widget = await t.rest("POST", `/api/conversations/${widgetConversation}/messages`, {
      body: { message: "hello" },
    });
    expect(widget).toMatchObject({ status: 404, body: { status: false, error: "Conversation not found" } });

    deleteWhileWriting(async () => {
      const conversation = await t.app.db.prisma.conversation.findFirstOrThrow({
        where: { assistantId: assistant.id, customerIdentifier: "gone" },
      });
      return conversation.id;
    });
    const reply = await t.rest("POST", "/api/ai/generate-reply", {
      token: owner.apiKey,
      body: { assistant_id: assistant.id, customer_identifier: "gone", message: "hello" },
    });
    expect(reply).toMatchObject({
      status: 404,
      body: { success: false, error_code: "CONVERSATION_NOT_FOUND" },
    });

    expect(
      await t.app.db.prisma.message.count({ where: { conversation: { assistantId: assistant.id } } }),
    ).toBe(0);
    expect(await moneyOf(t, owner)).toEqual({
      balance: "1.0000",
      ledger: [
        OPENING_CREDIT,
        ["message_debit", "-0.0100", false],
        ["adjustment", "0.0100", false],
        ["reply_debit", "-0.0100", false],
        ["adjustment", "0.0100", false],
      ],
    });
  });

  it("refunds when the model fails: 502, nothing stored, a debit and refund pair", async () => {
    const owner = await t.createAccount({ balance: "1" });
    const assistant = await createAssistant(t, owner);
    const started = await t.rest<{ conversation_id: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {} },
    );
    fake.enqueue(
      { error: { status: 500, message: "model down" } },
      { error: { status: 500, message: "again" } },
    );
    const sent = await t.rest("POST", `/api/conversations/${started.body.conversation_id}/messages`, {
      body: { message: "hello" },
    });
    expect(sent.status).toBe(502);
    expect(
      await t.app.db.prisma.message.count({ where: { conversationId: started.body.conversation_id } }),
    ).toBe(0);
    expect(await moneyOf(t, owner)).toEqual({
      balance: "1.0000",
      ledger: [OPENING_CREDIT, ["message_debit", "-0.0100", false], ["adjustment", "0.0100", false]],
    });
  });
});

describe("without a language model", () => {
  it("answers both endpoints with the fallback for free: balance and ledger unchanged, even with no money", async () => {
    const bare = await startTestApp();
    try {
      for (const balance of ["1", "0"]) {
        const owner = await bare.createAccount({ balance });
        const before = await moneyOf(bare, owner);
        const assistant = await createAssistant(bare, owner);
        const started = await bare.rest<{ conversation_id: string }>(
          "POST",
          `/api/widget/assistants/${assistant.uuid}/conversations`,
          { body: {} },
        );
        const widget = await bare.rest<{ message: string }>(
          "POST",
          `/api/conversations/${started.body.conversation_id}/messages`,
          { body: { message: "hello" } },
        );
        expect(widget.status).toBe(200);
        expect(widget.body.message.startsWith(FALLBACK_NOTICE)).toBe(true);
        const reply = await bare.rest<{ reply: string }>("POST", "/api/ai/generate-reply", {
          token: owner.apiKey,
          body: { assistant_id: assistant.id, customer_identifier: "x", message: "hello" },
        });
        expect(reply.status).toBe(200);
        expect(reply.body.reply.startsWith(FALLBACK_NOTICE)).toBe(true);
        expect(await moneyOf(bare, owner)).toEqual(before);
      }
    } finally {
      await bare.close();
    }
  });
});

describe("reservations interrupted by a stopped process", () => {
  it("refunds an expired hold exactly once, whoever tries, and never after it was settled", async () => {
    const owner = await t.createAccount({ balance: "1" });
    const billing = t.app.services.billing;
    const prisma = t.app.db.prisma;
    const balance = async () =>
      (await prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } })).balance.toFixed(4);
    const charge = {
      accountId: owner.accountId,
      amount: "0.25",
      kind: "message_debit" as const,
      description: "A message",
    };

    // A reply still running holds its money; the sweep leaves a hold that has not expired alone.
    let failWork!: (error: Error) => void;
    let heldDebit = 0;
    const interrupted = billing.payFor(charge, (reservation) => {
      heldDebit = reservation.ledgerEntryId!;
      return new Promise<never>((_, reject) => {
        failWork = reject;
      });
    });
    await expect.poll(() => heldDebit).toBeGreaterThan(0);
    expect(await balance()).toBe("0.7500");
    expect(await billing.refundExpiredHolds()).toEqual([]);

    // As if its process had stopped: the hold expires with nothing left to settle or release it.
    await prisma.ledgerEntry.update({
      where: { id: heldDebit },
      data: { heldUntil: new Date(Date.now() - 1000) },
    });
    const sweeps = await Promise.all([billing.refundExpiredHolds(), billing.refundExpiredHolds()]);
    expect(sweeps.flat()).toEqual([heldDebit]);
    expect(await balance()).toBe("1.0000");

    // The work failing late must not refund a second time.
    failWork(new Error("late failure"));
    await expect(interrupted).rejects.toThrow("late failure");
    expect(await balance()).toBe("1.0000");
    const refunds = await prisma.ledgerEntry.findMany({
      where: { accountId: owner.accountId, kind: "adjustment" },
    });
    expect(refunds.map((entry) => entry.amount.toFixed(4))).toEqual(["0.2500"]);
    expect(refunds[0]!.description).toContain(`#${heldDebit}`);

    // A settled debit is no longer held: an expired-looking clock cannot refund it.
    const assistant = await createAssistant(t, owner);
    const { body } = await t.rest<{ conversation_id: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/conversations`,
      { body: {} },
    );
    const answered = await t.rest("POST", `/api/conversations/${body.conversation_id}/messages`, {
      body: { message: "hello" },
    });
    expect(answered.status).toBe(200);
    const settled = await prisma.ledgerEntry.findFirstOrThrow({
      where: { accountId: owner.accountId, messageId: { not: null } },
    });
    expect(settled.heldUntil).toBeNull();
    const afterReply = await balance();
    expect(await billing.refundExpiredHolds()).toEqual([]);
    expect(await balance()).toBe(afterReply);
  });
});

describe("ledger history", () => {
  const LEDGER = `query($accountId: Int, $page: Int, $perPage: Int) {
    ledgerEntries(accountId: $accountId, page: $page, perPage: $perPage) {
      items { kind amount balanceAfter description pending }
      pageInfo { total currentPage lastPage }
    }
  }`;
  type Ledger = {
    ledgerEntries: {
      items: { kind: string; amount: string; balanceAfter: string; description: string; pending: boolean }[];
      pageInfo: { total: number; currentPage: number; lastPage: number };
    };
  };

  it("pages the caller's own ledger newest first; only a platform operator reads another account's", async () => {
    const owner = await t.createAccount({ balance: "1" });
    const other = await t.createAccount({ balance: "3" });
    for (const amount of ["0.25", "0.5", "2"])
      await t.app.services.billing.credit(owner.accountId, { amount, description: `Top-up ${amount}` });

    const first = await t.gql<Ledger>(LEDGER, { perPage: 3 }, { token: owner.apiKey });
    expect(first.errors).toBeUndefined();
    expect(first.data?.ledgerEntries.pageInfo).toEqual({ total: 4, currentPage: 1, lastPage: 2 });
    expect(first.data?.ledgerEntries.items).toEqual([
      { kind: "credit", amount: "2.0000", balanceAfter: "3.7500", description: "Top-up 2", pending: false },
      { kind: "credit", amount: "0.5000", balanceAfter: "1.7500", description: "Top-up 0.5", pending: false },
      {
        kind: "credit",
        amount: "0.2500",
        balanceAfter: "1.2500",
        description: "Top-up 0.25",
        pending: false,
      },
    ]);
    const second = await t.gql<Ledger>(LEDGER, { perPage: 3, page: 2 }, { token: owner.apiKey });
    expect(second.data?.ledgerEntries.items.map((entry) => entry.description)).toEqual(["Opening balance"]);

    const foreign = await t.gql<Ledger>(LEDGER, { accountId: other.accountId }, { token: owner.apiKey });
    expect(foreign.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(foreign.data).toBeNull();
    const bad = await t.gql<Ledger>(LEDGER, { perPage: 500 }, { token: owner.apiKey });
    expect(bad.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");

    const { account, user } = await t.app.services.accounts.create({
      email: `ledger-ops-${randomUUID()}@example.com`,
      password: "operator-pass",
      operator: true,
    });
    const { token } = await t.app.services.apiKeys.create(
      { accountId: account.id, userId: user.id },
      { name: "ops" },
    );
    const audited = await t.gql<Ledger>(LEDGER, { accountId: other.accountId }, { token });
    expect(audited.data?.ledgerEntries.items).toEqual([
      {
        kind: "credit",
        amount: "3.0000",
        balanceAfter: "3.0000",
        description: "Opening balance",
        pending: false,
      },
    ]);
    const missing = await t.gql<Ledger>(LEDGER, { accountId: 2_000_000_000 }, { token });
    expect(missing.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});
