import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { subscribeSse, subscribeWs } from "../../../test/support/subscriptions.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Assistant, Call, Campaign } from "../../generated/prisma/client.ts";
import { CALL_TRANSITIONS } from "./call-status.ts";

const FORMAT_B = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
const SPEC_FIELDS = [
  "id",
  "assistant_name",
  "campaign_name",
  "type",
  "duration",
  "assistant_phone_number",
  "client_phone_number",
  "status",
  "transcript",
  "variables",
  "evaluation",
  "webhook_response",
  "carrier_cost",
  "total_cost",
  "answered_by",
  "recording_url",
  "created_at",
  "updated_at",
];

interface RestCall {
  id: number;
  [field: string]: unknown;
}
interface Envelope {
  data: RestCall[];
  total: number;
  per_page: number;
  last_page: number;
  current_page: number;
  from: number | null;
  to: number | null;
}

let t: TestApp;
let owner: TestAccount;
let bob: TestAccount;
let fixtures: ReturnType<typeof telephonyFixtures>;
let sales: Assistant;
let support: Assistant;
let campaign: Campaign;
const client = uniqueUsNumber();
const calls: Record<string, Call> = {};

/** Moves a call along the table to `status`. */
async function driveTo(call: Call, path: string[]) {
  for (const status of path) await t.app.services.callLifecycle.transition(call.id, status as never);
}

beforeAll(async () => {
  t = await startTestApp();
  // New York: the day boundaries of date filters differ from UTC (by 4 hours in March 2026, after DST began).
  owner = await t.createAccount({ timezone: "America/New_York" });
  bob = await t.createAccount();
  fixtures = telephonyFixtures(t);
  const number = await fixtures.addNumber(owner);
  sales = await createAssistant(t, owner, {
    name: "Sales",
    type: "outbound",
    phoneNumberId: number.id,
  });
  support = await createAssistant(t, owner, { name: "Support", phoneNumberId: number.id });
  campaign = await fixtures.createCampaign(owner, { name: "Renewals", assistantId: sales.id });
  const at = (call: Call, iso: string) =>
    t.app.db.prisma.call.update({ where: { id: call.id }, data: { createdAt: new Date(iso) } });

  calls.completedOutbound = await fixtures.startCall(owner, {
    assistantId: sales.id,
    type: "outbound",
    campaignId: campaign.id,
    clientPhoneNumber: client,
  });
  await driveTo(calls.completedOutbound, ["ringing", "in-progress", "completed"]);
  await at(calls.completedOutbound, "2026-03-10T12:00:00Z");
  calls.busyOutbound = await fixtures.startCall(owner, {
    assistantId: sales.id,
    type: "outbound",
    campaignId: campaign.id,
    clientPhoneNumber: uniqueUsNumber(),
  });
  await driveTo(calls.busyOutbound, ["ringing", "busy"]);
  // 03:00 UTC on the 10th is still the 9th in New York.
  await at(calls.busyOutbound, "2026-03-10T03:00:00Z");
  calls.inbound = await fixtures.startCall(owner, {
    assistantId: support.id,
    type: "inbound",
    clientPhoneNumber: client,
  });
  await driveTo(calls.inbound, ["ringing", "in-progress"]);
  await at(calls.inbound, "2026-03-11T03:59:59Z");
  calls.web = await fixtures.startCall(owner, { assistantId: support.id, type: "web" });
  await at(calls.web, "2026-03-12T15:00:00Z");
  calls.bobs = await fixtures.startCall(bob, {
    assistantId: (await createAssistant(t, bob)).id,
    type: "web",
  });
});
afterAll(() => t?.close());

const list = (query = "", account = owner) =>
  t.rest<Envelope>("GET", `/api/user/calls${query}`, { token: account.apiKey });
const ids = (response: { body: Envelope }) => response.body.data.map((call) => call.id).sort((a, b) => a - b);
const idsOf = (...names: string[]) => names.map((name) => calls[name]!.id).sort((a, b) => a - b);

