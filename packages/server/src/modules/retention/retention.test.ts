import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { type FakeSpeech, startFakeSpeech } from "../../../test/support/fake-speech.ts";
import { type FakeTwilio, startFakeTwilio } from "../../../test/support/fake-twilio.ts";
import { ManualClock, startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { TwilioMediaClient } from "../../../test/support/twilio-media-client.ts";
import {
  answerOutbound,
  callerHangsUp,
  mediaStreamUrl,
  voiceCallEnv,
} from "../../../test/support/voice-calls.ts";

const DAY = 86_400_000;

let t: TestApp;
let twilio: FakeTwilio;
let model: FakeOpenAI;
let speech: FakeSpeech;
let owner: TestAccount;
let clock: ManualClock;
const start = new Date();
const daysAfterStart = (days: number) => new Date(start.getTime() + days * DAY);

beforeAll(async () => {
  [twilio, model, speech] = await Promise.all([startFakeTwilio(), startFakeOpenAI(), startFakeSpeech()]);
  clock = new ManualClock(start);
  t = await startTestApp({ model, clock, env: voiceCallEnv(twilio, speech) });
  owner = await t.createAccount({ balance: "50" });
});

afterAll(async () => {
  await t?.close();
  await Promise.all([twilio?.close(), model?.close(), speech?.close()]);
});

const gql = <Data>(query: string, variables?: Record<string, unknown>) =>
  t.gql<Data>(query, variables, { token: owner.apiKey });

/** A real recorded phone call: answered, greeted, hung up by the caller after a minute and five seconds (billed). */
async function recordedCall(assistantId: number) {
  const call = await t.app.services.callStarts.placeOutbound({
    accountId: owner.accountId,
    assistantId,
    to: uniqueUsNumber(),
  });
  const client = await TwilioMediaClient.connect(mediaStreamUrl(t), await answerOutbound(t, twilio, call));
  await client.waitFor(() => client.received.some((message) => message.event === "mark"));
  await callerHangsUp(t, twilio, client, call, 65);
  return vi.waitFor(
    async () => {
      const row = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } });
      expect(row.recordingStatus).toBe("stored");
      return row;
    },
    { timeout: 15_000, interval: 50 },
  );
}

const recordingStatus = async (callId: number) =>
  (
    await fetch(`${t.url}/recordings/${callId}.wav`, {
      headers: { authorization: `Bearer ${owner.apiKey}` },
    })
  ).status;

const ledgerOf = (accountId: number) =>
  t.app.db.prisma.ledgerEntry.findMany({
    where: { accountId },
    orderBy: { id: "asc" },
    select: { id: true, kind: true, amount: true, balanceAfter: true, callId: true, callMinute: true },
  });

