import { randomBytes } from "node:crypto";
import {
  bearer,
  type FakeAnswer,
  type FakeRequest,
  type FakeServer,
  jsonOf,
  startFakeServer,
} from "./fake-http.ts";

export interface FakeCalComBooking {
  id: number;
  uid: string;
  eventTypeId: number;
  start: string;
  end: string;
  status: "accepted" | "cancelled";
  attendees: { name: string; email?: string; phoneNumber?: string; timeZone: string }[];
  metadata: Record<string, string>;
  bookingFieldsResponses?: Record<string, unknown>;
  rescheduledFromUid?: string;
}

export interface FakeCalCom extends FakeServer {
  /** The key Cal.com accepts; changing it is the owner revoking the old one. */
  apiKey: string;
  /** The event type the account has: bookable 09:00-17:00 UTC every day, in slots of its length. */
  eventType: { id: number; lengthInMinutes: number; title: string; slug: string };
  bookings: FakeCalComBooking[];
  /** VOXGATE_CALCOM_API_BASE_URL pointing the server at this stand-in. */
  env: Record<string, string>;
}

/** The cal-api-version each endpoint is documented with. */
const VERSIONS: Record<string, string> = {
  eventTypes: "2024-06-14",
  slots: "2024-09-04",
  bookings: "2024-08-13",
};

const failure = (status: number, code: string, message: string): FakeAnswer => ({
  status,
  json: { status: "error", timestamp: new Date().toISOString(), path: "", error: { code, message } },
});

/**
 * Cal.com's API v2 as documented, for one user with one event type: GET /v2/me, GET
 * /v2/event-types/{id}, GET /v2/slots (format=range), GET /v2/bookings (eventTypeId, afterStart,
 * beforeEnd), POST /v2/bookings, POST
 * /v2/bookings/{uid}/reschedule (a new booking with a new uid) and POST /v2/bookings/{uid}/cancel,
 * each behind `Authorization: Bearer cal_…` and, where documented, its `cal-api-version`. Slots are
 * computed like Cal.com does: the event type's hours minus accepted bookings.
 */
