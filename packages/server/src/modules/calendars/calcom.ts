import type { SafeFetchResult } from "../../net/safe-fetch.ts";
import type { Interval } from "./busy-time.ts";
import type { CalendarEvent } from "./ical-writer.ts";
import { type CalendarAccess, type CalendarProvider, CalendarProviderError } from "./provider.ts";
import { jsonBody, type ProviderHttpOptions, providerFetch, statusFailure } from "./provider-http.ts";

export interface CalComOptions extends ProviderHttpOptions {
  /** https://api.cal.com (VOXGATE_CALCOM_API_BASE_URL; a self-hosted Cal.com's API otherwise). */
  apiBaseUrl: string;
}

/** Each Cal.com v2 endpoint is pinned to the API version it was written against (cal-api-version). */
const VERSIONS = { eventTypes: "2024-06-14", slots: "2024-09-04", bookings: "2024-08-13" } as const;

/**
 * Cal.com API v2 with an API key (`access.secret`, `cal_live_…`), for one event type (`access.url`,
 * its numeric id). Cal.com is a booking system, not a calendar: it applies the event type's own
 * availability, buffers and limits and confirms to the attendee itself (`booksAttendees`). Busy
 * time is therefore derived from its bookable slots (the window minus the slots), which puts the
 * appointment type's rules on top of Cal.com's; a booking is a Cal.com booking of the event type
 * for `event.attendee`, a reschedule makes a new booking uid (returned), a cancel cancels it.
 * https://cal.com/docs/api-reference/v2/slots/get-available-time-slots-for-an-event-type
 * https://cal.com/docs/api-reference/v2/bookings/create-a-booking
 */
export class CalComProvider implements CalendarProvider {
  readonly booksAttendees = true;

  constructor(private readonly options: CalComOptions) {}

  async verify(access: CalendarAccess): Promise<void> {
    const response = await this.request(access, this.eventTypeUrl(access), {
      method: "GET",
      version: VERSIONS.eventTypes,
    });
    expectStatus(response, [200]);
  }

  async account(access: CalendarAccess): Promise<string> {
    const response = await this.request(access, `${this.base()}/v2/me`, { method: "GET" });
    expectStatus(response, [200]);
    const me = (jsonBody(response) as { data?: { email?: unknown; username?: unknown } } | null)?.data;
    const name = typeof me?.email === "string" && me.email ? me.email : me?.username;
    if (typeof name !== "string") throw new CalendarProviderError("unexpected_response", response.url, 200);
    return name;
  }

  async busy(access: CalendarAccess, window: Interval): Promise<Interval[]> {
    const url = new URL(`${this.base()}/v2/slots`);
    url.searchParams.set("eventTypeId", eventTypeId(access));
    url.searchParams.set("start", new Date(window.start).toISOString());
    url.searchParams.set("end", new Date(window.end).toISOString());
    url.searchParams.set("timeZone", "UTC");
    url.searchParams.set("format", "range");
    const response = await this.request(access, url.href, { method: "GET", version: VERSIONS.slots });
    expectStatus(response, [200]);
    const days = (jsonBody(response) as { data?: Record<string, { start?: string; end?: string }[]> } | null)
      ?.data;
    if (!days || typeof days !== "object")
      throw new CalendarProviderError("unexpected_response", url.href, 200);
    const free: Interval[] = [];
    for (const slots of Object.values(days)) {
      for (const slot of Array.isArray(slots) ? slots : []) {
        const start = Date.parse(slot.start ?? "");
        const end = Date.parse(slot.end ?? "");
        if (Number.isFinite(start) && Number.isFinite(end) && start < end) free.push({ start, end });
      }
    }
    return complement(window, free);
  }

  private async book(access: CalendarAccess, event: CalendarEvent): Promise<{ externalId: string }> {
    const url = `${this.base()}/v2/bookings`;
    const attendee = event.attendee;
    if (!attendee || (!attendee.email && !attendee.phone)) {
      throw new CalendarProviderError(
        "rejected",
        `${url} (a Cal.com booking needs the attendee's email or phone)`,
      );
    }
    const response = await this.request(access, url, {
      method: "POST",
      version: VERSIONS.bookings,
      body: {
        start: event.start.toISOString(),
        eventTypeId: Number(eventTypeId(access)),
        attendee: {
          name: attendee.name,
          timeZone: attendee.timeZone,
          ...(attendee.email ? { email: attendee.email } : {}),
          ...(attendee.phone ? { phoneNumber: attendee.phone } : {}),
          ...(attendee.language ? { language: attendee.language } : {}),
        },
        ...(event.description ? { bookingFieldsResponses: { notes: event.description } } : {}),
        metadata: { voxgateUid: event.uid },
      },
    });
    if (
      response.status === 400 &&
      /not available|already has booking|no available users/i.test(text(response))
    ) {
      throw new CalendarProviderError("conflict", url, 400);
    }
    expectStatus(response, [200, 201]);
    return { externalId: bookingUid(response) };
  }

  /**
   * A booking is not replayed (a second POST would book twice), but one whose answer was lost (a
   * timeout, a dropped connection, a 5xx from a gateway) may have been made: it is looked up by the
   * `voxgateUid` it carries in its metadata, and adopted when found. Not found, the failure stands.
   */
  async createEvent(access: CalendarAccess, event: CalendarEvent): Promise<{ externalId: string }> {
    try {
      return await this.book(access, event);
    } catch (error) {
      if (!(error instanceof CalendarProviderError) || !answerMayBeLost(error)) throw error;
      const made = await this.findBooking(access, event).catch(() => null);
      if (!made) throw error;
      return { externalId: made };
    }
  }

