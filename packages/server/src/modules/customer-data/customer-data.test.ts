import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { type DurableDatabase, durableDatabase } from "../../../test/fixtures/durable-database.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import {
  freshDatabase,
  ManualClock,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";
import type { Database } from "../../db/client.ts";
import type { Logger } from "../../logger.ts";
import { createRecordingStore } from "../voice/recording-store.ts";
import { ERASURE_STEPS } from "./erasure.ts";
import { identifierHash, normalisePhoneNumber, saltOf } from "./identifiers.ts";

const JOB_FIELDS = `id kind state identifierKind stepsDone stepsTotal progress counts error downloadUrl expiresAt`;
const EXPORT = `mutation($input: CustomerDataInput!) { exportCustomerData(input: $input) { ${JOB_FIELDS} } }`;
const ERASE = `mutation($input: CustomerDataInput!) { eraseCustomerData(input: $input) { ${JOB_FIELDS} } }`;
const JOB = `query($id: Int!) { customerDataJob(id: $id) { ${JOB_FIELDS} } }`;

interface Job {
  id: number;
  kind: string;
  state: string;
  stepsDone: number;
  stepsTotal: number;
  progress: number;
  counts: Record<string, number>;
  error: string | null;
  downloadUrl: string | null;
}

/** A small mu-law WAV standing for a call's recording. */
function wav(seed: number): Buffer {
  const data = Buffer.alloc(800, seed);
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(36 + data.length, 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(7, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36, "ascii");
  header.writeUInt32LE(data.length, 40);
  return Buffer.concat([header, data]);
}

/** Polls the job until it ends; the test's timeout bounds the wait. */
async function finished(t: TestApp, owner: TestAccount, id: number): Promise<Job> {
  for (;;) {
    const response = await t.gql<{ customerDataJob: Job }>(JOB, { id }, { token: owner.apiKey });
    expect(response.errors).toBeUndefined();
    const job = response.data!.customerDataJob;
    if (job.state === "done" || job.state === "failed") return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The tables (every one of the public schema) with a row whose text contains `needle`. */
async function tablesContaining(db: Database, needle: string): Promise<string[]> {
  const tables = await db.prisma.$queryRaw<{ name: string }[]>`
    SELECT table_name::text AS "name" FROM information_schema.tables
    WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`;
  expect(tables.length).toBeGreaterThan(30);
  const found: string[] = [];
  for (const { name } of tables) {
    const [row] = await db.prisma.$queryRawUnsafe<{ n: number }[]>(
      `SELECT count(*)::int AS "n" FROM "${name}" x WHERE strpos(x::text, $1) > 0`,
      needle,
    );
    if (row!.n > 0) found.push(name);
  }
  return found;
}

/** What billing adds up: the balance, the ledger, calls' and texts' costs. */
async function billingTotals(db: Database, accountId: number) {
  const [account, ledger, calls, texts] = await Promise.all([
    db.prisma.account.findUniqueOrThrow({ where: { id: accountId } }),
    db.prisma.ledgerEntry.aggregate({ where: { accountId }, _sum: { amount: true }, _count: true }),
    db.prisma.call.aggregate({
      where: { accountId },
      _sum: { totalCost: true, duration: true },
      _count: true,
    }),
    db.prisma.textMessage.aggregate({
      where: { accountId },
      _sum: { cost: true, segments: true },
      _count: true,
    }),
  ]);
  return {
    balance: account.balance.toString(),
    ledger: `${ledger._count}:${ledger._sum.amount?.toString()}`,
    calls: `${calls._count}:${calls._sum.totalCost?.toString()}:${calls._sum.duration}`,
    texts: `${texts._count}:${texts._sum.cost?.toString()}:${texts._sum.segments}`,
  };
}

interface Seeded {
  accountNumber: string;
  callId: number;
  legId: number;
  smsConversationId: string;
  widgetConversationId: string;
  leadId: number;
  appointmentId: number;
}

/**
 * A customer with a recorded call (with turns, a charge, a transfer leg and a webhook delivery), a
 * lead of their own and a secondary contact on someone else's lead, an SMS conversation with texts
 * and an opt-out, a widget conversation that left their number, and a booking. Leads go through the
 * service the API uses; the history (calls, texts, messages) is written as those modules store it.
 */
async function seedCustomer(
  t: TestApp,
  owner: TestAccount,
  phone: string,
  other: string,
  words: string,
): Promise<Seeded> {
  const prisma = t.app.db.prisma;
  const fixtures = telephonyFixtures(t);
  const accountNumber = await fixtures.addNumber(owner);
  const assistant = await createAssistant(t, owner);
  const campaign = await fixtures.createCampaign(owner, { assistantId: assistant.id });
  const lead = await t.app.services.leads.create(owner.accountId, {
    campaignId: campaign.id,
    phoneNumber: phone,
    variables: { first_name: "Ann" },
  });
  await t.app.services.leads.create(owner.accountId, {
    campaignId: campaign.id,
    phoneNumber: other,
    secondaryContacts: [{ phoneNumber: phone }],
  });
  const call = await prisma.call.create({
    data: {
      accountId: owner.accountId,
      assistantId: assistant.id,
      campaignId: campaign.id,
      leadId: lead.id,
      type: "outbound",
      status: "completed",
      assistantPhoneNumber: accountNumber.phoneNumber,
      clientPhoneNumber: phone,
      duration: 95,
      transcript: `Customer: ${words}`,
      variables: { first_name: "Ann" },
      totalCost: "0.2000",
      carrierCost: "0.0100",
      recordingUrl: "https://voxgate.test/recordings/x.wav",
      recordingStatus: "stored",
      turns: {
        create: [
          {
            accountId: owner.accountId,
            speaker: "customer",
            text: words,
            heardText: words,
            startMs: 0,
            endMs: 900,
          },
        ],
      },
    },
  });
  await prisma.call.update({
    where: { id: call.id },
    data: { recordingUrl: `https://voxgate.test/recordings/${call.id}.wav` },
  });
  const leg = await prisma.call.create({
    data: {
      accountId: owner.accountId,
      type: "outbound",
      status: "completed",
      clientPhoneNumber: "+14155550177",
      transferredFromCallId: call.id,
      transferDestinationName: "Front desk",
      duration: 30,
      transcript: `Agent: hello. Customer: ${words}`,
      totalCost: "0.0500",
    },
  });
  await prisma.call.update({ where: { id: call.id }, data: { transferredToCallId: leg.id } });
  const balance = await prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } });
  await prisma.ledgerEntry.createMany({
    data: [
      {
        accountId: owner.accountId,
        kind: "call_debit",
        amount: "-0.1000",
        balanceAfter: balance.balance,
        callId: call.id,
        callMinute: 1,
        description: "Call minute",
      },
      {
        accountId: owner.accountId,
        kind: "call_debit",
        amount: "-0.1000",
        balanceAfter: balance.balance,
        callId: call.id,
        callMinute: 2,
        description: "Call minute",
      },
    ],
  });
  await createRecordingStore(t.app.db).save(call.id, [wav(7)]);

  const sms = await prisma.conversation.create({
    data: {
      accountId: owner.accountId,
      assistantId: assistant.id,
      channel: "sms",
      customerIdentifier: phone,
      messages: {
        create: [
          { role: "user", content: words },
          { role: "assistant", content: "Noted." },
        ],
      },
    },
  });
  const inbound = await prisma.textMessage.create({
    data: {
      accountId: owner.accountId,
      direction: "inbound",
      from: phone,
      to: accountNumber.phoneNumber,
      body: words,
      encoding: "GSM-7",
      segments: 1,
      status: "received",
      providerName: "simulated",
      conversationId: sms.id,
    },
  });
  const outbound = await prisma.textMessage.create({
    data: {
      accountId: owner.accountId,
      direction: "outbound",
      from: accountNumber.phoneNumber,
      to: phone,
      body: "Noted.",
      encoding: "GSM-7",
      segments: 1,
      status: "delivered",
      providerName: "simulated",
      cost: "0.0075",
    },
  });
  await prisma.ledgerEntry.create({
    data: {
      accountId: owner.accountId,
      kind: "sms_debit",
      amount: "-0.0075",
      balanceAfter: balance.balance,
      textMessageId: outbound.id,
      description: `Text #${outbound.id}: 1 segment`,
    },
  });
  expect(inbound.id).toBeGreaterThan(0);
  await prisma.textOptOut.create({
    data: {
      accountId: owner.accountId,
      accountNumber: accountNumber.phoneNumber,
      customerNumber: phone,
      optedOut: true,
      keyword: "STOP",
    },
  });

  // The visitor left their number, in national writing, in the widget's pre-chat variables.
  const widget = await prisma.conversation.create({
    data: {
      accountId: owner.accountId,
      assistantId: assistant.id,
      channel: "widget",
      variables: { phone: `(${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}` },
      messages: {
        create: [
          { role: "user", content: `widget: ${words}` },
          { role: "assistant", content: "Sure." },
        ],
      },
    },
  });
  const widgetMessage = await prisma.message.findFirstOrThrow({
    where: { conversationId: widget.id, role: "assistant" },
  });
  await prisma.ledgerEntry.create({
    data: {
      accountId: owner.accountId,
      kind: "message_debit",
      amount: "-0.0100",
      balanceAfter: balance.balance,
      messageId: widgetMessage.id,
      description: `Widget message in conversation ${widget.id}`,
    },
  });
  const appointment = await prisma.appointment.create({
    data: {
      accountId: owner.accountId,
      appointmentTypeId: 1,
      appointmentTypeName: "Consultation",
      timezone: "UTC",
      connectionId: 1,
      provider: "caldav",
      externalId: `https://calendar.test/${call.id}.ics`,
      startsAt: new Date("2026-12-01T10:00:00Z"),
      endsAt: new Date("2026-12-01T10:30:00Z"),
      customerName: "Ann Example",
      customerPhone: phone,
      customerEmail: "ann@example.com",
      notes: words,
      assistantId: assistant.id,
      callId: call.id,
      idempotencyKey: `seed-${call.id}`,
    },
  });
  const event = await prisma.webhookEvent.create({
    data: {
      messageId: `msg_seed_${call.id}`,
      accountId: owner.accountId,
      assistantId: assistant.id,
      callId: call.id,
      type: "call.ended",
      url: "https://hooks.example.com/voxgate",
      streamKey: `call:${call.id}`,
      payload: { type: "call.ended", data: { client_phone_number: phone, transcript: words } },
      status: "delivered",
    },
  });
  await prisma.webhookAttempt.create({
    data: { eventId: event.id, attempt: 1, statusCode: 200, latencyMs: 12, responseBody: `ok ${phone}` },
  });
  return {
    accountNumber: accountNumber.phoneNumber,
    callId: call.id,
    legId: leg.id,
    smsConversationId: sms.id,
    widgetConversationId: widget.id,
    leadId: lead.id,
    appointmentId: appointment.id,
  };
}

