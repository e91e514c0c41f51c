import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * Texts on the simulated carrier, over GraphQL: charged per segment with a ledger entry, refunded when
 * the carrier refuses, sent only from the account's own SMS-capable numbers, never to a customer who
 * opted out.
 */

let t: TestApp;
let owner: TestAccount;
let number: PhoneNumber;

const TEXT_FIELDS = "id direction from to body encoding segments status providerMessageId cost errorCode";

interface Text {
  id: number;
  direction: string;
  from: string;
  to: string;
  body: string;
  encoding: string;
  segments: number;
  status: string;
  providerMessageId: string | null;
  cost: string;
  errorCode: string | null;
}

function sendText(account: TestAccount, input: Record<string, unknown>) {
  return t.gql<{ sendText: Text }>(
    `mutation ($input: SendTextInput!) { sendText(input: $input) { ${TEXT_FIELDS} } }`,
    { input },
    { token: account.apiKey },
  );
}

function incomingText(account: TestAccount, input: { to: string; from: string; body: string }) {
  return t.gql<{ simulateIncomingText: { text: Text; reply: string | null } }>(
    `mutation ($input: SimulateIncomingTextInput!) {
       simulateIncomingText(input: $input) { text { ${TEXT_FIELDS} } reply }
     }`,
    { input },
    { token: account.apiKey },
  );
}

const balanceOf = async (account: TestAccount) =>
  (await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: account.accountId } })).balance.toFixed(4);
const ledgerOf = (textMessageId: number) =>
  t.app.db.prisma.ledgerEntry.findMany({ where: { textMessageId }, orderBy: { id: "asc" } });

/** The simulated carrier reports a text's progress after accepting it: waits (boundedly) for `status`. */
async function statusOf(textId: number, status: string) {
  for (let attempt = 0; attempt < 500; attempt++) {
    const text = await t.app.db.prisma.textMessage.findUniqueOrThrow({ where: { id: textId } });
    if (text.status === status) return text;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`text ${textId} never became ${status}`);
}

beforeAll(async () => {
  t = await startTestApp({ env: { VOXGATE_SMS_PRICE_PER_SEGMENT: "0.0200" } });
  owner = await t.createAccount({ balance: "1" });
  number = await telephonyFixtures(t).addNumber(owner);
});

afterAll(async () => {
  await t?.close();
});

describe("sending a text", () => {
  it("charges each segment with a ledger entry in the transaction that records it, then delivers", async () => {
    const before = Number(await balanceOf(owner));
    const body = `Your appointment is confirmed for Tuesday at 10:00. ${"Details follow. ".repeat(10)}`;
    const sent = await sendText(owner, { from: number.phoneNumber, to: uniqueUsNumber(), body });
    expect(sent.errors).toBeUndefined();
    const text = sent.data!.sendText;
    expect(text).toMatchObject({ direction: "outbound", encoding: "GSM-7", segments: 2, cost: "0.0400" });
    expect(text.providerMessageId).toMatch(/^SIMSM/);
    const ledger = await ledgerOf(text.id);
    expect(ledger.map((entry) => [entry.kind, entry.amount.toFixed(4)])).toEqual([["sms_debit", "-0.0400"]]);
    expect(Number(await balanceOf(owner))).toBeCloseTo(before - 0.04, 4);
    await statusOf(text.id, "delivered");

    const listed = await t.gql<{ texts: { items: Text[] }; ledgerEntries: { items: { kind: string }[] } }>(
      "{ texts { items { id status } } ledgerEntries { items { kind textMessageId } } }",
      {},
      { token: owner.apiKey },
    );
    expect(listed.errors).toBeUndefined();
    expect(listed.data!.texts.items[0]).toMatchObject({ id: text.id, status: "delivered" });
    expect(listed.data!.ledgerEntries.items[0]).toMatchObject({ kind: "sms_debit", textMessageId: text.id });
  });

  it("counts UCS-2 segments for a text with an emoji", async () => {
    const sent = await sendText(owner, {
      from: number.phoneNumber,
      to: uniqueUsNumber(),
      body: "See you soon 😀",
    });
    expect(sent.data!.sendText).toMatchObject({ encoding: "UCS-2", segments: 1, cost: "0.0200" });
  });

  it("refuses a text the balance cannot pay for, storing and charging nothing", async () => {
    const poor = await t.createAccount({ balance: "0.0100" });
    const poorNumber = await telephonyFixtures(t).addNumber(poor);
    const sent = await sendText(poor, { from: poorNumber.phoneNumber, to: uniqueUsNumber(), body: "Hello" });
    expect(sent.errors?.[0]?.extensions?.code).toBe("INSUFFICIENT_BALANCE");
    expect(await t.app.db.prisma.textMessage.count({ where: { accountId: poor.accountId } })).toBe(0);
    expect(await balanceOf(poor)).toBe("0.0100");
  });

  it("refunds a text the carrier refuses, in the transaction that records its failure", async () => {
    const before = await balanceOf(owner);
    const sent = await sendText(owner, { from: number.phoneNumber, to: "+14155550103", body: "Hello" });
    expect(sent.errors?.[0]?.extensions?.code).toBe("UPSTREAM_FAILED");
    const text = await t.app.db.prisma.textMessage.findFirstOrThrow({
      where: { accountId: owner.accountId, to: "+14155550103" },
    });
    expect(text).toMatchObject({ status: "failed" });
    expect(text.cost.toFixed(4)).toBe("0.0000");
    const ledger = await ledgerOf(text.id);
    expect(ledger.map((entry) => [entry.kind, entry.amount.toFixed(4)])).toEqual([
      ["sms_debit", "-0.0200"],
      ["adjustment", "0.0200"],
    ]);
    expect(await balanceOf(owner)).toBe(before);
  });

  it("keeps a final status: a report after it changes nothing", async () => {
    const sent = await sendText(owner, { from: number.phoneNumber, to: "+14155550101", body: "Hello" });
    const text = await statusOf(sent.data!.sendText.id, "undelivered");
    expect(text.errorCode).toBe("30003");
    await t.app.services.texts.textEvent({ textId: text.id, status: "delivered" });
    await t.app.services.texts.textEvent({ textId: text.id, status: "failed" });
    const after = await t.app.db.prisma.textMessage.findUniqueOrThrow({ where: { id: text.id } });
    expect(after.status).toBe("undelivered");
    // Undelivered texts were sent by the carrier: they stay paid; a late "failed" refunds nothing.
    expect((await ledgerOf(text.id)).map((entry) => entry.kind)).toEqual(["sms_debit"]);
  });

  it("sends only from the account's own active SMS-capable number", async () => {
    const other = await t.createAccount({ balance: "1" });
    const otherNumber = await telephonyFixtures(t).addNumber(other);
    const noSms = await telephonyFixtures(t).addNumber(owner, { smsCapable: false });
    for (const from of [otherNumber.phoneNumber, noSms.phoneNumber, uniqueUsNumber()]) {
      const sent = await sendText(owner, { from, to: uniqueUsNumber(), body: "Hello" });
      expect(sent.errors?.[0]?.extensions?.code).toBe("NUMBER_NOT_SMS_CAPABLE");
    }
    // Each account lists its own texts only.
    const listed = await t.gql<{ texts: { items: Text[] } }>(
      "{ texts { items { from } } }",
      {},
      { token: other.apiKey },
    );
    expect(listed.data!.texts.items).toEqual([]);
  });
});