export async function startFakeCalCom(): Promise<FakeCalCom> {
  const keys = { current: `cal_live_${randomBytes(16).toString("hex")}` };
  const eventType = { id: 4_123_456, lengthInMinutes: 30, title: "Consultation", slug: "consultation" };
  const bookings: FakeCalComBooking[] = [];
  let nextId = 1;
  const needsVersion = (request: FakeRequest, key: string) =>
    request.headers["cal-api-version"] === VERSIONS[key]
      ? null
      : failure(400, "BadRequestException", `cal-api-version ${VERSIONS[key]} expected`);
  const isFree = (start: number, end: number, ignoreUid?: string) => {
    const day = new Date(start);
    const open = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 9);
    const close = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 17);
    if (start < open || end > close) return false;
    return !bookings.some(
      (booking) =>
        booking.status === "accepted" &&
        booking.uid !== ignoreUid &&
        Date.parse(booking.start) < end &&
        Date.parse(booking.end) > start,
    );
  };
  const length = eventType.lengthInMinutes * 60_000;
  const unavailable = failure(
    400,
    "BadRequestException",
    "User either already has booking at this time or is not available",
  );

  const server = await startFakeServer((request) => {
    if (bearer(request) !== keys.current) return failure(401, "UNAUTHORIZED", "Invalid Access Token.");
    if (request.method === "GET" && request.path === "/v2/me") {
      return {
        status: 200,
        json: {
          status: "success",
          data: { id: 7, username: "owner", email: "owner@cal.example", timeZone: "UTC" },
        },
      };
    }
    const typeMatch = /^\/v2\/event-types\/(\d+)$/.exec(request.path);
    if (request.method === "GET" && typeMatch) {
      const wrong = needsVersion(request, "eventTypes");
      if (wrong) return wrong;
      if (Number(typeMatch[1]) !== eventType.id)
        return failure(404, "NotFoundException", "Event type not found.");
      return { status: 200, json: { status: "success", data: eventType } };
    }
    if (request.method === "GET" && request.path === "/v2/slots") {
      const wrong = needsVersion(request, "slots");
      if (wrong) return wrong;
      if (Number(request.query.get("eventTypeId")) !== eventType.id) {
        return failure(404, "NotFoundException", "Event type not found.");
      }
      const from = Date.parse(request.query.get("start") ?? "");
      const to = Date.parse(request.query.get("end") ?? "");
      if (!Number.isFinite(from) || !Number.isFinite(to) || request.query.get("timeZone") !== "UTC") {
        return failure(400, "BadRequestException", "start, end and timeZone UTC expected by this fake");
      }
      const range = request.query.get("format") === "range";
      const data: Record<string, { start: string; end?: string }[]> = {};
      for (let at = Math.ceil(from / length) * length; at + length <= to; at += length) {
        if (!isFree(at, at + length)) continue;
        const day = new Date(at).toISOString().slice(0, 10);
        const slot = {
          start: new Date(at).toISOString(),
          ...(range ? { end: new Date(at + length).toISOString() } : {}),
        };
        data[day] = [...(data[day] ?? []), slot];
      }
      return { status: 200, json: { status: "success", data } };
    }
    if (request.method === "POST" && request.path === "/v2/bookings") {
      const wrong = needsVersion(request, "bookings");
      if (wrong) return wrong;
      const body = jsonOf<{
        start: string;
        eventTypeId: number;
        attendee?: { name?: string; email?: string; phoneNumber?: string; timeZone?: string };
        metadata?: Record<string, string>;
        bookingFieldsResponses?: Record<string, unknown>;
      }>(request);
      const attendee = body.attendee;
      if (!attendee?.name || !attendee.timeZone || (!attendee.email && !attendee.phoneNumber)) {
        return failure(400, "BadRequestException", "attendee name, timeZone and email are required");
      }
      if (body.eventTypeId !== eventType.id)
        return failure(404, "NotFoundException", "Event type not found.");
      const start = Date.parse(body.start);
      if (!Number.isFinite(start) || !isFree(start, start + length)) return unavailable;
      const booking: FakeCalComBooking = {
        id: nextId++,
        uid: randomBytes(11).toString("base64url"),
        eventTypeId: eventType.id,
        start: new Date(start).toISOString(),
        end: new Date(start + length).toISOString(),
        status: "accepted",
        attendees: [{ name: attendee.name, timeZone: attendee.timeZone, ...attendee }],
        metadata: body.metadata ?? {},
        ...(body.bookingFieldsResponses ? { bookingFieldsResponses: body.bookingFieldsResponses } : {}),
      };
      bookings.push(booking);
      return { status: 201, json: { status: "success", data: booking } };
    }
    if (request.method === "GET" && request.path === "/v2/bookings") {
      const wrong = needsVersion(request, "bookings");
      if (wrong) return wrong;
      const typeFilter = request.query.get("eventTypeId");
      const afterStart = Date.parse(request.query.get("afterStart") ?? "");
      const beforeEnd = Date.parse(request.query.get("beforeEnd") ?? "");
      const data = bookings.filter(
        (booking) =>
          (!typeFilter || booking.eventTypeId === Number(typeFilter)) &&
          (!Number.isFinite(afterStart) || Date.parse(booking.start) >= afterStart) &&
          (!Number.isFinite(beforeEnd) || Date.parse(booking.end) <= beforeEnd),
      );
      return { status: 200, json: { status: "success", data } };
    }
    const bookingMatch = /^\/v2\/bookings\/([^/]+)\/(reschedule|cancel)$/.exec(request.path);
    if (request.method === "POST" && bookingMatch) {
      const wrong = needsVersion(request, "bookings");
      if (wrong) return wrong;
      const booking = bookings.find((candidate) => candidate.uid === decodeURIComponent(bookingMatch[1]!));
      if (!booking) return failure(404, "NotFoundException", "Booking not found.");
      if (booking.status === "cancelled") {
        return failure(400, "BadRequestException", "This booking has already been cancelled.");
      }
      if (bookingMatch[2] === "cancel") {
        booking.status = "cancelled";
        return { status: 200, json: { status: "success", data: booking } };
      }
      const start = Date.parse(jsonOf<{ start: string }>(request).start);
      if (!Number.isFinite(start) || !isFree(start, start + length, booking.uid)) return unavailable;
      booking.status = "cancelled";
      const moved: FakeCalComBooking = {
        ...booking,
        id: nextId++,
        uid: randomBytes(11).toString("base64url"),
        start: new Date(start).toISOString(),
        end: new Date(start + length).toISOString(),
        status: "accepted",
        rescheduledFromUid: booking.uid,
      };
      bookings.push(moved);
      return { status: 201, json: { status: "success", data: moved } };
    }
    return failure(404, "NotFoundException", "Cannot find the route.");
  });

  return {
    ...server,
    get apiKey() {
      return keys.current;
    },
    set apiKey(key: string) {
      keys.current = key;
    },
    eventType,
    bookings,
    env: { VOXGATE_CALCOM_API_BASE_URL: server.url },
  };
}
