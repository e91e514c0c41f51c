import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { CALL_PRICE, type LiveCallsBench, startLiveCallsBench } from "../../../test/fixtures/live-calls.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import type { TestAccount, TestApp } from "../../../test/support/test-app.ts";
import type { Assistant, Call } from "../../generated/prisma/client.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { SCRIPTED_CALLEE_LINES } from "../telephony/index.ts";
import { FAREWELLS } from "./call-hang-up.ts";
import { minutesStarted } from "./call-settlement.ts";
import { toApiStatus } from "./call-status.ts";

const PRICE = CALL_PRICE;

const TEST_NUMBERS = {
  answered: "+14155550100",
  noAnswer: "+14155550101",
  busy: "+14155550102",
  failed: "+14155550103",
  voicemail: "+14155550104",
  staysOn: "+14155550105",
};

let t: TestApp;
let owner: TestAccount;
let assistant: Assistant;
let finished: Call[];
let finalCall: LiveCallsBench["finalCall"];
let ledgerOf: LiveCallsBench["ledgerOf"];
let balanceOf: LiveCallsBench["balanceOf"];

const START_CALL = /* GraphQL */ `
  mutation ($input: StartCallInput!) {
    startCall(input: $input) { id status type clientPhoneNumber assistantPhoneNumber provider }
  }`;

async function startCall(account: TestAccount, input: Record<string, unknown>) {
  return t.gql<{ startCall: { id: number; status: string } }>(
    START_CALL,
    { input },
    { token: account.apiKey },
  );
}

beforeAll(async () => {
  ({ t, owner, assistant, finished, finalCall, ledgerOf, balanceOf } = await startLiveCallsBench({
    maxConcurrentCalls: 8,
  }));
});

afterAll(async () => {
  await t?.close();
});