describe("opt-outs", () => {
  it("obeys STOP until START, per pair of numbers, and answers HELP", async () => {
    const customer = uniqueUsNumber();
    const help = await incomingText(owner, { to: number.phoneNumber, from: customer, body: "help" });
    expect(help.data!.simulateIncomingText.reply).toMatch(/Reply STOP to unsubscribe/);
    expect(help.data!.simulateIncomingText.text).toMatchObject({
      direction: "inbound",
      status: "received",
      cost: "0.0000",
    });

    const stop = await incomingText(owner, { to: number.phoneNumber, from: customer, body: " Stop. " });
    expect(stop.data!.simulateIncomingText.reply).toMatch(/unsubscribed/);
    const refused = await sendText(owner, { from: number.phoneNumber, to: customer, body: "Hello again" });
    expect(refused.errors?.[0]?.extensions?.code).toBe("RECIPIENT_OPTED_OUT");
    // Nothing stored, nothing charged.
    expect(await t.app.db.prisma.textMessage.count({ where: { to: customer } })).toBe(0);

    // Another of the account's numbers may still text them.
    const second = await telephonyFixtures(t).addNumber(owner);
    expect(
      (await sendText(owner, { from: second.phoneNumber, to: customer, body: "Hi" })).errors,
    ).toBeUndefined();

    const start = await incomingText(owner, { to: number.phoneNumber, from: customer, body: "START" });
    expect(start.data!.simulateIncomingText.reply).toMatch(/resubscribed/);
    expect(
      (await sendText(owner, { from: number.phoneNumber, to: customer, body: "Welcome back" })).errors,
    ).toBeUndefined();
  });

  it("takes each of the opt-out words", async () => {
    for (const word of ["STOPALL", "unsubscribe", "CANCEL", "end", "QUIT"]) {
      const customer = uniqueUsNumber();
      await incomingText(owner, { to: number.phoneNumber, from: customer, body: word });
      const refused = await sendText(owner, { from: number.phoneNumber, to: customer, body: "Hello" });
      expect(refused.errors?.[0]?.extensions?.code, word).toBe("RECIPIENT_OPTED_OUT");
    }
  });

  it("simulates texts only to the account's own numbers", async () => {
    const other = await t.createAccount({ balance: "1" });
    const result = await incomingText(other, {
      to: number.phoneNumber,
      from: uniqueUsNumber(),
      body: "STOP",
    });
    expect(result.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});