describe("customer data: export and erasure by phone number", { timeout: 120_000 }, () => {
  let database: DurableDatabase;
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  const phone = uniqueUsNumber();
  const other = uniqueUsNumber();
  const words = "my gate code is 7391 and I live at Elm Street";
  let seeded: Seeded;

  beforeAll(async () => {
    database = await durableDatabase();
    t = await startTestApp({ database: database.first });
    [owner, stranger] = await Promise.all([t.createAccount({ balance: "20" }), t.createAccount()]);
    seeded = await seedCustomer(t, owner, phone, other, words);
  });

  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it("normalises every usual writing of a number to E.164", () => {
    const national = phone.slice(2);
    for (const written of [
      phone,
      `00${phone.slice(1)}`,
      `+1 ${national.slice(0, 3)} ${national.slice(3, 6)} ${national.slice(6)}`,
      `${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}`,
      `(${national.slice(0, 3)}) ${national.slice(3, 6)}.${national.slice(6)}`,
    ]) {
      expect(normalisePhoneNumber(written, "US")).toBe(phone);
    }
    expect(normalisePhoneNumber("020 7946 0018", "GB")).toBe("+442079460018");
    expect(normalisePhoneNumber("12", "US")).toBeNull();
  });

  it("refuses a request that names nobody, or two identifiers", async () => {
    for (const input of [
      {},
      { phoneNumber: phone, email: "ann@example.com" },
      { phoneNumber: "not a number" },
    ]) {
      const response = await t.gql(ERASE, { input }, { token: owner.apiKey });
      expect(response.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    }
  });

  it("exports every record and the recording as a zip, to the owner only, for a limited time", async () => {
    const national = phone.slice(2);
    const requested = await t.gql<{ exportCustomerData: Job }>(
      EXPORT,
      { input: { phoneNumber: `${national.slice(0, 3)}-${national.slice(3, 6)}-${national.slice(6)}` } },
      { token: owner.apiKey },
    );
    expect(requested.errors).toBeUndefined();
    const job = await finished(t, owner, requested.data!.exportCustomerData.id);
    expect(job).toMatchObject({ kind: "export", state: "done", progress: 1, error: null });
    expect(job.counts).toMatchObject({
      calls: 2,
      recordings: 1,
      leads: 1,
      secondaryContacts: 1,
      conversations: 2,
      messages: 4,
      texts: 2,
      textOptOuts: 1,
      appointments: 1,
      webhookEvents: 1,
    });
    const path = new URL(job.downloadUrl!).pathname;
    expect((await fetch(`${t.url}${path}`)).status).toBe(401);
    expect(
      (await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${stranger.apiKey}` } })).status,
    ).toBe(404);
    const response = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${owner.apiKey}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    // A console on another origin may fetch it: the credential is a header, never a cookie.
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const preflight = await fetch(`${t.url}${path}`, {
      method: "OPTIONS",
      headers: {
        origin: "https://console.example",
        "access-control-request-method": "GET",
        "access-control-request-headers": "authorization",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toBe("Authorization");
    const files = unzipSync(new Uint8Array(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["customer.json", `recordings/${seeded.callId}.wav`]);
    expect(Buffer.from(files[`recordings/${seeded.callId}.wav`]!).equals(wav(7))).toBe(true);
    const document = JSON.parse(Buffer.from(files["customer.json"]!).toString("utf8"));
    expect(document.identifier).toEqual({ kind: "phone", value: phone });
    expect(document.calls.map((call: { id: number }) => call.id).sort()).toEqual(
      [seeded.callId, seeded.legId].sort(),
    );
    const call = document.calls.find((entry: { id: number }) => entry.id === seeded.callId);
    expect(call).toMatchObject({
      clientPhoneNumber: phone,
      recordingFile: `recordings/${seeded.callId}.wav`,
    });
    expect(call.turns[0].text).toBe(words);
    expect(call.charges).toHaveLength(2);
    expect(document.leads[0]).toMatchObject({ id: seeded.leadId, phoneNumber: phone });
    expect(document.secondaryContacts[0]).toMatchObject({ phoneNumber: phone });
    expect(document.conversations.map((c: { id: string }) => c.id).sort()).toEqual(
      [seeded.smsConversationId, seeded.widgetConversationId].sort(),
    );
    expect(document.texts.map((text: { body: string }) => text.body).sort()).toEqual(
      ["Noted.", words].sort(),
    );
    expect(document.appointments[0]).toMatchObject({ id: seeded.appointmentId, customerName: "Ann Example" });
    expect(document.webhookEvents[0].attemptsMade).toHaveLength(1);

    // Past its time the archive is gone.
    await t.app.db.prisma.customerDataJob.update({
      where: { id: job.id },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    expect(
      (await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${owner.apiKey}` } })).status,
    ).toBe(404);
    await t.app.db.prisma.customerDataJob.update({
      where: { id: job.id },
      data: { expiresAt: new Date(Date.now() + 60_000) },
    });
  });

  it("erases the customer everywhere, keeps billing totals and the other customer, and leaves a tombstone", async () => {
    const db = t.app.db;
    const before = await billingTotals(db, owner.accountId);
    const otherTablesBefore = await tablesContaining(db, other);
    expect(otherTablesBefore).toEqual(expect.arrayContaining(["leads"]));
    expect(await tablesContaining(db, phone)).toEqual(
      expect.arrayContaining(["calls", "leads", "text_messages"]),
    );

    const requested = await t.gql<{ eraseCustomerData: Job }>(
      ERASE,
      { input: { phoneNumber: `00${phone.slice(1)}` } },
      { token: owner.apiKey },
    );
    expect(requested.errors).toBeUndefined();
    const job = await finished(t, owner, requested.data!.eraseCustomerData.id);
    expect(job).toMatchObject({ kind: "erase", state: "done", stepsDone: job.stepsTotal, error: null });
    expect(job.counts).toMatchObject({
      calls: 2,
      leads: 1,
      secondaryContacts: 1,
      conversations: 2,
      texts: 2,
      appointments: 1,
    });

    // Nowhere, in any writing: the number, its national digits, what they said, the widget conversation.
    for (const needle of [
      phone,
      phone.slice(2),
      words,
      seeded.widgetConversationId,
      seeded.smsConversationId,
    ]) {
      expect({ needle, tables: await tablesContaining(db, needle) }).toEqual({ needle, tables: [] });
    }
    expect(await createRecordingStore(db).open(seeded.callId)).toBeNull();
    // Money stays, and so does the other customer.
    expect(await billingTotals(db, owner.accountId)).toEqual(before);
    expect(await tablesContaining(db, other)).toEqual(otherTablesBefore);
    const call = await db.prisma.call.findUniqueOrThrow({
      where: { id: seeded.callId },
      include: { charges: true },
    });
    expect(call).toMatchObject({ clientPhoneNumber: "", transcript: "", recordingUrl: "", duration: 95 });
    expect(call.totalCost.toString()).toBe("0.2");
    expect(call.charges).toHaveLength(2);
    const appointment = await db.prisma.appointment.findUniqueOrThrow({
      where: { id: seeded.appointmentId },
    });
    expect(appointment).toMatchObject({
      status: "booked",
      customerName: "",
      customerPhone: null,
      customerEmail: null,
    });
    // They had replied STOP: the opt-out row is gone with the number, the tombstone keeps it.
    expect(await t.app.services.texts.optedOut(owner.accountId, seeded.accountNumber, phone)).toBe(true);
    expect(await t.app.services.texts.optedOut(owner.accountId, seeded.accountNumber, other)).toBe(false);
    // The export archive of that customer went with them.
    expect(
      await db.prisma.customerDataJob.count({ where: { accountId: owner.accountId, kind: "export" } }),
    ).toBe(0);

    const tombstone = await db.prisma.customerTombstone.findFirstOrThrow({
      where: { accountId: owner.accountId },
    });
    const salt = await saltOf(db.prisma, owner.accountId);
    expect(tombstone).toMatchObject({
      identifierKind: "phone",
      identifierHash: identifierHash(salt, { kind: "phone", value: phone }),
      erasedBy: `user:${owner.userId}`,
      jobId: job.id,
    });
  });

  it("refuses to re-create an erased customer as a lead (GraphQL and REST)", async () => {
    const campaign = await t.app.db.prisma.campaign.findFirstOrThrow({
      where: { accountId: owner.accountId },
    });
    const response = await t.gql(
      `mutation($input: CreateLeadInput!) { createLead(input: $input) { id } }`,
      { input: { campaignId: campaign.id, phoneNumber: phone } },
      { token: owner.apiKey },
    );
    expect(response.errors?.[0]?.extensions?.code).toBe("CUSTOMER_ERASED");
    const asContact = await t.gql(
      `mutation($input: CreateLeadInput!) { createLead(input: $input) { id } }`,
      {
        input: {
          campaignId: campaign.id,
          phoneNumber: uniqueUsNumber(),
          secondaryContacts: [{ phoneNumber: phone }],
        },
      },
      { token: owner.apiKey },
    );
    expect(asContact.errors?.[0]?.extensions).toMatchObject({
      code: "CUSTOMER_ERASED",
      field: "secondaryContacts.0.phoneNumber",
    });
    const rest = await t.rest("POST", "/api/user/lead", {
      token: owner.apiKey,
      body: { campaign_id: campaign.id, phone_number: phone },
    });
    expect(rest.status).toBe(409);
    // The tombstone is the account's own: another account may add the number.
    const theirs = await telephonyFixtures(t).createCampaign(stranger);
    const added = await t.app.services.leads.create(stranger.accountId, {
      campaignId: theirs.id,
      phoneNumber: phone,
    });
    expect(added.phoneNumber).toBe(phone);
    await t.app.services.leads.delete(stranger.accountId, added.id);
  });
});

