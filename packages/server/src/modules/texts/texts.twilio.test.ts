import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeTwilio, startFakeTwilio, twilioSignature } from "../../../test/support/fake-twilio.ts";
import {
  PUBLIC_BASE_URL,
  startTestApp,
  type TestAccount,
  type TestApp,
} from "../../../test/support/test-app.ts";
import type { PhoneNumber, TextMessage } from "../../generated/prisma/client.ts";

/**
 * Texts through Twilio Messaging: the production client posts to the fake Twilio over HTTP, and the
 * fake posts signed status callbacks and inbound texts back to the server's webhooks.
 */

let t: TestApp;
let fake: FakeTwilio;
let owner: TestAccount;
let number: PhoneNumber;

const reload = (text: { id: number }) =>
  t.app.db.prisma.textMessage.findUniqueOrThrow({ where: { id: text.id } });
const ledgerKinds = async (textMessageId: number) =>
  (await t.app.db.prisma.ledgerEntry.findMany({ where: { textMessageId }, orderBy: { id: "asc" } })).map(
    (entry) => `${entry.kind} ${entry.amount.toFixed(4)}`,
  );
const send = (to: string, body = "Your booking is confirmed.") =>
  t.app.services.texts.send(owner.accountId, { from: number.phoneNumber, to, body });

