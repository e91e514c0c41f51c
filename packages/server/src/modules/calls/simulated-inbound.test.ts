import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { CALL_PRICE, type LiveCallsBench, startLiveCallsBench } from "../../../test/fixtures/live-calls.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { subscribeWs } from "../../../test/support/subscriptions.ts";
import type { TestAccount, TestApp } from "../../../test/support/test-app.ts";
import type { Assistant, Call, PhoneNumber } from "../../generated/prisma/client.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { SCRIPTED_CALLER_LINES } from "../telephony/index.ts";
import { minutesStarted } from "./call-settlement.ts";
import { toApiStatus } from "./call-status.ts";
import { INBOUND_REFUSALS } from "./inbound-calls.ts";

const PRICE = CALL_PRICE;
// The documented test number of a caller who stays on the line until Voxgate hangs up.
const STAYS_ON = "+14155550105";

let t: TestApp;
let owner: TestAccount;
let number: PhoneNumber;
let assistant: Assistant;
let finished: Call[];
let finalCall: LiveCallsBench["finalCall"];
let balanceOf: LiveCallsBench["balanceOf"];
let ledgerEntries: LiveCallsBench["ledgerOf"];

const SIMULATE = /* GraphQL */ `
  mutation ($input: SimulateInboundCallInput!) {
    simulateInboundCall(input: $input) {
      id status type provider endReason clientPhoneNumber assistantPhoneNumber assistantId
    }
  }`;

type Simulated = {
  simulateInboundCall: {
    id: number;
    status: string;
    type: string;
    provider: string;
    endReason: string;
    clientPhoneNumber: string;
    assistantPhoneNumber: string;
    assistantId: number | null;
  };
};

const simulate = (account: TestAccount, input: Record<string, unknown>) =>
  t.gql<Simulated>(SIMULATE, { input }, { token: account.apiKey });

const STATUS_CHANGES = /* GraphQL */ `
  subscription ($callId: Int, $assistantId: Int) {
    callStatusChanged(callId: $callId, assistantId: $assistantId) { callId status previousStatus }
  }`;

type StatusChange = { callStatusChanged: { callId: number; status: string; previousStatus: string | null } };

const ledgerOf = async (callId: number) =>
  (await ledgerEntries(callId)).map((entry) => [entry.kind, entry.callMinute, entry.amount.toFixed(2)]);

beforeAll(async () => {
  ({
    t,
    owner,
    number,
    assistant,
    finished,
    finalCall,
    balanceOf,
    ledgerOf: ledgerEntries,
  } = await startLiveCallsBench({ maxConcurrentCalls: 4, assistantName: "Front desk" }));
});

afterAll(async () => {
  await t?.close();
});

