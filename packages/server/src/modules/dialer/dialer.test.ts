import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { durableDatabase } from "../../../test/fixtures/durable-database.ts";
import { startSimulatedPeopleModel } from "../../../test/fixtures/simulated-people.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import type { FakeOpenAI } from "../../../test/support/fake-openai.ts";
import { subscribeWs } from "../../../test/support/subscriptions.ts";
import {
  freshDatabase,
  ManualClock,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";
import { startWebhookReceiver } from "../../../test/support/webhook-receiver.ts";
import { openDatabase } from "../../db/client.ts";
import { discardEvents } from "../../events.ts";
import { LeadProgress } from "../leads/lead-progress.ts";

/** The simulated carrier's documented test numbers (docs/calls.md); any other number is answered. */
const NO_ANSWER = "+14155550101";
const BUSY = "+14155550102";
const FAILED = "+14155550103";
const VOICEMAIL = "+14155550104";

/** Simulated calls run 1000 times faster than real time; the dialer looks for due leads every 20 ms. */
const FAST = {
  VOXGATE_CALL_CLOCK_SPEED: "1000",
  VOXGATE_DIALER_SWEEP_MS: "20",
  // Webhook receivers of these tests listen on loopback.
  VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
};
/** A Monday, 10:00 UTC: inside a 09:00–17:00 UTC window. */
const MONDAY_MORNING = "2026-03-02T10:00:00Z";

type LeadRow = {
  id: number;
  phoneNumber: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  secondaryContacts: { phoneNumber: string; status: string; attempts: number }[];
  calls: {
    id: number;
    status: string;
    clientPhoneNumber: string;
    assistantPhoneNumber: string;
    answeredBy: string;
  }[];
};

const LEADS = `query($campaignId: Int!) { leads(campaignId: $campaignId, perPage: 100) { items {
  id phoneNumber status attempts nextAttemptAt
  secondaryContacts { phoneNumber status attempts }
  calls { id status clientPhoneNumber assistantPhoneNumber answeredBy } } } }`;
const PROGRESS = `query($id: Int!) { campaign(id: $id) { status progress { callsRunning withinCallingWindow
  leads { created scheduled processing completed rescheduled reachedMaxRetries blacklisted total } } } }`;
const SET_STATUS = `mutation($id: Int!, $status: CampaignStatus!) { updateCampaign(id: $id, input: { status: $status }) { status } }`;
const BLACKLIST = `mutation($id: Int!, $blacklisted: Boolean!) { setLeadBlacklisted(id: $id, blacklisted: $blacklisted) { id status } }`;

async function leadsOf(t: TestApp, account: TestAccount, campaignId: number): Promise<LeadRow[]> {
  const response = await t.gql<{ leads: { items: LeadRow[] } }>(
    LEADS,
    { campaignId },
    { token: account.apiKey },
  );
  expect(response.errors).toBeUndefined();
  return response.data!.leads.items.sort((a, b) => a.id - b.id);
}

/** Polls until `done` holds; the test's own timeout bounds the wait. */
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read().catch((error: unknown) => {
      // Client and server share this process: when PGlite holds the event loop past the server's
      // keep-alive timeout, the server may close a connection the client is reusing. Reads repeat.
      if ((error as { cause?: { code?: string } }).cause?.code === "ECONNRESET") return undefined;
      throw error;
    });
    if (value !== undefined && done(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * Nothing is happening or due: no call running, no lead picked or on a call, no retry due at the
 * clock's time. The campaign then waits for the clock.
 */
async function settled(t: TestApp, account: TestAccount, campaignId: number, clock: ManualClock) {
  return until(
    async () => {
      const [leads, progress] = await Promise.all([
        leadsOf(t, account, campaignId),
        t.gql<{ campaign: { progress: { callsRunning: number } } }>(
          PROGRESS,
          { id: campaignId },
          { token: account.apiKey },
        ),
      ]);
      return { leads, callsRunning: progress.data!.campaign.progress.callsRunning };
    },
    ({ leads, callsRunning }) =>
      callsRunning === 0 &&
      leads.every(
        (lead) =>
          lead.status !== "scheduled" &&
          lead.status !== "processing" &&
          lead.status !== "created" &&
          !(lead.status === "rescheduled" && new Date(lead.nextAttemptAt!) <= clock.now()),
      ),
  ).then(({ leads }) => leads);
}

async function campaignWith(
  t: TestApp,
  account: TestAccount,
  settings: Record<string, unknown>,
  leads: { phoneNumber: string; secondaryContacts?: { phoneNumber: string }[] }[],
) {
  const fixtures = telephonyFixtures(t);
  const assistant = await createAssistant(t, account, {
    name: "Dialer",
    type: "outbound",
    endCallOnVoicemail: true,
  });
  const numbers = [await fixtures.addNumber(account), await fixtures.addNumber(account)];
  const campaign = await fixtures.createCampaign(account, {
    assistantId: assistant.id,
    phoneNumberIds: numbers.map((number) => number.id),
    callingWindowStart: "09:00",
    callingWindowEnd: "17:00",
    timezone: "UTC",
    maxRetries: 1,
    retryIntervalMinutes: 30,
    ...settings,
  });
  const created = [];
  for (const lead of leads) {
    created.push(
      await t.app.services.leads.create(account.accountId, {
        campaignId: campaign.id,
        allowDuplicate: true,
        ...lead,
      }),
    );
  }
  return { campaign, leads: created, numbers, assistant };
}

function mostAtOnce(calls: { createdAt: Date; endedAt: Date | null }[]): number {
  const moments = calls.flatMap((call) => [
    { at: call.createdAt.getTime(), change: 1 },
    { at: call.endedAt?.getTime() ?? Number.POSITIVE_INFINITY, change: -1 },
  ]);
  moments.sort((a, b) => a.at - b.at || a.change - b.change);
  let running = 0;
  let most = 0;
  for (const moment of moments) {
    running += moment.change;
    most = Math.max(most, running);
  }
  return most;
}

// Whole campaigns run here, each call through the simulated carrier: minutes of calls at 1000x.
describe("the campaign dialer on the simulated carrier", { timeout: 120_000 }, () => {
  let t: TestApp;
  let clock: ManualClock;
  let alice: TestAccount;
  let bob: TestAccount;
  let model: FakeOpenAI;

  beforeAll(async () => {
    clock = new ManualClock(MONDAY_MORNING);
    // With a chat model, so that the calls are billed (answered by the fallback they would be free).
    model = await startSimulatedPeopleModel();
    t = await startTestApp({ model, env: FAST, clock });
    [alice, bob] = await Promise.all([t.createAccount({ balance: "100" }), t.createAccount()]);
  });
  afterAll(async () => {
    await t?.close();
    await model?.close();
  });

  it("reports a lead's outcome from the dialer, with its campaign, in a lead.updated webhook", async () => {
    const receiver = await startWebhookReceiver();
    // An account of its own: the next test checks alice's balance against her campaign's calls alone.
    const carol = await t.createAccount({ balance: "100" });
    try {
      const { campaign, leads, assistant } = await campaignWith(t, carol, {}, [
        { phoneNumber: uniqueUsNumber() },
      ]);
      await t.app.services.assistants.update(carol.accountId, assistant.id, {
        isWebhookActive: true,
        webhookUrl: receiver.url,
      });
      await t.gql(SET_STATUS, { id: campaign.id, status: "active" }, { token: carol.apiKey });
      const update = await receiver.waitFor(
        (request) => request.json.type === "lead.updated" && request.json.data.status === "completed",
      );
      const ended = await receiver.waitFor((request) => request.json.type === "call.ended");
      expect(update.json.data).toMatchObject({
        id: leads[0]!.id,
        campaign: { id: campaign.id, name: campaign.name },
        attempts: 1,
        call_id: ended.json.data.id,
      });
      expect(ended.json.data).toMatchObject({ campaign_id: campaign.id, lead_id: leads[0]!.id });
    } finally {
      await receiver.close();
    }
  });

  it("reaches the expected statuses, retries after the interval, falls back to secondary contacts, keeps to its concurrency and bills exactly", async () => {
    const human = uniqueUsNumber();
    const { campaign, leads, numbers } = await campaignWith(t, alice, { maxConcurrentCalls: 2 }, [
      { phoneNumber: human },
      { phoneNumber: NO_ANSWER },
      { phoneNumber: BUSY, secondaryContacts: [{ phoneNumber: FAILED }, { phoneNumber: uniqueUsNumber() }] },
      { phoneNumber: VOICEMAIL },
      { phoneNumber: uniqueUsNumber() },
      { phoneNumber: FAILED },
    ]);
    const [reached, ringsOut, fallsBack, voicemail, blacklisted, fails] = leads.map((lead) => lead.id) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    expect(
      (await t.gql(BLACKLIST, { id: blacklisted, blacklisted: true }, { token: alice.apiKey })).data,
    ).toEqual({ setLeadBlacklisted: { id: blacklisted, status: "blacklisted" } });
    const progressStream = await subscribeWs<{
      campaignProgress: { status: string; leads: { total: number } };
    }>(t.url, `subscription($id: Int!) { campaignProgress(campaignId: $id) { status leads { total } } }`, {
      connectionParams: { authorization: `Bearer ${alice.apiKey}` },
      variables: { id: campaign.id },
    });
    expect((await progressStream.next()).data!.campaignProgress).toEqual({
      status: "draft",
      leads: { total: 6 },
    });

    await t.gql(SET_STATUS, { id: campaign.id, status: "active" }, { token: alice.apiKey });

    // First round: everyone due is called once.
    let rows = await settled(t, alice, campaign.id, clock);
    const byId = (id: number) => rows.find((row) => row.id === id)!;
    expect(byId(reached)).toMatchObject({ status: "completed", attempts: 1 });
    for (const id of [ringsOut, fallsBack, voicemail, fails]) {
      expect(byId(id)).toMatchObject({ status: "rescheduled", attempts: 1 });
      expect(new Date(byId(id).nextAttemptAt!)).toEqual(new Date("2026-03-02T10:30:00Z"));
    }
    expect(byId(blacklisted)).toMatchObject({ status: "blacklisted", attempts: 0, calls: [] });
    expect(byId(voicemail).calls).toEqual([expect.objectContaining({ answeredBy: "machine" })]);

    // A minute before the interval is over nothing is due.
    clock.advanceMinutes(29);
    expect(await t.app.services.dialer.requestDueDials()).toEqual([]);
    clock.advanceMinutes(1);
    rows = await settled(t, alice, campaign.id, clock);
    for (const id of [ringsOut, voicemail, fails]) {
      expect(byId(id)).toMatchObject({ status: "reached_max_retries", attempts: 2 });
    }
    // The busy number used its retry; its first secondary contact was called at once, and failed.
    expect(byId(fallsBack)).toMatchObject({ status: "rescheduled", attempts: 3 });
    expect(byId(fallsBack).secondaryContacts.map((contact) => contact.status)).toEqual([
      "rescheduled",
      "created",
    ]);

    clock.advanceMinutes(30);
    rows = await settled(t, alice, campaign.id, clock);
    const chain = byId(fallsBack);
    expect(chain).toMatchObject({ status: "completed", attempts: 5 });
    expect(chain.calls.map((call) => call.clientPhoneNumber)).toEqual([
      BUSY,
      BUSY,
      FAILED,
      FAILED,
      chain.secondaryContacts[1]!.phoneNumber,
    ]);
    expect(chain.calls.map((call) => call.status)).toEqual([
      "busy",
      "busy",
      "failed",
      "failed",
      expect.stringMatching(/^(ended|completed|ended_by_customer|ended_by_assistant)$/),
    ]);
    expect(chain.secondaryContacts).toEqual([
      { phoneNumber: FAILED, status: "reached_max_retries", attempts: 2 },
      expect.objectContaining({ status: "completed", attempts: 1 }),
    ]);

    // The campaign is done: completed, seen by the progress subscription (the sweep that completes
    // it runs after the last lead settled), then in its progress.
    await until(
      () => progressStream.next(),
      (event) => event.data?.campaignProgress.status === "completed",
    );
    await progressStream.close();
    const progress = await t.gql<{ campaign: Record<string, unknown> }>(
      PROGRESS,
      { id: campaign.id },
      { token: alice.apiKey },
    );
    expect(progress.data!.campaign).toEqual({
      status: "completed",
      progress: {
        callsRunning: 0,
        withinCallingWindow: true,
        leads: {
          created: 0,
          scheduled: 0,
          processing: 0,
          completed: 2,
          rescheduled: 0,
          reachedMaxRetries: 3,
          blacklisted: 1,
          total: 6,
        },
      },
    });

    // Every call was the campaign's, from its numbers in turn, never more than two at once.
    const calls = rows.flatMap((row) => row.calls);
    expect(calls).toHaveLength(1 + 2 + 5 + 2 + 0 + 2);
    const fromEach = numbers.map(
      (number) => calls.filter((call) => call.assistantPhoneNumber === number.phoneNumber).length,
    );
    expect(fromEach).toEqual([6, 6]);
    const callRows = await t.app.db.prisma.call.findMany({ where: { campaignId: campaign.id } });
    expect(callRows).toHaveLength(12);
    expect(mostAtOnce(callRows)).toBeLessThanOrEqual(2);
    expect(mostAtOnce(callRows)).toBeGreaterThan(0);

    // Billing: each call's ledger entries add up to its total cost, and the balance moved by exactly that.
    const prisma = t.app.db.prisma;
    let spent = 0;
    for (const call of callRows) {
      const entries = await prisma.ledgerEntry.findMany({ where: { callId: call.id } });
      const charged = -entries.reduce((sum, entry) => sum + Number(entry.amount), 0);
      expect(charged.toFixed(4)).toBe(call.totalCost.toFixed(4));
      spent += charged;
    }
    expect(spent).toBeGreaterThan(0);
    const account = await prisma.account.findUniqueOrThrow({ where: { id: alice.accountId } });
    expect(Number(account.balance).toFixed(4)).toBe((100 - spent).toFixed(4));
  });

  it("dials nobody while paused or outside the calling window, and only the account's own campaigns are visible", async () => {
    const { campaign, leads } = await campaignWith(t, alice, { status: "paused" }, [
      { phoneNumber: uniqueUsNumber() },
    ]);
    expect(await t.app.services.dialer.requestDueDials()).not.toContain(campaign.id);
    await t.app.services.dialer.dialCampaign(campaign.id);
    expect((await leadsOf(t, alice, campaign.id))[0]).toMatchObject({ status: "created", calls: [] });

    // Active, but the window is 18:00–20:00 in Tokyo (09:00–11:00 UTC) and the clock says 11:30 UTC.
    const tokyo = await campaignWith(
      t,
      alice,
      { status: "active", timezone: "Asia/Tokyo", callingWindowStart: "18:00", callingWindowEnd: "20:00" },
      [{ phoneNumber: uniqueUsNumber() }],
    );
    clock.set("2026-03-02T11:30:00Z");
    expect(await t.app.services.dialer.requestDueDials()).not.toContain(tokyo.campaign.id);
    await t.app.services.dialer.dialCampaign(tokyo.campaign.id);
    const progress = await t.gql<{
      campaign: { progress: { withinCallingWindow: boolean; leads: { created: number } } };
    }>(PROGRESS, { id: tokyo.campaign.id }, { token: alice.apiKey });
    expect(progress.data!.campaign.progress).toMatchObject({
      withinCallingWindow: false,
      leads: { created: 1 },
    });

    // On the do-not-call list and off it again: a lead never called starts over as created.
    const lead = leads[0]!.id;
    for (const [blacklisted, status] of [
      [true, "blacklisted"],
      [true, "blacklisted"],
      [false, "created"],
    ] as const) {
      const moved = await t.gql(BLACKLIST, { id: lead, blacklisted }, { token: alice.apiKey });
      expect(moved.data).toEqual({ setLeadBlacklisted: { id: lead, status } });
    }

    // Another account sees none of it.
    const notFound = await t.gql(BLACKLIST, { id: leads[0]!.id, blacklisted: true }, { token: bob.apiKey });
    expect(notFound.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const spy = await subscribeWs(
      t.url,
      `subscription($id: Int!) { campaignProgress(campaignId: $id) { status } }`,
      {
        connectionParams: { authorization: `Bearer ${bob.apiKey}` },
        variables: { id: campaign.id },
      },
    );
    expect((await spy.next()).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    await spy.close();
  });

  it("does not call a lead whose number replied STOP to one of the account's texts: blacklisted, reason texts_opt_out", async () => {
    const dave = await t.createAccount({ balance: "100" });
    const optedOut = uniqueUsNumber();
    const reachable = uniqueUsNumber();
    // STOP to a number of the account that the campaign does not even call from.
    const textLine = await telephonyFixtures(t).addNumber(dave);
    await t.app.services.texts.simulateInbound(dave.accountId, {
      to: textLine.phoneNumber,
      from: optedOut,
      body: "STOP",
    });
    const { campaign } = await campaignWith(t, dave, {}, [
      { phoneNumber: optedOut },
      { phoneNumber: reachable },
    ]);
    await t.gql(SET_STATUS, { id: campaign.id, status: "active" }, { token: dave.apiKey });
    const leads = await settled(t, dave, campaign.id, clock);
    expect(leads.map((lead) => [lead.phoneNumber, lead.status, lead.calls.length])).toEqual([
      [optedOut, "blacklisted", 0],
      [reachable, "completed", 1],
    ]);
    const reasons = await t.gql<{
      leads: { items: { phoneNumber: string; blacklistReason: string | null }[] };
    }>(
      `query($campaignId: Int!) { leads(campaignId: $campaignId) { items { phoneNumber blacklistReason } } }`,
      { campaignId: campaign.id },
      { token: dave.apiKey },
    );
    expect(reasons.data!.leads.items).toContainEqual({
      phoneNumber: optedOut,
      blacklistReason: "texts_opt_out",
    });
    expect(
      await t.app.db.prisma.call.count({ where: { accountId: dave.accountId, clientPhoneNumber: optedOut } }),
    ).toBe(0);
  });

  it("refuses a concurrency outside 1 to 50 with a field message", async () => {
    const response = await t.gql(
      `mutation { createCampaign(input: { name: "Too many", maxConcurrentCalls: 51 }) { id } }`,
      {},
      { token: alice.apiKey },
    );
    expect(response.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { maxConcurrentCalls: ["The max concurrent calls field must be between 1 and 50."] },
    });
  });
});

describe("the dialer across restarts and instances", { timeout: 120_000 }, () => {
  const cleanups: (() => Promise<void> | void)[] = [];

  /**
   * An app whose calls run at eight times real speed, and an account: an unanswered call rings for
   * almost 4 s (31 s of call time, plus the queue's wait for each step), tens of times what one
   * request to act on it takes on a loaded machine; an answered one talks for seconds, not tens.
   */
  async function slowCallsApp() {
    const clock = new ManualClock(MONDAY_MORNING);
    const t = await startTestApp({
      clock,
      env: { VOXGATE_CALL_CLOCK_SPEED: "8", VOXGATE_DIALER_SWEEP_MS: "20" },
    });
    cleanups.push(() => t.close());
    const owner = await t.createAccount({ balance: "50" });
    return { clock, t, owner };
  }

  /**
   * The most calls that ran at once, from when each call was recorded (database time) to when it
   * ended. The dialer places a call only after the call whose slot it takes was written as ended, so
   * an end and a start never overlap.
   */

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("reconciles a lead left processing on a call that ended while no instance listened", async () => {
    const database = await durableDatabase();
    cleanups.push(() => database.drop());
    const clock = new ManualClock(MONDAY_MORNING);
    // Calls that ring for a while (speed 1): the first instance stops while the call is running.
    const first = await startTestApp({
      database: database.first,
      clock,
      env: { VOXGATE_DIALER_SWEEP_MS: "20" },
    });
    const owner = await first.createAccount({ balance: "50" });
    const { campaign, leads } = await campaignWith(first, owner, { status: "active" }, [
      { phoneNumber: NO_ANSWER },
      { phoneNumber: uniqueUsNumber() },
    ]);
    const onCall = await until(
      () => leadsOf(first, owner, campaign.id),
      (rows) => rows.some((row) => row.status === "processing"),
    );
    const lead = onCall.find((row) => row.status === "processing")!;
    await first.close();

    // The call ended in the database (the carrier's last event was written) but the process died
    // before the dialer heard of it, a minute ago: past the grace the dialer gives its own listener.
    const db = await openDatabase(database.next);
    const callId = lead.calls[0]!.id;
    await db.prisma.call.update({
      where: { id: callId },
      data: { status: "no_answer", endedAt: new Date(Date.now() - 60_000) },
    });
    await db.close();

    const second = await startTestApp({
      database: database.next,
      clock,
      env: FAST,
    });
    cleanups.push(() => second.close());
    const rows = await settled(second, owner, campaign.id, clock);
    const after = rows.find((row) => row.id === lead.id)!;
    expect(after.calls.map((call) => call.id)).toEqual([callId]);
    expect(after).toMatchObject({ status: "rescheduled", attempts: 1 });
    // Nothing lost: every lead was called exactly once.
    expect(rows.map((row) => row.calls.length)).toEqual(leads.map(() => 1));
  });

  it("repairs leads picked by a process that died before or after placing their call", async () => {
    // The placed call is still ringing when the repair runs.
    const { clock, t, owner } = await slowCallsApp();
    // Paused: only the repair moves these leads, the dialer does not pick them again.
    const { campaign, leads, assistant, numbers } = await campaignWith(t, owner, { status: "paused" }, [
      { phoneNumber: uniqueUsNumber() },
      { phoneNumber: uniqueUsNumber() },
    ]);
    const prisma = t.app.db.prisma;
    // What a dial job does first: pick the leads (then the process dies).
    const { config, db, pubsub, eventBus, logger } = t.app;
    const progress = new LeadProgress({ config, db, pubsub, eventBus, logger }, discardEvents);
    const claimed = await prisma.$transaction((tx) => progress.claimDue(tx, campaign.id, 2, clock.now()));
    expect(claimed.map((lead) => lead.id)).toEqual(leads.map((lead) => lead.id));
    // The second lead's call was placed before the process died; the first one's was not.
    const call = await t.app.services.callStarts.placeOutbound({
      accountId: owner.accountId,
      assistantId: assistant.id,
      to: leads[1]!.phoneNumber,
      phoneNumberId: numbers[0]!.id,
      campaignId: campaign.id,
      leadId: leads[1]!.id,
    });
    // A fresh claim is left alone: its dial may still be running.
    expect(await t.app.services.dialer.reconcile()).toBe(0);
    await prisma.lead.updateMany({
      where: { campaignId: campaign.id },
      data: { claimedAt: new Date(Date.now() - 10 * 60_000) },
    });
    // The dialer's sweep (every 20 ms here) runs the same repair and may take a lead first: the
    // outcome, not this call's count, shows each lead repaired once.
    await t.app.services.dialer.reconcile();
    const repaired = await until(
      () => leadsOf(t, owner, campaign.id),
      (current) => current.every((lead) => lead.status !== "scheduled"),
    );
    expect(repaired[0]!.status).toBe("created");
    expect(["processing", "completed"]).toContain(repaired[1]!.status);
    const rows = await until(
      () => leadsOf(t, owner, campaign.id),
      (current) => current[1]!.status === "completed",
    );
    expect(rows[0]).toMatchObject({ status: "created", attempts: 0, calls: [] });
    expect(rows[1]).toMatchObject({ status: "completed", attempts: 1, calls: [{ id: call.id }] });
  });

  it("leaves a lead blacklisted during its call blacklisted when the call ends", async () => {
    // There is time to blacklist the lead while it rings.
    const { t, owner } = await slowCallsApp();
    const { campaign, leads } = await campaignWith(t, owner, { status: "active" }, [
      { phoneNumber: NO_ANSWER },
    ]);
    await until(
      () => leadsOf(t, owner, campaign.id),
      (rows) => rows[0]!.status === "processing",
    );
    const moved = await t.gql(BLACKLIST, { id: leads[0]!.id, blacklisted: true }, { token: owner.apiKey });
    expect(moved.data).toEqual({ setLeadBlacklisted: { id: leads[0]!.id, status: "blacklisted" } });
    const [row] = await until(
      () => leadsOf(t, owner, campaign.id),
      (rows) => rows[0]!.calls[0]?.status === "no_answer",
    );
    // The call's outcome no longer moves it; the campaign has nobody left to call.
    await until(
      () => t.app.db.prisma.campaign.findUniqueOrThrow({ where: { id: campaign.id } }),
      (current) => current.status === "completed",
    );
    expect((await leadsOf(t, owner, campaign.id))[0]).toMatchObject({ status: "blacklisted", attempts: 0 });
    expect(row!.calls).toHaveLength(1);
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "two instances on one PostgreSQL dial each lead once, within the campaign's concurrency",
    async () => {
      const database = await freshDatabase();
      cleanups.push(() => database.drop());
      const clock = new ManualClock(MONDAY_MORNING);
      const one = await startTestApp({ database: database.target, clock, env: FAST });
      cleanups.push(() => one.close());
      const two = await startTestApp({ database: database.target, clock, env: FAST });
      cleanups.push(() => two.close());
      const owner = await one.createAccount({ balance: "100" });
      const { campaign } = await campaignWith(
        one,
        owner,
        { maxConcurrentCalls: 3 },
        Array.from({ length: 12 }, () => ({ phoneNumber: uniqueUsNumber() })),
      );
      await one.gql(SET_STATUS, { id: campaign.id, status: "active" }, { token: owner.apiKey });
      // Both instances ask for dials of the campaign at the same moments.
      await Promise.all([
        one.app.services.dialer.dialCampaign(campaign.id),
        two.app.services.dialer.dialCampaign(campaign.id),
      ]);
      const rows = await settled(two, owner, campaign.id, clock);
      expect(rows.map((row) => row.status)).toEqual(rows.map(() => "completed"));
      expect(rows.map((row) => row.calls.length)).toEqual(rows.map(() => 1));
      const calls = await one.app.db.prisma.call.findMany({ where: { campaignId: campaign.id } });
      expect(calls).toHaveLength(12);
      expect(mostAtOnce(calls)).toBeLessThanOrEqual(3);
      const placedBy = await one.app.db.prisma.call.groupBy({
        by: ["leadId"],
        where: { campaignId: campaign.id },
        _count: { _all: true },
      });
      expect(placedBy.every((group) => group._count._all === 1)).toBe(true);
    },
  );
});
