import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { durableDatabase } from "../../../test/fixtures/durable-database.ts";
import { telephonyFixtures, uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";

const FORMAT_A = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

interface RestNumber {
  id: number;
  phone_number: string;
  type: string;
  type_label: string;
  sms_capable: boolean;
  has_active_subscription: boolean;
}

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

const listAll = async (account: TestAccount) =>
  (await t.rest<{ data: RestNumber[] }>("GET", "/api/user/phone-numbers/all", { token: account.apiKey })).body
    .data;
const providerOperations = (phoneNumber: string) =>
  t.app.db.prisma.providerOperation.findMany({ where: { phoneNumber }, orderBy: { id: "asc" } });

describe("adding numbers over GraphQL", () => {
  it("buys a dedicated number through the provider with a monthly billing period", async () => {
    const number = uniqueUsNumber();
    const response = await t.gql<{ addPhoneNumber: Record<string, unknown> }>(
      `mutation($input: AddPhoneNumberInput!) { addPhoneNumber(input: $input) {
        phoneNumber countryCode kind typeLabel region smsCapable hasActiveSubscription subscriptionStatus
        billingPeriodStart billingPeriodEnd } }`,
      { input: { kind: "normal", phoneNumber: number, label: "Sales" } },
      { token: alice.apiKey },
    );
    const added = response.data!.addPhoneNumber;
    expect(added).toMatchObject({
      phoneNumber: number,
      countryCode: "US",
      kind: "normal",
      typeLabel: "Dedicated Number",
      region: "United States",
      smsCapable: true,
      hasActiveSubscription: true,
      subscriptionStatus: "active",
    });
    const start = new Date(added.billingPeriodStart as string);
    const end = new Date(added.billingPeriodEnd as string);
    expect(end.getUTCMonth()).toBe((start.getUTCMonth() + 1) % 12);
    expect((await providerOperations(number)).map((operation) => operation.operation)).toEqual([
      "purchase_number",
    ]);
  });

  it("refuses bad numbers, SIP without a URI, duplicates and numbers another account holds", async () => {
    const add = (input: Record<string, unknown>, token = alice.apiKey) =>
      t.gql(
        `mutation($input: AddPhoneNumberInput!) { addPhoneNumber(input: $input) { id } }`,
        { input },
        { token },
      );
    const notE164 = await add({ kind: "normal", phoneNumber: "+1 415 555 0123" });
    expect(notE164.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: {
        phoneNumber: [
          "The phone number field must be a valid phone number in E.164 format (e.g. +14155550123).",
        ],
      },
    });
    const tooShort = await add({ kind: "normal", phoneNumber: "+1415555012" });
    expect(tooShort.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const sipWithoutUri = await add({ kind: "sip", phoneNumber: uniqueUsNumber() });
    expect(sipWithoutUri.errors?.[0]?.extensions?.fields).toEqual({
      sipUri: ["The sip uri field is required for SIP numbers."],
    });
    const held = await fixtures.addNumber(alice);
    const again = await add({ kind: "normal", phoneNumber: held.phoneNumber });
    expect(again.errors?.[0]?.extensions?.fields).toEqual({
      phoneNumber: ["The phone number has already been added to this account."],
    });
    const asSip = await add({ kind: "sip", phoneNumber: held.phoneNumber, sipUri: "sip:a@pbx.example.com" });
    expect(asSip.errors?.[0]?.extensions?.fields).toEqual({
      phoneNumber: ["The phone number has already been added to this account."],
    });
    const taken = await add({ kind: "normal", phoneNumber: held.phoneNumber }, bob.apiKey);
    expect(taken.errors?.[0]?.extensions?.code).toBe("PHONE_NUMBER_UNAVAILABLE");
    expect(await t.app.db.prisma.phoneNumber.count({ where: { phoneNumber: held.phoneNumber } })).toBe(1);
  });
});

describe("REST lists", () => {
  it("lists every kind in /all, and only SMS-capable paid numbers in the legacy list", async () => {
    const account = await t.createAccount();
    const dedicated = await fixtures.addNumber(account);
    const noSms = await fixtures.addNumber(account, { smsCapable: false });
    const sip = await fixtures.addNumber(account, { kind: "sip", sipUri: "sip:desk@pbx.example.com" });
    const callerId = await fixtures.addNumber(account, { kind: "caller_id" });

    const all = await t.rest<{ data: Record<string, unknown>[] }>("GET", "/api/user/phone-numbers/all", {
      token: account.apiKey,
    });
    expect(all.status).toBe(200);
    expect(all.body.data.map((number) => number.id)).toEqual([dedicated.id, noSms.id, sip.id, callerId.id]);
    const first = all.body.data[0]!;
    expect(Object.keys(first).sort()).toEqual(
      [
        "country_code",
        "created_at",
        "has_active_subscription",
        "id",
        "phone_number",
        "region",
        "sms_capable",
        "type",
        "type_label",
      ].sort(),
    );
    expect(first).toMatchObject({
      phone_number: dedicated.phoneNumber,
      country_code: "US",
      type: "normal",
      type_label: "Dedicated Number",
      sms_capable: true,
      has_active_subscription: true,
    });
    expect(first.created_at).toMatch(FORMAT_A);
    expect(
      all.body.data
        .slice(2)
        .map((number) => [number.type, number.type_label, number.has_active_subscription]),
    ).toEqual([
      ["sip", "SIP", false],
      ["caller_id", "Caller ID", false],
    ]);

    const legacy = await t.rest<{ data: RestNumber[] }>("GET", "/api/user/phone-numbers", {
      token: account.apiKey,
    });
    expect(legacy.body.data.map((number) => number.id)).toEqual([dedicated.id]);
  });

  it("never shows another account's numbers", async () => {
    const bobsNumber = await fixtures.addNumber(bob);
    expect((await listAll(alice)).map((number) => number.id)).not.toContain(bobsNumber.id);
    expect((await listAll(bob)).map((number) => number.id)).toContain(bobsNumber.id);
  });
});

describe("release", () => {
  it("removes a SIP number at once, unassigning assistants and campaign rotations but keeping call history", async () => {
    const account = await t.createAccount();
    const sip = await fixtures.addNumber(account, { kind: "sip", sipUri: "sip:desk@pbx.example.com" });
    const other = await fixtures.addNumber(account);
    const assistant = await createAssistant(t, account, { phoneNumberId: sip.id });
    const campaign = await fixtures.createCampaign(account, { phoneNumberIds: [sip.id, other.id] });
    const call = await fixtures.startCall(account, {
      assistantId: assistant.id,
      type: "inbound",
      clientPhoneNumber: uniqueUsNumber(),
    });

    const released = await t.rest("DELETE", `/api/user/phone-numbers/${sip.id}`, { token: account.apiKey });
    expect(released).toMatchObject({ status: 200, body: { message: "Phone number released successfully." } });
    expect((await listAll(account)).map((number) => number.id)).toEqual([other.id]);
    expect((await t.app.services.assistants.get(account.accountId, assistant.id)).phoneNumberId).toBeNull();
    const rotation = await t.gql<{ campaign: { phoneNumbers: { id: number }[] } }>(
      `query($id: Int!) { campaign(id: $id) { phoneNumbers { id } } }`,
      { id: campaign.id },
      { token: account.apiKey },
    );
    expect(rotation.data!.campaign.phoneNumbers).toEqual([{ id: other.id }]);
    const calls = await t.rest<{ data: { id: number; assistant_phone_number: string }[] }>(
      "GET",
      "/api/user/calls",
      {
        token: account.apiKey,
      },
    );
    expect(calls.body.data).toEqual([
      expect.objectContaining({ id: call.id, assistant_phone_number: sip.phoneNumber }),
    ]);
    expect(await providerOperations(sip.phoneNumber)).toEqual([]);
    expect(
      (await t.rest("DELETE", `/api/user/phone-numbers/${sip.id}`, { token: account.apiKey })).status,
    ).toBe(404);
  });

  it("removes a caller ID at once and from the provider", async () => {
    const account = await t.createAccount();
    const callerId = await fixtures.addNumber(account, { kind: "caller_id" });
    const response = await t.gql<{ releasePhoneNumber: { releasedNow: boolean; releasesAt: null } }>(
      `mutation($id: Int!) { releasePhoneNumber(id: $id) { releasedNow releasesAt } }`,
      { id: callerId.id },
      { token: account.apiKey },
    );
    expect(response.data!.releasePhoneNumber).toEqual({ releasedNow: true, releasesAt: null });
    expect((await providerOperations(callerId.phoneNumber)).map((operation) => operation.operation)).toEqual([
      "add_caller_id",
      "caller_id_verification_call",
      "remove_caller_id",
    ]);
    expect(await listAll(account)).toEqual([]);
  });

  it("cancels a dedicated number's subscription and releases it only when the billing period ends", async () => {
    const account = await t.createAccount();
    const dedicated = await fixtures.addNumber(account);
    const assistant = await createAssistant(t, account, { phoneNumberId: dedicated.id });
    const campaign = await fixtures.createCampaign(account, { phoneNumberIds: [dedicated.id] });
    const call = await fixtures.startCall(account, {
      assistantId: assistant.id,
      type: "inbound",
      clientPhoneNumber: uniqueUsNumber(),
    });

    const response = await t.rest<{ message: string }>("DELETE", `/api/user/phone-numbers/${dedicated.id}`, {
      token: account.apiKey,
    });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe(
      `Phone number subscription cancelled. The number stays active until ${dedicated
        .billingPeriodEnd!.toISOString()
        .slice(0, 23)}000Z, then it is released.`,
    );
    // Still working until the period ends: listed, assigned, in rotation; no longer paid for.
    expect(await listAll(account)).toEqual([
      expect.objectContaining({ id: dedicated.id, has_active_subscription: false }),
    ]);
    const legacy = await t.rest<{ data: RestNumber[] }>("GET", "/api/user/phone-numbers", {
      token: account.apiKey,
    });
    expect(legacy.body.data).toEqual([]);
    expect((await t.app.services.assistants.get(account.accountId, assistant.id)).phoneNumberId).toBe(
      dedicated.id,
    );
    expect((await providerOperations(dedicated.phoneNumber)).map((operation) => operation.operation)).toEqual(
      ["purchase_number", "cancel_subscription"],
    );

    const twice = await t.rest("DELETE", `/api/user/phone-numbers/${dedicated.id}`, {
      token: account.apiKey,
    });
    expect(twice).toMatchObject({
      status: 409,
      body: { message: "The phone number is already scheduled for release." },
    });

    const sweep = t.app.services.phoneNumberReleases;
    const justBefore = new Date(dedicated.billingPeriodEnd!.getTime() - 1000);
    expect(await sweep.sweep(justBefore)).not.toContain(dedicated.id);
    expect(await sweep.sweep(dedicated.billingPeriodEnd!)).toContain(dedicated.id);

    expect(await listAll(account)).toEqual([]);
    expect((await t.app.services.assistants.get(account.accountId, assistant.id)).phoneNumberId).toBeNull();
    expect((await t.app.services.campaigns.get(account.accountId, campaign.id)).phoneNumbers).toEqual([]);
    expect((await t.app.services.callQueries.get(account.accountId, call.id)).assistantPhoneNumber).toBe(
      dedicated.phoneNumber,
    );
    expect((await providerOperations(dedicated.phoneNumber)).map((operation) => operation.operation)).toEqual(
      ["purchase_number", "cancel_subscription", "release_number"],
    );
    // A second sweep finds nothing left to do.
    expect(await sweep.sweep(new Date(dedicated.billingPeriodEnd!.getTime() + 60_000))).not.toContain(
      dedicated.id,
    );
  });

  it("answers another account's number, an unknown id and a non-numeric id with 404", async () => {
    const alicesNumber = await fixtures.addNumber(alice);
    const stolen = await t.rest("DELETE", `/api/user/phone-numbers/${alicesNumber.id}`, {
      token: bob.apiKey,
    });
    expect(stolen).toMatchObject({ status: 404, body: { message: "Phone number not found." } });
    const graphql = await t.gql(
      `mutation($id: Int!) { releasePhoneNumber(id: $id) { releasedNow } }`,
      { id: alicesNumber.id },
      { token: bob.apiKey },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const single = await t.gql(
      `query($id: Int!) { phoneNumber(id: $id) { id } }`,
      { id: alicesNumber.id },
      { token: bob.apiKey },
    );
    expect(single.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect((await listAll(alice)).map((number) => number.id)).toContain(alicesNumber.id);
    expect((await t.rest("DELETE", "/api/user/phone-numbers/99999999", { token: alice.apiKey })).status).toBe(
      404,
    );
    expect((await t.rest("DELETE", "/api/user/phone-numbers/abc", { token: alice.apiKey })).status).toBe(404);
    expect((await t.rest("GET", "/api/user/phone-numbers/all")).status).toBe(401);
  });
});

describe("scheduled release across a restart", () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it("releases a number whose period ended while the server was down, as soon as a new server starts", async () => {
    const database = await durableDatabase();
    cleanups.push(() => database.drop());
    const first = await startTestApp({ database: database.first });
    const owner = await first.createAccount();
    const dedicated = await telephonyFixtures(first).addNumber(owner);
    const assistant = await createAssistant(first, owner, { phoneNumberId: dedicated.id });
    expect(
      (await first.rest("DELETE", `/api/user/phone-numbers/${dedicated.id}`, { token: owner.apiKey })).status,
    ).toBe(200);
    // The paid period runs out while no server is running.
    await first.app.db.prisma.phoneNumber.update({
      where: { id: dedicated.id },
      data: { billingPeriodEnd: new Date(Date.now() - 1000) },
    });
    await first.close();

    const second = await startTestApp({ database: database.next });
    try {
      await expect
        .poll(
          async () =>
            (await second.app.db.prisma.phoneNumber.findUniqueOrThrow({ where: { id: dedicated.id } }))
              .releasedAt,
          {
            timeout: 10_000,
          },
        )
        .not.toBeNull();
      const listed = await second.rest<{ data: unknown[] }>("GET", "/api/user/phone-numbers/all", {
        token: owner.apiKey,
      });
      expect(listed.body.data).toEqual([]);
      const after = await second.app.db.prisma.assistant.findUniqueOrThrow({ where: { id: assistant.id } });
      expect(after.phoneNumberId).toBeNull();
    } finally {
      await second.close();
    }
  });
});
