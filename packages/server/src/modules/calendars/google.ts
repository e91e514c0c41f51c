import { createHash } from "node:crypto";
import type { SafeFetchResult } from "../../net/safe-fetch.ts";
import type { Interval } from "./busy-time.ts";
import type { CalendarEvent } from "./ical-writer.ts";
import { type CalendarAccess, type CalendarProvider, CalendarProviderError } from "./provider.ts";
import {
  jsonBody,
  type ProviderHttpOptions,
  type ProviderRequest,
  providerFetch,
  statusFailure,
} from "./provider-http.ts";

export interface GoogleCalendarOptions extends ProviderHttpOptions {
  /** https://www.googleapis.com (VOXGATE_GOOGLE_API_BASE_URL). */
  apiBaseUrl: string;
}

/**
 * Google Calendar API v3 with an OAuth access token (`access.secret`, kept fresh by the service).
 * `access.url` is the calendar events are written to ("primary" or a calendar id), `readUrls` further
 * calendar ids read for busy time. Busy time is one freeBusy query over all of them; events are
 * inserted with an id derived from their uid, so an insert retried after a lost answer finds its
 * own event (409) instead of making a second one.
 * https://developers.google.com/calendar/api/v3/reference/freebusy/query
 * https://developers.google.com/calendar/api/v3/reference/events/insert
 */
export class GoogleCalendarProvider implements CalendarProvider {
  constructor(private readonly options: GoogleCalendarOptions) {}

  async verify(access: CalendarAccess): Promise<void> {
    for (const id of calendarIds(access)) {
      const response = await this.request(access, this.calendarUrl(id), { method: "GET" });
      expectStatus(response, [200]);
    }
  }

  /** The primary calendar's id is its owner's email address. */
  async account(access: CalendarAccess): Promise<string> {
    const response = await this.request(access, this.calendarUrl("primary"), { method: "GET" });
    expectStatus(response, [200]);
    const id = (jsonBody(response) as { id?: unknown } | null)?.id;
    if (typeof id !== "string") throw new CalendarProviderError("unexpected_response", response.url, 200);
    return id;
  }

  async busy(access: CalendarAccess, window: Interval): Promise<Interval[]> {
    const ids = calendarIds(access);
    const url = `${this.base()}/calendar/v3/freeBusy`;
    const response = await this.request(access, url, {
      method: "POST",
      // A query: sending it twice answers twice.
      idempotent: true,
      body: {
        timeMin: new Date(window.start).toISOString(),
        timeMax: new Date(window.end).toISOString(),
        items: ids.map((id) => ({ id })),
      },
    });
    expectStatus(response, [200]);
    const calendars = (jsonBody(response) as { calendars?: Record<string, GoogleFreeBusy> } | null)
      ?.calendars;
    if (!calendars) throw new CalendarProviderError("unexpected_response", url, 200);
    const all: Interval[] = [];
    for (const id of ids) {
      // "primary" may come back under the calendar's real id, the account's email.
      const entry = calendars[id] ?? (id === "primary" ? calendars[access.username] : undefined);
      // A calendar the token cannot read comes back with errors instead of busy time (not an HTTP error).
      const error = entry?.errors?.[0]?.reason;
      if (!entry || error) {
        throw new CalendarProviderError(
          error === "notFound" ? "not_found" : "forbidden",
          this.calendarUrl(id),
        );
      }
      for (const period of entry.busy ?? []) {
        const start = Date.parse(period.start);
        const end = Date.parse(period.end);
        if (Number.isFinite(start) && Number.isFinite(end) && start < end) all.push({ start, end });
      }
    }
    return all.sort((a, b) => a.start - b.start);
  }

  async createEvent(access: CalendarAccess, event: CalendarEvent): Promise<{ externalId: string }> {
    const id = googleEventId(event.uid);
    const response = await this.request(access, this.eventsUrl(access), {
      method: "POST",
      idempotent: true,
      body: { id, iCalUID: event.uid, ...eventBody(event) },
    });
    // A 409 after a retry is this very insert having succeeded the first time.
    if (response.status === 409 && response.attempts > 1) return { externalId: id };
    expectStatus(response, [200]);
    return { externalId: id };
  }

  async updateEvent(access: CalendarAccess, externalId: string, event: CalendarEvent): Promise<void> {
    const response = await this.request(access, this.eventUrl(access, externalId), {
      method: "PATCH",
      idempotent: true,
      body: eventBody(event),
    });
    expectStatus(response, [200]);
  }

  async deleteEvent(access: CalendarAccess, externalId: string): Promise<void> {
    const response = await this.request(access, this.eventUrl(access, externalId), {
      method: "DELETE",
      idempotent: true,
    });
    // 410 Gone: deleted before (Google keeps cancelled events for a while).
    if (response.status === 404 || response.status === 410) return;
    expectStatus(response, [200, 204]);
  }

  private base(): string {
    return this.options.apiBaseUrl.replace(/\/+$/, "");
  }

  private calendarUrl(id: string): string {
    return `${this.base()}/calendar/v3/calendars/${encodeURIComponent(id)}`;
  }

  private eventsUrl(access: CalendarAccess): string {
    return `${this.calendarUrl(access.url)}/events`;
  }

  private eventUrl(access: CalendarAccess, externalId: string): string {
    return `${this.eventsUrl(access)}/${encodeURIComponent(externalId)}`;
  }

  private request(
    access: CalendarAccess,
    url: string,
    init: { method: string; body?: unknown; idempotent?: boolean },
  ) {
    const request: ProviderRequest = {
      method: init.method,
      headers: {
        authorization: `Bearer ${access.secret}`,
        accept: "application/json",
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      idempotent: init.idempotent ?? init.method === "GET",
    };
    return providerFetch(url, request, this.options);
  }
}

interface GoogleFreeBusy {
  busy?: { start: string; end: string }[];
  errors?: { domain?: string; reason?: string }[];
}

function calendarIds(access: CalendarAccess): string[] {
  return [...new Set([access.url, ...access.readUrls])];
}

/**
 * Google's event ids are 5 to 1024 characters of base32hex (0-9, a-v): the hex of the uid's SHA-256
 * qualifies, and names the same event for the same booking.
 */
export function googleEventId(uid: string): string {
  return createHash("sha256").update(uid).digest("hex");
}

function eventBody(event: CalendarEvent) {
  return {
    summary: event.summary,
    ...(event.description ? { description: event.description } : {}),
    start: { dateTime: event.start.toISOString() },
    end: { dateTime: event.end.toISOString() },
  };
}

function expectStatus(response: SafeFetchResult, expected: number[]): void {
  if (expected.includes(response.status)) return;
  // Google answers a quota running out with 403 (usageLimits): a pause, not a refusal of the grant.
  if (response.status === 403 && /ratelimitexceeded/i.test(response.body.toString("utf8"))) {
    throw new CalendarProviderError("unexpected_response", response.url, 403);
  }
  throw new CalendarProviderError(statusFailure(response.status), response.url, response.status);
}