beforeAll(async () => {
  fake = await startFakeTwilio();
  t = await startTestApp({
    env: {
      VOXGATE_TELEPHONY: "twilio",
      TWILIO_ACCOUNT_SID: fake.accountSid,
      TWILIO_AUTH_TOKEN: fake.authToken,
      TWILIO_API_BASE_URL: fake.baseUrl,
      VOXGATE_SMS_PRICE_PER_SEGMENT: "0.0100",
    },
  });
  owner = await t.createAccount({ balance: "5" });
  number = await telephonyFixtures(t).addNumber(owner);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("sending through Twilio Messaging", () => {
  it("buys numbers with Voxgate's SMS webhook, and creates a Message with a status callback naming the text", async () => {
    const bought = fake.requests.find((request) => request.resource === "/IncomingPhoneNumbers.json");
    expect(bought?.params).toMatchObject({
      SmsUrl: `${PUBLIC_BASE_URL}/telephony/twilio/sms`,
      SmsMethod: "POST",
    });
    const to = uniqueUsNumber();
    const text = await send(to);
    const created = fake.requests.filter((request) => request.resource === "/Messages.json").at(-1);
    expect(created?.params).toEqual({
      From: number.phoneNumber,
      To: to,
      Body: "Your booking is confirmed.",
      StatusCallback: `${PUBLIC_BASE_URL}/telephony/twilio/sms-status?textId=${text.id}`,
    });
    expect(text).toMatchObject({ status: "queued", providerName: "twilio", segments: 1 });
    expect(text.providerMessageId).toMatch(/^SM[0-9a-f]{32}$/);
    expect(fake.messages.get(text.providerMessageId!)?.to).toBe(to);
    expect(await ledgerKinds(text.id)).toEqual(["sms_debit -0.0100"]);
  });

  it("follows signed status callbacks forward, and ignores any after a final status", async () => {
    const text = await send(uniqueUsNumber());
    const sid = text.providerMessageId!;
    expect(await fake.reportMessage(sid, "sent", t.url)).toBe(204);
    expect((await reload(text)).status).toBe("sent");
    expect(await fake.reportMessage(sid, "delivered", t.url)).toBe(204);
    expect((await reload(text)).status).toBe("delivered");
    // Late and out of order: neither moves a delivered text, nor refunds it.
    await fake.reportMessage(sid, "sent", t.url);
    await fake.reportMessage(sid, "failed", t.url, "30008");
    const after = await reload(text);
    expect(after).toMatchObject({ status: "delivered", errorCode: null });
    expect(await ledgerKinds(text.id)).toEqual(["sms_debit -0.0100"]);
  });

  it("refuses a callback with a forged signature", async () => {
    const text = await send(uniqueUsNumber());
    const path = `/telephony/twilio/sms-status?textId=${text.id}`;
    const params = {
      AccountSid: fake.accountSid,
      MessageSid: text.providerMessageId!,
      MessageStatus: "failed",
    };
    for (const signature of [twilioSignature("not-the-token", `${PUBLIC_BASE_URL}${path}`, params), null]) {
      const response = await fetch(`${t.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          ...(signature ? { "x-twilio-signature": signature } : {}),
        },
        body: new URLSearchParams(params),
      });
      expect(response.status).toBe(403);
    }
    expect((await reload(text)).status).toBe("queued");
    expect(await ledgerKinds(text.id)).toEqual(["sms_debit -0.0100"]);
  });

  it("refunds a text Twilio reports failed (it was never sent), once", async () => {
    const before = (await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } }))
      .balance;
    const text = await send(uniqueUsNumber());
    await fake.reportMessage(text.providerMessageId!, "failed", t.url, "30008");
    await fake.reportMessage(text.providerMessageId!, "failed", t.url, "30008");
    const after: TextMessage = await reload(text);
    expect(after).toMatchObject({ status: "failed", errorCode: "30008" });
    expect(after.cost.toFixed(4)).toBe("0.0000");
    expect(await ledgerKinds(text.id)).toEqual(["sms_debit -0.0100", "adjustment 0.0100"]);
    const balance = (await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } }))
      .balance;
    expect(balance.toFixed(4)).toBe(before.toFixed(4));
  });

  it("keeps an undelivered text paid: the carrier sent it", async () => {
    const text = await send(uniqueUsNumber());
    await fake.reportMessage(text.providerMessageId!, "undelivered", t.url, "30003");
    expect(await reload(text)).toMatchObject({ status: "undelivered", errorCode: "30003" });
    expect(await ledgerKinds(text.id)).toEqual(["sms_debit -0.0100"]);
  });

  it("records an opt-out Twilio knows of (error 21610), refunds, and sends to it no more", async () => {
    const to = uniqueUsNumber();
    fake.unsubscribedRecipients.add(to);
    await expect(send(to)).rejects.toMatchObject({ code: "RECIPIENT_OPTED_OUT" });
    const text = await t.app.db.prisma.textMessage.findFirstOrThrow({ where: { to } });
    expect(text.status).toBe("failed");
    expect(await ledgerKinds(text.id)).toEqual(["sms_debit -0.0100", "adjustment 0.0100"]);
    const asked = fake.requests.filter((request) => request.resource === "/Messages.json").length;
    await expect(send(to)).rejects.toMatchObject({ code: "RECIPIENT_OPTED_OUT" });
    expect(fake.requests.filter((request) => request.resource === "/Messages.json").length).toBe(asked);
  });
});

describe("numbers Twilio sells without SMS", () => {
  it("records them as not SMS-capable: out of the legacy SMS list, refused as a sender", async () => {
    const voiceOnly = uniqueUsNumber();
    fake.voiceOnlyNumbers.add(voiceOnly);
    const account = await t.createAccount({ balance: "1" });
    const bought = await telephonyFixtures(t).addNumber(account, { phoneNumber: voiceOnly });
    const texting = await telephonyFixtures(t).addNumber(account);
    expect(bought.smsCapable).toBe(false);
    const legacy = await t.rest<{ data: { id: number; sms_capable: boolean }[] }>(
      "GET",
      "/api/user/phone-numbers",
      {
        token: account.apiKey,
      },
    );
    expect(legacy.status).toBe(200);
    expect(legacy.body.data).toEqual([expect.objectContaining({ id: texting.id, sms_capable: true })]);
    await expect(
      t.app.services.texts.send(account.accountId, { from: voiceOnly, to: uniqueUsNumber(), body: "Hi" }),
    ).rejects.toMatchObject({ code: "NUMBER_NOT_SMS_CAPABLE" });
  });
});

describe("inbound texts through Twilio", () => {
  it("records STOP (answered with TwiML), refuses further texts, and START re-enables them", async () => {
    const customer = uniqueUsNumber();
    const stop = await fake.receiveText({ from: customer, to: number.phoneNumber, body: "STOP" }, t.url);
    expect(stop).toMatch(/<Response><Message>You have been unsubscribed/);
    const inbound = await t.app.db.prisma.textMessage.findFirstOrThrow({ where: { from: customer } });
    expect(inbound).toMatchObject({ accountId: owner.accountId, direction: "inbound", status: "received" });
    await expect(send(customer)).rejects.toMatchObject({ code: "RECIPIENT_OPTED_OUT" });

    const help = await fake.receiveText({ from: customer, to: number.phoneNumber, body: "HELP" }, t.url);
    expect(help).toMatch(/Reply STOP to unsubscribe/);
    const start = await fake.receiveText({ from: customer, to: number.phoneNumber, body: "start" }, t.url);
    expect(start).toMatch(/resubscribed/);
    expect((await send(customer)).status).toBe("queued");

    const chat = await fake.receiveText(
      { from: customer, to: number.phoneNumber, body: "What time?" },
      t.url,
    );
    expect(chat).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
  });

  it("keeps opt-outs per account: another account's number is not affected", async () => {
    const other = await t.createAccount({ balance: "1" });
    const otherNumber = await telephonyFixtures(t).addNumber(other);
    const customer = uniqueUsNumber();
    await fake.receiveText({ from: customer, to: otherNumber.phoneNumber, body: "STOP" }, t.url);
    const recorded = await t.app.db.prisma.textMessage.findFirstOrThrow({ where: { from: customer } });
    expect(recorded.accountId).toBe(other.accountId);
    expect((await send(customer)).status).toBe("queued");
    await expect(
      t.app.services.texts.send(other.accountId, { from: otherNumber.phoneNumber, to: customer, body: "Hi" }),
    ).rejects.toMatchObject({ code: "RECIPIENT_OPTED_OUT" });
  });
});