describe("retention sweep", () => {
  it("removes expired content once, per account and per assistant, and keeps money and younger content", async () => {
    const number = await telephonyFixtures(t).addNumber(owner);
    const plain = await createAssistant(t, owner, { phoneNumberId: number.id, record: true });
    const keeper = await createAssistant(t, owner, { phoneNumberId: number.id, record: true });
    const strict = await createAssistant(t, owner);

    const set = await gql<{ setDataRetention: Record<string, number | null> }>(
      `mutation ($input: DataRetentionInput!) { setDataRetention(input: $input) {
        transcriptDays recordingDays messageDays callTurnDays webhookLogDays textDays auditLogDays } }`,
      {
        input: {
          transcriptDays: 30,
          recordingDays: 30,
          messageDays: 30,
          callTurnDays: 30,
          webhookLogDays: 30,
          textDays: 30,
        },
      },
    );
    expect(set.errors).toBeUndefined();
    expect(set.data?.setDataRetention).toEqual({
      transcriptDays: 30,
      recordingDays: 30,
      messageDays: 30,
      callTurnDays: 30,
      webhookLogDays: 30,
      textDays: 30,
      auditLogDays: 365,
    });
    // The keeper keeps transcripts and recordings forever; the strict one keeps transcripts 10 days.
    const overrides = await gql<{
      setAssistantDataRetention: {
        transcriptDays: number;
        effective: { transcriptDays: number | null; messageDays: number };
      };
    }>(
      `mutation ($id: Int!, $input: AssistantDataRetentionInput!) {
        setAssistantDataRetention(assistantId: $id, input: $input) { transcriptDays effective { transcriptDays messageDays } } }`,
      { id: keeper.id, input: { transcriptDays: 0, recordingDays: 0 } },
    );
    expect(overrides.data?.setAssistantDataRetention).toEqual({
      transcriptDays: 0,
      effective: { transcriptDays: null, messageDays: 30 },
    });
    await gql(
      `mutation ($id: Int!) { setAssistantDataRetention(assistantId: $id, input: { transcriptDays: 10 }) { transcriptDays } }`,
      { id: strict.id },
    );

    // Real calls, recorded and billed, made now: 31 days old once the clock moves.
    const expiring = await recordedCall(plain.id);
    const kept = await recordedCall(keeper.id);
    const turnsBefore = await t.app.db.prisma.callTurn.count({
      where: { callId: { in: [expiring.id, kept.id] } },
    });
    expect(turnsBefore).toBeGreaterThan(0);
    expect(await recordingStatus(expiring.id)).toBe(200);

    const prisma = t.app.db.prisma;
    const seededCall = (assistantId: number, createdAt: Date, data: Record<string, unknown> = {}) =>
      prisma.call.create({
        data: {
          accountId: owner.accountId,
          assistantId,
          type: "outbound",
          status: "completed",
          transcript: "customer: my card is 4111 1111 1111 1111",
          evaluation: { summary: "asked about a card" },
          totalCost: "0.2000",
          createdAt,
          endedAt: createdAt,
          ...data,
        },
      });
    // Clock moves to start + 31 days below: ages are counted from then.
    const young = await seededCall(plain.id, daysAfterStart(26)); // 5 days old
    const strictOld = await seededCall(strict.id, daysAfterStart(16)); // 15 days old: past its 10
    const plainMiddle = await seededCall(plain.id, daysAfterStart(16)); // 15 days old: within 30
    // A stored recording whose file is already gone: the sweep survives it.
    const fileless = await seededCall(plain.id, start, {
      recordingStatus: "stored",
      recordingUrl: "https://voxgate.test/recordings/x.wav",
    });
    const live = await seededCall(plain.id, start, { status: "in_progress", endedAt: null });

    const conversation = await prisma.conversation.create({
      data: {
        accountId: owner.accountId,
        assistantId: plain.id,
        channel: "api",
        customerIdentifier: "cust-1",
      },
    });
    const oldMessage = await prisma.message.create({
      data: { conversationId: conversation.id, role: "user", content: "old words", createdAt: start },
    });
    const youngMessage = await prisma.message.create({
      data: {
        conversationId: conversation.id,
        role: "user",
        content: "new words",
        createdAt: daysAfterStart(29),
      },
    });
    const text = (createdAt: Date, status: "received" | "scheduled") =>
      prisma.textMessage.create({
        data: {
          accountId: owner.accountId,
          direction: status === "received" ? "inbound" : "outbound",
          from: "+15550000001",
          to: "+15550000002",
          body: "call me at 555 0100",
          encoding: "GSM-7",
          segments: 1,
          status,
          providerName: "simulated",
          cost: "0.0100",
          createdAt,
        },
      });
    const oldText = await text(start, "received");
    const waitingText = await text(start, "scheduled");
    const youngText = await text(daysAfterStart(30), "received");
    const webhookEvent = (status: "delivered" | "pending", updatedAt: Date) =>
      prisma.webhookEvent.create({
        data: {
          messageId: `msg_${Math.random().toString(36).slice(2)}`,
          accountId: owner.accountId,
          assistantId: plain.id,
          type: "call.ended",
          url: "https://example.com/hook",
          streamKey: `test:${Math.random()}`,
          payload: {},
          status,
          updatedAt,
        },
      });
    const oldDelivery = await webhookEvent("delivered", start);
    const pendingDelivery = await webhookEvent("pending", start);
    const youngDelivery = await webhookEvent("delivered", daysAfterStart(20));
    const oldAudit = await prisma.auditEntry.create({
      data: {
        accountId: owner.accountId,
        actorKind: "system",
        action: "phone_number.released",
        targetType: "phoneNumber",
        targetId: "1",
        at: daysAfterStart(31 - 366),
      },
    });

    const ledgerBefore = await ledgerOf(owner.accountId);
    expect(ledgerBefore.some((entry) => entry.callId === expiring.id)).toBe(true);

    clock.set(daysAfterStart(31));
    const counts = await t.app.services.retentionSweep.sweep();
    expect(counts).toMatchObject({
      transcripts: 3,
      recordings: 2,
      messages: 1,
      texts: 1,
      webhookLogs: 1,
      auditLog: 1,
    });

    const reload = (id: number) => prisma.call.findUniqueOrThrow({ where: { id } });
    const expired = await reload(expiring.id);
    expect(expired).toMatchObject({
      transcript: "",
      evaluation: {},
      recordingStatus: "expired",
      recordingUrl: "",
      // The money fields stay as they were.
      totalCost: expiring.totalCost,
      carrierCost: expiring.carrierCost,
      duration: expiring.duration,
      status: expiring.status,
    });
    expect(expired.transcriptExpiredAt).toEqual(daysAfterStart(31));
    expect(await recordingStatus(expiring.id)).toBe(404);
    expect(await recordingStatus(kept.id)).toBe(200);
    expect((await reload(kept.id)).transcript).toBe(kept.transcript);
    expect((await reload(kept.id)).recordingStatus).toBe("stored");
    // Turn details follow the account for both (the keeper overrides transcripts and recordings only).
    expect(await prisma.callTurn.count({ where: { callId: { in: [expiring.id, kept.id] } } })).toBe(0);
    expect((await reload(strictOld.id)).transcript).toBe("");
    expect((await reload(plainMiddle.id)).transcript).not.toBe("");
    expect((await reload(young.id)).transcript).not.toBe("");
    expect(await reload(fileless.id)).toMatchObject({ recordingStatus: "expired", recordingUrl: "" });
    expect((await reload(live.id)).transcript).not.toBe("");

    expect(await prisma.message.findUnique({ where: { id: oldMessage.id } })).toBeNull();
    expect(await prisma.message.findUnique({ where: { id: youngMessage.id } })).not.toBeNull();
    expect(await prisma.textMessage.findUniqueOrThrow({ where: { id: oldText.id } })).toMatchObject({
      body: "",
      cost: oldText.cost,
    });
    expect((await prisma.textMessage.findUniqueOrThrow({ where: { id: waitingText.id } })).body).not.toBe("");
    expect((await prisma.textMessage.findUniqueOrThrow({ where: { id: youngText.id } })).body).not.toBe("");
    expect(await prisma.webhookEvent.findUnique({ where: { id: oldDelivery.id } })).toBeNull();
    expect(await prisma.webhookEvent.findUnique({ where: { id: pendingDelivery.id } })).not.toBeNull();
    expect(await prisma.webhookEvent.findUnique({ where: { id: youngDelivery.id } })).not.toBeNull();
    expect(await prisma.auditEntry.findUnique({ where: { id: oldAudit.id } })).toBeNull();
    // The retention changes themselves are recent: kept.
    expect(
      await prisma.auditEntry.count({ where: { accountId: owner.accountId, action: "retention.updated" } }),
    ).toBe(3);

    // Money history is not customer content: every ledger entry as it was.
    expect(await ledgerOf(owner.accountId)).toEqual(ledgerBefore);

    // Exactly once: nothing is left to do.
    expect(await t.app.services.retentionSweep.sweep()).toEqual({
      transcripts: 0,
      recordings: 0,
      messages: 0,
      callTurns: 0,
      webhookLogs: 0,
      texts: 0,
      auditLog: 0,
    });
  });
});

