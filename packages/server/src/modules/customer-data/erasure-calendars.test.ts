import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { type FakeCalCom, startFakeCalCom } from "../../../test/support/fake-calcom.ts";
import {
  type FakeGoogleCalendar,
  startFakeGoogleCalendar,
} from "../../../test/support/fake-google-calendar.ts";
import {
  type FakeMicrosoftGraph,
  startFakeMicrosoftGraph,
} from "../../../test/support/fake-microsoft-graph.ts";
import { findRadicale, type RunningRadicale, startRadicale } from "../../../test/support/radicale.ts";
import {
  ManualClock,
  PUBLIC_BASE_URL,
  startTestApp,
  type TestAccount,
  type TestApp,
} from "../../../test/support/test-app.ts";
import type { Appointment } from "../../generated/prisma/client.ts";
import type { Logger } from "../../logger.ts";
import { MAX_ATTEMPTS } from "./job-runner.ts";

/**
 * Erasure reaches the events a booking wrote in the business's own calendars: a real CalDAV server
 * (Radicale) and stand-ins for Google Calendar, Microsoft Graph and Cal.com following their
 * documented APIs, through the production provider clients. The appointment itself stays booked.
 */

const PASSWORDS = {
  alice: `alice-${randomBytes(6).toString("hex")}`,
  bob: `bob-${randomBytes(6).toString("hex")}`,
};
const JOB_FIELDS = "id kind state counts error externalEventsRedacted externalEventsLeft";
const ERASE = `mutation($input: CustomerDataInput!) { eraseCustomerData(input: $input) { ${JOB_FIELDS} } }`;
const EXPORT = `mutation($input: CustomerDataInput!) { exportCustomerData(input: $input) { ${JOB_FIELDS} } }`;
const JOB = `query($id: Int!) { customerDataJob(id: $id) { ${JOB_FIELDS} } }`;
const LEFT_FIELDS =
  "id appointmentId connectionId provider externalId startsAt reason failure retriedByJobId handledAt handledBy";
