import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findRadicale, type RunningRadicale, startRadicale } from "../../../test/support/radicale.ts";
import { getFreePort } from "../../../test/support/services.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { createLogger } from "../../logger.ts";
import { SecretBox } from "../../secret-box.ts";
import { CalDavProvider } from "./caldav.ts";
import { CalendarProviderError } from "./provider.ts";

const PASSWORDS = {
  alice: `alice-${randomBytes(6).toString("hex")}`,
  bob: `bob-${randomBytes(6).toString("hex")}`,
};
const secretsKey = randomBytes(32);

const CONNECTION_FIELDS = "id name provider url readUrls username status lastError checkedAt createdAt";
const CREATE_CONNECTION = `mutation ($input: CreateCalendarConnectionInput!) {
  createCalendarConnection(input: $input) { ${CONNECTION_FIELDS} }
}`;
const CREATE_TYPE = `mutation ($input: CreateAppointmentTypeInput!) {
  createAppointmentType(input: $input) { id timezone businessHours { mon { start end } tue { start end } } }
}`;
const SLOTS = `query ($id: Int!, $from: DateTime!, $to: DateTime!) {
  availableSlots(appointmentTypeId: $id, from: $from, to: $to) { start end }
}`;

// Monday 4 January 2027, Berlin (UTC+1): business hours 09:00-12:00 are 08:00-11:00 UTC.
const MONDAY = { from: "2027-01-04T00:00:00Z", to: "2027-01-05T00:00:00Z" };
const berlinMornings = { mon: [{ start: "09:00", end: "12:00" }], tue: [{ start: "09:00", end: "12:00" }] };

const vevent = (uid: string, start: string, end: string, extra: string[] = []) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Test//EN",
    "BEGIN:VEVENT",
    `UID:${uid}`,
    "DTSTAMP:20261101T000000Z",
    `DTSTART;TZID=Europe/Berlin:${start}`,
    `DTEND;TZID=Europe/Berlin:${end}`,
    "SUMMARY:Dentist",
    ...extra,
    "END:VEVENT",
    "END:VCALENDAR",
    "",
  ].join("\r\n");

