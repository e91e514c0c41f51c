import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { findRadicale, type RunningRadicale, startRadicale } from "../../../test/support/radicale.ts";
import { ManualClock, startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { CalDavProvider } from "../calendars/index.ts";

/**
 * Bookings against a real CalDAV server (Radicale): what Voxgate books is in the calendar, what the
 * calendar holds is not booked, and the rules (concurrency, retries, maxPerDay, time zones) hold.
 */

const PASSWORDS = {
  alice: `alice-${randomBytes(6).toString("hex")}`,
  bob: `bob-${randomBytes(6).toString("hex")}`,
};
const APPOINTMENT_FIELDS = `id status startsAt endsAt timezone customerName customerPhone customerEmail notes
  appointmentTypeId appointmentTypeName connectionId provider assistantId callId conversationId createdAt updatedAt cancelledAt`;
const BOOK = `mutation ($input: BookAppointmentInput!) { bookAppointment(input: $input) { ${APPOINTMENT_FIELDS} } }`;
const RESCHEDULE = `mutation ($id: Int!, $startsAt: DateTime!) { rescheduleAppointment(id: $id, startsAt: $startsAt) { ${APPOINTMENT_FIELDS} } }`;
const CANCEL = `mutation ($id: Int!) { cancelAppointment(id: $id) { ${APPOINTMENT_FIELDS} } }`;
const SLOTS = `query ($id: Int!, $from: DateTime!, $to: DateTime!) { availableSlots(appointmentTypeId: $id, from: $from, to: $to) { start } }`;

// Berlin: Friday 26 March 2027 is UTC+1; clocks go forward on Sunday 28 March; Monday 29 March is UTC+2.
const weekdays = Object.fromEntries(
  ["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ start: "09:00", end: "12:00" }]]),
);

type Row = Record<string, unknown> & { id: number };

describe.skipIf(!findRadicale())("bookings in a real CalDAV calendar", () => {
  let radicale: RunningRadicale;
  let calendarUrl: string;
  let t: TestApp;
  let alice: TestAccount;
  let bob: TestAccount;
  let typeId: number;
  let limitedTypeId: number;
  let connectionId: number;
  const clock = new ManualClock("2027-03-01T00:00:00Z");
  const provider = new CalDavProvider({ timeoutMs: 10_000, allowList: ["127.0.0.1"] });

  /** The events in the calendar over a window, as anyone reading it sees them. */
  const calendarEvents = (from: string, to: string) =>
    provider.busy(
      { url: calendarUrl, readUrls: [], username: "alice", secret: PASSWORDS.alice },
      { start: Date.parse(from), end: Date.parse(to) },
      "UTC",
    );
  const iso = (interval: { start: number; end: number }) => [
    new Date(interval.start).toISOString(),
    new Date(interval.end).toISOString(),
  ];

  const book = (input: Record<string, unknown>, account = alice) =>
    t.gql<{ bookAppointment: Row }>(
      BOOK,
      {
        input: {
          appointmentTypeId: typeId,
          customerName: "Ada Lovelace",
          customerPhone: "+4930123456",
          ...input,
        },
      },
      { token: account.apiKey },
    );

  beforeAll(async () => {
    radicale = await startRadicale(PASSWORDS);
    calendarUrl = await radicale.makeCalendar("alice", "bookings");
    t = await startTestApp({
      env: {
        VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
        VOXGATE_SECRETS_KEY: randomBytes(32).toString("base64"),
      },
      clock,
    });
    [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
    const calendars = t.app.services.calendars;
    const connection = await calendars.createConnection(alice.accountId, {
      name: "Practice",
      provider: "caldav",
      url: calendarUrl,
      username: "alice",
      password: PASSWORDS.alice,
    });
    connectionId = connection.id;
    const rules = { connectionId, durationMinutes: 60, timezone: "Europe/Berlin", businessHours: weekdays };
    typeId = (
      await calendars.createAppointmentType(alice.accountId, {
        ...rules,
        name: "Consultation",
        slotGranularityMinutes: 60,
        horizonDays: 366,
      })
    ).id;
    limitedTypeId = (
      await calendars.createAppointmentType(alice.accountId, {
        ...rules,
        name: "Check-up",
        durationMinutes: 30,
        slotGranularityMinutes: 30,
        horizonDays: 366,
        maxPerDay: 2,
      })
    ).id;
  });
  afterAll(async () => {
    await t?.close();
    await radicale?.stop();
  });

  it("writes the booking to the calendar and keeps its record; the slot is then neither offered nor bookable", async () => {
    const webhookAssistant = await createAssistant(t, alice, {
      appointmentTypeIds: [typeId],
      isWebhookActive: true,
      webhookUrl: "http://127.0.0.1:9/hooks",
    });
    const booked = await book({
      startsAt: "2027-03-08T08:00:00Z",
      customerEmail: "Ada@Example.com",
      notes: "First visit",
      idempotencyKey: "first",
    });
    expect(booked.errors).toBeUndefined();
    expect(booked.data!.bookAppointment).toMatchObject({
      status: "booked",
      startsAt: "2027-03-08T08:00:00.000Z",
      endsAt: "2027-03-08T09:00:00.000Z",
      timezone: "Europe/Berlin",
      customerName: "Ada Lovelace",
      customerPhone: "+4930123456",
      customerEmail: "ada@example.com",
      notes: "First visit",
      appointmentTypeId: typeId,
      appointmentTypeName: "Consultation",
      connectionId,
      provider: "caldav",
      assistantId: null,
      callId: null,
      conversationId: null,
      cancelledAt: null,
    });
    expect((await calendarEvents("2027-03-08T00:00:00Z", "2027-03-09T00:00:00Z")).map(iso)).toEqual([
      ["2027-03-08T08:00:00.000Z", "2027-03-08T09:00:00.000Z"],
    ]);

    // Booked through the API: the assistants offering the type hear of it.
    const events = await t.app.db.prisma.webhookEvent.findMany({
      where: { accountId: alice.accountId, type: "appointment.booked" },
    });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      assistantId: webhookAssistant.id,
      streamKey: `appointment:${booked.data!.bookAppointment.id}`,
    });
    expect((events[0]!.payload as { data: Record<string, unknown> }).data).toMatchObject({
      id: booked.data!.bookAppointment.id,
      status: "booked",
      starts_at: "2027-03-08T08:00:00.000Z",
      appointment_type_name: "Consultation",
      customer_email: "ada@example.com",
    });

    const slots = await t.gql<{ availableSlots: { start: string }[] }>(
      SLOTS,
      { id: typeId, from: "2027-03-08T00:00:00Z", to: "2027-03-09T00:00:00Z" },
      { token: alice.apiKey },
    );
    expect(slots.data!.availableSlots.map((slot) => slot.start)).toEqual([
      "2027-03-08T09:00:00.000Z",
      "2027-03-08T10:00:00.000Z",
    ]);
    const again = await book({ startsAt: "2027-03-08T08:00:00Z", customerName: "Someone Else" });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: "SLOT_UNAVAILABLE", reason: "taken" });
    expect(await calendarEvents("2027-03-08T00:00:00Z", "2027-03-09T00:00:00Z")).toHaveLength(1);
  });

  it("returns the same booking for a retried idempotency key, and writes one event", async () => {
    const first = await book({ startsAt: "2027-03-09T08:00:00Z", idempotencyKey: "retry-me" });
    const retried = await book({ startsAt: "2027-03-09T08:00:00Z", idempotencyKey: "retry-me" });
    expect(retried.data!.bookAppointment).toEqual(first.data!.bookAppointment);
    expect(await calendarEvents("2027-03-09T00:00:00Z", "2027-03-10T00:00:00Z")).toHaveLength(1);
    const otherSlot = await book({ startsAt: "2027-03-09T09:00:00Z", idempotencyKey: "retry-me" });
    expect(otherSlot.errors?.[0]?.extensions).toMatchObject({ code: "CONFLICT" });
    expect(
      await t.app.db.prisma.appointment.count({
        where: { accountId: alice.accountId, idempotencyKey: "retry-me" },
      }),
    ).toBe(1);
  });

  it("lets exactly one of two concurrent bookings of a slot win", async () => {
    const results = await Promise.all([
      book({ startsAt: "2027-03-10T08:00:00Z", customerName: "First", idempotencyKey: "race-a" }),
      book({ startsAt: "2027-03-10T08:00:00Z", customerName: "Second", idempotencyKey: "race-b" }),
      book({ startsAt: "2027-03-10T08:00:00Z", customerName: "Third" }),
    ]);
    expect(results.filter((result) => result.data?.bookAppointment)).toHaveLength(1);
    expect(
      results.filter((result) => result.errors?.[0]?.extensions?.code === "SLOT_UNAVAILABLE"),
    ).toHaveLength(2);
    expect(await calendarEvents("2027-03-10T00:00:00Z", "2027-03-11T00:00:00Z")).toHaveLength(1);
    expect(
      await t.app.db.prisma.appointment.count({
        where: { accountId: alice.accountId, startsAt: new Date("2027-03-10T08:00:00Z") },
      }),
    ).toBe(1);
  });

  it("re-checks the calendar itself: a time another client took is refused and nothing is recorded", async () => {
    await radicale.putObject(
      calendarUrl,
      "dentist.ics",
      [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Test//EN",
        "BEGIN:VEVENT",
        "UID:dentist",
        "DTSTAMP:20270301T000000Z",
        "DTSTART;TZID=Europe/Berlin:20270311T090000",
        "DTEND;TZID=Europe/Berlin:20270311T100000",
        "SUMMARY:Dentist",
        "END:VEVENT",
        "END:VCALENDAR",
        "",
      ].join("\r\n"),
      "alice",
    );
    const taken = await book({ startsAt: "2027-03-11T08:00:00Z", idempotencyKey: "taken-elsewhere" });
    expect(taken.errors?.[0]?.extensions).toMatchObject({ code: "SLOT_UNAVAILABLE", reason: "taken" });
    const closed = await book({ startsAt: "2027-03-11T13:00:00Z" });
    expect(closed.errors?.[0]?.extensions).toMatchObject({ code: "SLOT_UNAVAILABLE", reason: "closed" });
    const offGrid = await book({ startsAt: "2027-03-11T09:30:00Z" });
    expect(offGrid.errors?.[0]?.extensions).toMatchObject({ code: "SLOT_UNAVAILABLE", reason: "closed" });
    expect(
      await t.app.db.prisma.appointment.count({
        where: {
          accountId: alice.accountId,
          startsAt: { gte: new Date("2027-03-11T00:00:00Z"), lt: new Date("2027-03-12T00:00:00Z") },
        },
      }),
    ).toBe(0);
  });

  it("holds a slot while it is being booked, and lets a claim left by a crash lapse", async () => {
    const claim = (startsAt: string, ageMinutes: number, key: string) =>
      t.app.db.prisma.appointment.create({
        data: {
          accountId: alice.accountId,
          appointmentTypeId: typeId,
          appointmentTypeName: "Consultation",
          timezone: "Europe/Berlin",
          connectionId,
          provider: "caldav",
          externalId: "",
          startsAt: new Date(startsAt),
          endsAt: new Date(Date.parse(startsAt) + 3_600_000),
          status: "pending",
          customerName: "In flight",
          idempotencyKey: key,
          createdAt: new Date(clock.now().getTime() - ageMinutes * 60_000),
        },
      });
    await claim("2027-03-16T08:00:00Z", 0, "in-flight");
    await claim("2027-03-16T09:00:00Z", 3, "crashed");
    const held = await book({ startsAt: "2027-03-16T08:00:00Z" });
    expect(held.errors?.[0]?.extensions).toMatchObject({ code: "SLOT_UNAVAILABLE", reason: "taken" });
    const sameKey = await book({ startsAt: "2027-03-16T08:00:00Z", idempotencyKey: "in-flight" });
    expect(sameKey.errors?.[0]?.extensions).toMatchObject({ code: "CONFLICT" });
    const lapsed = await book({ startsAt: "2027-03-16T09:00:00Z" });
    expect(lapsed.errors).toBeUndefined();
    // Claims are never shown.
    const listed = await t.gql<{ appointments: { items: Row[] } }>(
      `{ appointments(perPage: 100) { items { customerName } } }`,
      {},
      { token: alice.apiKey },
    );
    expect(listed.data!.appointments.items.map((item) => item.customerName)).not.toContain("In flight");
  });

  it("enforces maxPerDay on the type's local day", async () => {
    // 09:00 and 09:30 Berlin on Friday 12 March fill the day (maxPerDay 2).
    for (const startsAt of ["2027-03-12T08:00:00Z", "2027-03-12T08:30:00Z"]) {
      const result = await book({ appointmentTypeId: limitedTypeId, startsAt });
      expect(result.errors).toBeUndefined();
    }
    const third = await book({ appointmentTypeId: limitedTypeId, startsAt: "2027-03-12T10:00:00Z" });
    expect(third.errors?.[0]?.extensions).toMatchObject({ code: "SLOT_UNAVAILABLE", reason: "day_full" });
    const slots = await t.gql<{ availableSlots: { start: string }[] }>(
      SLOTS,
      { id: limitedTypeId, from: "2027-03-12T00:00:00Z", to: "2027-03-16T00:00:00Z" },
      { token: alice.apiKey },
    );
    const starts = slots.data!.availableSlots.map((slot) => slot.start);
    expect(starts.some((start) => start.startsWith("2027-03-12"))).toBe(false);
    expect(starts[0]).toBe("2027-03-15T08:00:00.000Z");
    const nextDay = await book({ appointmentTypeId: limitedTypeId, startsAt: "2027-03-15T08:00:00Z" });
    expect(nextDay.errors).toBeUndefined();
  });

  it("books local business hours on both sides of a daylight-saving change", async () => {
    // 09:00 Berlin is 08:00 UTC on Friday 26 March and 07:00 UTC on Monday 29 March.
    const friday = await book({ startsAt: "2027-03-26T08:00:00Z" });
    const monday = await book({ startsAt: "2027-03-29T07:00:00Z" });
    expect(friday.errors).toBeUndefined();
    expect(monday.errors).toBeUndefined();
    const wrongHour = await book({ startsAt: "2027-03-29T06:00:00Z" });
    expect(wrongHour.errors?.[0]?.extensions).toMatchObject({ reason: "closed" });
    expect((await calendarEvents("2027-03-26T00:00:00Z", "2027-03-30T00:00:00Z")).map(iso)).toEqual([
      ["2027-03-26T08:00:00.000Z", "2027-03-26T09:00:00.000Z"],
      ["2027-03-29T07:00:00.000Z", "2027-03-29T08:00:00.000Z"],
    ]);
  });

  it("moves the event on reschedule and removes it on cancel, announcing both", async () => {
    const booked = (await book({ startsAt: "2027-03-17T08:00:00Z", idempotencyKey: "to-move" })).data!
      .bookAppointment;
    await book({ startsAt: "2027-03-17T10:00:00Z", customerName: "Blocker" });

    const ontoTaken = await t.gql(
      RESCHEDULE,
      { id: booked.id, startsAt: "2027-03-17T10:00:00Z" },
      { token: alice.apiKey },
    );
    expect(ontoTaken.errors?.[0]?.extensions).toMatchObject({ code: "SLOT_UNAVAILABLE" });

    const moved = await t.gql<{ rescheduleAppointment: Row }>(
      RESCHEDULE,
      { id: booked.id, startsAt: "2027-03-17T09:00:00Z" },
      { token: alice.apiKey },
    );
    expect(moved.errors).toBeUndefined();
    expect(moved.data!.rescheduleAppointment).toMatchObject({
      id: booked.id,
      status: "booked",
      startsAt: "2027-03-17T09:00:00.000Z",
      endsAt: "2027-03-17T10:00:00.000Z",
    });
    expect((await calendarEvents("2027-03-17T00:00:00Z", "2027-03-18T00:00:00Z")).map(iso)).toEqual([
      ["2027-03-17T09:00:00.000Z", "2027-03-17T10:00:00.000Z"],
      ["2027-03-17T10:00:00.000Z", "2027-03-17T11:00:00.000Z"],
    ]);
    // Its old time is free again.
    const reuse = await book({ startsAt: "2027-03-17T08:00:00Z", customerName: "Next" });
    expect(reuse.errors).toBeUndefined();

    const cancelled = await t.gql<{ cancelAppointment: Row }>(
      CANCEL,
      { id: booked.id },
      { token: alice.apiKey },
    );
    expect(cancelled.data!.cancelAppointment).toMatchObject({ status: "cancelled" });
    expect(cancelled.data!.cancelAppointment.cancelledAt).toBe(clock.now().toISOString());
    expect((await calendarEvents("2027-03-17T09:00:00Z", "2027-03-17T10:00:00Z")).map(iso)).toEqual([]);
    const twice = await t.gql<{ cancelAppointment: Row }>(CANCEL, { id: booked.id }, { token: alice.apiKey });
    expect(twice.data!.cancelAppointment).toEqual(cancelled.data!.cancelAppointment);
    const cannotMove = await t.gql(
      RESCHEDULE,
      { id: booked.id, startsAt: "2027-03-18T08:00:00Z" },
      { token: alice.apiKey },
    );
    expect(cannotMove.errors?.[0]?.extensions).toMatchObject({ code: "CONFLICT" });

    const types = await t.app.db.prisma.webhookEvent.findMany({
      where: { streamKey: `appointment:${booked.id}` },
      orderBy: { id: "asc" },
    });
    expect(types.map((event) => event.type)).toEqual([
      "appointment.booked",
      "appointment.rescheduled",
      "appointment.cancelled",
    ]);
    expect((types[1]!.payload as { data: Record<string, unknown> }).data).toMatchObject({
      starts_at: "2027-03-17T09:00:00.000Z",
      previous_starts_at: "2027-03-17T08:00:00.000Z",
    });
  });

  it("records nothing when the calendar refuses the write", async () => {
    await t.app.db.prisma.calendarConnection.update({
      where: { id: connectionId },
      data: { url: `${radicale.url}/alice/gone/` },
    });
    try {
      const failed = await book({ startsAt: "2027-03-18T08:00:00Z", idempotencyKey: "refused" });
      expect(failed.errors?.[0]?.extensions).toMatchObject({
        code: "CALENDAR_CONNECTION_FAILED",
        reason: "not_found",
      });
      expect(await t.app.db.prisma.appointment.count({ where: { idempotencyKey: "refused" } })).toBe(0);
    } finally {
      await t.app.db.prisma.calendarConnection.update({
        where: { id: connectionId },
        data: { url: calendarUrl },
      });
    }
    const retried = await book({ startsAt: "2027-03-18T08:00:00Z", idempotencyKey: "refused" });
    expect(retried.errors).toBeUndefined();
  });

  it("lists and shows the account's appointments, and keeps them from other accounts", async () => {
    const list = await t.gql<{ appointments: { items: Row[]; pageInfo: Record<string, number> } }>(
      `query ($filter: AppointmentFilter) { appointments(filter: $filter, perPage: 100) { items { id status startsAt } pageInfo { total currentPage perPage lastPage } } }`,
      { filter: { status: "cancelled" } },
      { token: alice.apiKey },
    );
    expect(list.data!.appointments.items.length).toBeGreaterThan(0);
    expect(list.data!.appointments.items.every((item) => item.status === "cancelled")).toBe(true);
    const all = await t.gql<{ appointments: { items: Row[] } }>(
      `{ appointments(perPage: 100) { items { id startsAt } } }`,
      {},
      { token: alice.apiKey },
    );
    const starts = all.data!.appointments.items.map((item) => item.startsAt as string);
    expect(starts).toEqual([...starts].sort());
    const one = all.data!.appointments.items[0]!;

    const bobs = await t.gql<{ appointments: { items: Row[] }; appointment: Row | null }>(
      `query ($id: Int!) { appointments { items { id } } appointment(id: $id) { id } }`,
      { id: one.id },
      { token: bob.apiKey },
    );
    expect(bobs.data).toEqual({ appointments: { items: [] }, appointment: null });
    for (const [query, variables] of [
      [CANCEL, { id: one.id }],
      [RESCHEDULE, { id: one.id, startsAt: "2027-04-05T08:00:00Z" }],
    ] as const) {
      const refused = await t.gql(query, variables, { token: bob.apiKey });
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    }
    const bookOthers = await book({ startsAt: "2027-04-05T08:00:00Z" }, bob);
    expect(bookOthers.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    const linkOthers = await t.gql(
      `mutation ($input: CreateAssistantInput!) { createAssistant(input: $input) { id } }`,
      { input: { name: "Bob's", appointmentTypeIds: [typeId] } },
      { token: bob.apiKey },
    );
    expect(linkOthers.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    const still = await t.gql<{ appointment: Row }>(
      `query ($id: Int!) { appointment(id: $id) { id status } }`,
      { id: one.id },
      { token: alice.apiKey },
    );
    expect(still.data!.appointment.id).toBe(one.id);
  });

  it("answers the REST routes with the documented statuses and bodies", async () => {
    const rest = <Body = Record<string, unknown>>(
      method: string,
      path: string,
      body?: unknown,
      account = alice,
    ) => t.rest<Body>(method, `/api${path}`, { token: account.apiKey, body });
    const created = await rest<{ message: string; data: Row }>("POST", "/user/appointments", {
      appointment_type_id: typeId,
      starts_at: "2027-04-06T08:00:00Z",
      customer_name: "Rest Client",
      customer_email: "rest@example.com",
      idempotency_key: "rest-1",
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Appointment booked successfully.");
    expect(created.body.data).toMatchObject({
      status: "booked",
      starts_at: "2027-04-06T08:00:00.000Z",
      ends_at: "2027-04-06T09:00:00.000Z",
      customer_email: "rest@example.com",
      appointment_type_id: typeId,
      provider: "caldav",
      cancelled_at: null,
    });
    const id = created.body.data.id;
    const replay = await rest<{ data: Row }>("POST", "/user/appointments", {
      appointment_type_id: typeId,
      starts_at: "2027-04-06T08:00:00Z",
      customer_name: "Rest Client",
      idempotency_key: "rest-1",
    });
    expect(replay.status).toBe(201);
    expect(replay.body.data.id).toBe(id);
    const taken = await rest("POST", "/user/appointments", {
      appointment_type_id: typeId,
      starts_at: "2027-04-06T08:00:00Z",
      customer_name: "Too Late",
    });
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({ message: "That time is already booked." });
    const invalid = await rest<{ errors: Record<string, string[]> }>("POST", "/user/appointments", {
      appointment_type_id: typeId,
      starts_at: "2027-04-06T09:00:00Z",
      customer_name: "",
    });
    expect(invalid.status).toBe(422);
    expect(Object.keys(invalid.body.errors)).toEqual(["customer_name"]);

    expect((await rest("GET", `/user/appointments/${id}`)).body).toEqual({ data: created.body.data });
    expect((await rest("GET", `/user/appointments/${id}`, undefined, bob)).status).toBe(404);
    const page = await rest<{ data: Row[]; total: number }>(
      "GET",
      "/user/appointments?status=booked&from=2027-04-06T00:00:00Z&to=2027-04-07T00:00:00Z",
    );
    expect(page.body.data.map((item) => item.id)).toEqual([id]);
    expect(page.body.total).toBe(1);

    const moved = await rest<{ data: Row }>("POST", `/user/appointments/${id}/reschedule`, {
      starts_at: "2027-04-06T09:00:00Z",
    });
    expect(moved.status).toBe(200);
    expect(moved.body.data.starts_at).toBe("2027-04-06T09:00:00.000Z");
    expect((await rest("POST", `/user/appointments/${id}/cancel`, undefined, bob)).status).toBe(404);
    const cancelled = await rest<{ data: Row }>("POST", `/user/appointments/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data.status).toBe("cancelled");
    expect((await calendarEvents("2027-04-06T00:00:00Z", "2027-04-07T00:00:00Z")).length).toBe(0);
    const late = await rest("POST", `/user/appointments/${id}/reschedule`, {
      starts_at: "2027-04-06T11:00:00Z",
    });
    expect(late.status).toBe(409);
  });

  it("links assistants to the appointment types they book", async () => {
    const created = await t.gql<{ createAssistant: { id: number; appointmentTypeIds: number[] } }>(
      `mutation ($input: CreateAssistantInput!) { createAssistant(input: $input) { id appointmentTypeIds } }`,
      { input: { name: "Desk", appointmentTypeIds: [limitedTypeId, typeId, typeId] } },
      { token: alice.apiKey },
    );
    expect(created.data!.createAssistant.appointmentTypeIds).toEqual(
      [typeId, limitedTypeId].sort((a, b) => a - b),
    );
    const UPDATE = `mutation ($id: Int!, $input: UpdateAssistantInput!) { updateAssistant(id: $id, input: $input) { appointmentTypeIds } }`;
    const id = created.data!.createAssistant.id;
    const narrowed = await t.gql<{ updateAssistant: { appointmentTypeIds: number[] } }>(
      UPDATE,
      { id, input: { appointmentTypeIds: [typeId] } },
      { token: alice.apiKey },
    );
    expect(narrowed.data!.updateAssistant.appointmentTypeIds).toEqual([typeId]);
    const untouched = await t.gql<{ updateAssistant: { appointmentTypeIds: number[] } }>(
      UPDATE,
      { id, input: { name: "Front desk" } },
      { token: alice.apiKey },
    );
    expect(untouched.data!.updateAssistant.appointmentTypeIds).toEqual([typeId]);
    const cleared = await t.gql<{ updateAssistant: { appointmentTypeIds: number[] } }>(
      UPDATE,
      { id, input: { appointmentTypeIds: null } },
      { token: alice.apiKey },
    );
    expect(cleared.data!.updateAssistant.appointmentTypeIds).toEqual([]);
  });

  it("rejects bad input with field messages", async () => {
    const bad = await book({
      startsAt: "2027-04-05T08:00:00Z",
      customerName: " ",
      customerPhone: "0301234",
      customerEmail: "nope",
    });
    expect(bad.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    expect(Object.keys(bad.errors![0]!.extensions!.fields as object).sort()).toEqual([
      "customerEmail",
      "customerName",
      "customerPhone",
    ]);
  });
});
