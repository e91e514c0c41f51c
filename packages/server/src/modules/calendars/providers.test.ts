import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeCalCom, startFakeCalCom } from "../../../test/support/fake-calcom.ts";
import {
  type FakeGoogleCalendar,
  startFakeGoogleCalendar,
} from "../../../test/support/fake-google-calendar.ts";
import { type FakeRequest, startFakeServer } from "../../../test/support/fake-http.ts";
import {
  type FakeMicrosoftGraph,
  startFakeMicrosoftGraph,
} from "../../../test/support/fake-microsoft-graph.ts";
import { CalComProvider } from "./calcom.ts";
import { CalDavProvider } from "./caldav.ts";
import { GoogleCalendarProvider, googleEventId } from "./google.ts";
import type { CalendarEvent } from "./ical-writer.ts";
import { MicrosoftGraphProvider } from "./microsoft.ts";
import type { CalendarAccess } from "./provider.ts";

// Small backoff: the retries' waits are not what these tests look at.
const http = { timeoutMs: 5_000, allowList: ["127.0.0.1"], retryBaseMs: 5 };
const day = { start: Date.parse("2027-03-01T00:00:00Z"), end: Date.parse("2027-03-02T00:00:00Z") };
const at = (time: string) => Date.parse(`2027-03-01T${time}:00Z`);
const isBookingPost = (request: FakeRequest) => request.method === "POST" && request.path === "/v2/bookings";
const event = (uid: string, start: string, end: string): CalendarEvent => ({
  uid,
  start: new Date(at(start)),
  end: new Date(at(end)),
  summary: "Consultation with Jürgen",
  description: "Booked by phone",
  attendee: { name: "Jürgen Weiß", email: "juergen@example.com", timeZone: "Europe/Berlin" },
});

