import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { ManualClock, startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import type { Assistant } from "../../generated/prisma/client.ts";

/** Transfer destinations through GraphQL: validation, tenant isolation, and which are open when. */

// Wednesday 2026-03-04 10:00 in Berlin.
const clock = new ManualClock("2026-03-04T09:00:00Z");
let t: TestApp;
let owner: TestAccount;
let stranger: TestAccount;
let assistant: Assistant;

beforeAll(async () => {
  t = await startTestApp({ clock });
  owner = await t.createAccount();
  stranger = await t.createAccount();
  assistant = await createAssistant(t, owner, { timezone: "Europe/Berlin" });
});

afterAll(async () => {
  await t?.close();
});

const FIELDS = `id assistantId name phoneNumber sipUri description mode timezone briefingInstructions openNow
  businessHours { mon { start end } sat { start end } }`;
const CREATE = `mutation ($input: CreateTransferDestinationInput!) { createTransferDestination(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation ($id: Int!, $input: UpdateTransferDestinationInput!) {
  updateTransferDestination(id: $id, input: $input) { ${FIELDS} }
}`;

interface Destination {
  id: number;
  phoneNumber: string | null;
  sipUri: string | null;
  mode: string;
  timezone: string;
  openNow: boolean;
  businessHours: { mon: { start: string; end: string }[]; sat: unknown[] } | null;
}

const gql = <Data>(query: string, variables: Record<string, unknown>, account = owner) =>
  t.gql<Data>(query, variables, { token: account.apiKey });

const create = (input: Record<string, unknown>, account = owner) =>
  gql<{ createTransferDestination: Destination }>(
    CREATE,
    {
      input: {
        assistantId: assistant.id,
        name: "Front desk",
        description: "People at the front desk.",
        ...input,
      },
    },
    account,
  );

const weekdays = Object.fromEntries(
  ["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ start: "09:00", end: "17:00" }]]),
);

describe("transfer destinations", () => {
  it("creates a cold phone destination in the assistant's zone, always open without hours", async () => {
    const created = await create({ phoneNumber: "+4930901820" });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createTransferDestination).toMatchObject({
      assistantId: assistant.id,
      phoneNumber: "+4930901820",
      sipUri: null,
      mode: "cold",
      timezone: "Europe/Berlin",
      businessHours: null,
      briefingInstructions: "",
      openNow: true,
    });
  });

  it("creates a warm SIP destination with business hours and briefing instructions", async () => {
    const created = await create({
      name: "Billing",
      sipUri: "sip:billing@pbx.example.com;transport=tls",
      mode: "warm",
      timezone: "Europe/Berlin",
      businessHours: weekdays,
      briefingInstructions: "Say the invoice number first.",
    });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createTransferDestination).toMatchObject({
      sipUri: "sip:billing@pbx.example.com;transport=tls",
      mode: "warm",
      openNow: true,
      businessHours: { mon: [{ start: "09:00", end: "17:00" }], sat: [] },
    });
  });

  it("refuses bad input field by field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ phoneNumber: "030 901820" }, "phoneNumber"],
      [{ phoneNumber: "+19005550123" }, "phoneNumber"], // premium rate
      [{ sipUri: "http://pbx.example.com" }, "sipUri"],
      [{}, "phoneNumber"], // neither
      [{ phoneNumber: "+4930901820", sipUri: "sip:a@b.example" }, "phoneNumber"], // both
      [{ phoneNumber: "+4930901820", timezone: "Berlin" }, "timezone"],
      [
        { phoneNumber: "+4930901820", businessHours: { mon: [{ start: "17:00", end: "09:00" }] } },
        "businessHours",
      ],
      [{ phoneNumber: "+4930901820", description: " " }, "description"],
    ];
    for (const [input, field] of cases) {
      const response = await create(input);
      expect(response.errors?.[0]?.extensions?.code, JSON.stringify(input)).toBe("VALIDATION_FAILED");
      const fields = response.errors![0]!.extensions!.fields as Record<string, string[]>;
      expect(
        Object.keys(fields).some((key) => key.startsWith(field)),
        JSON.stringify(fields),
      ).toBe(true);
    }
  });

  it("keeps accounts apart", async () => {
    const foreign = await create({ phoneNumber: "+4930901820" }, stranger);
    expect(foreign.errors?.[0]?.extensions?.code).toBe("ASSISTANT_NOT_FOUND");
    const mine = (await create({ phoneNumber: "+4930901821" })).data!.createTransferDestination;
    const update = await gql(UPDATE, { id: mine.id, input: { name: "Mine" } }, stranger);
    expect(update.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const remove = await gql(
      `mutation ($id: Int!) { deleteTransferDestination(id: $id) }`,
      { id: mine.id },
      stranger,
    );
    expect(remove.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const list = await gql<{ transferDestinations: unknown[] }>(
      `query ($assistantId: Int!) { transferDestinations(assistantId: $assistantId) { id } }`,
      { assistantId: assistant.id },
      stranger,
    );
    expect(list.errors?.[0]?.extensions?.code).toBe("ASSISTANT_NOT_FOUND");
  });

  it("updates: switches from number to SIP, clears the hours, deletes", async () => {
    const created = (await create({ phoneNumber: "+4930901822", businessHours: weekdays })).data!
      .createTransferDestination;
    const onlyOne = await gql(UPDATE, { id: created.id, input: { sipUri: "sip:desk@pbx.example.com" } });
    expect(onlyOne.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const switched = await gql<{ updateTransferDestination: Destination }>(UPDATE, {
      id: created.id,
      input: { phoneNumber: null, sipUri: "sip:desk@pbx.example.com", businessHours: null, mode: "warm" },
    });
    expect(switched.errors).toBeUndefined();
    expect(switched.data!.updateTransferDestination).toMatchObject({
      phoneNumber: null,
      sipUri: "sip:desk@pbx.example.com",
      businessHours: null,
      mode: "warm",
    });
    const removed = await gql<{ deleteTransferDestination: number }>(
      `mutation ($id: Int!) { deleteTransferDestination(id: $id) }`,
      { id: created.id },
    );
    expect(removed.data!.deleteTransferDestination).toBe(created.id);
  });

  it("offers only the destinations open now", async () => {
    const other = await createAssistant(t, owner, { timezone: "Europe/Berlin" });
    const always = await t.app.services.transferDestinations.create(owner.accountId, {
      assistantId: other.id,
      name: "Always",
      description: "Any time.",
      phoneNumber: "+4930901823",
    });
    const office = await t.app.services.transferDestinations.create(owner.accountId, {
      assistantId: other.id,
      name: "Office",
      description: "Office hours.",
      phoneNumber: "+4930901824",
      businessHours: weekdays,
    });
    const names = async (at: string) =>
      (await t.app.services.transferDestinations.openNow(owner.accountId, other.id, new Date(at))).map(
        (destination) => destination.name,
      );
    expect(await names("2026-03-04T09:00:00Z")).toEqual([always.name, office.name]); // Wednesday 10:00
    expect(await names("2026-03-07T09:00:00Z")).toEqual([always.name]); // Saturday
    clock.set("2026-03-04T18:00:00Z"); // Wednesday 19:00 in Berlin
    const listed = await gql<{ transferDestinations: { name: string; openNow: boolean }[] }>(
      `query ($assistantId: Int!) { transferDestinations(assistantId: $assistantId) { name openNow } }`,
      { assistantId: other.id },
    );
    expect(listed.data!.transferDestinations).toEqual([
      { name: "Always", openNow: true },
      { name: "Office", openNow: false },
    ]);
    expect(await t.app.services.transferDestinations.openNow(stranger.accountId, other.id)).toEqual([]);
  });
});