describe("customer data: an erasure cut short resumes on the next instance", { timeout: 120_000 }, () => {
  it("takes over a job whose instance died mid-erasure, once its lease ran out, and finishes it", async () => {
    const database = await durableDatabase();
    try {
      const first = await startTestApp({ database: database.first });
      const owner = await first.createAccount({ balance: "20" });
      const phone = uniqueUsNumber();
      const words = "please call me after six";
      const seeded = await seedCustomer(first, owner, phone, uniqueUsNumber(), words);
      const before = await billingTotals(first.app.db, owner.accountId);
      const prisma = first.app.db.prisma;
      const who = { kind: "phone" as const, value: phone };
      const hash = identifierHash(await saltOf(prisma, owner.accountId), who);
      // A dead instance's work: the first steps ran and committed, then the process was gone.
      const done = ERASURE_STEPS.findIndex((step) => step.name === "textOptOuts");
      const job = await prisma.customerDataJob.create({
        data: {
          accountId: owner.accountId,
          kind: "erase",
          state: "running",
          identifierKind: "phone",
          identifier: phone,
          identifierHash: hash,
          requestedBy: "cli",
          stepsDone: done,
          stepsTotal: ERASURE_STEPS.length + 1,
          claimToken: "a-dead-instance",
          // Held for a while yet: the first instance leaves it alone.
          leaseUntil: new Date(Date.now() + 10 * 60_000),
        },
      });
      for (const step of ERASURE_STEPS.slice(0, done)) {
        const context = {
          prisma,
          accountId: owner.accountId,
          job,
          who,
          recordings: { remove: async () => {} },
          calendars: first.app.services.calendars,
          logger: first.app.logger,
          lastAttempt: false,
          signal: new AbortController().signal,
          tombstone: async () => {
            throw new Error("the steps before the opt-outs make no tombstone");
          },
          commit: (work: Parameters<typeof prisma.$transaction>[0]) =>
            prisma.$transaction(work) as Promise<number>,
        };
        while ((await step.batch(context)) > 0);
      }
      expect(await tablesContaining(first.app.db, phone)).toEqual(expect.arrayContaining(["calls", "leads"]));
      await first.close();

      // An hour later (past the lease), another instance sweeps.
      const second = await startTestApp({
        database: database.next,
        clock: new ManualClock(new Date(Date.now() + 60 * 60_000)),
      });
      try {
        const resumed = await finished(second, owner, job.id);
        expect(resumed).toMatchObject({ state: "done", stepsDone: ERASURE_STEPS.length + 1 });
        for (const needle of [phone, phone.slice(2), words]) {
          expect({ needle, tables: await tablesContaining(second.app.db, needle) }).toEqual({
            needle,
            tables: [],
          });
        }
        expect(await createRecordingStore(second.app.db).open(seeded.callId)).toBeNull();
        expect(await billingTotals(second.app.db, owner.accountId)).toEqual(before);
        expect(
          await second.app.db.prisma.customerTombstone.count({
            where: { accountId: owner.accountId, identifierHash: hash },
          }),
        ).toBe(1);
      } finally {
        await second.close();
      }
    } finally {
      await database.drop();
    }
  });
});

