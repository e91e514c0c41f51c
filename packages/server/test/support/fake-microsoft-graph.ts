import { randomBytes } from "node:crypto";
import { bearer, type FakeAnswer, type FakeServer, jsonOf, startFakeServer } from "./fake-http.ts";
import { FakeOAuthServer } from "./fake-oauth.ts";

export interface FakeGraphEvent {
  id: string;
  subject?: string;
  body?: { contentType: string; content: string };
  start: { dateTime: string; timeZone: string };
  end: { dateTime: string; timeZone: string };
  showAs: "free" | "tentative" | "busy" | "oof" | "workingElsewhere";
  transactionId?: string;
}

export interface FakeMicrosoftGraph extends FakeServer {
  oauth: FakeOAuthServer;
  /** VOXGATE_MICROSOFT_* variables pointing the server at this stand-in. */
  env: Record<string, string>;
  /** Events per mailbox and calendar id ("default" is the mailbox's default calendar). */
  mailboxes: Map<string, Map<string, Map<string, FakeGraphEvent>>>;
  /** Mailboxes whose free/busy a signed-in user may read besides their own. */
  sharedSchedules: Set<string>;
  addEvent(
    mailbox: string,
    start: string,
    end: string,
    showAs?: FakeGraphEvent["showAs"],
    calendarId?: string,
  ): void;
}

const error = (status: number, code: string, message: string): FakeAnswer => ({
  status,
  json: { error: { code, message } },
});

/**
 * The Microsoft identity platform's v2.0 endpoints (login.microsoftonline.com/{tenant}/oauth2/v2.0/
 * authorize and token, which rotate refresh tokens) and the part of Microsoft Graph v1.0 Voxgate
 * uses, as documented: /me, /me/calendar and /me/calendars/{id}, calendar: getSchedule (times in
 * the requested zone, UTC here, without offset) and events create (deduplicated by transactionId),
 * update and delete.
 */
