import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Campaign } from "../../generated/prisma/client.ts";

const FORMAT_B = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

interface RestLead {
  id: number;
  campaign_id: number;
  phone_number: string;
  variables: Record<string, unknown>;
  status: string;
  created_at: string;
  updated_at: string;
  campaign: { id: number; name: string };
  secondary_contacts: Record<string, unknown>[];
}
interface Envelope {
  data: RestLead[];
  total: number;
  per_page: number;
  last_page: number;
  from: number | null;
  to: number | null;
}

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;
let fixtures: ReturnType<typeof telephonyFixtures>;
let spring: Campaign;
let autumn: Campaign;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
  fixtures = telephonyFixtures(t);
  spring = await fixtures.createCampaign(alice, { name: "Spring" });
  autumn = await fixtures.createCampaign(alice, { name: "Autumn" });
});
afterAll(() => t?.close());

const createLead = (body: Record<string, unknown>, account = alice) =>
  t.rest<{ message: string; data: RestLead; errors?: Record<string, string[]> }>("POST", "/api/user/lead", {
    token: account.apiKey,
    body,
  });
const listLeads = (query = "", account = alice) =>
  t.rest<Envelope>("GET", `/api/user/leads${query}`, { token: account.apiKey });

describe("POST /api/user/lead", () => {
  it("creates a lead and its secondary contacts, all with status created, and answers 201 with campaign and contacts", async () => {
    const phone = uniqueUsNumber();
    const [second, third] = [uniqueUsNumber(), uniqueUsNumber()];
    const response = await createLead({
      phone_number: phone,
      campaign_id: spring.id,
      variables: { customer_name: "Ada", email: "ada@example.com" },
      secondary_contacts: [
        { phone_number: second, variables: { relation: "office" } },
        { phone_number: third, variables: {} },
      ],
    });
    expect(response.status).toBe(201);
    expect(response.body.message).toBe("Lead created successfully.");
    const lead = response.body.data;
    expect(Object.keys(lead).sort()).toEqual(
      [
        "campaign",
        "campaign_id",
        "created_at",
        "id",
        "phone_number",
        "secondary_contacts",
        "status",
        "updated_at",
        "variables",
      ].sort(),
    );
    expect(lead).toMatchObject({
      campaign_id: spring.id,
      phone_number: phone,
      variables: { customer_name: "Ada", email: "ada@example.com" },
      status: "created",
      campaign: { id: spring.id, name: "Spring" },
    });
    expect(lead.created_at).toMatch(FORMAT_B);
    expect(lead.secondary_contacts).toHaveLength(2);
    expect(Object.keys(lead.secondary_contacts[0]!).sort()).toEqual(
      ["created_at", "id", "phone_number", "status", "updated_at", "variables"].sort(),
    );
    expect(
      lead.secondary_contacts.map((contact) => [contact.phone_number, contact.status, contact.variables]),
    ).toEqual([
      [second, "created", { relation: "office" }],
      [third, "created", {}],
    ]);
    expect(lead.secondary_contacts[0]!.created_at).toMatch(FORMAT_B);
    expect(await t.app.db.prisma.secondaryContact.count({ where: { leadId: lead.id } })).toBe(2);
  });

  it("refuses a second lead with the same number in the same campaign unless allow_dupplicate is true", async () => {
    const phone = uniqueUsNumber();
    expect((await createLead({ phone_number: phone, campaign_id: spring.id })).status).toBe(201);
    const duplicate = await createLead({ phone_number: phone, campaign_id: spring.id });
    expect(duplicate.status).toBe(422);
    expect(duplicate.body.errors).toEqual({
      phone_number: [
        "A lead with this phone number already exists in this campaign (set allow_dupplicate to add it again).",
      ],
    });
    expect(
      (await createLead({ phone_number: phone, campaign_id: spring.id, allow_dupplicate: false })).status,
    ).toBe(422);
    expect((await createLead({ phone_number: phone, campaign_id: autumn.id })).status).toBe(201);
    expect(
      (await createLead({ phone_number: phone, campaign_id: spring.id, allow_dupplicate: true })).status,
    ).toBe(201);
    expect(await t.app.db.prisma.lead.count({ where: { phoneNumber: phone } })).toBe(3);
  });

  it("lets only one of several concurrent duplicates through", async () => {
    const phone = uniqueUsNumber();
    const responses = await Promise.all(
      Array.from({ length: 5 }, () => createLead({ phone_number: phone, campaign_id: autumn.id })),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, 422, 422, 422, 422]);
    expect(await t.app.db.prisma.lead.count({ where: { phoneNumber: phone, campaignId: autumn.id } })).toBe(
      1,
    );
  });

  it("validates every field with messages under the REST names, and creates nothing on failure", async () => {
    const before = await t.app.db.prisma.lead.count();
    const beforeContacts = await t.app.db.prisma.secondaryContact.count();
    for (const [body, errors] of [
      [{ campaign_id: spring.id }, { phone_number: ["The phone number field is required."] }],
      [
        { phone_number: "4155550123", campaign_id: spring.id },
        {
          phone_number: [
            "The phone number field must be a valid phone number in E.164 format (e.g. +14155550123).",
          ],
        },
      ],
      [
        { phone_number: "+1 415 555 0123", campaign_id: spring.id },
        {
          phone_number: [
            "The phone number field must be a valid phone number in E.164 format (e.g. +14155550123).",
          ],
        },
      ],
      [{ phone_number: uniqueUsNumber() }, { campaign_id: ["The campaign id field is required."] }],
      [
        { phone_number: uniqueUsNumber(), campaign_id: "abc" },
        { campaign_id: ["The campaign id field must be an integer."] },
      ],
      [
        { phone_number: uniqueUsNumber(), campaign_id: spring.id, variables: ["a"] },
        { variables: ["The variables field must be an object of strings, numbers or booleans."] },
      ],
      [
        { phone_number: uniqueUsNumber(), campaign_id: spring.id, allow_dupplicate: "maybe" },
        { allow_dupplicate: ["The allow dupplicate field must be true or false."] },
      ],
      [
        {
          phone_number: uniqueUsNumber(),
          campaign_id: spring.id,
          secondary_contacts: [{ phone_number: uniqueUsNumber() }, { phone_number: "+1" }],
        },
        {
          "secondary_contacts.1.phone_number": [
            "The phone number field must be a valid phone number in E.164 format (e.g. +14155550123).",
          ],
        },
      ],
      [
        { phone_number: uniqueUsNumber(), campaign_id: spring.id, secondary_contacts: [{ variables: {} }] },
        { "secondary_contacts.0.phone_number": ["The phone number field is required."] },
      ],
    ] as const) {
      const response = await createLead(body as Record<string, unknown>);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.errors, JSON.stringify(body)).toEqual(errors);
    }
    expect(await t.app.db.prisma.lead.count()).toBe(before);
    expect(await t.app.db.prisma.secondaryContact.count()).toBe(beforeContacts);
  });

  it("answers another account's or an unknown campaign with 404", async () => {
    const bobsCampaign = await fixtures.createCampaign(bob, { name: "Bob's" });
    const response = await createLead({ phone_number: uniqueUsNumber(), campaign_id: bobsCampaign.id });
    expect(response).toMatchObject({ status: 404, body: { message: "Campaign not found." } });
    expect(await t.app.db.prisma.lead.count({ where: { campaignId: bobsCampaign.id } })).toBe(0);
    expect((await createLead({ phone_number: uniqueUsNumber(), campaign_id: 99999999 })).status).toBe(404);
    expect(
      (
        await t.rest("POST", "/api/user/lead", {
          body: { phone_number: uniqueUsNumber(), campaign_id: spring.id },
        })
      ).status,
    ).toBe(401);
  });
});