describe("outbound calls on the simulated carrier", () => {
  it("reaches each documented outcome, refunding calls that were never answered", async () => {
    const before = await balanceOf(owner);
    const started: Record<string, number> = {};
    for (const [name, to] of Object.entries(TEST_NUMBERS)) {
      if (name === "staysOn") continue;
      const response = await startCall(owner, { assistantId: assistant.id, to, variables: { name } });
      expect(response.errors).toBeUndefined();
      expect(response.data!.startCall).toMatchObject({
        status: "initiated",
        clientPhoneNumber: to,
        provider: "simulated",
      });
      started[name] = response.data!.startCall.id;
    }
    const calls = Object.fromEntries(
      await Promise.all(
        Object.entries(started).map(async ([name, id]) => [name, await finalCall(id)] as const),
      ),
    );
    expect(toApiStatus(calls.noAnswer!.status)).toBe("no-answer");
    expect(toApiStatus(calls.busy!.status)).toBe("busy");
    expect(toApiStatus(calls.failed!.status)).toBe("failed");
    expect(calls.failed!.endReason).toMatch(/could not connect/);
    expect(toApiStatus(calls.voicemail!.status)).toBe("ended_by_assistant");
    expect(calls.voicemail!.answeredBy).toBe("machine");
    // The engine's session left the message after the machine's beep: its last turn.
    expect(calls.voicemail!.endReason).toBe("Voicemail message left.");
    expect(calls.voicemail!.transcript.split("\n").at(-1)).toBe("Assistant: Hello! How can I help?");
    // The callee hung up after its goodbye was answered, as a Twilio caller whose stream stops.
    expect(toApiStatus(calls.answered!.status)).toBe("ended_by_customer");
    expect(calls.answered!.answeredBy).toBe("human");
    expect(calls.answered!.transcript).toContain(`Customer: ${SCRIPTED_CALLEE_LINES[0]}`);
    expect(calls.answered!.transcript).toContain(`Customer: ${SCRIPTED_CALLEE_LINES.at(-1)}`);
    expect(calls.answered!.transcript.startsWith("Assistant: Hello! How can I help?")).toBe(true);

    let charged = new Prisma.Decimal(0);
    for (const name of ["noAnswer", "busy", "failed"]) {
      const call = calls[name]!;
      // The reserved minute and its refund: the unanswered call cost nothing.
      expect((await ledgerOf(call.id)).map((entry) => [entry.kind, entry.amount.toFixed(2)])).toEqual([
        ["call_debit", "-0.10"],
        ["adjustment", "0.10"],
      ]);
      expect(call.totalCost.toFixed(2)).toBe("0.00");
    }
    for (const name of ["answered", "voicemail"]) {
      const call = calls[name]!;
      const minutes = minutesStarted(call.duration);
      const entries = await ledgerOf(call.id);
      expect(entries.map((entry) => entry.callMinute)).toEqual(
        Array.from({ length: minutes }, (_, index) => index + 1),
      );
      expect(entries.every((entry) => entry.amount.toFixed(2) === "-0.10" && entry.heldUntil === null)).toBe(
        true,
      );
      expect(call.totalCost.toFixed(2)).toBe(new Prisma.Decimal(PRICE).mul(minutes).toFixed(2));
      charged = charged.add(call.totalCost);
    }
    expect((await balanceOf(owner)).toFixed(2)).toBe(before.sub(charged).toFixed(2));
    // Each call was reported finished exactly once.
    for (const id of Object.values(started))
      expect(finished.filter((call) => call.id === id)).toHaveLength(1);
  });

  it("hangs up at max_duration with a goodbye, charging each started minute", async () => {
    // The silent callee is prompted by the engine, but not hung up on for silence before the limit.
    const short = await createAssistant(t, owner, {
      name: "Short",
      maxDuration: 90,
      maxSilenceDuration: 600,
      phoneNumberId: assistant.phoneNumberId,
    });
    const response = await startCall(owner, { assistantId: short.id, to: TEST_NUMBERS.staysOn });
    const call = await finalCall(response.data!.startCall.id);
    expect(toApiStatus(call.status)).toBe("ended_by_assistant");
    expect(call.endReason).toBe("Maximum duration reached.");
    expect(call.transcript).toContain(`Assistant: ${FAREWELLS.maxDuration}`);
    expect(call.duration).toBeGreaterThanOrEqual(90);
    const entries = await ledgerOf(call.id);
    expect(entries.length).toBe(minutesStarted(call.duration));
    expect(call.totalCost.toFixed(2)).toBe(new Prisma.Decimal(PRICE).mul(entries.length).toFixed(2));
  });

  it("hangs up when the balance cannot pay the next minute, never overdrawing", async () => {
    const poor = await t.createAccount({ balance: "0.25" });
    const number = await telephonyFixtures(t).addNumber(poor);
    const helper = await createAssistant(t, poor, { phoneNumberId: number.id, maxSilenceDuration: 600 });
    const response = await startCall(poor, { assistantId: helper.id, to: TEST_NUMBERS.staysOn });
    const call = await finalCall(response.data!.startCall.id);
    expect(toApiStatus(call.status)).toBe("ended_by_assistant");
    expect(call.endReason).toBe("The balance ran out.");
    expect(call.transcript).toContain(`Assistant: ${FAREWELLS.balance}`);
    expect((await ledgerOf(call.id)).map((entry) => entry.callMinute)).toEqual([1, 2]);
    expect(call.totalCost.toFixed(2)).toBe("0.20");
    expect((await balanceOf(poor)).toFixed(2)).toBe("0.05");
  });

  it("charges a call minute once however many ask for it at once, and never past the balance", async () => {
    const response = await startCall(owner, { assistantId: assistant.id, to: TEST_NUMBERS.busy });
    const callId = response.data!.startCall.id;
    await finalCall(callId);
    const before = await balanceOf(owner);
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.app.services.billing.chargeCallMinute({
          accountId: owner.accountId,
          callId,
          minute: 7,
          amount: PRICE,
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome === "charged")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === "already-charged")).toHaveLength(9);
    expect((await balanceOf(owner)).toFixed(2)).toBe(before.sub(PRICE).toFixed(2));
    expect(
      await t.app.services.billing.chargeCallMinute({
        accountId: owner.accountId,
        callId,
        minute: 8,
        amount: "1000000",
      }),
    ).toBe("insufficient-balance");
    expect((await balanceOf(owner)).toFixed(2)).toBe(before.sub(PRICE).toFixed(2));
  });

  it("ends a call on request through the carrier", async () => {
    const response = await startCall(owner, { assistantId: assistant.id, to: TEST_NUMBERS.staysOn });
    const id = response.data!.startCall.id;
    for (;;) {
      const call = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id } });
      if (call.status === "in_progress") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const ended = await t.gql<{ endCall: { id: number } }>(
      "mutation ($id: Int!) { endCall(id: $id) { id status } }",
      { id },
      { token: owner.apiKey },
    );
    expect(ended.errors).toBeUndefined();
    const call = await finalCall(id);
    expect(toApiStatus(call.status)).toBe("ended");
    expect(call.endReason).toBe("Ended through the API.");
  });

  it("refuses bad input, other accounts' resources, no money and too many calls", async () => {
    const bad = await startCall(owner, { assistantId: assistant.id, to: "0415555" });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(Object.keys(bad.errors![0]!.extensions!.fields as object)).toEqual(["to"]);

    const stranger = await t.createAccount();
    const foreign = await startCall(stranger, { assistantId: assistant.id, to: TEST_NUMBERS.answered });
    expect(foreign.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { assistantId: ["The selected assistant id is invalid."] },
    });
    const ownAssistant = await createAssistant(t, stranger);
    const foreignNumber = await startCall(stranger, {
      assistantId: ownAssistant.id,
      to: TEST_NUMBERS.answered,
      phoneNumberId: assistant.phoneNumberId,
    });
    expect(foreignNumber.errors?.[0]?.extensions).toMatchObject({
      fields: { phoneNumberId: ["The selected phone number id is invalid."] },
    });

    const broke = await t.createAccount({ balance: "0.05" });
    const brokeNumber = await telephonyFixtures(t).addNumber(broke);
    const brokeAssistant = await createAssistant(t, broke, { phoneNumberId: brokeNumber.id });
    const refused = await startCall(broke, { assistantId: brokeAssistant.id, to: TEST_NUMBERS.answered });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "INSUFFICIENT_BALANCE" });
    expect(await t.app.db.prisma.call.count({ where: { accountId: broke.accountId } })).toBe(0);
  });

  it("caps the calls an account has running at once, however many arrive together", async () => {
    const busy = await t.createAccount({ balance: "100" });
    const busyNumber = await telephonyFixtures(t).addNumber(busy);
    const busyAssistant = await createAssistant(t, busy, { phoneNumberId: busyNumber.id });
    // Calls that stay on the line until they are ended.
    const attempts = await Promise.all(
      Array.from({ length: 12 }, () =>
        startCall(busy, { assistantId: busyAssistant.id, to: TEST_NUMBERS.staysOn }),
      ),
    );
    const placed = attempts.filter((attempt) => attempt.data?.startCall);
    expect(placed).toHaveLength(8);
    for (const attempt of attempts.filter((attempt) => attempt.errors)) {
      expect(attempt.errors![0]!.extensions).toMatchObject({ code: "RATE_LIMITED", limit: 8 });
    }
    await Promise.all(
      placed.map((attempt) => t.app.services.callLifecycle.end(busy.accountId, attempt.data!.startCall.id)),
    );
    await Promise.all(placed.map((attempt) => finalCall(attempt.data!.startCall.id)));
    // Once they ended, the account may call again.
    const next = await startCall(busy, { assistantId: busyAssistant.id, to: TEST_NUMBERS.busy });
    expect(next.data?.startCall.status).toBe("initiated");
    await finalCall(next.data!.startCall.id);
    const spent = await t.app.db.prisma.call.aggregate({
      where: { accountId: busy.accountId },
      _sum: { totalCost: true },
    });
    expect((await balanceOf(busy)).toFixed(2)).toBe(
      new Prisma.Decimal(100).sub(spent._sum.totalCost!).toFixed(2),
    );
  });

  it("places a call over REST (POST /api/user/make_call, an extension of the spec)", async () => {
    const created = await t.rest<{ message: string; data: Record<string, unknown> }>(
      "POST",
      "/api/user/make_call",
      {
        token: owner.apiKey,
        body: {
          assistant_id: assistant.id,
          phone_number: TEST_NUMBERS.answered,
          variables: { customer_name: "Ada" },
        },
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      type: "outbound",
      status: "initiated",
      client_phone_number: TEST_NUMBERS.answered,
      variables: { customer_name: "Ada" },
      total_cost: 0,
    });
    const call = await finalCall(created.body.data.id as number);
    const listed = await t.rest<{ data: Record<string, unknown>[] }>(
      "GET",
      `/api/user/calls?status=ended_by_customer`,
      {
        token: owner.apiKey,
      },
    );
    expect(listed.body.data.find((item) => item.id === call.id)).toMatchObject({
      status: "ended_by_customer",
      answered_by: "human",
      duration: call.duration,
      total_cost: Number(call.totalCost),
    });

    const invalid = await t.rest<{ errors: Record<string, string[]> }>("POST", "/api/user/make_call", {
      token: owner.apiKey,
      body: { assistant_id: assistant.id, phone_number: "12345" },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors).toEqual({
      phone_number: [
        "The phone number field must be a valid phone number in E.164 format (e.g. +14155550123).",
      ],
    });
    const missing = await t.rest<{ errors: Record<string, string[]> }>("POST", "/api/user/make_call", {
      token: owner.apiKey,
      body: { phone_number: TEST_NUMBERS.answered },
    });
    expect(missing.status).toBe(422);
    expect(Object.keys(missing.body.errors)).toEqual(["assistant_id"]);
    expect((await t.rest("POST", "/api/user/make_call", { body: {} })).status).toBe(401);
  });
});