const DETAILS = `query($id: Int!) { customerDataJob(id: $id) { externalEventsLeftDetails { ${LEFT_FIELDS} } } }`;
const HANDLED = `mutation($id: Int!) { markErasedEventLeftHandled(id: $id) { ${LEFT_FIELDS} } }`;
const START_OAUTH = `mutation ($provider: CalendarOAuthProvider!, $name: String!) {
  startCalendarOAuth(provider: $provider, name: $name) { authorizationUrl }
}`;
const weekdays = Object.fromEntries(
  ["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ start: "09:00", end: "17:00" }]]),
);

interface Job {
  id: number;
  kind: string;
  state: string;
  counts: Record<string, number>;
  error: string | null;
  externalEventsRedacted: number | null;
  externalEventsLeft: number | null;
}

interface EventLeft {
  id: number;
  appointmentId: number;
  connectionId: number;
  provider: string;
  externalId: string;
  startsAt: string;
  reason: string;
  failure: string | null;
  retriedByJobId: number | null;
  handledAt: string | null;
  handledBy: string | null;
}

/** What the customer told the business when booking: none of it may stay in a rewritten event. */
const CUSTOMER = { name: "Annabel Quist", email: "annabel.quist@example.com", notes: "gate code 7391" };

describe.skipIf(!findRadicale())(
  "erasure rewrites the customer's events in the business's calendars",
  {
    timeout: 120_000,
  },
  () => {
    let radicale: RunningRadicale;
    let google: FakeGoogleCalendar;
    let graph: FakeMicrosoftGraph;
    let calcom: FakeCalCom;
    let t: TestApp;
    let owner: TestAccount;
    let stranger: TestAccount;
    const clock = new ManualClock("2027-03-01T00:00:00Z");
    const warnings: { message: string; fields: Record<string, unknown> }[] = [];
    const failures: string[] = [];
    const logger: Logger = {
      debug: () => {},
      info: () => {},
      warn: (message, fields = {}) => warnings.push({ message, fields }),
      error: (message) => {
        if (message.startsWith("customer data job failed")) failures.push(message);
      },
    };
    const types: Record<"caldav" | "google" | "microsoft" | "calcom" | "strangerCaldav", number> = {
      caldav: 0,
      google: 0,
      microsoft: 0,
      calcom: 0,
      strangerCaldav: 0,
    };
    const connections = { ...types };

    /** Signs in at the stand-in's authorization endpoint, as the owner's browser does. */
    const signIn = async (provider: "google" | "microsoft") => {
      const started = await t.gql<{ startCalendarOAuth: { authorizationUrl: string } }>(
        START_OAUTH,
        { provider, name: provider },
        { token: owner.apiKey },
      );
      expect(started.errors).toBeUndefined();
      const consent = await fetch(started.data!.startCalendarOAuth.authorizationUrl, { redirect: "manual" });
      const back = consent.headers.get("location")!.replace(PUBLIC_BASE_URL, t.url);
      const done = await fetch(back, { redirect: "manual" });
      expect(done.status).toBe(303);
      return Number(/\/calendars\/(\d+)$/.exec(done.headers.get("location") ?? "")![1]);
    };

    const typeOn = async (accountId: number, connectionId: number) =>
      (
        await t.app.services.calendars.createAppointmentType(accountId, {
          connectionId,
          name: "Consultation",
          durationMinutes: 30,
          slotGranularityMinutes: 30,
          timezone: "UTC",
          businessHours: weekdays,
          horizonDays: 366,
        })
      ).id;

    const book = (typeId: number, startsAt: string, phone: string, account = owner, name = CUSTOMER.name) =>
      t.app.services.appointments.book(account.accountId, {
        appointmentTypeId: typeId,
        startsAt: new Date(startsAt),
        customerName: name,
        customerPhone: phone,
        customerEmail: name === CUSTOMER.name ? CUSTOMER.email : null,
        notes: name === CUSTOMER.name ? CUSTOMER.notes : null,
      });

    /** The event as the calendar server holds it (CalDAV: the stored iCalendar text). */
    const caldavEvent = async (url: string, user: keyof typeof PASSWORDS = "alice") => {
      const response = await fetch(url, {
        headers: { authorization: `Basic ${Buffer.from(`${user}:${PASSWORDS[user]}`).toString("base64")}` },
      });
      expect(response.status).toBe(200);
      return (await response.text()).replace(/\r\n[ \t]/g, "");
    };
    const googleEvent = (id: string) => google.calendars.get(google.oauth.signedInAs)!.events.get(id)!;
    const graphEvent = (id: string) => graph.mailboxes.get(graph.oauth.signedInAs)!.get("default")!.get(id)!;

    const erase = async (phone: string) => {
      const requested = await t.gql<{ eraseCustomerData: Job }>(
        ERASE,
        { input: { phoneNumber: phone } },
        { token: owner.apiKey },
      );
      expect(requested.errors).toBeUndefined();
      return requested.data!.eraseCustomerData.id;
    };
    const job = async (id: number) => {
      const response = await t.gql<{ customerDataJob: Job }>(JOB, { id }, { token: owner.apiKey });
      expect(response.errors).toBeUndefined();
      return response.data!.customerDataJob;
    };
    /** Polls the job until it ends; the test's timeout bounds the wait. */
    const finished = async (id: number) => {
      for (;;) {
        const current = await job(id);
        if (current.state === "done" || current.state === "failed") return current;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const details = async (id: number) => {
      const response = await t.gql<{ customerDataJob: { externalEventsLeftDetails: EventLeft[] } }>(
        DETAILS,
        { id },
        { token: owner.apiKey },
      );
      expect(response.errors).toBeUndefined();
      return response.data!.customerDataJob.externalEventsLeftDetails;
    };
    const row = (appointment: Appointment) =>
      t.app.db.prisma.appointment.findUniqueOrThrow({ where: { id: appointment.id } });

    beforeAll(async () => {
      [radicale, google, graph, calcom] = await Promise.all([
        startRadicale(PASSWORDS),
        startFakeGoogleCalendar(),
        startFakeMicrosoftGraph(),
        startFakeCalCom(),
      ]);
      graph.oauth.signedInAs = "owner@contoso.example";
      t = await startTestApp({
        env: {
          VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
          VOXGATE_SECRETS_KEY: randomBytes(32).toString("base64"),
          ...google.env,
          ...graph.env,
          ...calcom.env,
        },
        clock,
        logger,
      });
      [owner, stranger] = await Promise.all([t.createAccount(), t.createAccount()]);
      const calendars = t.app.services.calendars;
      connections.caldav = (
        await calendars.createConnection(owner.accountId, {
          name: "Practice",
          provider: "caldav",
          url: await radicale.makeCalendar("alice", "bookings"),
          username: "alice",
          password: PASSWORDS.alice,
        })
      ).id;
      connections.strangerCaldav = (
        await calendars.createConnection(stranger.accountId, {
          name: "Theirs",
          provider: "caldav",
          url: await radicale.makeCalendar("bob", "bookings"),
          username: "bob",
          password: PASSWORDS.bob,
        })
      ).id;
      connections.calcom = (
        await calendars.createConnection(owner.accountId, {
          name: "Cal.com",
          provider: "calcom",
          apiKey: calcom.apiKey,
          eventTypeId: calcom.eventType.id,
        })
      ).id;
      connections.google = await signIn("google");
      connections.microsoft = await signIn("microsoft");
      types.caldav = await typeOn(owner.accountId, connections.caldav);
      types.google = await typeOn(owner.accountId, connections.google);
      types.microsoft = await typeOn(owner.accountId, connections.microsoft);
      types.calcom = await typeOn(owner.accountId, connections.calcom);
      types.strangerCaldav = await typeOn(stranger.accountId, connections.strangerCaldav);
    });
    afterAll(async () => {
      await t?.close();
      await Promise.all([radicale?.stop(), google?.close(), graph?.close(), calcom?.close()]);
    });

    it("rewrites CalDAV, Google and Microsoft events without the customer, leaves Cal.com's, and keeps every appointment booked", async () => {
      const phone = uniqueUsNumber();
      const booked = {
        caldav: await book(types.caldav, "2027-03-02T10:00:00Z", phone),
        google: await book(types.google, "2027-03-02T11:00:00Z", phone),
        microsoft: await book(types.microsoft, "2027-03-02T12:00:00Z", phone),
        calcom: await book(types.calcom, "2027-03-02T13:00:00Z", phone),
      };
      // Another customer's booking in the same calendar stays as it is.
      const otherCustomer = await book(
        types.google,
        "2027-03-02T14:00:00Z",
        uniqueUsNumber(),
        owner,
        "Olga Other",
      );
      // The stranger's own booking, and a row of the owner's pointing at the stranger's connection and
      // event (as a forged or corrupted row would): only the account's own connections are used.
      const theirs = await book(
        types.strangerCaldav,
        "2027-03-02T10:00:00Z",
        uniqueUsNumber(),
        stranger,
        "Bea Bystander",
      );
      const forged = await t.app.db.prisma.appointment.create({
        data: {
          ...withoutIds(theirs),
          accountId: owner.accountId,
          appointmentTypeId: types.caldav,
          customerName: CUSTOMER.name,
          customerPhone: phone,
          idempotencyKey: `forged-${phone}`,
        },
      });
      const before = {
        caldav: await caldavEvent(booked.caldav.externalId),
        theirs: await caldavEvent(theirs.externalId, "bob"),
        google: { ...googleEvent(booked.google.externalId) },
        otherCustomer: { ...googleEvent(otherCustomer.externalId) },
        microsoft: { ...graphEvent(booked.microsoft.externalId) },
      };
      expect(before.caldav).toContain(CUSTOMER.name);
      expect(before.caldav).toContain(CUSTOMER.notes);
      expect(before.google.summary).toContain(CUSTOMER.name);
      expect(before.microsoft.body?.content).toContain(phone);
      const calcomRequests = calcom.requests.length;

      const done = await finished(await erase(phone));
      expect(done).toMatchObject({
        state: "done",
        error: null,
        externalEventsRedacted: 3,
        externalEventsLeft: 2,
      });
      expect(done.counts).toMatchObject({
        appointments: 5,
        externalEventsRedacted: 3,
        externalEventsLeft: 2,
      });

      // CalDAV: the same event (UID, times) rewritten, as Radicale now serves it.
      const caldav = await caldavEvent(booked.caldav.externalId);
      expect(caldav).toContain("SUMMARY:Consultation (customer data erased)");
      expect(caldav).toContain("DTSTART:20270302T100000Z");
      expect(caldav).toContain("DTEND:20270302T103000Z");
      expect(uidOf(caldav)).toBe(uidOf(before.caldav));
      // Google and Microsoft: the event text replaced, its times kept.
      const googleAfter = googleEvent(booked.google.externalId);
      expect(googleAfter).toMatchObject({
        summary: "Consultation (customer data erased)",
        start: before.google.start,
        end: before.google.end,
        status: "confirmed",
      });
      const microsoftAfter = graphEvent(booked.microsoft.externalId);
      expect(microsoftAfter).toMatchObject({
        subject: "Consultation (customer data erased)",
        start: before.microsoft.start,
        end: before.microsoft.end,
      });
      for (const text of [caldav, JSON.stringify(googleAfter), JSON.stringify(microsoftAfter)]) {
        for (const detail of [CUSTOMER.name, CUSTOMER.email, CUSTOMER.notes, phone, phone.slice(2)])
          expect({ text, has: text.includes(detail) }).toEqual({ text, has: false });
      }
      // Nothing else moved: the other customer's event, the stranger's event.
      expect(googleEvent(otherCustomer.externalId)).toEqual(before.otherCustomer);
      expect(await caldavEvent(theirs.externalId, "bob")).toBe(before.theirs);
      // Cal.com keeps its attendee: nothing was sent to it (no reschedule, no cancellation).
      expect(calcom.requests.length).toBe(calcomRequests);
      const booking = calcom.bookings.find((candidate) => candidate.uid === booked.calcom.externalId)!;
      expect(booking).toMatchObject({
        status: "accepted",
        attendees: [expect.objectContaining({ name: CUSTOMER.name })],
      });

      // Every appointment is still booked at its time, without the customer, and names its event.
      for (const appointment of [...Object.values(booked), forged]) {
        expect(await row(appointment)).toMatchObject({
          status: "booked",
          startsAt: appointment.startsAt,
          endsAt: appointment.endsAt,
          externalId: appointment.externalId,
          customerName: "",
          customerPhone: null,
          customerEmail: null,
          notes: null,
        });
      }
      expect(await row(otherCustomer)).toMatchObject({ customerName: "Olga Other" });
      // The calendars work as before.
      for (const id of [connections.caldav, connections.google, connections.microsoft, connections.calcom]) {
        expect(await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id } })).toMatchObject({
          status: "active",
        });
      }
      // What was left is in the log by appointment, never by customer.
      const left = warnings.filter((line) => line.message.includes("left with the customer's details"));
      expect(left.map((line) => [line.fields.appointmentId, line.fields.reason]).sort()).toEqual(
        [
          [booked.calcom.id, "not_editable"],
          [forged.id, "no_connection"],
        ].sort(),
      );
      expect(JSON.stringify(warnings)).not.toContain(phone);
      expect(JSON.stringify(warnings)).not.toContain(CUSTOMER.name);
      // The job lists them, by reason: a connection not the account's is as good as deleted.
      expect(
        (await details(done.id)).map((left) => [
          left.appointmentId,
          left.provider,
          left.reason,
          left.failure,
        ]),
      ).toEqual([
        [booked.calcom.id, "calcom", "PROVIDER_CANNOT_EDIT", null],
        [forged.id, "caldav", "CONNECTION_DELETED", null],
      ]);

      // Exports have no event counts.
      const exported = await t.gql<{ exportCustomerData: Job }>(
        EXPORT,
        { input: { phoneNumber: uniqueUsNumber() } },
        { token: owner.apiKey },
      );
      expect(exported.data!.exportCustomerData).toMatchObject({
        externalEventsRedacted: null,
        externalEventsLeft: null,
      });
    });

    it("retries a calendar that keeps failing through the job's attempts, resumes past what was done, then leaves it and finishes", async () => {
      const phone = uniqueUsNumber();
      const first = await book(types.google, "2027-03-03T10:00:00Z", phone);
      const failing = await book(types.google, "2027-03-03T11:00:00Z", phone);
      // A revoked grant is a refusal: left at once, not retried.
      const revoked = await book(types.microsoft, "2027-03-03T12:00:00Z", phone);
      graph.oauth.revoke(graph.oauth.signedInAs);
      const stuck = { ...googleEvent(failing.externalId) };
      google.fail({
        method: "PATCH",
        path: new RegExp(`/events/${failing.externalId}$`),
        status: 503,
        times: 1_000,
      });
      const patches = (id: string) =>
        google.requests.filter(
          (request) => request.method === "PATCH" && request.path.endsWith(`/events/${id}`),
        ).length;

      const id = await erase(phone);
      // Each failed run waits for its lease to run out: the test moves the clock past it each time.
      let seen = failures.length;
      for (;;) {
        const current = await job(id);
        if (current.state === "done" || current.state === "failed") break;
        if (failures.length > seen) {
          seen = failures.length;
          // Until the lease runs out nobody takes the job: it waits, running, with the run's failure.
          let waiting = await job(id);
          while (!waiting.error) {
            await new Promise((resolve) => setTimeout(resolve, 25));
            waiting = await job(id);
          }
          expect(waiting.state).toBe("running");
          expect(waiting.error).toContain(`appointment ${failing.id}`);
          expect(waiting.error).not.toContain(phone);
          clock.advanceMinutes(2);
          await t.app.services.customerData.runNow(owner.accountId, id);
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      const done = await job(id);
      expect(done).toMatchObject({
        state: "done",
        error: null,
        externalEventsRedacted: 1,
        externalEventsLeft: 2,
      });
      const stored = await t.app.db.prisma.customerDataJob.findUniqueOrThrow({ where: { id } });
      expect(stored.attempts).toBe(MAX_ATTEMPTS);
      // The first event was rewritten once: the retries resumed after it.
      expect(patches(first.externalId)).toBe(1);
      expect(googleEvent(first.externalId).summary).toBe("Consultation (customer data erased)");
      // The failing one still holds what it held (the business erases it by hand), the row does not.
      expect(googleEvent(failing.externalId)).toEqual(stuck);
      expect(patches(failing.externalId)).toBeGreaterThanOrEqual(MAX_ATTEMPTS);
      for (const appointment of [first, failing, revoked]) {
        expect(await row(appointment)).toMatchObject({
          status: "booked",
          customerName: "",
          customerPhone: null,
        });
      }
      const retried = warnings.filter((line) => line.message.includes("not rewritten yet"));
      expect(retried.length).toBe(MAX_ATTEMPTS - 1);
      expect(retried.every((line) => line.fields.appointmentId === failing.id)).toBe(true);
      const left = warnings.filter(
        (line) =>
          line.message.includes("left with the customer's details") &&
          line.fields.appointmentId !== undefined,
      );
      expect(left.slice(-2).map((line) => [line.fields.appointmentId, line.fields.reason])).toEqual(
        expect.arrayContaining([
          [revoked.id, expect.stringMatching(/^(revoked|unauthorized)$/)],
          [failing.id, "unexpected_response"],
        ]),
      );
      // Listed under the job: the calendar that kept failing, the refused connection.
      expect(
        (await details(id)).map((left) => [left.appointmentId, left.reason, left.failure]).sort(),
      ).toEqual(
        [
          [revoked.id, "CONNECTION_REFUSED", expect.stringMatching(/^(revoked|unauthorized)$/)],
          [failing.id, "PROVIDER_FAILED", "unexpected_response"],
        ].sort(),
      );
      // The refusal shows on the connection, for the owner to sign in again.
      expect(
        await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id: connections.microsoft } }),
      ).toMatchObject({ status: "broken" });
    });

    it("lists the events it left, by reason and without the customer; a rerun retries them and lists nothing; another account reads nothing", async () => {
      const phone = uniqueUsNumber();
      const booked = {
        google: await book(types.google, "2027-03-04T10:00:00Z", phone),
        calcom: await book(types.calcom, "2027-03-04T11:00:00Z", phone),
        caldav: await book(types.caldav, "2027-03-04T12:00:00Z", phone),
      };
      // Google refuses the rewrite once (a refusal is left at once, not retried), then works again.
      google.fail({
        method: "PATCH",
        path: new RegExp(`/events/${booked.google.externalId}$`),
        status: 403,
        times: 1,
      });
      const first = await finished(await erase(phone));
      expect(first).toMatchObject({ state: "done", externalEventsRedacted: 1, externalEventsLeft: 2 });
      const listed = await details(first.id);
      expect(listed).toEqual([
        {
          id: expect.any(Number),
          appointmentId: booked.google.id,
          connectionId: connections.google,
          provider: "google",
          externalId: booked.google.externalId,
          startsAt: "2027-03-04T10:00:00.000Z",
          reason: "CONNECTION_REFUSED",
          failure: "forbidden",
          retriedByJobId: null,
          handledAt: null,
          handledBy: null,
        },
        {
          id: expect.any(Number),
          appointmentId: booked.calcom.id,
          connectionId: connections.calcom,
          provider: "calcom",
          externalId: booked.calcom.externalId,
          startsAt: "2027-03-04T11:00:00.000Z",
          reason: "PROVIDER_CANNOT_EDIT",
          failure: null,
          retriedByJobId: null,
          handledAt: null,
          handledBy: null,
        },
      ]);
      // REST callers read the same list on the job, in the REST shape.
      const restJob = await t.rest<{ data: { external_events_left: unknown[] } }>(
        "GET",
        `/api/user/customer-data/jobs/${first.id}`,
        { token: owner.apiKey },
      );
      expect(restJob.status).toBe(200);
      expect(restJob.body.data.external_events_left).toEqual(
        listed.map((left) => ({
          id: left.id,
          appointment_id: left.appointmentId,
          connection_id: left.connectionId,
          provider: left.provider,
          external_id: left.externalId,
          starts_at: left.startsAt,
          reason: left.reason,
          failure: left.failure,
          retried_by_job_id: null,
          handled_at: null,
          handled_by: null,
        })),
      );
      // Neither the answer nor the stored rows say who the customer was.
      const stored = await t.app.db.prisma.erasureEventLeft.findMany({ where: { jobId: first.id } });
      for (const text of [JSON.stringify(listed), JSON.stringify(stored)]) {
        for (const detail of [CUSTOMER.name, CUSTOMER.email, CUSTOMER.notes, phone, phone.slice(2)])
          expect({ text, has: text.includes(detail) }).toEqual({ text, has: false });
      }
      expect(googleEvent(booked.google.externalId).summary).toContain(CUSTOMER.name);

      // Another account: neither the job nor its events, and marking one changes nothing.
      const theirs = await t.gql(DETAILS, { id: first.id }, { token: stranger.apiKey });
      expect(theirs.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      expect(JSON.stringify(theirs)).not.toContain(booked.calcom.externalId);
      const calcomLeft = listed.find((left) => left.provider === "calcom")!;
      const forged = await t.gql(HANDLED, { id: calcomLeft.id }, { token: stranger.apiKey });
      expect(forged.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      const forgedRest = await t.rest(
        "POST",
        `/api/user/customer-data/events-left/${calcomLeft.id}/handled`,
        {
          token: stranger.apiKey,
        },
      );
      expect(forgedRest.status).toBe(404);
      expect(
        await t.app.db.prisma.erasureEventLeft.findUniqueOrThrow({ where: { id: calcomLeft.id } }),
      ).toMatchObject({ handledAt: null, handledBy: null });

      // The business erases the Cal.com booking by hand and says so; a second mark keeps the first.
      const handled = await t.gql<{ markErasedEventLeftHandled: EventLeft }>(
        HANDLED,
        { id: calcomLeft.id },
        { token: owner.apiKey },
      );
      expect(handled.errors).toBeUndefined();
      expect(handled.data!.markErasedEventLeftHandled).toMatchObject({
        id: calcomLeft.id,
        handledAt: clock.now().toISOString(),
        handledBy: `user:${owner.userId}`,
      });
      clock.advanceMinutes(1);
      const again = await t.rest<{ data: { id: number; handled_at: string; handled_by: string } }>(
        "POST",
        `/api/user/customer-data/events-left/${calcomLeft.id}/handled`,
        { token: owner.apiKey },
      );
      expect(again.status).toBe(200);
      expect(again.body.data).toMatchObject({
        id: calcomLeft.id,
        handled_at: handled.data!.markErasedEventLeftHandled.handledAt,
        handled_by: `user:${owner.userId}`,
      });

      // Google works again: the erasure asked again rewrites what the first left (the appointment no
      // longer names the customer; the first job's list leads to it) and leaves nothing.
      const calcomRequests = calcom.requests.length;
      const second = await finished(await erase(phone));
      expect(second).toMatchObject({ state: "done", externalEventsRedacted: 1, externalEventsLeft: 0 });
      expect(await details(second.id)).toEqual([]);
      expect(googleEvent(booked.google.externalId)).toMatchObject({
        summary: "Consultation (customer data erased)",
      });
      expect(JSON.stringify(googleEvent(booked.google.externalId))).not.toContain(CUSTOMER.name);
      expect(calcom.requests.length).toBe(calcomRequests);
      // The first job's list says what became of each: retried by the second, or handled by hand.
      expect(await details(first.id)).toEqual([
        expect.objectContaining({ appointmentId: booked.google.id, retriedByJobId: second.id }),
        expect.objectContaining({
          appointmentId: booked.calcom.id,
          retriedByJobId: null,
          handledBy: `user:${owner.userId}`,
        }),
      ]);
      expect(
        await t.app.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id: connections.google } }),
      ).toMatchObject({ status: "active" });
      // A third erasure has nothing left to try.
      const third = await finished(await erase(phone));
      expect(third).toMatchObject({ state: "done", externalEventsRedacted: 0, externalEventsLeft: 0 });
      // Exports list nothing.
      const exported = await t.gql<{ exportCustomerData: { id: number } }>(
        EXPORT,
        { input: { phoneNumber: uniqueUsNumber() } },
        { token: owner.apiKey },
      );
      const exportDetails = await t.gql<{ customerDataJob: { externalEventsLeftDetails: null } }>(
        DETAILS,
        { id: exported.data!.exportCustomerData.id },
        { token: owner.apiKey },
      );
      expect(exportDetails.data!.customerDataJob.externalEventsLeftDetails).toBeNull();
      const exportRest = await t.rest<{ data: { external_events_left: null } }>(
        "GET",
        `/api/user/customer-data/jobs/${exported.data!.exportCustomerData.id}`,
        { token: owner.apiKey },
      );
      expect(exportRest.body.data.external_events_left).toBeNull();
    });
  },
);

function withoutIds(appointment: Appointment) {
  const { id: _id, createdAt: _created, updatedAt: _updated, ...rest } = appointment;
  return rest;
}

function uidOf(ics: string): string | undefined {
  return /^UID:(.+)$/m.exec(ics)?.[1]?.trim();
}
