import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import {
  type FakeOpenAI,
  type RecordedChatRequest,
  startFakeOpenAI,
} from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Assistant, Call, PhoneNumber } from "../../generated/prisma/client.ts";

/**
 * `send_sms` on simulated phone calls: the assistant's model texts the caller from the call's number,
 * through the same sending path (charge, carrier, opt-outs) as the API.
 */

let t: TestApp;
let fake: FakeOpenAI;
let owner: TestAccount;
let number: PhoneNumber;
const finished = new Map<number, (call: Call) => void>();

const persona = (request: RecordedChatRequest) =>
  request.messages[0]?.content?.includes("just answered a phone call") ?? false;

/** The assistant asks to text the caller once per call, when offered `send_sms`; the caller just talks. */
function scriptModel() {
  let asked = false;
  fake.respondWith((request) => {
    if (persona(request)) return { content: "Please text me the confirmation." };
    if (!asked && request.tools?.some((tool) => tool.function.name === "send_sms")) {
      asked = true;
      return {
        toolCalls: [{ name: "send_sms", arguments: { body: "Booked: Tuesday at 10:00. See you then!" } }],
      };
    }
    return { content: "All set." };
  });
}

/** What the model was told `send_sms` did (the tool message answering its call). */
const toolResults = () =>
  fake.chatRequests.flatMap((request) =>
    request.messages.filter((message) => message.role === "tool").map((message) => message.content ?? ""),
  );

async function call(assistant: Assistant, to: string) {
  const placed = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId: assistant.id,
    to,
  });
  return new Promise<Call>((resolve) => finished.set(placed.id, resolve));
}

beforeAll(async () => {
  fake = await startFakeOpenAI();
  t = await startTestApp({
    model: fake,
    env: { VOXGATE_CALL_CLOCK_SPEED: "20", VOXGATE_SMS_PRICE_PER_SEGMENT: "0.0300" },
  });
  t.app.services.bus.on("call.finished", async ({ call: ended }) => finished.get(ended.id)?.(ended));
  owner = await t.createAccount({ balance: "10" });
  number = await telephonyFixtures(t).addNumber(owner);
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe("send_sms on phone calls", () => {
  it("texts the caller from the call's number, charged per segment", async () => {
    fake.reset();
    scriptModel();
    const assistant = await createAssistant(t, owner, { phoneNumberId: number.id });
    const to = "+14155550120";
    await call(assistant, to);
    const texts = await t.app.db.prisma.textMessage.findMany({ where: { accountId: owner.accountId, to } });
    expect(texts).toHaveLength(1);
    expect(texts[0]).toMatchObject({
      direction: "outbound",
      from: number.phoneNumber,
      body: "Booked: Tuesday at 10:00. See you then!",
      segments: 1,
    });
    const ledger = await t.app.db.prisma.ledgerEntry.findMany({ where: { textMessageId: texts[0]!.id } });
    expect(ledger.map((entry) => [entry.kind, entry.amount.toFixed(4)])).toEqual([["sms_debit", "-0.0300"]]);
    expect(toolResults().some((result) => result.includes(`"textId":${texts[0]!.id}`))).toBe(true);
  });

  it("tells the model a caller who opted out cannot be texted, and sends nothing", async () => {
    const to = "+14155550121";
    await t.app.services.texts.simulateInbound(owner.accountId, {
      to: number.phoneNumber,
      from: to,
      body: "STOP",
    });
    fake.reset();
    scriptModel();
    const assistant = await createAssistant(t, owner, { phoneNumberId: number.id });
    await call(assistant, to);
    expect(await t.app.db.prisma.textMessage.count({ where: { direction: "outbound", to } })).toBe(0);
    expect(toolResults().some((result) => result.includes("opted out of texts"))).toBe(true);
  });

  it("is not offered on a number that cannot send texts", async () => {
    const voiceOnly = await telephonyFixtures(t).addNumber(owner, { smsCapable: false });
    fake.reset();
    scriptModel();
    const assistant = await createAssistant(t, owner, { phoneNumberId: voiceOnly.id });
    await call(assistant, "+14155550122");
    const offered = fake.chatRequests.filter((request) => !persona(request));
    expect(offered.length).toBeGreaterThan(0);
    for (const request of offered) {
      expect(request.tools?.map((tool) => tool.function.name) ?? []).not.toContain("send_sms");
    }
    expect(await t.app.db.prisma.textMessage.count({ where: { to: "+14155550122" } })).toBe(0);
  });
});
