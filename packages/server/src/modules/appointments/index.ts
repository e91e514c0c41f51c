/** Appointments Voxgate books in calendars, and the calendar functions of assistants (docs/calendars.md#bookings). */
export { AppointmentsService, type BookingOrigin } from "./appointments.service.ts";
export type { BookingContext } from "./booking-functions.ts";