describe("GET /api/user/leads", () => {
  it("pages 15 at a time, newest first, with campaign and secondary contacts, only the caller's", async () => {
    const account = await t.createAccount();
    const campaign = await fixtures.createCampaign(account, { name: "Volume" });
    for (let index = 0; index < 17; index++) {
      await t.app.services.leads.create(account.accountId, {
        phoneNumber: uniqueUsNumber(),
        campaignId: campaign.id,
        secondaryContacts: index === 16 ? [{ phoneNumber: uniqueUsNumber() }] : [],
      });
    }
    const first = await listLeads("", account);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ total: 17, per_page: 15, last_page: 2, from: 1, to: 15 });
    expect(first.body.data[0]!.campaign).toEqual({ id: campaign.id, name: "Volume" });
    expect(first.body.data[0]!.secondary_contacts).toHaveLength(1);
    expect(first.body.data[0]!.created_at).toMatch(FORMAT_B);
    const ids = first.body.data.map((lead) => lead.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect((await listLeads("?page=2", account)).body).toMatchObject({ from: 16, to: 17 });
    expect((await listLeads("?page=3", account)).body).toMatchObject({
      data: [],
      from: null,
      to: null,
      total: 17,
    });
    for (const [query, field] of [
      ["?per_page=0", "per_page"],
      ["?per_page=101", "per_page"],
      ["?per_page=abc", "per_page"],
      ["?page=abc", "page"],
    ] as const) {
      const response = await listLeads(query, account);
      expect(response.status, query).toBe(422);
      expect(Object.keys((response.body as unknown as { errors: object }).errors)).toEqual([field]);
    }
    const others = await listLeads("", bob);
    expect(others.body.data.map((lead) => lead.campaign_id)).not.toContain(campaign.id);
  });

  it("filters by campaign", async () => {
    const response = await listLeads(`?campaign_id=${autumn.id}`);
    expect(response.body.data.length).toBeGreaterThan(0);
    expect(response.body.data.every((lead) => lead.campaign_id === autumn.id)).toBe(true);
    expect(response.body.total).toBe(await t.app.db.prisma.lead.count({ where: { campaignId: autumn.id } }));
  });

  it("filters by status, spelled as the spec spells it", async () => {
    const lead = await t.app.services.leads.create(alice.accountId, {
      phoneNumber: uniqueUsNumber(),
      campaignId: spring.id,
    });
    await t.app.db.prisma.lead.update({ where: { id: lead.id }, data: { status: "reached_max_retries" } });
    const response = await listLeads("?status=reached-max-retries");
    expect(response.body.data.map((item) => [item.id, item.status])).toEqual([
      [lead.id, "reached-max-retries"],
    ]);
    expect((await listLeads("?status=created")).body.data.map((item) => item.id)).not.toContain(lead.id);
  });

  it("refuses a bad status or campaign id, and answers another account's campaign with 404", async () => {
    expect(await listLeads("?status=lost")).toMatchObject({
      status: 422,
      body: {
        errors: {
          status: [
            "The status field must be one of created, scheduled, processing, completed, rescheduled, reached-max-retries, blacklisted.",
          ],
        },
      },
    });
    expect(await listLeads("?campaign_id=abc")).toMatchObject({
      status: 422,
      body: { errors: { campaign_id: ["The campaign id field must be an integer."] } },
    });
    expect(await listLeads(`?campaign_id=${spring.id}`, bob)).toMatchObject({
      status: 404,
      body: { message: "Campaign not found." },
    });
  });
});

