import { createHash } from "node:crypto";
import type { Appointment } from "../../generated/prisma/client.ts";
import type { CalendarEvent } from "../calendars/index.ts";

/** The event a booking writes in its calendar: the slot, who is coming and how to reach them. */
export function bookingEvent(appointment: Appointment, uid: string): CalendarEvent {
  const contact = [appointment.customerPhone, appointment.customerEmail].filter(Boolean).join(", ");
  return {
    uid,
    start: appointment.startsAt,
    end: appointment.endsAt,
    summary: `${appointment.appointmentTypeName}: ${appointment.customerName}`,
    description: [
      `Customer: ${appointment.customerName}${contact ? ` (${contact})` : ""}`,
      ...(appointment.notes ? [`Notes: ${appointment.notes}`] : []),
      "Booked through Voxgate.",
    ].join("\n"),
    // Providers that book people rather than write events (Cal.com) need who is coming.
    attendee: {
      name: appointment.customerName,
      ...(appointment.customerEmail ? { email: appointment.customerEmail } : {}),
      ...(appointment.customerPhone ? { phone: appointment.customerPhone } : {}),
      timeZone: appointment.timezone,
    },
  };
}

/**
 * What a booking's calendar event becomes when its customer is erased: the same slot and UID (CalDAV
 * replaces the event by it), the appointment type, and no name, number, email or notes. The
 * description is never empty, since an update that leaves it out keeps the old one (Google, Microsoft).
 */
export function erasedEvent(appointment: Appointment): CalendarEvent {
  return {
    uid: eventUid(appointment.accountId, appointment.idempotencyKey),
    start: appointment.startsAt,
    end: appointment.endsAt,
    summary: `${appointment.appointmentTypeName} (customer data erased)`,
    description: "The customer's details were erased at their request. Booked through Voxgate.",
  };
}

/**
 * The event's UID follows from the booking's key, so a provider that refuses a second event with
 * one UID (CalDAV's If-None-Match) refuses a duplicate write of the same booking.
 */
export function eventUid(accountId: number, key: string): string {
  return `voxgate-${createHash("sha256").update(`${accountId}:${key}`).digest("hex").slice(0, 32)}`;
}
