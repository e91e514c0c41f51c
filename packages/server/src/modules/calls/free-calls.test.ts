import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type LiveCallsBench, startLiveCallsBench } from "../../../test/fixtures/live-calls.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeSpeech, startFakeSpeech } from "../../../test/support/fake-speech.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { WebCallClient } from "../../../test/support/web-call-client.ts";
import type { Assistant, Call, PhoneNumber } from "../../generated/prisma/client.ts";
import { FALLBACK_NOTICE } from "../message-pipeline/index.ts";
import { isFinal, toApiStatus } from "./call-status.ts";

// Simulated calls answered by the no-model fallback cost nothing, like chats answered by it
// (docs/calls.md#calls-answered-without-a-model); the same calls with a model are charged, and so are
// browser web calls and calls on a real carrier (telephony/twilio/twilio.test.ts runs without a model).

const SITE = "https://shop.example";
const ANSWERS = "+14155550100";
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 60_000, interval: 50 });

/** What a call left in the books: its ledger entries, its cost and the account's balance. */
async function books(t: TestApp, account: TestAccount, call: Call) {
  const prisma = t.app.db.prisma;
  const [entries, holder] = await Promise.all([
    prisma.ledgerEntry.findMany({ where: { callId: call.id } }),
    prisma.account.findUniqueOrThrow({ where: { id: account.accountId } }),
  ]);
  return {
    entries: entries.length,
    totalCost: call.totalCost.toFixed(2),
    balance: holder.balance.toFixed(2),
  };
}

async function ended(t: TestApp, id: number): Promise<Call> {
  return eventually(async () => {
    const call = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id } });
    expect(isFinal(toApiStatus(call.status))).toBe(true);
    return call;
  });
}

describe("without a chat model", () => {
  let t: TestApp;
  let speech: FakeSpeech;
  let owner: TestAccount;
  let number: PhoneNumber;
  let assistant: Assistant;

  beforeAll(async () => {
    // Speech is reachable (a web call needs it); no chat model: the fallback answers.
    speech = await startFakeSpeech();
    t = await startTestApp({
      env: {
        VOXGATE_CALL_CLOCK_SPEED: "20",
        VOXGATE_CALL_PRICE_PER_MINUTE: "0.10",
        OPENAI_STT_BASE_URL: speech.baseUrl,
        OPENAI_TTS_BASE_URL: speech.baseUrl,
      },
    });
    owner = await t.createAccount({ balance: "10" });
    number = await telephonyFixtures(t).addNumber(owner);
    assistant = await createAssistant(t, owner, {
      phoneNumberId: number.id,
      widgetSettings: { voice: true },
      allowedOrigins: [SITE],
    });
  });
  afterAll(async () => {
    await t?.close();
    await speech?.close();
  });

  it("says so at /readyz", async () => {
    const response = await fetch(`${t.url}/readyz`);
    const body = (await response.json()) as { model: { configured: boolean; notice: string } };
    expect(body.model.configured).toBe(false);
    expect(body.model.notice).toMatch(/simulated calls/);
  });

  it("answers a simulated outbound call with the fallback, for free: no ledger entry, cost 0, balance unchanged", async () => {
    const placed = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: ANSWERS,
    });
    const call = await ended(t, placed.id);
    expect(call.startedAt).not.toBeNull();
    expect(call.transcript).toContain(FALLBACK_NOTICE);
    expect(await books(t, owner, call)).toEqual({ entries: 0, totalCost: "0.00", balance: "10.00" });
  });

  it("answers a simulated inbound call for free", async () => {
    const decision = await t.app.services.inboundCalls.simulateInbound(owner.accountId, {
      phoneNumberId: number.id,
      from: uniqueUsNumber(),
    });
    const call = await ended(t, decision.id);
    expect(toApiStatus(call.status)).toBe("ended_by_customer");
    expect(call.transcript).toContain(FALLBACK_NOTICE);
    expect(await books(t, owner, call)).toEqual({ entries: 0, totalCost: "0.00", balance: "10.00" });
  });

  it("still charges a browser web call: its speech services are paid whatever answers", async () => {
    const started = await t.rest<{ call_id: number; token: string }>(
      "POST",
      `/api/widget/assistants/${assistant.uuid}/web-calls`,
      { headers: { origin: SITE } },
    );
    expect(started.status).toBe(201);
    const client = await WebCallClient.connect(
      `${t.url.replace(/^http/, "ws")}/widget/web-call`,
      started.body.token,
      { origin: SITE },
    );
    await client.waitFor(() => client.count("ready") === 1);
    client.close();
    const call = await ended(t, started.body.call_id);
    expect(call.startedAt).not.toBeNull();
    expect(await books(t, owner, call)).toEqual({ entries: 1, totalCost: "0.10", balance: "9.90" });
  });
});

describe("with a chat model, the same simulated call", () => {
  let bench: LiveCallsBench;
  afterAll(() => bench?.t.close());

  it("is charged each started minute", async () => {
    bench = await startLiveCallsBench({ maxConcurrentCalls: 2 });
    const { t, owner, assistant } = bench;
    const placed = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: ANSWERS,
    });
    const call = await bench.finalCall(placed.id);
    expect(call.transcript).not.toContain(FALLBACK_NOTICE);
    const { entries, totalCost, balance } = await books(t, owner, call);
    expect(entries).toBeGreaterThanOrEqual(1);
    expect(Number(totalCost)).toBeCloseTo(entries * 0.1, 5);
    expect(balance).toBe((100 - Number(totalCost)).toFixed(2));
  });
});