describe("DELETE /api/user/leads/{id}", () => {
  it("deletes a lead with its secondary contacts", async () => {
    const lead = await t.app.services.leads.create(alice.accountId, {
      phoneNumber: uniqueUsNumber(),
      campaignId: spring.id,
      secondaryContacts: [{ phoneNumber: uniqueUsNumber() }],
    });
    const response = await t.rest("DELETE", `/api/user/leads/${lead.id}`, { token: alice.apiKey });
    expect(response).toMatchObject({ status: 200, body: { message: "Lead deleted successfully." } });
    expect(await t.app.db.prisma.lead.count({ where: { id: lead.id } })).toBe(0);
    expect(await t.app.db.prisma.secondaryContact.count({ where: { leadId: lead.id } })).toBe(0);
    expect((await t.rest("DELETE", `/api/user/leads/${lead.id}`, { token: alice.apiKey })).status).toBe(404);
  });

  it("answers another account's lead, and a non-numeric id, with 404 and deletes nothing", async () => {
    const lead = await t.app.services.leads.create(alice.accountId, {
      phoneNumber: uniqueUsNumber(),
      campaignId: spring.id,
    });
    expect(await t.rest("DELETE", `/api/user/leads/${lead.id}`, { token: bob.apiKey })).toMatchObject({
      status: 404,
      body: { message: "Lead not found." },
    });
    expect(await t.app.db.prisma.lead.count({ where: { id: lead.id } })).toBe(1);
    expect((await t.rest("DELETE", "/api/user/leads/abc", { token: alice.apiKey })).status).toBe(404);
  });
});

describe("GraphQL leads", () => {
  it("creates, reads, lists and deletes with the same rules", async () => {
    const phone = uniqueUsNumber();
    const created = await t.gql<{
      createLead: {
        id: number;
        status: string;
        campaign: { name: string };
        secondaryContacts: { status: string }[];
      };
    }>(
      `mutation($input: CreateLeadInput!) { createLead(input: $input) { id status campaign { name } secondaryContacts { status } } }`,
      {
        input: {
          phoneNumber: phone,
          campaignId: autumn.id,
          secondaryContacts: [{ phoneNumber: uniqueUsNumber() }],
        },
      },
      { token: alice.apiKey },
    );
    const lead = created.data!.createLead;
    expect(lead).toMatchObject({
      status: "created",
      campaign: { name: "Autumn" },
      secondaryContacts: [{ status: "created" }],
    });
    const duplicate = await t.gql(
      `mutation($input: CreateLeadInput!) { createLead(input: $input) { id } }`,
      { input: { phoneNumber: phone, campaignId: autumn.id } },
      { token: alice.apiKey },
    );
    expect(duplicate.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const listed = await t.gql<{ leads: { items: { id: number }[] } }>(
      `query($campaignId: Int) { leads(campaignId: $campaignId, perPage: 100) { items { id } } }`,
      { campaignId: autumn.id },
      { token: alice.apiKey },
    );
    expect(listed.data!.leads.items.map((item) => item.id)).toContain(lead.id);
    const foreign = await t.gql(
      `query($id: Int!) { lead(id: $id) { id } }`,
      { id: lead.id },
      { token: bob.apiKey },
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const foreignDelete = await t.gql(
      `mutation($id: Int!) { deleteLead(id: $id) { deletedId } }`,
      { id: lead.id },
      { token: bob.apiKey },
    );
    expect(foreignDelete.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const deleted = await t.gql(
      `mutation($id: Int!) { deleteLead(id: $id) { deletedId } }`,
      { id: lead.id },
      { token: alice.apiKey },
    );
    expect(deleted.data).toEqual({ deleteLead: { deletedId: lead.id } });
  });
});