describe("simulateInboundCall", () => {
  it("is answered by the number's inbound assistant, talks, ends and bills each started minute", async () => {
    const before = await balanceOf(owner);
    const from = uniqueUsNumber();
    const events = await subscribeWs<StatusChange>(t.url, STATUS_CHANGES, {
      connectionParams: { authorization: `Bearer ${owner.apiKey}` },
      variables: { assistantId: assistant.id },
    });
    let call: Call;
    try {
      const response = await simulate(owner, { phoneNumberId: number.id, from });
      expect(response.errors).toBeUndefined();
      const answered = response.data!.simulateInboundCall;
      expect(answered).toMatchObject({
        status: "in_progress",
        type: "inbound",
        provider: "simulated",
        clientPhoneNumber: from,
        assistantPhoneNumber: number.phoneNumber,
        assistantId: assistant.id,
      });
      call = await finalCall(answered.id);
      const seen = [];
      for (let index = 0; index < 3; index++) seen.push((await events.next()).data!.callStatusChanged);
      expect(seen).toEqual([
        { callId: answered.id, status: "initiated", previousStatus: null },
        { callId: answered.id, status: "in_progress", previousStatus: "initiated" },
        { callId: answered.id, status: "ended_by_customer", previousStatus: "in_progress" },
      ]);
    } finally {
      await events.close();
    }
    // The caller hung up after the assistant answered their goodbye.
    expect(toApiStatus(call.status)).toBe("ended_by_customer");
    expect(call.answeredBy).toBe("");
    expect(call.endReason).toBe("The caller hung up.");
    // The engine greets the caller, then the caller's lines and the assistant's answers alternate.
    const lines = call.transcript.split("\n");
    expect(lines[0]).toBe("Assistant: Hello! How can I help?");
    expect(lines.filter((line) => line.startsWith("Customer: "))).toEqual(
      SCRIPTED_CALLER_LINES.map((line) => `Customer: ${line}`),
    );
    expect(lines.map((line) => line.split(":")[0])).toEqual([
      "Assistant",
      ...SCRIPTED_CALLER_LINES.flatMap(() => ["Customer", "Assistant"]),
    ]);

    const minutes = minutesStarted(call.duration);
    expect(minutes).toBeGreaterThanOrEqual(1);
    expect(await ledgerOf(call.id)).toEqual(
      Array.from({ length: minutes }, (_, index) => ["call_debit", index + 1, `-${PRICE}`]),
    );
    const cost = new Prisma.Decimal(PRICE).mul(minutes);
    expect(call.totalCost.toFixed(2)).toBe(cost.toFixed(2));
    expect((await balanceOf(owner)).toFixed(2)).toBe(before.sub(cost).toFixed(2));
    expect(finished.filter((done) => done.id === call.id)).toHaveLength(1);
  });

  it("refuses a call to a number with no assistant: failed with the reason, nothing charged", async () => {
    const before = await balanceOf(owner);
    const idle = await telephonyFixtures(t).addNumber(owner);
    const events = await subscribeWs<StatusChange>(t.url, STATUS_CHANGES, {
      connectionParams: { authorization: `Bearer ${owner.apiKey}` },
    });
    try {
      const response = await simulate(owner, { phoneNumberId: idle.id, from: uniqueUsNumber() });
      expect(response.errors).toBeUndefined();
      const refused = response.data!.simulateInboundCall;
      expect(refused).toMatchObject({
        status: "failed",
        type: "inbound",
        assistantId: null,
        endReason: "The number has no inbound assistant.",
        assistantPhoneNumber: idle.phoneNumber,
      });
      expect((await events.next()).data!.callStatusChanged).toEqual({
        callId: refused.id,
        status: "initiated",
        previousStatus: null,
      });
      expect((await events.next()).data!.callStatusChanged).toEqual({
        callId: refused.id,
        status: "failed",
        previousStatus: "initiated",
      });
      const call = await finalCall(refused.id);
      expect(call.transcript).toBe("");
      expect(await ledgerOf(call.id)).toEqual([]);
      expect((await balanceOf(owner)).toFixed(2)).toBe(before.toFixed(2));
    } finally {
      await events.close();
    }
  });

  it("refuses a call when the account cannot pay its first minute", async () => {
    const broke = await t.createAccount({ balance: "0.05" });
    const line = await telephonyFixtures(t).addNumber(broke);
    await createAssistant(t, broke, { phoneNumberId: line.id });
    const response = await simulate(broke, { phoneNumberId: line.id, from: uniqueUsNumber() });
    expect(response.errors).toBeUndefined();
    const refused = response.data!.simulateInboundCall;
    expect(refused).toMatchObject({
      status: "failed",
      endReason: "The account had no balance for the call.",
    });
    const call = await finalCall(refused.id);
    expect(call.startedAt).toBeNull();
    expect(await ledgerOf(call.id)).toEqual([]);
    expect((await balanceOf(broke)).toFixed(2)).toBe("0.05");
  });

  it("keeps a caller who stays on the line until endCall, billing the minute", async () => {
    const response = await simulate(owner, { phoneNumberId: number.id, from: STAYS_ON });
    expect(response.errors).toBeUndefined();
    const id = response.data!.simulateInboundCall.id;
    // The greeting is the last thing said: the caller stays silent.
    for (;;) {
      const { transcript } = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id } });
      if (transcript !== "") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ended = await t.gql<{ endCall: { id: number } }>(
      `mutation ($id: Int!) { endCall(id: $id) { id } }`,
      { id },
      { token: owner.apiKey },
    );
    expect(ended.errors).toBeUndefined();
    const call = await finalCall(id);
    expect(toApiStatus(call.status)).toBe("ended");
    // The greeting, then only the engine's prompts to a silent caller.
    expect(call.transcript.startsWith("Assistant: Hello! How can I help?")).toBe(true);
    expect(call.transcript).not.toContain("Customer:");
    expect(await ledgerOf(id)).toEqual(
      Array.from({ length: minutesStarted(call.duration) }, (_, index) => [
        "call_debit",
        index + 1,
        `-${PRICE}`,
      ]),
    );
  });

  it("refuses every call of a suspended account: inbound politely and unbilled, outbound and its campaign with ACCOUNT_SUSPENDED", async () => {
    const frozen = await t.createAccount({ balance: "5" });
    const line = await telephonyFixtures(t).addNumber(frozen);
    const desk = await createAssistant(t, frozen, { name: "Frozen desk", phoneNumberId: line.id });
    const campaign = await telephonyFixtures(t).createCampaign(frozen, {
      assistantId: desk.id,
      phoneNumberIds: [line.id],
      callingWindowStart: "00:00",
      callingWindowEnd: "23:59",
      timezone: "UTC",
    });
    await t.app.services.leads.create(frozen.accountId, {
      campaignId: campaign.id,
      phoneNumber: uniqueUsNumber(),
    });
    await t.app.db.prisma.account.update({
      where: { id: frozen.accountId },
      data: { suspendedAt: new Date() },
    });

    // Its key is refused, so only the carrier can ring its number: through the entry point every
    // carrier's inbound call takes (the simulator's and Twilio's webhook).
    const byKey = await simulate(frozen, { phoneNumberId: line.id, from: uniqueUsNumber() });
    expect(byKey.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    const decision = await t.app.services.inboundCalls.receiveInbound({
      carrier: "simulated",
      providerCallId: `sim-suspended-${frozen.accountId}`,
      to: line.phoneNumber,
      from: uniqueUsNumber(),
    });
    expect(decision).toMatchObject({ accepted: false, refusal: INBOUND_REFUSALS.unavailable });
    const refused = await finalCall(decision.callId!);
    expect(refused).toMatchObject({
      status: "failed",
      type: "inbound",
      endReason: "The account is suspended.",
      startedAt: null,
    });
    expect(await ledgerOf(refused.id)).toEqual([]);
    expect((await balanceOf(frozen)).toFixed(2)).toBe("5.00");

    await expect(
      t.app.services.callStarts.placeOutbound({
        accountId: frozen.accountId,
        assistantId: desk.id,
        to: uniqueUsNumber(),
      }),
    ).rejects.toMatchObject({ code: "ACCOUNT_SUSPENDED" });
    // Its campaign, started before the suspension, dials no one while it lasts.
    await t.app.db.prisma.campaign.update({ where: { id: campaign.id }, data: { status: "active" } });
    await t.app.services.dialer.dialCampaign(campaign.id);
    expect(
      await t.app.db.prisma.call.count({ where: { accountId: frozen.accountId, type: "outbound" } }),
    ).toBe(0);
    expect(
      await t.app.db.prisma.lead.count({ where: { campaignId: campaign.id, status: "processing" } }),
    ).toBe(0);
  });

  it("answers NOT_FOUND for another account's number, and rings nothing", async () => {
    const stranger = await t.createAccount({ balance: "100" });
    const callsBefore = await t.app.db.prisma.call.count();
    const response = await simulate(stranger, { phoneNumberId: number.id, from: uniqueUsNumber() });
    expect(response.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(response.data).toBeNull();
    expect(await t.app.db.prisma.call.count()).toBe(callsBefore);
  });

  it("refuses a released number and bad input with field messages", async () => {
    const released = await telephonyFixtures(t).addNumber(owner);
    await t.app.services.phoneNumbers.release(owner.accountId, released.id);
    // The paid period ends and the release sweep gives the number back.
    const later = new Date(Date.now() + 400 * 24 * 3600 * 1000);
    expect(await t.app.services.phoneNumberReleases.sweep(later)).toContain(released.id);
    const callsBefore = await t.app.db.prisma.call.count();

    const onReleased = await simulate(owner, { phoneNumberId: released.id, from: uniqueUsNumber() });
    expect(onReleased.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { phoneNumberId: ["The phone number has been released."] },
    });

    const badFrom = await simulate(owner, { phoneNumberId: number.id, from: "0415 555 0100" });
    expect(badFrom.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: {
        from: ["The from field must be a valid phone number in E.164 format (e.g. +14155550123)."],
      },
    });
    expect(await t.app.db.prisma.call.count()).toBe(callsBefore);

    const anonymous = await t.gql(SIMULATE, { input: { phoneNumberId: number.id, from: uniqueUsNumber() } });
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});
