/** Calendar connections, appointment types and availability (GraphQL in `calendars.schema.ts`). */
import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import type { EventSink } from "../../events.ts";
import { SecretBox } from "../../secret-box.ts";
import { CalComProvider } from "./calcom.ts";
import { CalDavProvider } from "./caldav.ts";
import { CalendarOAuthService } from "./calendar-oauth.service.ts";
import { CalendarsService } from "./calendars.service.ts";
import { ConnectionStatus } from "./connection-status.ts";
import { GoogleCalendarProvider } from "./google.ts";
import { MicrosoftGraphProvider } from "./microsoft.ts";
import { OAuthClient } from "./oauth.ts";

export {
  type AvailabilityRules,
  availableSlots,
  type BusinessHours,
  WEEKDAY_KEYS,
} from "./availability.ts";
export type { Interval } from "./busy-time.ts";
export { CalDavProvider } from "./caldav.ts";
export { CALLBACK_PATH, CalendarOAuthService, type OAuthOutcome } from "./calendar-oauth.service.ts";
export {
  BusinessHoursInput,
  CalendarsService,
  type EventRewrite,
  MAX_AVAILABILITY_DAYS,
} from "./calendars.service.ts";
export type { CalendarEvent } from "./ical-writer.ts";
export { type CalendarAccess, type CalendarProvider, isBreakingFailure } from "./provider.ts";

/** Google's scopes: calendar.readonly for freeBusy and the calendars' ids, calendar.events to write. */
export const GOOGLE_SCOPES = [
  "https://www.googleapis.com/auth/calendar.readonly",
  "https://www.googleapis.com/auth/calendar.events",
];
/** Microsoft's: offline_access for a refresh token, User.Read for the mailbox's address. */
export const MICROSOFT_SCOPES = ["offline_access", "User.Read", "Calendars.ReadWrite"];

/**
 * The calendar providers (every request through the SSRF guard, with the configured timeout and
 * retries), the OAuth clients of the configured providers, and the services over them.
 */
export function createCalendars(deps: ServiceDeps, parts: { events: EventSink; clock: Clock }) {
  const config = deps.config.calendars;
  const http = { timeoutMs: config.timeoutMs, allowList: deps.config.outboundAllowList };
  const secrets = new SecretBox(deps.config, deps.logger);
  const providers = {
    caldav: new CalDavProvider({
      ...http,
      onUnexpandedRules: (url, count) =>
        deps.logger.warn(
          "calendar has recurring events whose rules are not expanded; only their first occurrence counts as busy",
          { url, count },
        ),
    }),
    calcom: new CalComProvider({ ...http, apiBaseUrl: config.calcomApiBaseUrl }),
    google: new GoogleCalendarProvider({ ...http, apiBaseUrl: config.google.apiBaseUrl }),
    microsoft: new MicrosoftGraphProvider({ ...http, graphBaseUrl: config.microsoft.graphBaseUrl }),
  };
  const google = config.google.client;
  const microsoft = config.microsoft.client;
  const clients = {
    google:
      google &&
      new OAuthClient(
        {
          clientId: google.id,
          clientSecret: google.secret,
          authorizeUrl: config.google.authUrl,
          tokenUrl: config.google.tokenUrl,
          scopes: GOOGLE_SCOPES,
          // offline + consent: Google issues a refresh token only then, and again on a new sign-in.
          authorizeParams: { access_type: "offline", prompt: "consent" },
        },
        http,
      ),
    microsoft:
      microsoft &&
      new OAuthClient(
        {
          clientId: microsoft.id,
          clientSecret: microsoft.secret,
          authorizeUrl: `${config.microsoft.authorityUrl}/authorize`,
          tokenUrl: `${config.microsoft.authorityUrl}/token`,
          scopes: MICROSOFT_SCOPES,
          authorizeParams: { response_mode: "query", prompt: "select_account" },
          scopeOnRefresh: true,
        },
        http,
      ),
  };
  const status = new ConnectionStatus(deps, parts.events, parts.clock);
  const calendarOAuth = new CalendarOAuthService(deps, {
    secrets,
    clients,
    providers,
    status,
    clock: parts.clock,
  });
  const calendars = new CalendarsService(deps, {
    secrets,
    providers,
    oauth: calendarOAuth,
    status,
    clock: parts.clock,
  });
  return { calendars, calendarOAuth };
}