describe.skipIf(!findRadicale())("calendar connections over CalDAV (a real Radicale server)", () => {
  let radicale: RunningRadicale;
  let calendarUrl: string;
  let t: TestApp;
  let alice: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    radicale = await startRadicale(PASSWORDS);
    calendarUrl = await radicale.makeCalendar("alice", "work");
    t = await startTestApp({
      env: { VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1", VOXGATE_SECRETS_KEY: secretsKey.toString("base64") },
    });
    [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
  });
  afterAll(async () => {
    await t?.close();
    await radicale?.stop();
  });

  const connect = (account: TestAccount, overrides: Record<string, unknown> = {}) =>
    t.gql<{ createCalendarConnection: Record<string, unknown> }>(
      CREATE_CONNECTION,
      {
        input: {
          name: "Work",
          provider: "caldav",
          url: calendarUrl,
          username: "alice",
          password: PASSWORDS.alice,
          ...overrides,
        },
      },
      { token: account.apiKey },
    );

  it("refuses a connection the server refuses, naming what was refused, and stores nothing", async () => {
    const wrongPassword = await connect(alice, { password: "not-the-password" });
    expect(wrongPassword.errors?.[0]?.extensions).toMatchObject({
      code: "CALENDAR_CONNECTION_FAILED",
      reason: "unauthorized",
      status: 401,
      url: calendarUrl,
    });
    expect(wrongPassword.errors?.[0]?.message).toBe(
      `CalDAV: the calendar server refused the username or password (HTTP 401): ${calendarUrl}.`,
    );

    const missing = await connect(alice, { url: `${radicale.url}/alice/no-such-calendar/` });
    expect(missing.errors?.[0]?.extensions).toMatchObject({ reason: "not_found", status: 404 });

    const notACalendar = await connect(alice, { url: `${radicale.url}/alice/` });
    expect(notACalendar.errors?.[0]?.extensions).toMatchObject({ reason: "not_a_calendar" });
    expect(notACalendar.errors?.[0]?.message).toContain("not a calendar collection");

    const closedPort = await connect(alice, { url: `http://127.0.0.1:${await getFreePort()}/alice/work/` });
    expect(closedPort.errors?.[0]?.extensions).toMatchObject({ reason: "unreachable" });

    // A private address outside the allow-list is refused before any connection (SSRF guard).
    const internal = await connect(alice, { url: "http://10.0.0.1/alice/work/" });
    expect(internal.errors?.[0]?.extensions).toMatchObject({ reason: "blocked_address" });

    const readOther = await connect(alice, { readUrls: [`${radicale.url}/bob/private/`] });
    expect(readOther.errors?.[0]?.extensions).toMatchObject({ code: "CALENDAR_CONNECTION_FAILED" });

    expect(await t.app.db.prisma.calendarConnection.count()).toBe(0);
  });

  it("saves a working connection with its password encrypted at rest and never returned", async () => {
    const created = await connect(alice);
    expect(created.errors).toBeUndefined();
    const connection = created.data!.createCalendarConnection;
    expect(connection).toMatchObject({
      name: "Work",
      provider: "caldav",
      url: calendarUrl,
      readUrls: [],
      username: "alice",
      status: "active",
      lastError: null,
    });
    expect(JSON.stringify(created)).not.toContain(PASSWORDS.alice);

    const row = await t.app.db.prisma.calendarConnection.findUniqueOrThrow({
      where: { id: connection.id as number },
    });
    expect(JSON.stringify(row)).not.toContain(PASSWORDS.alice);
    const logger = createLogger("silent");
    const config = { dataDir: "/nonexistent", databaseUrl: undefined };
    expect(
      new SecretBox({ ...config, secrets: { key: secretsKey, previousKeys: [] } }, logger).open(
        row.sealedCredentials,
      ),
    ).toBe(PASSWORDS.alice);
    expect(() =>
      new SecretBox({ ...config, secrets: { key: randomBytes(32), previousKeys: [] } }, logger).open(
        row.sealedCredentials,
      ),
    ).toThrow();

    // No field of the API can carry the credentials.
    const schema = await t.gql<{ __type: { fields: { name: string }[] } }>(
      `{ __type(name: "CalendarConnection") { fields { name } } }`,
      {},
      { token: alice.apiKey },
    );
    const names = schema.data!.__type.fields.map((field) => field.name);
    expect(names.filter((name) => /password|secret|sealed|credential/i.test(name))).toEqual([]);
    const listed = await t.gql(
      `{ calendarConnections { ${CONNECTION_FIELDS} } }`,
      {},
      { token: alice.apiKey },
    );
    expect(JSON.stringify(listed)).not.toContain(PASSWORDS.alice);
    expect(JSON.stringify(listed)).not.toContain(row.sealedCredentials);
  });

  it("offers business hours minus the events in the calendar, and marks the connection broken when the calendar goes", async () => {
    const connectionId = (await connect(alice, { name: "Slots" })).data!.createCalendarConnection.id;
    const type = await t.gql<{ createAppointmentType: { id: number; businessHours: unknown } }>(
      CREATE_TYPE,
      {
        input: {
          connectionId,
          name: "Consultation",
          durationMinutes: 60,
          timezone: "Europe/Berlin",
          businessHours: berlinMornings,
          slotGranularityMinutes: 60,
          horizonDays: 366,
        },
      },
      { token: alice.apiKey },
    );
    expect(type.errors).toBeUndefined();
    expect(type.data!.createAppointmentType.businessHours).toEqual({ ...berlinMornings });
    const stored = await t.app.db.prisma.appointmentType.findUniqueOrThrow({
      where: { id: type.data!.createAppointmentType.id },
    });
    expect(stored.businessHours).toEqual(berlinMornings);
    const id = type.data!.createAppointmentType.id;
    const slots = async () => {
      const response = await t.gql<{ availableSlots: { start: string }[] }>(
        SLOTS,
        { id, ...MONDAY },
        {
          token: alice.apiKey,
        },
      );
      expect(response.errors).toBeUndefined();
      return response.data!.availableSlots.map((slot) => slot.start);
    };
    expect(await slots()).toEqual([
      "2027-01-04T08:00:00.000Z",
      "2027-01-04T09:00:00.000Z",
      "2027-01-04T10:00:00.000Z",
    ]);

    // Another client books 10:00-11:00 Berlin time, and a weekly 11:00 meeting that started in December.
    await radicale.putObject(
      calendarUrl,
      "dentist.ics",
      vevent("dentist", "20270104T100000", "20270104T110000"),
      "alice",
    );
    await radicale.putObject(
      calendarUrl,
      "weekly.ics",
      vevent("weekly", "20261207T110000", "20261207T113000", ["RRULE:FREQ=WEEKLY;BYDAY=MO"]),
      "alice",
    );
    // Free time (TRANSP:TRANSPARENT) does not block the 09:00 slot.
    await radicale.putObject(
      calendarUrl,
      "focus.ics",
      vevent("focus", "20270104T090000", "20270104T100000", ["TRANSP:TRANSPARENT"]),
      "alice",
    );
    expect(await slots()).toEqual(["2027-01-04T08:00:00.000Z"]);

    // The calendar is gone from the server: the query names the refusal and the connection shows it.
    await t.app.db.prisma.calendarConnection.update({
      where: { id: connectionId as number },
      data: { url: `${radicale.url}/alice/gone/` },
    });
    const failed = await t.gql(SLOTS, { id, ...MONDAY }, { token: alice.apiKey });
    expect(failed.errors?.[0]?.extensions).toMatchObject({
      code: "CALENDAR_CONNECTION_FAILED",
      reason: "not_found",
    });
    const broken = await t.app.db.prisma.calendarConnection.findUniqueOrThrow({
      where: { id: connectionId as number },
    });
    expect(broken.status).toBe("broken");
    expect(broken.lastError).toContain("no calendar at this URL");

    await t.app.db.prisma.calendarConnection.update({
      where: { id: connectionId as number },
      data: { url: calendarUrl },
    });
    expect(await slots()).toEqual(["2027-01-04T08:00:00.000Z"]);
    const repaired = await t.gql<{
      calendarConnections: { id: number; status: string; lastError: string | null }[];
    }>("{ calendarConnections { id status lastError } }", {}, { token: alice.apiKey });
    expect(repaired.data!.calendarConnections.find((entry) => entry.id === connectionId)).toMatchObject({
      status: "active",
      lastError: null,
    });
  });

  it("keeps each account's connections and appointment types to itself", async () => {
    const connectionId = (await connect(alice, { name: "Private" })).data!.createCalendarConnection.id;
    const typeInput = {
      connectionId,
      name: "Call",
      durationMinutes: 30,
      timezone: "Europe/Berlin",
      businessHours: berlinMornings,
    };
    const aliceType = await t.gql<{ createAppointmentType: { id: number } }>(
      CREATE_TYPE,
      { input: typeInput },
      { token: alice.apiKey },
    );
    const typeId = aliceType.data!.createAppointmentType.id;

    const bobsList = await t.gql<{ calendarConnections: unknown[]; appointmentTypes: unknown[] }>(
      "{ calendarConnections { id } appointmentTypes { id } }",
      {},
      { token: bob.apiKey },
    );
    expect(bobsList.data).toEqual({ calendarConnections: [], appointmentTypes: [] });

    const useIt = await t.gql(CREATE_TYPE, { input: typeInput }, { token: bob.apiKey });
    expect(useIt.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    const slots = await t.gql(SLOTS, { id: typeId, ...MONDAY }, { token: bob.apiKey });
    expect(slots.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    const deleteType = await t.gql(
      "mutation ($id: Int!) { deleteAppointmentType(id: $id) }",
      { id: typeId },
      {
        token: bob.apiKey,
      },
    );
    expect(deleteType.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    const deleteConnection = await t.gql(
      "mutation ($id: Int!) { deleteCalendarConnection(id: $id) }",
      { id: connectionId },
      {
        token: bob.apiKey,
      },
    );
    expect(deleteConnection.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    expect(await t.app.db.prisma.calendarConnection.count({ where: { id: connectionId as number } })).toBe(1);

    const own = await t.gql(
      "mutation ($id: Int!) { deleteCalendarConnection(id: $id) }",
      { id: connectionId },
      {
        token: alice.apiKey,
      },
    );
    expect(own.data).toEqual({ deleteCalendarConnection: connectionId });
    expect(await t.app.db.prisma.appointmentType.count({ where: { id: typeId } })).toBe(0);
  });

  it("breaks a connection whose credentials no key opens, and a new password saved through an update repairs it", async () => {
    const connectionId = (await connect(alice, { name: "Lost key" })).data!.createCalendarConnection
      .id as number;
    const type = await t.gql<{ createAppointmentType: { id: number } }>(
      CREATE_TYPE,
      {
        input: {
          connectionId,
          name: "Visit",
          durationMinutes: 60,
          timezone: "Europe/Berlin",
          businessHours: berlinMornings,
          slotGranularityMinutes: 60,
          horizonDays: 366,
        },
      },
      { token: alice.apiKey },
    );
    const typeId = type.data!.createAppointmentType.id;
    // As if the key that sealed it were gone (lost data directory, rotated out too early).
    const row = await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const unreadable = `XXXXXXXX${row.sealedCredentials.slice(row.sealedCredentials.indexOf(":"))}`;
    await t.app.db.prisma.calendarConnection.update({
      where: { id: connectionId },
      data: { sealedCredentials: unreadable },
    });
    const failed = await t.gql(SLOTS, { id: typeId, ...MONDAY }, { token: alice.apiKey });
    expect(failed.errors?.[0]?.extensions).toMatchObject({
      code: "CALENDAR_CONNECTION_FAILED",
      reason: "credentials_unreadable",
    });
    const broken = await t.app.db.prisma.calendarConnection.findUniqueOrThrow({
      where: { id: connectionId },
    });
    expect(broken).toMatchObject({ status: "broken" });
    expect(broken.lastError).toContain("save the connection's password again");

    const UPDATE = `mutation ($id: Int!, $input: UpdateCalendarConnectionInput!) {
      updateCalendarConnection(id: $id, input: $input) { id status lastError }
    }`;
    const fromBob = await t.gql(
      UPDATE,
      { id: connectionId, input: { password: PASSWORDS.alice } },
      { token: bob.apiKey },
    );
    expect(fromBob.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND" });
    const wrong = await t.gql(
      UPDATE,
      { id: connectionId, input: { password: "wrong" } },
      { token: alice.apiKey },
    );
    expect(wrong.errors?.[0]?.extensions).toMatchObject({ reason: "unauthorized", status: 401 });
    expect(
      (await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id: connectionId } }))
        .sealedCredentials,
    ).toBe(unreadable);

    const repaired = await t.gql(
      UPDATE,
      { id: connectionId, input: { password: PASSWORDS.alice } },
      { token: alice.apiKey },
    );
    expect(repaired.data).toEqual({
      updateCalendarConnection: { id: connectionId, status: "active", lastError: null },
    });
    const slots = await t.gql(SLOTS, { id: typeId, ...MONDAY }, { token: alice.apiKey });
    expect(slots.errors).toBeUndefined();
  });

  it("creates, moves and deletes events in the write calendar through the provider", async () => {
    const eventsUrl = await radicale.makeCalendar("bob", "bookings");
    const provider = new CalDavProvider({ timeoutMs: 10_000, allowList: ["127.0.0.1"] });
    const access = { url: eventsUrl, readUrls: [], username: "bob", secret: PASSWORDS.bob };
    const day = { start: Date.parse("2027-02-01T00:00:00Z"), end: Date.parse("2027-02-02T00:00:00Z") };
    const event = {
      uid: "vg-booking-1",
      start: new Date("2027-02-01T10:00:00Z"),
      end: new Date("2027-02-01T10:30:00Z"),
      summary: "Consultation with Jürgen, by phone",
    };
    await provider.verify(access);
    const { externalId } = await provider.createEvent(access, event);
    expect(externalId).toBe(`${eventsUrl}vg-booking-1.ics`);
    expect(await provider.busy(access, day, "UTC")).toEqual([
      { start: Date.parse("2027-02-01T10:00:00Z"), end: Date.parse("2027-02-01T10:30:00Z") },
    ]);
    // The same event again (a replay of its booking) is the event written; the same UID at another time is not.
    expect(await provider.createEvent(access, event)).toEqual({ externalId });
    await expect(
      provider.createEvent(access, { ...event, start: new Date("2027-02-01T11:00:00Z") }),
    ).rejects.toMatchObject({ reason: "conflict" });

    await provider.updateEvent(access, externalId, {
      ...event,
      start: new Date("2027-02-01T14:00:00Z"),
      end: new Date("2027-02-01T15:00:00Z"),
    });
    expect(await provider.busy(access, day, "UTC")).toEqual([
      { start: Date.parse("2027-02-01T14:00:00Z"), end: Date.parse("2027-02-01T15:00:00Z") },
    ]);

    await provider.deleteEvent(access, externalId);
    expect(await provider.busy(access, day, "UTC")).toEqual([]);
    await provider.deleteEvent(access, externalId);

    // An id outside the connection's calendar is never written to.
    await expect(
      provider.deleteEvent(access, `${radicale.url}/alice/work/dentist.ics`),
    ).rejects.toBeInstanceOf(CalendarProviderError);
    await expect(
      provider.deleteEvent(access, `${eventsUrl}../../alice/work/dentist.ics`),
    ).rejects.toBeInstanceOf(CalendarProviderError);
    await expect(provider.deleteEvent(access, eventsUrl)).rejects.toBeInstanceOf(CalendarProviderError);
  });
});
