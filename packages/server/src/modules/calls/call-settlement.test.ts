import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type LiveCallsBench, startLiveCallsBench } from "../../../test/fixtures/live-calls.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { type FakeSpeech, startFakeSpeech } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import {
  answerOutbound,
  callCompleted,
  twilioWebhook,
  voiceCallEnv,
} from "../../../test/support/voice-calls.ts";
import { WebCallClient } from "../../../test/support/web-call-client.ts";
import type { Assistant } from "../../generated/prisma/client.ts";
import { minutesStarted } from "./call-settlement.ts";
import { type ApiCallStatus, CALL_STATUSES, isFinal, toApiStatus } from "./call-status.ts";

const SITE = "https://shop.example";
/** As the database spells them (its enum's labels are the API's). */
const FINAL_STATUSES: string[] = CALL_STATUSES.filter(isFinal);

let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let t: TestApp;
let owner: TestAccount;
let voiceAssistant: Assistant;
let phoneAssistant: Assistant;

interface Observation {
  callId: number;
  status: string;
  totalCost: string;
  charged: string;
  held: number;
}

/**
 * Every state of a call row that any reader could have seen: a deferred constraint trigger fires
 * when each transaction that changed the row commits (at the end of the statement outside one)
 * and records the row with what the ledger holds for the call at that moment. So a reader's view
 * between two commits (a status committed before its charges) is caught whatever the timing.
 */
async function observeCommittedCalls(app: TestApp) {
  const prisma = app.app.db.prisma;
  await prisma.$executeRawUnsafe(`
    CREATE TABLE "test_call_observations" (
      "seq" serial PRIMARY KEY, "callId" integer, "status" text, "totalCost" numeric,
      "charged" numeric, "held" integer)`);
  await prisma.$executeRawUnsafe(`
    CREATE FUNCTION "test_observe_call"() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO "test_call_observations" ("callId", "status", "totalCost", "charged", "held")
      SELECT c."id", c."status"::text, c."totalCost",
             (SELECT -COALESCE(SUM(l."amount"), 0) FROM "ledger_entries" l WHERE l."callId" = c."id"),
             (SELECT count(*) FROM "ledger_entries" l WHERE l."callId" = c."id" AND l."heldUntil" IS NOT NULL)
      FROM "calls" c WHERE c."id" = NEW."id";
      RETURN NULL;
    END $$`);
  await prisma.$executeRawUnsafe(`
    CREATE CONSTRAINT TRIGGER "test_observe_call" AFTER INSERT OR UPDATE ON "calls"
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "test_observe_call"()`);
}

async function observationsOf(app: TestApp, callId: number): Promise<Observation[]> {
  const rows = await app.app.db.prisma.$queryRawUnsafe<
    { callId: number; status: string; totalCost: string; charged: string; held: number }[]
  >(
    `SELECT "callId", "status", "totalCost"::text AS "totalCost", "charged"::text AS "charged", "held"
     FROM "test_call_observations" WHERE "callId" = $1 ORDER BY "seq"`,
    callId,
  );
  return rows.map((row) => ({
    ...row,
    totalCost: Number(row.totalCost).toFixed(2),
    charged: Number(row.charged).toFixed(2),
    held: Number(row.held),
  }));
}

/** Each committed state with a final status already carried the call's money: charged, settled, totalled. */
async function expectSettledWhenFinal(callId: number, total: string, app = t) {
  const seen = await observationsOf(app, callId);
  const final = seen.filter((row) => FINAL_STATUSES.includes(row.status));
  expect(final.length).toBeGreaterThan(0);
  for (const row of final) expect(row).toMatchObject({ totalCost: total, charged: total, held: 0 });
}

const reload = (callId: number) => t.app.db.prisma.call.findUniqueOrThrow({ where: { id: callId } });

beforeAll(async () => {
  [twilio, model, speech] = await Promise.all([startFakeTwilio(), startFakeOpenAI(), startFakeSpeech()]);
  t = await startTestApp({ model, env: voiceCallEnv(twilio, speech) });
  await observeCommittedCalls(t);
  owner = await t.createAccount({ balance: "50" });
  voiceAssistant = await createAssistant(t, owner, {
    widgetSettings: { voice: true },
    allowedOrigins: [SITE],
  });
  const number = await telephonyFixtures(t).addNumber(owner);
  phoneAssistant = await createAssistant(t, owner, { phoneNumberId: number.id });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close()]);
});

