/** Appointments Voxgate books in calendars, and the calendar functions of assistants (docs/calendars.md#bookings). */
export { AppointmentsService, erasedEvent } from "./appointments.service.ts";
