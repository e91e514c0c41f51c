/** Appointments Voxgate books in calendars, and the calendar functions of assistants (docs/calendars.md#bookings). */
export { AppointmentsService } from "./appointments.service.ts";
export { erasedEvent } from "./calendar-events.ts";
