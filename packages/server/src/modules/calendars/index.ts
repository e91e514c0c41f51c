/** Calendar connections, appointment types and availability (GraphQL in `calendars.schema.ts`). */

export { type AvailabilityRules, availableSlots, type BusinessHours } from "./availability.ts";
export { CalDavProvider } from "./caldav.ts";
export { CalendarsService, MAX_AVAILABILITY_DAYS } from "./calendars.service.ts";
export type { CalendarEvent, Interval } from "./ical.ts";
export type { CalendarAccess, CalendarProvider } from "./provider.ts";
