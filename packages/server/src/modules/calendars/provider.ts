import type { CalendarEvent, Interval } from "./ical.ts";

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
 * One calendar service (CalDAV today; Cal.com, Google and Microsoft later), chosen per connection
 * and injected at the composition root. Failures are `CalendarProviderError`s.
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
  updateEvent(access: CalendarAccess, externalId: string, event: CalendarEvent): Promise<void>;
  /** Deleting an event that is already gone succeeds. */
  deleteEvent(access: CalendarAccess, externalId: string): Promise<void>;
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
  | "unexpected_response";

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
