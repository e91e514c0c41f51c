import { randomBytes } from "node:crypto";
import { bearer, type FakeAnswer, type FakeServer, jsonOf, startFakeServer } from "./fake-http.ts";
import { FakeOAuthServer } from "./fake-oauth.ts";

export interface FakeGoogleEvent {
  id: string;
  summary?: string;
  description?: string;
  iCalUID?: string;
  start: { dateTime: string };
  end: { dateTime: string };
  status: "confirmed" | "cancelled";
}

export interface FakeGoogleCalendar extends FakeServer {
  oauth: FakeOAuthServer;
  /** VOXGATE_GOOGLE_* variables pointing the server at this stand-in. */
  env: Record<string, string>;
  /** A calendar's events by id; "primary" calendars are keyed by their owner's email. */
  calendars: Map<string, { owner: string; events: Map<string, FakeGoogleEvent> }>;
  /** Puts an event (busy time) into the calendar, creating the calendar for `owner` if needed. */
  addEvent(calendarId: string, owner: string, start: string, end: string): void;
}

const unauthenticated: FakeAnswer = {
  status: 401,
  json: {
    error: {
      code: 401,
      message: "Request had invalid authentication credentials.",
      status: "UNAUTHENTICATED",
    },
  },
};
const notFound: FakeAnswer = { status: 404, json: { error: { code: 404, message: "Not Found" } } };

/**
 * Google's OAuth endpoints (accounts.google.com/o/oauth2/v2/auth, oauth2.googleapis.com/token) and
 * the part of the Calendar API v3 Voxgate uses, as documented: calendars.get, freeBusy.query and
 * events insert/patch/delete, with bearer access tokens the fake OAuth server issued. A user's
 * "primary" calendar has their email as id; others are created by `addEvent`.
 */
export async function startFakeGoogleCalendar(): Promise<FakeGoogleCalendar> {
  const oauth = new FakeOAuthServer(
    `${randomBytes(4).toString("hex")}.apps.googleusercontent.com`,
    `GOCSPX-${randomBytes(8).toString("hex")}`,
  );
  const calendars: FakeGoogleCalendar["calendars"] = new Map();
  const calendarOf = (id: string, user: string) => {
    const key = id === "primary" ? user : id;
    if (key === user && !calendars.has(key)) calendars.set(key, { owner: user, events: new Map() });
    const calendar = calendars.get(key);
    return calendar && calendar.owner === user ? { id: key, ...calendar } : null;
  };

  const server = await startFakeServer((request) => {
    if (request.path === "/o/oauth2/v2/auth") return oauth.authorize(request);
    if (request.path === "/token") return oauth.token(request);
    const user = oauth.ownerOf(bearer(request));
    if (!user) return unauthenticated;

    if (request.method === "POST" && request.path === "/calendar/v3/freeBusy") {
      const body = jsonOf<{ timeMin: string; timeMax: string; items: { id: string }[] }>(request);
      const from = Date.parse(body.timeMin);
      const to = Date.parse(body.timeMax);
      if (!Number.isFinite(from) || !Number.isFinite(to)) {
        return { status: 400, json: { error: { code: 400, message: "Bad Request" } } };
      }
      const result: Record<string, unknown> = {};
      for (const { id } of body.items) {
        const calendar = calendarOf(id, user);
        if (!calendar) {
          result[id] = { errors: [{ domain: "global", reason: "notFound" }], busy: [] };
          continue;
        }
        const busy = [...calendar.events.values()]
          .filter((event) => event.status === "confirmed")
          .filter((event) => Date.parse(event.start.dateTime) < to && Date.parse(event.end.dateTime) > from)
          .map((event) => ({
            start: new Date(event.start.dateTime).toISOString(),
            end: new Date(event.end.dateTime).toISOString(),
          }));
        result[id] = { busy };
      }
      return {
        status: 200,
        json: { kind: "calendar#freeBusy", timeMin: body.timeMin, timeMax: body.timeMax, calendars: result },
      };
    }

    const match = /^\/calendar\/v3\/calendars\/([^/]+)(?:\/events(?:\/([^/]+))?)?$/.exec(request.path);
    if (!match) return notFound;
    const calendar = calendarOf(decodeURIComponent(match[1]!), user);
    if (!calendar) return notFound;
    const isEvents = request.path.includes("/events");
    const eventId = match[2] ? decodeURIComponent(match[2]) : null;

    if (!isEvents && request.method === "GET") {
      return {
        status: 200,
        json: { kind: "calendar#calendar", id: calendar.id, summary: calendar.id, timeZone: "UTC" },
      };
    }
    if (isEvents && !eventId && request.method === "POST") {
      const body = jsonOf<Partial<FakeGoogleEvent>>(request);
      if (!body.start?.dateTime || !body.end?.dateTime) {
        return { status: 400, json: { error: { code: 400, message: "Missing end time." } } };
      }
      const id = body.id ?? randomBytes(10).toString("hex");
      if (!/^[0-9a-v]{5,1024}$/.test(id)) {
        return { status: 400, json: { error: { code: 400, message: "Invalid resource id value." } } };
      }
      if (calendar.events.has(id)) {
        return {
          status: 409,
          json: { error: { code: 409, message: "The requested identifier already exists." } },
        };
      }
      const event: FakeGoogleEvent = { ...body, id, start: body.start, end: body.end, status: "confirmed" };
      calendar.events.set(id, event);
      return { status: 200, json: { kind: "calendar#event", ...event } };
    }
    if (isEvents && eventId) {
      const event = calendar.events.get(eventId);
      if (!event) return notFound;
      if (event.status === "cancelled") {
        return { status: 410, json: { error: { code: 410, message: "Resource has been deleted" } } };
      }
      if (request.method === "PATCH") {
        Object.assign(event, jsonOf<Partial<FakeGoogleEvent>>(request), {
          id: event.id,
          status: event.status,
        });
        return { status: 200, json: { kind: "calendar#event", ...event } };
      }
      if (request.method === "DELETE") {
        event.status = "cancelled";
        return { status: 204 };
      }
    }
    return { status: 405, json: { error: { code: 405, message: "Method Not Allowed" } } };
  });

  return {
    ...server,
    oauth,
    calendars,
    env: {
      VOXGATE_GOOGLE_CLIENT_ID: oauth.clientId,
      VOXGATE_GOOGLE_CLIENT_SECRET: oauth.clientSecret,
      VOXGATE_GOOGLE_AUTH_URL: `${server.url}/o/oauth2/v2/auth`,
      VOXGATE_GOOGLE_TOKEN_URL: `${server.url}/token`,
      VOXGATE_GOOGLE_API_BASE_URL: server.url,
    },
    addEvent(calendarId, owner, start, end) {
      if (!calendars.has(calendarId)) calendars.set(calendarId, { owner, events: new Map() });
      const id = randomBytes(10).toString("hex");
      calendars.get(calendarId)!.events.set(id, {
        id,
        summary: "Busy",
        start: { dateTime: start },
        end: { dateTime: end },
        status: "confirmed",
      });
    },
  };
}