describe("retention settings", () => {
  it("accepts 1 to 3650 days or null, and audits each change with who made it", async () => {
    const other = await t.createAccount();
    const setting = (input: Record<string, unknown>, token = other.apiKey) =>
      t.gql<{ setDataRetention: { transcriptDays: number | null } }>(
        "mutation ($input: DataRetentionInput!) { setDataRetention(input: $input) { transcriptDays } }",
        { input },
        { token },
      );
    for (const bad of [0, -1, 3651]) {
      const refused = await setting({ transcriptDays: bad });
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    expect((await setting({ transcriptDays: 3650 })).data?.setDataRetention.transcriptDays).toBe(3650);
    expect((await setting({ transcriptDays: null })).data?.setDataRetention.transcriptDays).toBeNull();
    const anonymous = await t.gql("query { dataRetention { transcriptDays } }");
    expect(anonymous.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED" });

    // Another account's assistant is not found.
    const foreign = await createAssistant(t, owner);
    const refused = await t.gql(
      "query ($id: Int!) { assistantDataRetention(assistantId: $id) { transcriptDays } }",
      { id: foreign.id },
      { token: other.apiKey },
    );
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });

    const log = await t.gql<{
      auditLog: {
        entries: { action: string; actorKind: string; targetType: string; details: unknown; ip: string }[];
      };
    }>(
      `query { auditLog(filter: { action: "retention.updated" }) { entries { action actorKind targetType details ip } } }`,
      {},
      { token: other.apiKey },
    );
    expect(log.data?.auditLog.entries).toEqual([
      expect.objectContaining({
        actorKind: "apiKey",
        targetType: "account",
        details: { changed: { transcriptDays: { from: 3650, to: null } } },
      }),
      expect.objectContaining({ details: { changed: { transcriptDays: { from: null, to: 3650 } } } }),
    ]);
    expect(log.data?.auditLog.entries[0]?.ip).toBeTruthy();
  });

  it("keeps the audit log append-only", async () => {
    const entry = await t.app.db.prisma.auditEntry.findFirstOrThrow({
      where: { accountId: owner.accountId },
    });
    await expect(
      t.app.db.prisma.auditEntry.update({ where: { id: entry.id }, data: { action: "forged" } }),
    ).rejects.toThrow(/append-only/);
  });
});