describe("a call's final status, its charges and its cost", () => {
  it("are seen together on a web call, and by a subscriber told of the end", async () => {
    const started = await t.rest<{ call_id: number; token: string }>(
      "POST",
      `/api/widget/assistants/${voiceAssistant.uuid}/web-calls`,
      { headers: { origin: SITE } },
    );
    expect(started.status).toBe(201);
    const callId = started.body.call_id;
    const client = await WebCallClient.connect(
      `${t.url.replace(/^http/, "ws")}/widget/web-call`,
      started.body.token,
      { origin: SITE },
    );
    await client.waitFor(() => client.count("ready") === 1);
    // Two and a half minutes into the call (minutes 2 and 3 are charged by the end).
    await t.app.db.prisma.call.update({
      where: { id: callId },
      data: { startedAt: new Date(Date.now() - 150_000) },
    });
    // Whoever hears of the final status reads the call at once: its cost is there.
    const readAtEnd: { status: string; totalCost: string }[] = [];
    const subscription = t.app.pubsub.subscribe("call:status", owner.accountId);
    const listening = (async () => {
      for await (const event of subscription) {
        if (event.callId !== callId || !isFinal(event.status as ApiCallStatus)) continue;
        const call = await reload(callId);
        readAtEnd.push({ status: toApiStatus(call.status), totalCost: call.totalCost.toFixed(2) });
        return;
      }
    })();
    client.close();
    await client.closed;
    await listening;
    expect(readAtEnd).toEqual([{ status: "ended_by_customer", totalCost: "0.30" }]);
    await expectSettledWhenFinal(callId, "0.30");
    const ledger = await t.app.db.prisma.ledgerEntry.findMany({ where: { callId }, orderBy: { id: "asc" } });
    expect(ledger.map((entry) => entry.callMinute)).toEqual([1, 2, 3]);
  });

  it("are seen together on a phone call ended by the carrier, answered or not", async () => {
    const answered = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: phoneAssistant.id,
      to: uniqueUsNumber(),
    });
    await answerOutbound(t, twilio, answered);
    await callCompleted(t, twilio, answered, 125);
    expect(await reload(answered.id)).toMatchObject({ status: "completed", duration: 125 });
    await expectSettledWhenFinal(answered.id, "0.30");

    const unanswered = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: phoneAssistant.id,
      to: uniqueUsNumber(),
    });
    await twilioWebhook(t, twilio, `/telephony/twilio/status?callId=${unanswered.id}`, {
      AccountSid: twilio.accountSid,
      CallSid: unanswered.providerCallId!,
      CallStatus: "no-answer",
    });
    await vi.waitFor(async () => expect((await reload(unanswered.id)).status).toBe("no_answer"));
    // The reserved first minute was refunded in the transaction that recorded the end.
    await expectSettledWhenFinal(unanswered.id, "0.00");
  });
});

describe("on the simulated carrier, whose calls are text turns through the voice engine", () => {
  let bench: LiveCallsBench;

  beforeAll(async () => {
    bench = await startLiveCallsBench({ maxConcurrentCalls: 4 });
    await observeCommittedCalls(bench.t);
  });

  afterAll(async () => {
    await bench?.t.close();
  });

  it("settle together too, the call's timer charging minutes while it runs", async () => {
    const { t: app, owner: caller, assistant } = bench;
    const calls = await Promise.all(
      // Answered (a scripted conversation, then the callee hangs up), and never answered.
      ["+14155550100", "+14155550101"].map((to) =>
        app.app.services.callStarts.placeOutbound({
          accountId: caller.accountId,
          assistantId: assistant.id,
          to,
        }),
      ),
    );
    const [answered, unanswered] = await Promise.all(calls.map((call) => bench.finalCall(call.id)));
    expect(toApiStatus(answered!.status)).toBe("ended_by_customer");
    const minutes = minutesStarted(answered!.duration);
    expect(answered!.totalCost.toFixed(2)).toBe((0.1 * minutes).toFixed(2));
    await expectSettledWhenFinal(answered!.id, answered!.totalCost.toFixed(2), app);
    expect(toApiStatus(unanswered!.status)).toBe("no-answer");
    await expectSettledWhenFinal(unanswered!.id, "0.00", app);
  });
});