export async function startFakeMicrosoftGraph(): Promise<FakeMicrosoftGraph> {
  const oauth = new FakeOAuthServer(crypto.randomUUID(), `ms~${randomBytes(10).toString("hex")}`);
  oauth.rotateRefreshTokens = true;
  const mailboxes: FakeMicrosoftGraph["mailboxes"] = new Map();
  const sharedSchedules = new Set<string>();
  const mailbox = (email: string) => {
    let calendars = mailboxes.get(email);
    if (!calendars) {
      calendars = new Map([["default", new Map()]]);
      mailboxes.set(email, calendars);
    }
    return calendars;
  };
  const graphTime = (value: string) => new Date(value).toISOString().replace("Z", "0000");

  const server = await startFakeServer((request) => {
    if (request.path === "/common/oauth2/v2.0/authorize") return oauth.authorize(request);
    if (request.path === "/common/oauth2/v2.0/token") return oauth.token(request);
    const user = oauth.ownerOf(bearer(request));
    if (!user)
      return error(401, "InvalidAuthenticationToken", "Access token has expired or is not yet valid.");
    const calendars = mailbox(user);

    if (request.method === "GET" && request.path === "/v1.0/me") {
      return {
        status: 200,
        json: { id: "user-1", displayName: "Owner", mail: user, userPrincipalName: user },
      };
    }
    if (request.method === "POST" && request.path === "/v1.0/me/calendar/getSchedule") {
      const body = jsonOf<{
        schedules: string[];
        startTime: { dateTime: string; timeZone: string };
        endTime: { dateTime: string; timeZone: string };
      }>(request);
      if (
        body.startTime?.timeZone !== "UTC" ||
        body.endTime?.timeZone !== "UTC" ||
        !Array.isArray(body.schedules)
      ) {
        return error(400, "ErrorInvalidRequest", "This fake takes UTC times only.");
      }
      const from = Date.parse(`${body.startTime.dateTime}Z`);
      const to = Date.parse(`${body.endTime.dateTime}Z`);
      const value = body.schedules.map((scheduleId) => {
        if (scheduleId !== user && !sharedSchedules.has(scheduleId)) {
          return {
            scheduleId,
            error: {
              message: "The user doesn't have permission to view the free/busy.",
              responseCode: "ErrorAccessDenied",
            },
          };
        }
        const events = [...(mailbox(scheduleId).get("default")?.values() ?? [])].filter(
          (event) =>
            Date.parse(`${event.start.dateTime}Z`) < to && Date.parse(`${event.end.dateTime}Z`) > from,
        );
        return {
          scheduleId,
          availabilityView: "",
          scheduleItems: events.map((event) => ({
            isPrivate: false,
            status: event.showAs,
            subject: event.subject ?? "",
            start: { dateTime: graphTime(`${event.start.dateTime}Z`), timeZone: "UTC" },
            end: { dateTime: graphTime(`${event.end.dateTime}Z`), timeZone: "UTC" },
          })),
        };
      });
      return { status: 200, json: { value } };
    }

    const match = /^\/v1\.0\/me\/(?:calendar|calendars\/([^/]+))(?:\/events(?:\/([^/]+))?)?$/.exec(
      request.path,
    );
    if (!match) return error(404, "ResourceNotFound", "Resource not found for the segment.");
    const calendarId = match[1] ? decodeURIComponent(match[1]) : "default";
    const events = calendars.get(calendarId);
    if (!events) return error(404, "ErrorItemNotFound", "The specified object was not found in the store.");
    const isEvents = request.path.includes("/events");
    const eventId = match[2] ? decodeURIComponent(match[2]) : null;

    if (!isEvents && request.method === "GET") {
      return { status: 200, json: { id: calendarId, name: "Calendar", canEdit: true } };
    }
    if (isEvents && !eventId && request.method === "POST") {
      const body = jsonOf<Partial<FakeGraphEvent>>(request);
      if (!body.start?.dateTime || !body.end?.dateTime) {
        return error(400, "ErrorInvalidRequest", "Start and end are required.");
      }
      const earlier = [...events.values()].find(
        (event) => body.transactionId && event.transactionId === body.transactionId,
      );
      if (earlier) return { status: 201, json: earlier };
      const event: FakeGraphEvent = {
        ...body,
        id: `AAMk${randomBytes(10).toString("hex")}`,
        start: body.start,
        end: body.end,
        showAs: "busy",
      };
      events.set(event.id, event);
      return { status: 201, json: event };
    }
    if (isEvents && eventId) {
      const event = events.get(eventId);
      if (!event) return error(404, "ErrorItemNotFound", "The specified object was not found in the store.");
      if (request.method === "PATCH") {
        Object.assign(event, jsonOf<Partial<FakeGraphEvent>>(request), { id: event.id });
        return { status: 200, json: event };
      }
      if (request.method === "DELETE") {
        events.delete(eventId);
        return { status: 204 };
      }
    }
    return error(405, "MethodNotAllowed", "Method not allowed.");
  });

  return {
    ...server,
    oauth,
    mailboxes,
    sharedSchedules,
    env: {
      VOXGATE_MICROSOFT_CLIENT_ID: oauth.clientId,
      VOXGATE_MICROSOFT_CLIENT_SECRET: oauth.clientSecret,
      VOXGATE_MICROSOFT_AUTHORITY_URL: `${server.url}/common/oauth2/v2.0`,
      VOXGATE_MICROSOFT_GRAPH_BASE_URL: `${server.url}/v1.0`,
    },
    addEvent(owner, start, end, showAs = "busy", calendarId = "default") {
      const calendars = mailbox(owner);
      if (!calendars.has(calendarId)) calendars.set(calendarId, new Map());
      const id = `AAMk${randomBytes(10).toString("hex")}`;
      calendars.get(calendarId)!.set(id, {
        id,
        subject: "Busy",
        start: { dateTime: start.replace(/Z$/, ""), timeZone: "UTC" },
        end: { dateTime: end.replace(/Z$/, ""), timeZone: "UTC" },
        showAs,
      });
    },
  };
}