describe("customer data: campaign suppression at dial time", { timeout: 120_000 }, () => {
  it("never dials an erased number, even when a lead with it got in", async () => {
    const clock = new ManualClock("2026-03-02T10:00:00Z");
    const t = await startTestApp({
      clock,
      env: { VOXGATE_CALL_CLOCK_SPEED: "1000", VOXGATE_DIALER_SWEEP_MS: "20" },
    });
    try {
      const owner = await t.createAccount({ balance: "50" });
      const erased = uniqueUsNumber();
      const reachable = uniqueUsNumber();
      const requested = await t.gql<{ eraseCustomerData: Job }>(
        ERASE,
        { input: { phoneNumber: erased } },
        { token: owner.apiKey },
      );
      expect((await finished(t, owner, requested.data!.eraseCustomerData.id)).state).toBe("done");

      const fixtures = telephonyFixtures(t);
      const assistant = await createAssistant(t, owner, { name: "Dialer", type: "outbound" });
      const number = await fixtures.addNumber(owner);
      const campaign = await fixtures.createCampaign(owner, {
        assistantId: assistant.id,
        phoneNumberIds: [number.id],
        callingWindowStart: "09:00",
        callingWindowEnd: "17:00",
        timezone: "UTC",
        maxRetries: 0,
      });
      // As a lead added before the check existed (or by a path that skips it) would be.
      const suppressed = await t.app.db.prisma.lead.create({
        data: { accountId: owner.accountId, campaignId: campaign.id, phoneNumber: erased },
      });
      const called = await t.app.services.leads.create(owner.accountId, {
        campaignId: campaign.id,
        phoneNumber: reachable,
      });
      const activated = await t.gql(
        `mutation($id: Int!) { updateCampaign(id: $id, input: { status: active }) { status } }`,
        { id: campaign.id },
        { token: owner.apiKey },
      );
      expect(activated.errors).toBeUndefined();
      for (;;) {
        const lead = await t.app.db.prisma.lead.findUniqueOrThrow({ where: { id: called.id } });
        const blocked = await t.app.db.prisma.lead.findUniqueOrThrow({ where: { id: suppressed.id } });
        if (lead.status === "completed" && blocked.status !== "created" && blocked.status !== "scheduled")
          break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(await t.app.db.prisma.lead.findUniqueOrThrow({ where: { id: suppressed.id } })).toMatchObject({
        status: "blacklisted",
        blacklistReason: "erased",
        attempts: 0,
      });
      expect(
        await t.app.db.prisma.call.count({
          where: { accountId: owner.accountId, clientPhoneNumber: erased },
        }),
      ).toBe(0);
      expect(
        await t.app.db.prisma.call.count({
          where: { accountId: owner.accountId, clientPhoneNumber: reachable },
        }),
      ).toBe(1);
    } finally {
      await t.close();
    }
  });
});

// Two instances on one PostgreSQL: each job is claimed by one of them only.
describe.runIf(testDatabaseKind() === "postgres")("customer data jobs on two instances", () => {
  it("runs each job on one instance only, however many sweep at once", { timeout: 120_000 }, async () => {
    const database = await freshDatabase();
    const ran: string[] = [];
    const logger = (instance: string): Logger => ({
      debug: () => {},
      info: (message) => {
        if (message === "customer erasure step done" || message === "customer erased")
          ran.push(`${instance}:${message}`);
      },
      warn: () => {},
      error: () => {},
    });
    const a = await startTestApp({ database: database.target, logger: logger("a") });
    const b = await startTestApp({ database: database.target, logger: logger("b") });
    try {
      const owner = await a.createAccount();
      const campaign = await telephonyFixtures(a).createCampaign(owner);
      const jobs = [];
      for (let i = 0; i < 4; i++) {
        const phone = uniqueUsNumber();
        await a.app.services.leads.create(owner.accountId, { campaignId: campaign.id, phoneNumber: phone });
        jobs.push(
          await b.app.services.customerData.requestErasure(
            { accountId: owner.accountId, requestedBy: "cli" },
            { phoneNumber: phone },
          ),
        );
      }
      // Both instances' sweeps, and a drain on each, all at once.
      await Promise.all(
        jobs.flatMap((job) => [a, b].map((t) => t.app.services.customerData.runNow(owner.accountId, job.id))),
      );
      for (const job of jobs) expect((await finished(a, owner, job.id)).counts).toMatchObject({ leads: 1 });
      const erased = ran.filter((line) => line.endsWith(":customer erased"));
      expect(erased).toHaveLength(jobs.length);
      expect(ran.filter((line) => line.endsWith(":customer erasure step done"))).toHaveLength(
        jobs.length * ERASURE_STEPS.length,
      );
    } finally {
      await b.close();
      await a.close();
      await database.drop();
    }
  });
});