  /** The uid of the accepted booking of the event type at `event.start` made for `event`, or null. */
  private async findBooking(access: CalendarAccess, event: CalendarEvent): Promise<string | null> {
    const url = new URL(`${this.base()}/v2/bookings`);
    url.searchParams.set("eventTypeId", eventTypeId(access));
    url.searchParams.set("afterStart", event.start.toISOString());
    url.searchParams.set("beforeEnd", new Date(event.end.getTime() + 86_400_000).toISOString());
    const response = await this.request(access, url.href, { method: "GET", version: VERSIONS.bookings });
    expectStatus(response, [200]);
    const data = (jsonBody(response) as { data?: unknown } | null)?.data;
    const found = (Array.isArray(data) ? data : []).find(
      (booking: { uid?: unknown; status?: unknown; start?: unknown; metadata?: { voxgateUid?: unknown } }) =>
        booking?.metadata?.voxgateUid === event.uid &&
        booking.status !== "cancelled" &&
        Date.parse(String(booking.start)) === event.start.getTime() &&
        typeof booking.uid === "string",
    ) as { uid: string } | undefined;
    return found?.uid ?? null;
  }

  async updateEvent(
    access: CalendarAccess,
    externalId: string,
    event: CalendarEvent,
  ): Promise<{ externalId: string }> {
    const url = `${this.bookingUrl(externalId)}/reschedule`;
    const response = await this.request(access, url, {
      method: "POST",
      version: VERSIONS.bookings,
      body: { start: event.start.toISOString(), reschedulingReason: "Rescheduled by the assistant" },
    });
    if (
      response.status === 400 &&
      /not available|already has booking|no available users/i.test(text(response))
    ) {
      throw new CalendarProviderError("conflict", url, 400);
    }
    expectStatus(response, [200, 201]);
    return { externalId: bookingUid(response) };
  }

  async deleteEvent(access: CalendarAccess, externalId: string): Promise<void> {
    const response = await this.request(access, `${this.bookingUrl(externalId)}/cancel`, {
      method: "POST",
      version: VERSIONS.bookings,
      // Cancelling a cancelled booking changes nothing, so a retry is harmless (its 400 is success).
      idempotent: true,
      body: { cancellationReason: "Cancelled by the assistant" },
    });
    if (response.status === 404) return;
    if (response.status === 400 && /already (been )?cancel/i.test(text(response))) return;
    expectStatus(response, [200, 201]);
  }

  private base(): string {
    return this.options.apiBaseUrl.replace(/\/+$/, "");
  }

  private eventTypeUrl(access: CalendarAccess): string {
    return `${this.base()}/v2/event-types/${eventTypeId(access)}`;
  }

  private bookingUrl(uid: string): string {
    return `${this.base()}/v2/bookings/${encodeURIComponent(uid)}`;
  }

  private request(
    access: CalendarAccess,
    url: string,
    init: { method: string; version?: string; body?: unknown; idempotent?: boolean },
  ) {
    return providerFetch(
      url,
      {
        method: init.method,
        headers: {
          authorization: `Bearer ${access.secret}`,
          accept: "application/json",
          ...(init.version ? { "cal-api-version": init.version } : {}),
          ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        idempotent: init.idempotent ?? init.method === "GET",
      },
      this.options,
    );
  }
}

/** A failure after which the request may have been carried out: its answer, not the request, was lost. */
function answerMayBeLost(error: CalendarProviderError): boolean {
  return (
    error.reason === "timeout" ||
    error.reason === "unreachable" ||
    (error.status !== undefined && error.status >= 500)
  );
}

function eventTypeId(access: CalendarAccess): string {
  if (!/^\d{1,12}$/.test(access.url)) throw new CalendarProviderError("not_found", access.url);
  return access.url;
}

function bookingUid(response: SafeFetchResult): string {
  const data = (jsonBody(response) as { data?: unknown } | null)?.data;
  // A recurring event type answers with the list of its bookings; the first names the series.
  const booking = (Array.isArray(data) ? data[0] : data) as { uid?: unknown } | undefined;
  if (typeof booking?.uid !== "string") {
    throw new CalendarProviderError("unexpected_response", response.url, response.status);
  }
  return booking.uid;
}

/** The parts of `window` that no free interval covers. */
export function complement(window: Interval, free: Interval[]): Interval[] {
  const busy: Interval[] = [];
  let cursor = window.start;
  for (const slot of [...free].sort((a, b) => a.start - b.start)) {
    if (slot.start > cursor) busy.push({ start: cursor, end: Math.min(slot.start, window.end) });
    cursor = Math.max(cursor, slot.end);
    if (cursor >= window.end) break;
  }
  if (cursor < window.end) busy.push({ start: cursor, end: window.end });
  return busy.filter((interval) => interval.start < interval.end);
}

function text(response: SafeFetchResult): string {
  return response.body.toString("utf8").slice(0, 2000);
}

function expectStatus(response: SafeFetchResult, expected: number[]): void {
  if (expected.includes(response.status)) return;
  throw new CalendarProviderError(statusFailure(response.status), response.url, response.status);
}
