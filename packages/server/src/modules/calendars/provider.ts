import type { Interval } from "./busy-time.ts";
import type { CalendarEvent } from "./ical-writer.ts";

/** What a provider needs to reach one connection's calendars; `secret` is the opened credential. */
export interface CalendarAccess {
  /** The calendar events are written to; it is read for busy time too. */
  url: string;
  /** Further calendars read for busy time. */
  readUrls: readonly string[];
  username: string;
  secret: string;
}

/**
 * One calendar service (CalDAV, Cal.com, Google Calendar, Microsoft 365), chosen per connection and
 * injected at the composition root. Failures are `CalendarProviderError`s. What `url`, `readUrls`
 * and `secret` of `CalendarAccess` hold per provider: docs/calendars.md#connections.
 */
export interface CalendarProvider {
  /** Checks that the credentials open every calendar of the connection. */
  verify(access: CalendarAccess): Promise<void>;
  /**
   * Busy time overlapping `window` in all the connection's calendars. `floatingZone` is the zone of
   * times and all-day events that name none.
   */
  busy(access: CalendarAccess, window: Interval, floatingZone: string): Promise<Interval[]>;
  /** Creates the event in the write calendar; the returned id names it for update and delete. */
  createEvent(access: CalendarAccess, event: CalendarEvent): Promise<{ externalId: string }>;
  /**
   * Moves or changes the event. A provider whose reschedule makes a new record (Cal.com: a new
   * booking uid) returns the id that names the event from now on; the caller stores it.
   */
  updateEvent(
    access: CalendarAccess,
    externalId: string,
    event: CalendarEvent,
    // biome-ignore lint/suspicious/noConfusingVoidType: providers that keep the id return nothing at all
  ): Promise<void | { externalId: string }>;
  /** Deleting an event that is already gone succeeds. */
  deleteEvent(access: CalendarAccess, externalId: string): Promise<void>;
  /**
   * Optional: the provider account the credentials belong to (an email or username), shown on the
   * connection. Providers without one (CalDAV: the login is the username) leave it out.
   */
  account?(access: CalendarAccess): Promise<string>;
  /**
   * Set by providers that are booking systems themselves (Cal.com): they apply their own
   * availability rules, send the attendee their confirmation, and need `event.attendee` to book.
   * The attendee stays in their records, which their API does not let us rewrite (erasure leaves it).
   */
  readonly booksAttendees?: boolean;
}

export type CalendarFailure =
  /** The server refused the username or password (401). */
  | "unauthorized"
  /** The credentials were accepted but may not use this calendar (403). */
  | "forbidden"
  | "not_found"
  /** The URL answers, but is not a calendar collection. */
  | "not_a_calendar"
  /** The URL may not be reached from this server (private or reserved address). */
  | "blocked_address"
  | "invalid_url"
  | "timeout"
  | "unreachable"
  /** The event to create exists already, or the one to update changed meanwhile (412). */
  | "conflict"
  | "unexpected_response"
  /** The OAuth grant was revoked or expired (`invalid_grant`): the owner must sign in again. */
  | "revoked"
  /** The provider is not configured on this server (OAuth client id and secret). */
  | "not_configured"
  /** The provider refused the request's content (e.g. a booking without the attendee it needs). */
  | "rejected";

/** Failures that say the connection cannot work as saved (as opposed to a server that is down): the owner acts. */
const BREAKING_FAILURES: ReadonlySet<string> = new Set<CalendarFailure>([
  "unauthorized",
  "forbidden",
  "not_found",
  "not_a_calendar",
  "blocked_address",
  "invalid_url",
  "revoked",
]);

export function isBreakingFailure(reason: string): boolean {
  return BREAKING_FAILURES.has(reason);
}

const explanations: Record<CalendarFailure, string> = {
  unauthorized: "the calendar server refused the username or password",
  forbidden: "the calendar server does not let these credentials use the calendar",
  not_found: "the calendar server has no calendar at this URL",
  not_a_calendar: "the URL is not a calendar collection",
  blocked_address: "the URL points to an address this server may not reach",
  invalid_url: "the URL is not a valid http or https URL",
  timeout: "the calendar server did not answer in time",
  unreachable: "the calendar server could not be reached",
  conflict: "the event already exists or was changed meanwhile",
  unexpected_response: "the calendar server answered unexpectedly",
  revoked: "the provider no longer accepts the connection's sign-in (revoked or expired): connect it again",
  not_configured: "this server has no OAuth client for the provider (see docs/calendars.md)",
  rejected: "the provider refused the request",
};

export class CalendarProviderError extends Error {
  constructor(
    readonly reason: CalendarFailure,
    /** The calendar URL the failure concerns. */
    readonly url: string,
    readonly status?: number,
  ) {
    super(`${explanations[reason]}${status ? ` (HTTP ${status})` : ""}: ${url}`);
    this.name = "CalendarProviderError";
  }
}
