import type { SafeFetchResult } from "../../net/safe-fetch.ts";
import { busyIntervals, type Interval } from "./busy-time.ts";
import { eventStarts } from "./ical.ts";
import { type CalendarEvent, eventToICalendar } from "./ical-writer.ts";
import { type CalendarAccess, type CalendarProvider, CalendarProviderError } from "./provider.ts";
import { type ProviderHttpOptions, providerFetch, statusFailure } from "./provider-http.ts";

/**
 * `allowList` is config.outboundAllowList: calendar URLs are user-supplied, so they pass the SSRF
 * guard. Reads (PROPFIND, REPORT, GET), DELETE and the PUT that creates an event are retried; the
 * PUT that replaces one is not (its If-Match would fail on a replay of one that succeeded).
 */
export interface CalDavOptions extends ProviderHttpOptions {
  /** Reports a recurring event whose rule is not expanded (see busy-time.ts `busyIntervals`). */
  onUnexpandedRules?: (url: string, count: number) => void;
  now?: () => Date;
}

/**
 * CalDAV (RFC 4791) over HTTP Basic authentication: Nextcloud, Radicale, Fastmail, iCloud (with an
 * app password). Busy time comes from a `calendar-query` REPORT with a time range, not from a
 * `free-busy-query` (which several servers, Radicale among them, answer without a VFREEBUSY);
 * recurring events are expanded here (busy-time.ts), since servers' `expand` support varies.
 */
export class CalDavProvider implements CalendarProvider {
  constructor(private readonly options: CalDavOptions) {}

  async verify(access: CalendarAccess): Promise<void> {
    for (const url of calendarUrls(access)) {
      const response = await this.request(access, url, {
        method: "PROPFIND",
        idempotent: true,
        headers: { depth: "0", "content-type": "application/xml; charset=utf-8" },
        body:
          '<?xml version="1.0" encoding="utf-8"?><d:propfind xmlns:d="DAV:">' +
          "<d:prop><d:resourcetype/></d:prop></d:propfind>",
      });
      expectStatus(response, url, [207]);
      if (!isCalendarCollection(response.body.toString("utf8"))) {
        throw new CalendarProviderError("not_a_calendar", url);
      }
    }
  }

  async busy(access: CalendarAccess, window: Interval, floatingZone: string): Promise<Interval[]> {
    const range = `start="${utcStamp(window.start)}" end="${utcStamp(window.end)}"`;
    const body =
      '<?xml version="1.0" encoding="utf-8"?>' +
      '<c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">' +
      "<d:prop><c:calendar-data/></d:prop>" +
      '<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">' +
      `<c:time-range ${range}/>` +
      "</c:comp-filter></c:comp-filter></c:filter></c:calendar-query>";
    const all: Interval[] = [];
    for (const url of calendarUrls(access)) {
      const response = await this.request(access, url, {
        method: "REPORT",
        idempotent: true,
        headers: { depth: "1", "content-type": "application/xml; charset=utf-8" },
        body,
      });
      expectStatus(response, url, [207]);
      const { intervals, unexpandedRules } = busyIntervals(
        calendarData(response.body.toString("utf8")),
        window,
        floatingZone,
      );
      if (unexpandedRules > 0) this.options.onUnexpandedRules?.(url, unexpandedRules);
      all.push(...intervals);
    }
    return all.sort((a, b) => a.start - b.start);
  }

  async createEvent(access: CalendarAccess, event: CalendarEvent): Promise<{ externalId: string }> {
    const url = new URL(`${encodeURIComponent(event.uid)}.ics`, collectionUrl(access.url)).href;
    const response = await this.request(access, url, {
      method: "PUT",
      // Retried after a timeout or a 5xx: a replay of a PUT that did land meets its own event (412)
      // and is recognised below, so a write whose answer was lost leaves no event we do not know of.
      idempotent: true,
      // Never overwrites: a UID that exists already is a conflict, not a silent replacement.
      headers: { "content-type": "text/calendar; charset=utf-8", "if-none-match": "*" },
      body: eventToICalendar(event, this.now()),
    });
    if (response.status === 412) {
      if (await this.holdsEvent(access, url, event)) return { externalId: url };
      throw new CalendarProviderError("conflict", url, 412);
    }
    expectStatus(response, url, [200, 201, 204]);
    return { externalId: url };
  }

  /**
   * Whether `url` holds this very event (its UID at its start): the event's name is derived from its
   * UID, which is derived from the booking's idempotency key, so it is this booking written before.
   */
  private async holdsEvent(access: CalendarAccess, url: string, event: CalendarEvent): Promise<boolean> {
    const current = await this.request(access, url, { method: "GET", headers: {}, idempotent: true });
    if (current.status !== 200) return false;
    return eventStarts(current.body.toString("utf8")).some(
      (stored) => stored.uid === event.uid && stored.start === event.start.getTime(),
    );
  }