describe("Cal.com API v2 through the production client", () => {
  let calcom: FakeCalCom;
  let provider: CalComProvider;
  let access: CalendarAccess;

  beforeAll(async () => {
    calcom = await startFakeCalCom();
    provider = new CalComProvider({ ...http, apiBaseUrl: calcom.url });
    access = { url: String(calcom.eventType.id), readUrls: [], username: "", secret: calcom.apiKey };
  });
  afterAll(() => calcom?.close());

  it("verifies the key and event type, names the account, and refuses a wrong key or event type", async () => {
    await provider.verify(access);
    expect(await provider.account(access)).toBe("owner@cal.example");
    const verified = calcom.requests.find((request) => request.path.startsWith("/v2/event-types/"))!;
    expect(verified.headers.authorization).toBe(`Bearer ${calcom.apiKey}`);
    expect(verified.headers["cal-api-version"]).toBe("2024-06-14");
    await expect(provider.verify({ ...access, secret: "cal_live_wrong" })).rejects.toMatchObject({
      reason: "unauthorized",
      status: 401,
    });
    await expect(provider.verify({ ...access, url: "999" })).rejects.toMatchObject({ reason: "not_found" });
  });

  it("derives busy time from the bookable slots, books, reschedules (a new uid) and cancels", async () => {
    // Bookable 09:00-17:00 UTC: the rest of the day is busy.
    expect(await provider.busy(access, day)).toEqual([
      { start: day.start, end: at("09:00") },
      { start: at("17:00"), end: day.end },
    ]);
    const slots = calcom.requests.find((request) => request.path === "/v2/slots")!;
    expect(slots.headers["cal-api-version"]).toBe("2024-09-04");
    expect(Object.fromEntries(slots.query)).toMatchObject({
      eventTypeId: String(calcom.eventType.id),
      timeZone: "UTC",
      format: "range",
    });

    const { externalId } = await provider.createEvent(access, event("vg-1", "10:00", "10:30"));
    const booking = calcom.bookings.find((candidate) => candidate.uid === externalId)!;
    expect(booking).toMatchObject({
      start: "2027-03-01T10:00:00.000Z",
      status: "accepted",
      attendees: [{ name: "Jürgen Weiß", email: "juergen@example.com", timeZone: "Europe/Berlin" }],
      metadata: { voxgateUid: "vg-1" },
      bookingFieldsResponses: { notes: "Booked by phone" },
    });
    const created = calcom.requests.find(
      (request) => request.method === "POST" && request.path === "/v2/bookings",
    )!;
    expect(created.headers["cal-api-version"]).toBe("2024-08-13");
    expect((await provider.busy(access, day)).some((busy) => busy.start === at("10:00"))).toBe(true);

    // The slot is taken now: Cal.com's refusal is a conflict.
    await expect(provider.createEvent(access, event("vg-2", "10:00", "10:30"))).rejects.toMatchObject({
      reason: "conflict",
    });
    // Cal.com cannot book without knowing whom for.
    await expect(
      provider.createEvent(access, { ...event("vg-3", "11:00", "11:30"), attendee: undefined }),
    ).rejects.toMatchObject({ reason: "rejected" });

    const moved = await provider.updateEvent(access, externalId, event("vg-1", "14:00", "14:30"));
    expect(moved.externalId).not.toBe(externalId);
    expect(calcom.bookings.find((candidate) => candidate.uid === moved.externalId)).toMatchObject({
      start: "2027-03-01T14:00:00.000Z",
      rescheduledFromUid: externalId,
    });

    await provider.deleteEvent(access, moved.externalId);
    expect(calcom.bookings.find((candidate) => candidate.uid === moved.externalId)?.status).toBe("cancelled");
    // Cancelling again, or a booking Cal.com does not know, succeeds.
    await provider.deleteEvent(access, moved.externalId);
    await provider.deleteEvent(access, "no-such-booking");
  });

  it("adopts a booking whose answer was lost, found by the uid in its metadata, without booking twice", async () => {
    const before = calcom.requests.length;
    calcom.fail({ method: "POST", path: /^\/v2\/bookings$/, status: 502, times: 1, afterServing: true });
    const { externalId } = await provider.createEvent(access, event("vg-lost", "13:00", "13:30"));
    const made = calcom.bookings.filter((booking) => booking.metadata.voxgateUid === "vg-lost");
    expect(made.map((booking) => booking.uid)).toEqual([externalId]);
    expect(calcom.requests.slice(before).filter(isBookingPost)).toHaveLength(1);
    const lookup = calcom.requests.slice(before).find((request) => request.method === "GET")!;
    expect(Object.fromEntries(lookup.query)).toMatchObject({
      eventTypeId: String(calcom.eventType.id),
      afterStart: "2027-03-01T13:00:00.000Z",
    });
    expect(lookup.headers["cal-api-version"]).toBe("2024-08-13");
    await provider.deleteEvent(access, externalId);
  });

  it("does not repeat a booking after a 503 (not idempotent), but does after a 429", async () => {
    const before = calcom.requests.length;
    calcom.fail({ method: "POST", path: /^\/v2\/bookings$/, status: 503, times: 1 });
    await expect(provider.createEvent(access, event("vg-4", "12:00", "12:30"))).rejects.toMatchObject({
      reason: "unexpected_response",
      status: 503,
    });
    expect(calcom.requests.slice(before).filter(isBookingPost)).toHaveLength(1);

    calcom.fail({
      method: "POST",
      path: /^\/v2\/bookings$/,
      status: 429,
      headers: { "retry-after": "0" },
      times: 1,
    });
    const { externalId } = await provider.createEvent(access, event("vg-5", "12:00", "12:30"));
    expect(calcom.requests.slice(before).filter(isBookingPost)).toHaveLength(3);
    expect(calcom.bookings.filter((booking) => booking.metadata.voxgateUid === "vg-5")).toHaveLength(1);
    await provider.deleteEvent(access, externalId);
  });
});