describe("REST /api/user/calls", () => {
  it("lists the caller's calls newest first with every field of the spec and format B timestamps", async () => {
    const response = await list();
    expect(response.status).toBe(200);
    expect(response.body.data.map((call) => call.id)).toEqual(
      [calls.web, calls.inbound, calls.completedOutbound, calls.busyOutbound].map((call) => call!.id),
    );
    expect(response.body).toMatchObject({ total: 4, per_page: 15, current_page: 1, last_page: 1 });
    const completed = response.body.data.find((call) => call.id === calls.completedOutbound!.id)!;
    expect(Object.keys(completed).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(completed).toMatchObject({
      assistant_name: "Sales",
      campaign_name: "Renewals",
      type: "outbound",
      status: "completed",
      client_phone_number: client,
      variables: {},
      evaluation: {},
      webhook_response: {},
      carrier_cost: 0,
      total_cost: 0,
      created_at: "2026-03-10 12:00:00",
    });
    expect(completed.assistant_phone_number).toMatch(/^\+1415/);
    expect(completed.updated_at).toMatch(FORMAT_B);
    expect(response.body.data.find((call) => call.id === calls.web!.id)!.assistant_phone_number).toBe("");
    expect(ids(await list("", bob))).toEqual([calls.bobs!.id]);
  });

  it("filters by status, spelled as the spec spells it", async () => {
    expect(ids(await list("?status=completed"))).toEqual(idsOf("completedOutbound"));
    expect(ids(await list("?status=in-progress"))).toEqual(idsOf("inbound"));
    const busy = await list("?status=busy");
    expect(ids(busy)).toEqual(idsOf("busyOutbound"));
    expect(busy.body.total).toBe(1);
  });

  it("filters by type", async () => {
    expect(ids(await list("?type=outbound"))).toEqual(idsOf("completedOutbound", "busyOutbound"));
    expect(ids(await list("?type=web"))).toEqual(idsOf("web"));
  });

  it("filters by the client's phone number", async () => {
    const response = await list(`?phone_number=${encodeURIComponent(client)}`);
    expect(ids(response)).toEqual(idsOf("completedOutbound", "inbound"));
    expect(response.body.total).toBe(2);
  });

  it("reads an unencoded + in the phone number filter, which arrives as a space, as the +", async () => {
    const response = await list(`?phone_number=${client}`);
    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(idsOf("completedOutbound", "inbound"));
  });

  it("filters by assistant", async () => {
    expect(ids(await list(`?assistant_id=${support.id}`))).toEqual(idsOf("inbound", "web"));
  });

  it("filters by campaign", async () => {
    expect(ids(await list(`?campaign_id=${campaign.id}`))).toEqual(
      idsOf("completedOutbound", "busyOutbound"),
    );
  });

  it("reads date_from as the start of that day in the account's time zone", async () => {
    expect(ids(await list("?date_from=2026-03-10"))).toEqual(idsOf("completedOutbound", "inbound", "web"));
    expect(ids(await list("?date_from=2026-03-11"))).toEqual(idsOf("web"));
  });

  it("reads date_to as the end of that day in the account's time zone (inclusive)", async () => {
    expect(ids(await list("?date_to=2026-03-09"))).toEqual(idsOf("busyOutbound"));
    // 03:59:59 UTC on the 11th is 23:59:59 on the 10th in New York (EDT, UTC-4): still included.
    expect(ids(await list("?date_to=2026-03-10"))).toEqual(
      idsOf("busyOutbound", "completedOutbound", "inbound"),
    );
    const oneDay = await list("?date_from=2026-03-10&date_to=2026-03-10");
    expect(ids(oneDay)).toEqual(idsOf("completedOutbound", "inbound"));
    expect(oneDay.body.total).toBe(2);
  });

  it("combines filters and keeps them in page links", async () => {
    const response = await t.rest<Envelope & { next_page_url: string }>(
      "GET",
      `/api/user/calls?type=outbound&campaign_id=${campaign.id}&per_page=1`,
      { token: owner.apiKey },
    );
    expect(response.body).toMatchObject({ total: 2, last_page: 2, per_page: 1 });
    expect(response.body.next_page_url).toBe(
      `https://voxgate.test/api/user/calls?type=outbound&campaign_id=${campaign.id}&per_page=1&page=2`,
    );
  });

  it("refuses bad filter values with 422 and field messages", async () => {
    for (const [query, field, message] of [
      ["?status=hung-up", "status", "The selected status is invalid."],
      ["?type=fax", "type", "The type field must be one of inbound, outbound, web."],
      [
        "?phone_number=12345",
        "phone_number",
        "The phone number field must be a valid phone number in E.164 format (e.g. +14155550123).",
      ],
      ["?assistant_id=abc", "assistant_id", "The assistant id field must be an integer."],
      ["?date_from=2026-02-30", "date_from", "The date from field must be a date written YYYY-MM-DD."],
      ["?date_to=10/03/2026", "date_to", "The date to field must be a date written YYYY-MM-DD."],
      [
        "?date_from=2026-03-12&date_to=2026-03-10",
        "date_to",
        "The date to field must be a date after or equal to date from.",
      ],
    ] as const) {
      const response = await list(query);
      expect(response.status, query).toBe(422);
      expect(response.body, query).toMatchObject({ errors: { [field]: [message] } });
    }
  });

  it("handles paging edge cases", async () => {
    expect((await list("?page=5")).body).toMatchObject({
      data: [],
      total: 4,
      from: null,
      to: null,
      last_page: 1,
    });
    for (const [query, field] of [
      ["?per_page=0", "per_page"],
      ["?per_page=101", "per_page"],
      ["?per_page=abc", "per_page"],
      ["?page=abc", "page"],
    ] as const) {
      const response = await list(query);
      expect(response.status, query).toBe(422);
      expect(Object.keys((response.body as unknown as { errors: object }).errors)).toEqual([field]);
    }
    expect((await list("?per_page=2")).body).toMatchObject({ per_page: 2, last_page: 2, from: 1, to: 2 });
  });

  it("answers a filter by another account's assistant or campaign as not found", async () => {
    expect(await list(`?assistant_id=${sales.id}`, bob)).toMatchObject({
      status: 404,
      body: { message: "Assistant not found." },
    });
    expect(await list(`?campaign_id=${campaign.id}`, bob)).toMatchObject({
      status: 404,
      body: { message: "Campaign not found." },
    });
    expect((await t.rest("GET", "/api/user/calls")).status).toBe(401);
  });
});

describe("GraphQL calls", () => {
  it("lists with the same filters and reads one call; another account's call is not found", async () => {
    const response = await t.gql<{
      calls: { items: { id: number; status: string }[]; pageInfo: { total: number } };
    }>(
      `{ calls(filter: { type: outbound, status: busy }) { items { id status } pageInfo { total } } }`,
      {},
      { token: owner.apiKey },
    );
    expect(response.data!.calls).toEqual({
      items: [{ id: calls.busyOutbound!.id, status: "busy" }],
      pageInfo: { total: 1 },
    });
    const single = await t.gql(
      `query($id: Int!) { call(id: $id) { id assistantName } }`,
      { id: calls.inbound!.id },
      { token: owner.apiKey },
    );
    expect(single.data).toEqual({ call: { id: calls.inbound!.id, assistantName: "Support" } });
    const others = await t.gql(
      `query($id: Int!) { call(id: $id) { id } }`,
      { id: calls.bobs!.id },
      { token: owner.apiKey },
    );
    expect(others.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("starts a web call for one of the account's assistants only", async () => {
    const started = await t.gql<{
      startWebCall: { type: string; status: string; assistantName: string; variables: unknown };
    }>(
      `mutation($input: StartWebCallInput!) { startWebCall(input: $input) { type status assistantName variables } }`,
      { input: { assistantId: support.id, variables: { page: "/pricing" } } },
      { token: owner.apiKey },
    );
    expect(started.data!.startWebCall).toEqual({
      type: "web",
      status: "initiated",
      assistantName: "Support",
      variables: { page: "/pricing" },
    });
    const foreign = await t.gql(
      `mutation($input: StartWebCallInput!) { startWebCall(input: $input) { id } }`,
      { input: { assistantId: support.id } },
      { token: bob.apiKey },
    );
    expect(foreign.errors?.[0]?.extensions?.fields).toEqual({
      assistantId: ["The selected assistant id is invalid."],
    });
  });
});

describe("status transitions", () => {
  it("records when a call was answered and ended, and computes its duration", async () => {
    const call = await fixtures.startCall(owner, {
      assistantId: sales.id,
      type: "outbound",
      clientPhoneNumber: client,
    });
    const start = new Date("2026-04-01T10:00:00Z");
    await t.app.services.callLifecycle.transition(call.id, "ringing", {}, start);
    const answered = await t.app.services.callLifecycle.transition(
      call.id,
      "in-progress",
      {},
      new Date(start.getTime() + 5000),
    );
    expect(answered.startedAt).toEqual(new Date(start.getTime() + 5000));
    const ended = await t.app.services.callLifecycle.transition(
      call.id,
      "ended_by_customer",
      { transcript: "Hello", totalCost: "0.1234", evaluation: { sentiment: "positive", score: 8 } },
      new Date(start.getTime() + 65_000),
    );
    expect(ended).toMatchObject({ status: "ended_by_customer", duration: 60, transcript: "Hello" });
    expect(ended.totalCost.toFixed(4)).toBe("0.1234");
  });

  it("refuses every move the table does not allow, with a CONFLICT code that names the allowed moves", async () => {
    const call = await fixtures.startCall(owner, { assistantId: sales.id, type: "outbound" });
    await expect(t.app.services.callLifecycle.transition(call.id, "completed")).rejects.toMatchObject({
      code: "CONFLICT",
      extensions: {
        reason: "INVALID_CALL_TRANSITION",
        from: "initiated",
        to: "completed",
        allowed: ["ringing", "in-progress", "busy", "no-answer", "failed"],
      },
    });
    await driveTo(call, ["ringing", "no-answer"]);
    for (const next of ["ringing", "in-progress", "completed", "failed"] as const) {
      await expect(t.app.services.callLifecycle.transition(call.id, next)).rejects.toMatchObject({
        message: `The call has already ended with status no-answer; it cannot become ${next}.`,
      });
    }
    expect((await t.app.services.callQueries.get(owner.accountId, call.id)).status).toBe("no_answer");
  });

  it("has a table in which every status is reachable from initiated and every final status has no way out", () => {
    const reachable = new Set<string>(["initiated"]);
    for (let round = 0; round < 5; round++) {
      for (const from of [...reachable])
        for (const to of CALL_TRANSITIONS[from as keyof typeof CALL_TRANSITIONS]) reachable.add(to);
    }
    expect([...reachable].sort()).toEqual(Object.keys(CALL_TRANSITIONS).sort());
  });
});

describe("callStatusChanged subscription", () => {
  const SUBSCRIPTION = `subscription($callId: Int, $assistantId: Int, $campaignId: Int) {
    callStatusChanged(callId: $callId, assistantId: $assistantId, campaignId: $campaignId) {
      callId status previousStatus call { id status assistantName }
    }
  }`;
  type Event = {
    callStatusChanged: {
      callId: number;
      status: string;
      previousStatus: string | null;
      call: { id: number };
    };
  };

  it("streams one call's changes over graphql-ws, in order, and nothing of other calls", async () => {
    const watched = await fixtures.startCall(owner, { assistantId: sales.id, type: "outbound" });
    const other = await fixtures.startCall(owner, { assistantId: sales.id, type: "outbound" });
    const subscription = await subscribeWs<Event>(t.url, SUBSCRIPTION, {
      connectionParams: { authorization: `Bearer ${owner.apiKey}` },
      variables: { callId: watched.id },
    });
    try {
      await t.app.services.callLifecycle.transition(other.id, "ringing");
      await t.app.services.callLifecycle.transition(watched.id, "ringing");
      await t.app.services.callLifecycle.transition(watched.id, "in-progress");
      const first = await subscription.next();
      expect(first.data!.callStatusChanged).toEqual({
        callId: watched.id,
        status: "ringing",
        previousStatus: "initiated",
        call: expect.objectContaining({ id: watched.id, assistantName: "Sales" }),
      });
      const second = await subscription.next();
      // GraphQL names the status in_progress; REST spells it in-progress.
      expect(second.data!.callStatusChanged).toMatchObject({
        status: "in_progress",
        previousStatus: "ringing",
      });
      await expect(subscription.next(300)).rejects.toThrow(/no subscription event/);
    } finally {
      await subscription.close();
    }
  });

  it("with includeCurrent, starts with the call's status as it is, then its changes; ends when the client leaves", async () => {
    const watched = await fixtures.startCall(owner, { assistantId: sales.id, type: "outbound" });
    await t.app.services.callLifecycle.transition(watched.id, "ringing");
    const subscription = await subscribeWs<Event>(
      t.url,
      `subscription($callId: Int) {
        callStatusChanged(callId: $callId, includeCurrent: true) { callId status previousStatus call { id } }
      }`,
      { connectionParams: { authorization: `Bearer ${owner.apiKey}` }, variables: { callId: watched.id } },
    );
    try {
      // The change made before subscribing is what the first event tells; nothing was missed.
      expect((await subscription.next()).data!.callStatusChanged).toEqual({
        callId: watched.id,
        status: "ringing",
        previousStatus: null,
        call: { id: watched.id },
      });
      await t.app.services.callLifecycle.transition(watched.id, "in-progress");
      expect((await subscription.next()).data!.callStatusChanged).toMatchObject({
        status: "in_progress",
        previousStatus: "ringing",
      });
      await expect(subscription.next(300)).rejects.toThrow(/no subscription event/);
    } finally {
      await subscription.close();
    }
    // Another account's call id is refused, current state or not.
    const refused = await subscribeWs<Event>(
      t.url,
      `subscription($callId: Int) { callStatusChanged(callId: $callId, includeCurrent: true) { callId } }`,
      { connectionParams: { authorization: `Bearer ${bob.apiKey}` }, variables: { callId: watched.id } },
    );
    try {
      expect((await refused.next()).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    } finally {
      await refused.close();
    }
  });

  it("filters by assistant and by campaign, including new calls", async () => {
    const byAssistant = await subscribeWs<Event>(t.url, SUBSCRIPTION, {
      connectionParams: { authorization: `Bearer ${owner.apiKey}` },
      variables: { assistantId: support.id },
    });
    const byCampaign = await subscribeWs<Event>(t.url, SUBSCRIPTION, {
      connectionParams: { authorization: `Bearer ${owner.apiKey}` },
      variables: { campaignId: campaign.id },
    });
    try {
      const campaignCall = await fixtures.startCall(owner, {
        assistantId: sales.id,
        type: "outbound",
        campaignId: campaign.id,
      });
      const supportCall = await fixtures.startCall(owner, { assistantId: support.id, type: "inbound" });
      expect((await byCampaign.next()).data!.callStatusChanged).toMatchObject({
        callId: campaignCall.id,
        status: "initiated",
        previousStatus: null,
      });
      expect((await byAssistant.next()).data!.callStatusChanged).toMatchObject({
        callId: supportCall.id,
        status: "initiated",
      });
      await expect(byAssistant.next(300)).rejects.toThrow();
      await expect(byCampaign.next(300)).rejects.toThrow();
    } finally {
      await Promise.all([byAssistant.close(), byCampaign.close()]);
    }
  });

  it("streams over SSE, and never shows one account's calls to another", async () => {
    const ownerStream = await subscribeSse<Event>(t.url, SUBSCRIPTION, {
      headers: { authorization: `Bearer ${owner.apiKey}` },
    });
    const bobStream = await subscribeSse<Event>(t.url, SUBSCRIPTION, {
      headers: { authorization: `Bearer ${bob.apiKey}` },
    });
    try {
      expect(ownerStream.status).toBe(200);
      const call = await fixtures.startCall(owner, { assistantId: support.id, type: "web" });
      await t.app.services.callLifecycle.transition(call.id, "in-progress");
      expect((await ownerStream.next()).data!.callStatusChanged).toMatchObject({
        callId: call.id,
        status: "initiated",
      });
      expect((await ownerStream.next()).data!.callStatusChanged).toMatchObject({
        callId: call.id,
        status: "in_progress",
      });
      await expect(bobStream.next(300)).rejects.toThrow();
    } finally {
      await Promise.all([ownerStream.close(), bobStream.close()]);
    }
  });

  it("answers a subscription to another account's call, assistant or campaign with NOT_FOUND", async () => {
    for (const variables of [
      { callId: calls.inbound!.id },
      { assistantId: sales.id },
      { campaignId: campaign.id },
    ]) {
      const subscription = await subscribeWs<Event>(t.url, SUBSCRIPTION, {
        connectionParams: { authorization: `Bearer ${bob.apiKey}` },
        variables,
      });
      try {
        expect((await subscription.next()).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      } finally {
        await subscription.close();
      }
    }
  });
});