  /**
   * Replaces the event if it still exists: its current ETag is the precondition (some servers,
   * Radicale among them, do not take `If-Match: *`), so an event deleted meanwhile is not recreated
   * and one changed meanwhile is a conflict.
   */
  async updateEvent(access: CalendarAccess, externalId: string, event: CalendarEvent): Promise<void> {
    const url = this.ownEventUrl(access, externalId);
    const current = await this.request(access, url, { method: "GET", headers: {}, idempotent: true });
    if (current.status === 404) throw new CalendarProviderError("not_found", url, 404);
    expectStatus(current, url, [200]);
    const etag = current.headers.get("etag");
    const response = await this.request(access, url, {
      method: "PUT",
      idempotent: false,
      headers: { "content-type": "text/calendar; charset=utf-8", ...(etag ? { "if-match": etag } : {}) },
      body: eventToICalendar(event, this.now()),
    });
    if (response.status === 412) throw new CalendarProviderError("conflict", url, 412);
    expectStatus(response, url, [200, 201, 204]);
  }

  async deleteEvent(access: CalendarAccess, externalId: string): Promise<void> {
    const url = this.ownEventUrl(access, externalId);
    const response = await this.request(access, url, { method: "DELETE", headers: {}, idempotent: true });
    if (response.status === 404) return;
    expectStatus(response, url, [200, 204]);
  }

  /** An event id is the event's URL: it must lie in the connection's write calendar. */
  private ownEventUrl(access: CalendarAccess, externalId: string): string {
    const collection = collectionUrl(access.url);
    // Normalised first, so that `..` segments cannot lead out of the calendar.
    const url = URL.canParse(externalId) ? new URL(externalId).href : "";
    if (!url.startsWith(collection.href) || url === collection.href) {
      throw new CalendarProviderError("not_found", externalId);
    }
    return url;
  }

  private now(): Date {
    return this.options.now?.() ?? new Date();
  }

  private request(
    access: CalendarAccess,
    url: string,
    init: { method: string; headers: Record<string, string>; body?: string; idempotent: boolean },
  ): Promise<SafeFetchResult> {
    const credentials = Buffer.from(`${access.username}:${access.secret}`, "utf8").toString("base64");
    return providerFetch(
      url,
      { ...init, headers: { ...init.headers, authorization: `Basic ${credentials}` } },
      this.options,
    );
  }
}

function calendarUrls(access: CalendarAccess): string[] {
  return [...new Set([access.url, ...access.readUrls])];
}

/** A collection's URL ends with a slash, so that event names resolve inside it. */
function collectionUrl(url: string): URL {
  return new URL(url.endsWith("/") ? url : `${url}/`);
}

function expectStatus(response: SafeFetchResult, url: string, expected: number[]): void {
  if (expected.includes(response.status)) return;
  const reason = statusFailure(response.status);
  throw new CalendarProviderError(
    reason === "conflict" ? "unexpected_response" : reason,
    url,
    response.status,
  );
}

function utcStamp(at: number): string {
  return new Date(at)
    .toISOString()
    .replace(/\.\d{3}/, "")
    .replace(/[-:]/g, "");
}

/** Whether a PROPFIND answer's resourcetype holds CalDAV's `calendar` element, whatever its prefix. */
function isCalendarCollection(xml: string): boolean {
  const resourcetype = xml.match(/<(?:[\w.-]+:)?resourcetype\b[^>]*>([\s\S]*?)<\/(?:[\w.-]+:)?resourcetype>/);
  return resourcetype !== null && /<(?:[\w.-]+:)?calendar[\s/>]/.test(resourcetype[1] ?? "");
}

/** The calendar-data texts of a multistatus answer, unescaped (XML entities or CDATA). */
function calendarData(xml: string): string[] {
  const texts: string[] = [];
  for (const match of xml.matchAll(/<((?:[\w.-]+:)?calendar-data)\b[^>]*>([\s\S]*?)<\/\1>/g)) {
    const content = match[2] ?? "";
    const cdata = content.match(/^\s*<!\[CDATA\[([\s\S]*)\]\]>\s*$/);
    texts.push(cdata ? (cdata[1] ?? "") : unescapeXml(content));
  }
  return texts;
}

function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|lt|gt|amp|quot|apos);/gi, (_, entity: string) => {
    const named: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
    if (entity[0] !== "#") return named[entity.toLowerCase()] ?? "";
    const code =
      entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : Number(entity.slice(1));
    return String.fromCodePoint(code);
  });
}
