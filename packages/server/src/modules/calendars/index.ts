/** Calendar connections, appointment types and availability (GraphQL in `calendars.schema.ts`). */
export { CalDavProvider } from "./caldav.ts";
export { CalendarsService } from "./calendars.service.ts";
export type { CalendarProvider } from "./provider.ts";
