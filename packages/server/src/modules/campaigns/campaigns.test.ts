import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { telephonyFixtures } from "../../../test/fixtures/telephony.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";

const CAMPAIGN_FIELDS = `id name status assistant { id name } phoneNumbers { id }
  callingWindow { start end timezone } retry { maxRetries intervalMinutes }`;
const CREATE = `mutation($input: CreateCampaignInput!) { createCampaign(input: $input) { ${CAMPAIGN_FIELDS} } }`;
const UPDATE = `mutation($id: Int!, $input: UpdateCampaignInput!) { updateCampaign(id: $id, input: $input) { ${CAMPAIGN_FIELDS} } }`;
const GET = `query($id: Int!) { campaign(id: $id) { id } }`;
const DELETE = `mutation($id: Int!) { deleteCampaign(id: $id) { deletedId } }`;

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let fixtures: ReturnType<typeof telephonyFixtures>;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
  fixtures = telephonyFixtures(t);
});
afterAll(() => t?.close());

describe("campaigns over GraphQL", () => {
  it("creates a campaign with an assistant, an ordered number rotation, a calling window and retries", async () => {
    const assistant = await createAssistant(t, alice, { name: "Caller", type: "outbound" });
    const [first, second] = [await fixtures.addNumber(alice), await fixtures.addNumber(alice)];
    const created = await t.gql<{ createCampaign: Record<string, unknown> }>(
      CREATE,
      {
        input: {
          name: "Renewals",
          status: "active",
          assistantId: assistant.id,
          phoneNumberIds: [second.id, first.id],
          callingWindowStart: "08:30",
          callingWindowEnd: "18:00",
          timezone: "Europe/Madrid",
          maxRetries: 4,
          retryIntervalMinutes: 120,
        },
      },
      { token: alice.apiKey },
    );
    expect(created.data!.createCampaign).toMatchObject({
      name: "Renewals",
      status: "active",
      assistant: { id: assistant.id, name: "Caller" },
      phoneNumbers: [{ id: second.id }, { id: first.id }],
      callingWindow: { start: "08:30", end: "18:00", timezone: "Europe/Madrid" },
      retry: { maxRetries: 4, intervalMinutes: 120 },
    });
  });

  it("applies documented defaults", async () => {
    const created = await t.gql<{ createCampaign: Record<string, unknown> }>(
      CREATE,
      { input: { name: "Plain" } },
      { token: alice.apiKey },
    );
    expect(created.data!.createCampaign).toMatchObject({
      status: "draft",
      assistant: null,
      phoneNumbers: [],
      callingWindow: { start: "09:00", end: "17:00", timezone: "UTC" },
      retry: { maxRetries: 2, intervalMinutes: 60 },
    });
  });

  it("refuses bad settings with field messages and creates nothing", async () => {
    const bobsNumber = await fixtures.addNumber(bob);
    const bobsAssistant = await createAssistant(t, bob);
    const before = await t.app.db.prisma.campaign.count({ where: { accountId: alice.accountId } });
    for (const [input, fields] of [
      [{ name: "" }, { name: ["The name field is required."] }],
      [
        { name: "x", callingWindowStart: "9am" },
        {
          callingWindowStart: [
            "The calling window start field must be a time written HH:MM (00:00 to 23:59).",
          ],
        },
      ],
      [
        { name: "x", callingWindowStart: "18:00", callingWindowEnd: "08:00" },
        { callingWindowEnd: ["The calling window end must be after the calling window start."] },
      ],
      [
        { name: "x", timezone: "Nowhere/City" },
        { timezone: ["The timezone field must be a valid IANA time zone (e.g. Europe/Paris)."] },
      ],
      [{ name: "x", maxRetries: 11 }, { maxRetries: ["The max retries field must be between 0 and 10."] }],
      [
        { name: "x", retryIntervalMinutes: 1 },
        {
          retryIntervalMinutes: ["The retry interval minutes field must be between 5 and 10080 (one week)."],
        },
      ],
      [
        { name: "x", assistantId: bobsAssistant.id },
        { assistantId: ["The selected assistant id is invalid."] },
      ],
      [
        { name: "x", phoneNumberIds: [bobsNumber.id] },
        { "phoneNumberIds.0": ["The selected phone number id is invalid."] },
      ],
      [
        { name: "x", status: "active" },
        { assistantId: ["An active campaign needs an assistant to call with."] },
      ],
      [
        { name: "x", maxConcurrentCalls: 0 },
        { maxConcurrentCalls: ["The max concurrent calls field must be between 1 and 50."] },
      ],
    ] as const) {
      const response = await t.gql(CREATE, { input }, { token: alice.apiKey });
      expect(response.errors?.[0]?.extensions, JSON.stringify(input)).toEqual({
        code: "VALIDATION_FAILED",
        fields,
      });
    }
    const running = await t.gql(CREATE, { input: { name: "x", status: "running" } }, { token: alice.apiKey });
    expect(running.errors?.[0]?.message).toContain('Value "running" does not exist in "CampaignStatus" enum');
    expect(await t.app.db.prisma.campaign.count({ where: { accountId: alice.accountId } })).toBe(before);
  });

  it("updates only the given fields and replaces the rotation when one is given", async () => {
    const [first, second] = [await fixtures.addNumber(alice), await fixtures.addNumber(alice)];
    const campaign = await fixtures.createCampaign(alice, { phoneNumberIds: [first.id], maxRetries: 3 });
    const renamed = await t.gql<{ updateCampaign: Record<string, unknown> }>(
      UPDATE,
      { id: campaign.id, input: { name: "Renamed" } },
      { token: alice.apiKey },
    );
    expect(renamed.data!.updateCampaign).toMatchObject({
      name: "Renamed",
      phoneNumbers: [{ id: first.id }],
      retry: { maxRetries: 3 },
    });
    const rotated = await t.gql<{ updateCampaign: Record<string, unknown> }>(
      UPDATE,
      { id: campaign.id, input: { phoneNumberIds: [second.id, first.id], callingWindowEnd: "20:00" } },
      { token: alice.apiKey },
    );
    expect(rotated.data!.updateCampaign).toMatchObject({
      phoneNumbers: [{ id: second.id }, { id: first.id }],
      callingWindow: { start: "09:00", end: "20:00" },
    });
    const early = await t.gql(
      UPDATE,
      { id: campaign.id, input: { callingWindowEnd: "08:00" } },
      { token: alice.apiKey },
    );
    expect(early.errors?.[0]?.extensions?.fields).toEqual({
      callingWindowEnd: ["The calling window end must be after the calling window start."],
    });
  });

  it("lists newest first, filters by status and pages with the shared rules", async () => {
    const account = await t.createAccount();
    const draft = await fixtures.createCampaign(account, { name: "A" });
    const caller = await createAssistant(t, account, { name: "Caller", type: "outbound" });
    const active = await fixtures.createCampaign(account, {
      name: "B",
      status: "active",
      assistantId: caller.id,
    });
    const list = async (args: string) =>
      t.gql<{ campaigns: { items: { id: number }[]; pageInfo: { total: number; perPage: number } } }>(
        `{ campaigns${args ? `(${args})` : ""} { items { id } pageInfo { total perPage } } }`,
        {},
        { token: account.apiKey },
      );
    expect((await list("")).data!.campaigns).toEqual({
      items: [{ id: active.id }, { id: draft.id }],
      pageInfo: { total: 2, perPage: 15 },
    });
    expect((await list(`status: draft`)).data!.campaigns.items).toEqual([{ id: draft.id }]);
    expect((await list("page: 3")).data!.campaigns).toEqual({
      items: [],
      pageInfo: { total: 2, perPage: 15 },
    });
    expect((await list("perPage: 0")).errors?.[0]?.extensions?.fields).toEqual({
      perPage: ["The per page field must be between 1 and 100."],
    });
    expect((await list("perPage: 101")).errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
  });

  it("soft-deletes: the campaign leaves lists and takes no new leads, while its calls keep its name", async () => {
    const campaign = await fixtures.createCampaign(alice, { name: "Closing down" });
    const assistant = await createAssistant(t, alice);
    const call = await fixtures.startCall(alice, {
      assistantId: assistant.id,
      type: "outbound",
      campaignId: campaign.id,
    });
    expect((await t.gql(DELETE, { id: campaign.id }, { token: alice.apiKey })).data).toEqual({
      deleteCampaign: { deletedId: campaign.id },
    });
    expect(
      (await t.gql(GET, { id: campaign.id }, { token: alice.apiKey })).errors?.[0]?.extensions?.code,
    ).toBe("NOT_FOUND");
    const lead = await t.rest("POST", "/api/user/lead", {
      token: alice.apiKey,
      body: { phone_number: "+14155550100", campaign_id: campaign.id },
    });
    expect(lead.status).toBe(404);
    expect((await t.app.services.callQueries.get(alice.accountId, call.id)).campaignName).toBe(
      "Closing down",
    );
  });

  it("answers another account's campaign with NOT_FOUND for read, update and delete", async () => {
    const alices = await fixtures.createCampaign(alice, { name: "Private" });
    expect((await t.gql(GET, { id: alices.id }, { token: bob.apiKey })).errors?.[0]?.extensions?.code).toBe(
      "NOT_FOUND",
    );
    expect(
      (await t.gql(UPDATE, { id: alices.id, input: { name: "Mine" } }, { token: bob.apiKey })).errors?.[0]
        ?.extensions?.code,
    ).toBe("NOT_FOUND");
    expect(
      (await t.gql(DELETE, { id: alices.id }, { token: bob.apiKey })).errors?.[0]?.extensions?.code,
    ).toBe("NOT_FOUND");
    expect(await t.app.db.prisma.campaign.findUniqueOrThrow({ where: { id: alices.id } })).toMatchObject({
      name: "Private",
      deletedAt: null,
    });
  });
});
