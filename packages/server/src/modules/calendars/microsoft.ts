import type { SafeFetchResult } from "../../net/safe-fetch.ts";
import type { Interval } from "./busy-time.ts";
import type { CalendarEvent } from "./ical-writer.ts";
import { type CalendarAccess, type CalendarProvider, CalendarProviderError } from "./provider.ts";
import { jsonBody, type ProviderHttpOptions, providerFetch, statusFailure } from "./provider-http.ts";

export interface MicrosoftGraphOptions extends ProviderHttpOptions {
  /** https://graph.microsoft.com/v1.0 (VOXGATE_MICROSOFT_GRAPH_BASE_URL). */
  graphBaseUrl: string;
}

/** getSchedule statuses that make time unbookable; free, workingElsewhere and unknown do not. */
const BUSY_STATUSES = new Set(["busy", "tentative", "oof"]);

/**
 * Microsoft 365 through Microsoft Graph v1.0 with an OAuth access token (`access.secret`, kept
 * fresh by the service). `access.url` is the calendar events are written to ("primary" = the
 * mailbox's default calendar, or a calendar id); busy time is the getSchedule of the signed-in
 * mailbox (`access.username`) and of the further mailboxes in `readUrls` (shared or room calendars
 * whose free/busy the account may see). Events are created with a `transactionId` from their uid,
 * which Graph uses to drop a retried duplicate POST.
 * https://learn.microsoft.com/graph/api/calendar-getschedule
 * https://learn.microsoft.com/graph/api/user-post-events
 */
export class MicrosoftGraphProvider implements CalendarProvider {
  constructor(private readonly options: MicrosoftGraphOptions) {}

  async verify(access: CalendarAccess): Promise<void> {
    const response = await this.request(access, this.calendarUrl(access), { method: "GET" });
    expectStatus(response, [200]);
    if (access.readUrls.length > 0)
      await this.busy(access, { start: Date.now(), end: Date.now() + 3_600_000 });
  }

  async account(access: CalendarAccess): Promise<string> {
    const response = await this.request(access, `${this.base()}/me`, { method: "GET" });
    expectStatus(response, [200]);
    const me = jsonBody(response) as { mail?: unknown; userPrincipalName?: unknown } | null;
    const name = typeof me?.mail === "string" && me.mail ? me.mail : me?.userPrincipalName;
    if (typeof name !== "string") throw new CalendarProviderError("unexpected_response", response.url, 200);
    return name;
  }

  async busy(access: CalendarAccess, window: Interval): Promise<Interval[]> {
    const schedules = [...new Set([access.username, ...access.readUrls])];
    const url = `${this.base()}/me/calendar/getSchedule`;
    const response = await this.request(access, url, {
      method: "POST",
      // A query: sending it twice answers twice.
      idempotent: true,
      headers: { prefer: 'outlook.timezone="UTC"' },
      body: {
        schedules,
        startTime: { dateTime: graphDateTime(window.start), timeZone: "UTC" },
        endTime: { dateTime: graphDateTime(window.end), timeZone: "UTC" },
        availabilityViewInterval: 15,
      },
    });
    expectStatus(response, [200]);
    const value = (jsonBody(response) as { value?: GraphSchedule[] } | null)?.value;
    if (!Array.isArray(value)) throw new CalendarProviderError("unexpected_response", url, 200);
    const all: Interval[] = [];
    for (const schedule of value) {
      // A mailbox whose free/busy the account may not see answers with an error, not an HTTP failure.
      if (schedule.error) throw new CalendarProviderError("forbidden", `${url} (${schedule.scheduleId})`);
      for (const item of schedule.scheduleItems ?? []) {
        if (!BUSY_STATUSES.has(String(item.status).toLowerCase())) continue;
        const start = parseUtc(item.start?.dateTime);
        const end = parseUtc(item.end?.dateTime);
        if (start !== null && end !== null && start < end) all.push({ start, end });
      }
    }
    return all.sort((a, b) => a.start - b.start);
  }

  async createEvent(access: CalendarAccess, event: CalendarEvent): Promise<{ externalId: string }> {
    const response = await this.request(access, `${this.calendarUrl(access)}/events`, {
      method: "POST",
      // Graph drops a POST that repeats a transactionId it has seen, answering with the first event.
      idempotent: true,
      body: { ...eventBody(event), transactionId: event.uid },
    });
    expectStatus(response, [200, 201]);
    const id = (jsonBody(response) as { id?: unknown } | null)?.id;
    if (typeof id !== "string") throw new CalendarProviderError("unexpected_response", response.url, 201);
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
    if (response.status === 404) return;
    expectStatus(response, [200, 204]);
  }

  private base(): string {
    return this.options.graphBaseUrl.replace(/\/+$/, "");
  }

  private calendarUrl(access: CalendarAccess): string {
    return access.url === "primary"
      ? `${this.base()}/me/calendar`
      : `${this.base()}/me/calendars/${encodeURIComponent(access.url)}`;
  }

  private eventUrl(access: CalendarAccess, externalId: string): string {
    return `${this.calendarUrl(access)}/events/${encodeURIComponent(externalId)}`;
  }

  private request(
    access: CalendarAccess,
    url: string,
    init: { method: string; body?: unknown; idempotent?: boolean; headers?: Record<string, string> },
  ) {
    return providerFetch(
      url,
      {
        method: init.method,
        headers: {
          authorization: `Bearer ${access.secret}`,
          accept: "application/json",
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
          ...init.headers,
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        idempotent: init.idempotent ?? init.method === "GET",
      },
      this.options,
    );
  }
}

interface GraphSchedule {
  scheduleId?: string;
  error?: { message?: string; responseCode?: string };
  scheduleItems?: { status?: string; start?: { dateTime?: string }; end?: { dateTime?: string } }[];
}

/** Graph's dateTimeTimeZone takes a local time without offset; with timeZone UTC that is the UTC time. */
function graphDateTime(at: number): string {
  return new Date(at).toISOString().replace(/Z$/, "");
}

/** A Graph dateTime in UTC ("2027-01-04T10:00:00.0000000", no offset). */
function parseUtc(value: string | undefined): number | null {
  if (!value) return null;
  const at = Date.parse(/(Z|[+-]\d\d:\d\d)$/.test(value) ? value : `${value.slice(0, 23)}Z`);
  return Number.isNaN(at) ? null : at;
}

function eventBody(event: CalendarEvent) {
  return {
    subject: event.summary,
    ...(event.description ? { body: { contentType: "text", content: event.description } } : {}),
    start: { dateTime: graphDateTime(event.start.getTime()), timeZone: "UTC" },
    end: { dateTime: graphDateTime(event.end.getTime()), timeZone: "UTC" },
  };
}

function expectStatus(response: SafeFetchResult, expected: number[]): void {
  if (expected.includes(response.status)) return;
  throw new CalendarProviderError(statusFailure(response.status), response.url, response.status);
}
