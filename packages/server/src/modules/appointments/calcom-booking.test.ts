import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeCalCom, startFakeCalCom } from "../../../test/support/fake-calcom.ts";
import { ManualClock, startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";

/**
 * Bookings through a Cal.com event type (the stand-in follows API v2): Cal.com books people, not
 * events, so the booking carries its attendee, and a moved booking gets a new uid the record follows.
 */

const FIELDS = "id status startsAt endsAt customerName provider";
const BOOK = `mutation ($input: BookAppointmentInput!) { bookAppointment(input: $input) { ${FIELDS} } }`;
const RESCHEDULE = `mutation ($id: Int!, $startsAt: DateTime!) { rescheduleAppointment(id: $id, startsAt: $startsAt) { ${FIELDS} } }`;
const CANCEL = `mutation ($id: Int!) { cancelAppointment(id: $id) { ${FIELDS} } }`;
const SLOTS = `query ($id: Int!, $from: DateTime!, $to: DateTime!) { availableSlots(appointmentTypeId: $id, from: $from, to: $to) { start } }`;

describe("bookings in a Cal.com event type", () => {
  let calcom: FakeCalCom;
  let t: TestApp;
  let alice: TestAccount;
  let typeId: number;

  beforeAll(async () => {
    calcom = await startFakeCalCom();
    t = await startTestApp({
      env: {
        VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
        VOXGATE_SECRETS_KEY: randomBytes(32).toString("base64"),
        ...calcom.env,
      },
      clock: new ManualClock("2027-03-01T00:00:00Z"),
    });
    alice = await t.createAccount();
    const calendars = t.app.services.calendars;
    const connection = await calendars.createConnection(alice.accountId, {
      name: "Cal.com",
      provider: "calcom",
      apiKey: calcom.apiKey,
      eventTypeId: calcom.eventType.id,
    });
    typeId = (
      await calendars.createAppointmentType(alice.accountId, {
        connectionId: connection.id,
        name: "Consultation",
        durationMinutes: calcom.eventType.lengthInMinutes,
        slotGranularityMinutes: 30,
        timezone: "UTC",
        businessHours: { tue: [{ start: "09:00", end: "12:00" }] },
      })
    ).id;
  });
  afterAll(async () => {
    await t?.close();
    await calcom?.close();
  });

  const offered = async () =>
    (
      await t.gql<{ availableSlots: { start: string }[] }>(
        SLOTS,
        { id: typeId, from: "2027-03-02T00:00:00Z", to: "2027-03-03T00:00:00Z" },
        { token: alice.apiKey },
      )
    ).data!.availableSlots.map((slot) => slot.start.slice(11, 16));

  it("books with the attendee, follows the new uid of a moved booking, and cancels the booking Cal.com holds", async () => {
    const booked = await t.gql<{ bookAppointment: { id: number; status: string } }>(
      BOOK,
      {
        input: {
          appointmentTypeId: typeId,
          startsAt: "2027-03-02T09:30:00Z",
          customerName: "Ada Lovelace",
          customerEmail: "ada@example.com",
          customerPhone: "+4930123456",
          idempotencyKey: "calcom-1",
        },
      },
      { token: alice.apiKey },
    );
    expect(booked.errors).toBeUndefined();
    const id = booked.data!.bookAppointment.id;
    expect(booked.data!.bookAppointment).toMatchObject({ status: "booked", provider: "calcom" });
    const first = calcom.bookings.filter((booking) => booking.status === "accepted");
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      start: "2027-03-02T09:30:00.000Z",
      attendees: [
        expect.objectContaining({ name: "Ada Lovelace", email: "ada@example.com", timeZone: "UTC" }),
      ],
    });
    const record = () => t.app.db.prisma.appointment.findUniqueOrThrow({ where: { id } });
    expect((await record()).externalId).toBe(first[0]!.uid);
    expect(await offered()).not.toContain("09:30");

    // A retry with the same key books nothing more at Cal.com.
    const retried = await t.gql<{ bookAppointment: { id: number } }>(
      BOOK,
      {
        input: {
          appointmentTypeId: typeId,
          startsAt: "2027-03-02T09:30:00Z",
          customerName: "Ada Lovelace",
          customerEmail: "ada@example.com",
          idempotencyKey: "calcom-1",
        },
      },
      { token: alice.apiKey },
    );
    expect(retried.data!.bookAppointment.id).toBe(id);
    expect(calcom.bookings).toHaveLength(1);

    const moved = await t.gql(RESCHEDULE, { id, startsAt: "2027-03-02T11:00:00Z" }, { token: alice.apiKey });
    expect(moved.errors).toBeUndefined();
    const live = calcom.bookings.filter((booking) => booking.status === "accepted");
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ start: "2027-03-02T11:00:00.000Z", rescheduledFromUid: first[0]!.uid });
    expect((await record()).externalId).toBe(live[0]!.uid);
    expect(await offered()).toContain("09:30");
    expect(await offered()).not.toContain("11:00");

    const cancelled = await t.gql<{ cancelAppointment: { status: string } }>(
      CANCEL,
      { id },
      { token: alice.apiKey },
    );
    expect(cancelled.data!.cancelAppointment.status).toBe("cancelled");
    expect(calcom.bookings.filter((booking) => booking.status === "accepted")).toHaveLength(0);
    expect(await offered()).toContain("11:00");
  });
});