describe("Google Calendar API v3 through the production client", () => {
  let google: FakeGoogleCalendar;
  let provider: GoogleCalendarProvider;
  let access: CalendarAccess;
  const owner = "owner@example.com";

  beforeAll(async () => {
    google = await startFakeGoogleCalendar();
    provider = new GoogleCalendarProvider({ ...http, apiBaseUrl: google.url });
    google.oauth.accessTokens.set("ya29.test-token", owner);
    access = { url: "primary", readUrls: [], username: owner, secret: "ya29.test-token" };
  });
  afterAll(() => google?.close());

  it("verifies the calendars, names the account, and reads busy time of all of them with one freeBusy query", async () => {
    await provider.verify(access);
    expect(await provider.account(access)).toBe(owner);
    google.addEvent(owner, owner, "2027-03-01T09:00:00Z", "2027-03-01T10:00:00Z");
    google.addEvent(
      "team@group.calendar.google.com",
      owner,
      "2027-03-01T13:00:00+01:00",
      "2027-03-01T14:00:00+01:00",
    );
    const both = { ...access, readUrls: ["team@group.calendar.google.com"] };
    await provider.verify(both);
    expect(await provider.busy(both, day)).toEqual([
      { start: at("09:00"), end: at("10:00") },
      { start: at("12:00"), end: at("13:00") },
    ]);
    const query = google.requests.find((request) => request.path === "/calendar/v3/freeBusy")!;
    expect(query.headers.authorization).toBe("Bearer ya29.test-token");
    expect(JSON.parse(query.body)).toEqual({
      timeMin: "2027-03-01T00:00:00.000Z",
      timeMax: "2027-03-02T00:00:00.000Z",
      items: [{ id: "primary" }, { id: "team@group.calendar.google.com" }],
    });

    await expect(
      provider.verify({ ...access, readUrls: ["someone-else@example.com"] }),
    ).rejects.toMatchObject({
      reason: "not_found",
      status: 404,
    });
    await expect(
      provider.busy({ ...access, readUrls: ["someone-else@example.com"] }, day),
    ).rejects.toMatchObject({ reason: "not_found" });
    await expect(provider.verify({ ...access, secret: "expired" })).rejects.toMatchObject({
      reason: "unauthorized",
    });
  });

  it("inserts with an id from the uid, patches and deletes, and a second insert of the same uid is a conflict", async () => {
    const { externalId } = await provider.createEvent(access, event("vg-g1", "15:00", "15:30"));
    expect(externalId).toBe(googleEventId("vg-g1"));
    const stored = google.calendars.get(owner)!.events.get(externalId)!;
    expect(stored).toMatchObject({
      summary: "Consultation with Jürgen",
      description: "Booked by phone",
      iCalUID: "vg-g1",
      start: { dateTime: "2027-03-01T15:00:00.000Z" },
    });
    await expect(provider.createEvent(access, event("vg-g1", "15:00", "15:30"))).rejects.toMatchObject({
      reason: "conflict",
    });
    await provider.updateEvent(access, externalId, event("vg-g1", "16:00", "16:30"));
    expect(stored.start.dateTime).toBe("2027-03-01T16:00:00.000Z");
    expect(await provider.busy(access, { start: at("15:30"), end: at("17:00") })).toEqual([
      { start: at("16:00"), end: at("16:30") },
    ]);
    await provider.deleteEvent(access, externalId);
    expect(stored.status).toBe("cancelled");
    await provider.deleteEvent(access, externalId);
    await expect(
      provider.updateEvent(access, externalId, event("vg-g1", "16:00", "16:30")),
    ).rejects.toMatchObject({
      reason: "not_found",
    });
  });

  it("retries reads and idempotent writes on 503 and on 429 after Retry-After, then succeeds", async () => {
    const before = google.requests.length;
    google.fail({ method: "POST", path: /\/freeBusy$/, status: 503, times: 2 });
    await provider.busy(access, day);
    expect(
      google.requests.slice(before).filter((request) => request.path.endsWith("/freeBusy")),
    ).toHaveLength(3);

    google.fail({
      method: "POST",
      path: /\/events$/,
      status: 429,
      headers: { "retry-after": "1" },
      times: 1,
    });
    const { externalId } = await provider.createEvent(access, event("vg-g2", "11:00", "11:30"));
    expect(google.requests.slice(before).filter((request) => request.path.endsWith("/events"))).toHaveLength(
      2,
    );
    expect(
      [...google.calendars.get(owner)!.events.values()].filter((e) => e.iCalUID === "vg-g2"),
    ).toHaveLength(1);

    // A provider asking for a long pause is not waited for: the failure is reported.
    google.fail({
      method: "DELETE",
      path: /\/events\//,
      status: 503,
      headers: { "retry-after": "120" },
      times: 1,
    });
    await expect(provider.deleteEvent(access, externalId)).rejects.toMatchObject({ status: 503 });
    // Three 503s in a row exhaust the attempts.
    google.fail({ method: "DELETE", path: /\/events\//, status: 503, times: 3 });
    await expect(provider.deleteEvent(access, externalId)).rejects.toMatchObject({ status: 503 });
    await provider.deleteEvent(access, externalId);
  });
});

describe("Microsoft Graph through the production client", () => {
  let graph: FakeMicrosoftGraph;
  let provider: MicrosoftGraphProvider;
  let access: CalendarAccess;
  const owner = "owner@contoso.example";

  beforeAll(async () => {
    graph = await startFakeMicrosoftGraph();
    provider = new MicrosoftGraphProvider({ ...http, graphBaseUrl: `${graph.url}/v1.0` });
    graph.oauth.accessTokens.set("eyJ0.test", owner);
    access = { url: "primary", readUrls: [], username: owner, secret: "eyJ0.test" };
  });
  afterAll(() => graph?.close());

  it("verifies, names the mailbox, and reads busy time from getSchedule (busy, tentative and away count; free does not)", async () => {
    await provider.verify(access);
    expect(await provider.account(access)).toBe(owner);
    graph.addEvent(owner, "2027-03-01T09:00:00Z", "2027-03-01T09:30:00Z", "busy");
    graph.addEvent(owner, "2027-03-01T10:00:00Z", "2027-03-01T10:30:00Z", "tentative");
    graph.addEvent(owner, "2027-03-01T11:00:00Z", "2027-03-01T11:30:00Z", "free");
    graph.addEvent("room@contoso.example", "2027-03-01T12:00:00Z", "2027-03-01T13:00:00Z", "oof");
    graph.sharedSchedules.add("room@contoso.example");
    const withRoom = { ...access, readUrls: ["room@contoso.example"] };
    expect(await provider.busy(withRoom, day)).toEqual([
      { start: at("09:00"), end: at("09:30") },
      { start: at("10:00"), end: at("10:30") },
      { start: at("12:00"), end: at("13:00") },
    ]);
    const query = graph.requests.find((request) => request.path.endsWith("/getSchedule"))!;
    expect(query.headers.authorization).toBe("Bearer eyJ0.test");
    expect(query.headers.prefer).toBe('outlook.timezone="UTC"');
    expect(JSON.parse(query.body)).toMatchObject({
      schedules: [owner, "room@contoso.example"],
      startTime: { dateTime: "2027-03-01T00:00:00.000", timeZone: "UTC" },
      endTime: { dateTime: "2027-03-02T00:00:00.000", timeZone: "UTC" },
    });
    await expect(provider.busy({ ...access, readUrls: ["ceo@contoso.example"] }, day)).rejects.toMatchObject({
      reason: "forbidden",
    });
    await expect(provider.verify({ ...access, url: "AAMk-missing" })).rejects.toMatchObject({
      reason: "not_found",
    });
  });

  it("creates (once, even when the POST is retried), updates and deletes events", async () => {
    graph.fail({ method: "POST", path: /\/events$/, status: 503, times: 1 });
    const { externalId } = await provider.createEvent(access, event("vg-m1", "15:00", "15:30"));
    const posts = graph.requests.filter(
      (request) => request.method === "POST" && request.path.endsWith("/events"),
    );
    expect(posts).toHaveLength(2);
    expect(JSON.parse(posts[1]!.body)).toMatchObject({
      subject: "Consultation with Jürgen",
      transactionId: "vg-m1",
      start: { dateTime: "2027-03-01T15:00:00.000", timeZone: "UTC" },
    });
    const events = graph.mailboxes.get(owner)!.get("default")!;
    expect([...events.values()].filter((stored) => stored.transactionId === "vg-m1")).toHaveLength(1);
    // A retry Graph recognises by its transactionId answers with the first event.
    expect((await provider.createEvent(access, event("vg-m1", "15:00", "15:30"))).externalId).toBe(
      externalId,
    );

    await provider.updateEvent(access, externalId, event("vg-m1", "16:00", "16:30"));
    expect(events.get(externalId)?.start.dateTime).toBe("2027-03-01T16:00:00.000");
    await provider.deleteEvent(access, externalId);
    expect(events.has(externalId)).toBe(false);
    await provider.deleteEvent(access, externalId);
  });
});

describe("CalDAV reads are retried", () => {
  it("answers a PROPFIND after two 503s, and a creating PUT after a 503", async () => {
    const server = await startFakeServer((request) =>
      request.method === "PROPFIND"
        ? {
            status: 207,
            text: '<?xml version="1.0"?><d:multistatus xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:response><d:href>/cal/</d:href><d:propstat><d:prop><d:resourcetype><d:collection/><c:calendar/></d:resourcetype></d:prop><d:status>HTTP/1.1 200 OK</d:status></d:propstat></d:response></d:multistatus>',
          }
        : { status: 201 },
    );
    try {
      const provider = new CalDavProvider(http);
      const access = { url: `${server.url}/cal/`, readUrls: [], username: "u", secret: "p" };
      server.fail({ method: "PROPFIND", path: /^\/cal\/$/, status: 503, times: 2 });
      await provider.verify(access);
      expect(server.requests.filter((request) => request.method === "PROPFIND")).toHaveLength(3);
      server.fail({ method: "PUT", path: /\.ics$/, status: 503, times: 1 });
      // A create is retried (a replay that meets its own event is recognised: caldav-replay.test.ts).
      await provider.createEvent(access, event("vg-c1", "10:00", "10:30"));
      expect(server.requests.filter((request) => request.method === "PUT")).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});
