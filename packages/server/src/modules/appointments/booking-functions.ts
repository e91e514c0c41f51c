import type { Appointment, AppointmentType } from "../../generated/prisma/client.ts";
import { type FunctionSet, type RealtimeFunction, refused, runBuiltin } from "../message-pipeline/index.ts";
import {
  DAY_MS,
  isoIn,
  localeOf,
  MAX_RANGE_DAYS,
  parseStart,
  type Range,
  rangeOf,
  speak,
  stringArgument,
} from "./booking-times.ts";

/** What the functions ask of the appointments service. */
export interface BookingOperations {
  now(): Date;
  availableSlots(
    accountId: number,
    appointmentTypeId: number,
    from: Date,
    to: Date,
  ): Promise<{ start: number }[]>;
  book(
    accountId: number,
    input: {
      appointmentTypeId: number;
      startsAt: Date;
      customerName: string;
      customerPhone: string | null;
      customerEmail: string | null;
      notes: string | null;
      idempotencyKey: string;
    },
    origin: { assistantId: number; callId: number | null; conversationId: string | null },
  ): Promise<Appointment>;
  upcoming(
    accountId: number,
    customer: { conversationId: string | null; callId: number | null; phone: string | null },
  ): Promise<Appointment[]>;
  reschedule(accountId: number, id: number, startsAt: Date): Promise<Appointment>;
  cancel(accountId: number, id: number): Promise<Appointment>;
}

/** Slots one check_availability answer offers: a short list a person can take in. */
export const MAX_OFFERED_SLOTS = 6;
/** How far "the earliest" looks ahead (in MAX_RANGE_DAYS steps, within the type's horizon). */
const EARLIEST_SEARCH_DAYS = 56;

/** Who is booking, where, and in which turn (see `bookingFunctionSet`). */
export interface BookingContext {
  accountId: number;
  assistantId: number;
  /** The assistant's zone and language: what times are phrased in. */
  timezone: string;
  language: string | null;
  callId?: number | null;
  conversationId?: string | null;
  /**
   * The customer's number as the carrier gave it (a phone call, a conversation by text): the default
   * contact, and whose bookings they may see.
   */
  callerPhone?: string | null;
  /**
   * Names the conversation turn (or the call): the same slot booked again under it is the same
   * booking, so a model's or a network's retry never books twice.
   */
  turnKey: string;
}

/**
 * The calendar functions of an assistant with appointment types: check_availability,
 * book_appointment, find_appointments, reschedule_appointment and cancel_appointment. A customer
 * sees and changes only their own bookings: those of this conversation or call, or, on a phone
 * call, under the number they call from.
 */
export function bookingFunctionSet(
  service: BookingOperations,
  types: readonly AppointmentType[],
  context: BookingContext,
): FunctionSet {
  const locale = localeOf(context.language);
  const zone = context.timezone;
  // A cancellation or move in this turn makes a later booking of the same slot a new one.
  let generation = 0;
  const spoken = (at: Date | number) => speak(at, zone, locale);
  const describe = (appointment: Appointment) => ({
    appointment_id: appointment.id,
    appointment_type: appointment.appointmentTypeName,
    status: appointment.status,
    start: isoIn(appointment.startsAt.getTime(), zone),
    when: spoken(appointment.startsAt),
    customer_name: appointment.customerName,
  });
  const typeArgument =
    types.length > 1
      ? {
          appointment_type: {
            type: "string",
            enum: types.map((type) => type.name),
            description: "Which kind of appointment.",
          },
        }
      : {};
  const typeRequired = types.length > 1 ? ["appointment_type"] : [];
  const pickType = (args: Record<string, unknown>): AppointmentType | string => {
    if (types.length === 1) return types[0]!;
    const type = types.find((candidate) => candidate.name === args.appointment_type);
    return type ?? `appointment_type must be one of: ${types.map((candidate) => candidate.name).join(", ")}.`;
  };
  const ownBooking = async (args: Record<string, unknown>): Promise<Appointment | string> => {
    const id = Number(args.appointment_id);
    const own = await service.upcoming(context.accountId, {
      conversationId: context.conversationId ?? null,
      callId: context.callId ?? null,
      phone: context.callerPhone ?? null,
    });
    return (
      own.find((appointment) => appointment.id === id) ??
      "There is no upcoming appointment of this customer with that appointment_id; call find_appointments."
    );
  };

  const definitions: RealtimeFunction[] = [
    {
      type: "function",
      name: "check_availability",
      description: `Finds free appointment times. Give a date, a range of dates, or nothing for the earliest times. Times are in ${zone}; offer the customer a few of them.`,
      parameters: {
        type: "object",
        properties: {
          ...typeArgument,
          date: { type: "string", description: "One day, YYYY-MM-DD." },
          from_date: { type: "string", description: "First day of a range, YYYY-MM-DD." },
          to_date: {
            type: "string",
            description: `Last day of a range (at most ${MAX_RANGE_DAYS} days), YYYY-MM-DD.`,
          },
        },
        required: typeRequired,
      },
    },
    {
      type: "function",
      name: "book_appointment",
      description:
        "Books a free time found by check_availability, once the customer chose it and gave their name. Confirm the details with the customer first.",
      parameters: {
        type: "object",
        properties: {
          ...typeArgument,
          start: {
            type: "string",
            description: "The chosen time's `start`, exactly as check_availability gave it.",
          },
          customer_name: { type: "string", description: "The customer's full name." },
          phone: {
            type: "string",
            description: context.callerPhone
              ? "Phone number in E.164; leave out to use the number the customer is calling or texting from."
              : "The customer's phone number in E.164 (e.g. +14155550123).",
          },
          email: { type: "string", description: "The customer's email address." },
          notes: { type: "string", description: "Anything the business should know (reason for the visit)." },
        },
        required: [...typeRequired, "start", "customer_name"],
      },
    },
    {
      type: "function",
      name: "find_appointments",
      description: "Lists this customer's upcoming appointments (with their appointment_id).",
      parameters: { type: "object", properties: {} },
    },
    {
      type: "function",
      name: "reschedule_appointment",
      description:
        "Moves one of the customer's appointments to another free time found by check_availability.",
      parameters: {
        type: "object",
        properties: {
          appointment_id: { type: "integer", description: "From find_appointments or book_appointment." },
          start: {
            type: "string",
            description: "The new time's `start`, exactly as check_availability gave it.",
          },
        },
        required: ["appointment_id", "start"],
      },
    },
    {
      type: "function",
      name: "cancel_appointment",
      description: "Cancels one of the customer's appointments, once they confirmed they want to cancel it.",
      parameters: {
        type: "object",
        properties: {
          appointment_id: { type: "integer", description: "From find_appointments or book_appointment." },
        },
        required: ["appointment_id"],
      },
    },
  ];

  return {
    definitions: () => definitions,
    run: async (name, args) => {
      switch (name) {
        case "check_availability": {
          const type = pickType(args);
          if (typeof type === "string") return refused(name, type, args);
          const range = rangeOf(args, zone);
          if (typeof range === "string") return refused(name, range, args);
          return runBuiltin(name, args, async () => {
            const { slots, total } = await findSlots(service, context.accountId, type, range);
            return {
              appointment_type: type.name,
              timezone: zone,
              slots: slots.map((slot) => ({ start: isoIn(slot.start, zone), when: spoken(slot.start) })),
              ...(total > slots.length ? { more_available: total - slots.length } : {}),
              ...(slots.length === 0 ? { note: "No free times in that period; try other days." } : {}),
            };
          });
        }
        case "book_appointment": {
          const type = pickType(args);
          if (typeof type === "string") return refused(name, type, args);
          const start = parseStart(args.start, zone);
          if (start === null) return refused(name, "start must be a time from check_availability.", args);
          const phone = stringArgument(args.phone) ?? context.callerPhone ?? null;
          const email = stringArgument(args.email);
          if (!phone && !email)
            return refused(name, "Ask the customer for a phone number or an email address first.", args);
          return runBuiltin(name, args, async () =>
            describe(
              await service.book(
                context.accountId,
                {
                  appointmentTypeId: type.id,
                  startsAt: start,
                  customerName: stringArgument(args.customer_name) ?? "",
                  customerPhone: phone,
                  customerEmail: email,
                  notes: stringArgument(args.notes),
                  idempotencyKey: `${context.turnKey}:${generation}:${type.id}:${start.toISOString()}`,
                },
                {
                  assistantId: context.assistantId,
                  callId: context.callId ?? null,
                  conversationId: context.conversationId ?? null,
                },
              ),
            ),
          );
        }
        case "find_appointments":
          return runBuiltin(name, args, async () => {
            const own = await service.upcoming(context.accountId, {
              conversationId: context.conversationId ?? null,
              callId: context.callId ?? null,
              phone: context.callerPhone ?? null,
            });
            return { appointments: own.map(describe) };
          });
        case "reschedule_appointment": {
          const start = parseStart(args.start, zone);
          if (start === null) return refused(name, "start must be a time from check_availability.", args);
          const own = await ownBooking(args);
          if (typeof own === "string") return refused(name, own, args);
          return runBuiltin(name, args, async () => {
            const moved = await service.reschedule(context.accountId, own.id, start);
            generation += 1;
            return describe(moved);
          });
        }
        case "cancel_appointment": {
          const own = await ownBooking(args);
          if (typeof own === "string") return refused(name, own, args);
          return runBuiltin(name, args, async () => {
            const cancelled = await service.cancel(context.accountId, own.id);
            generation += 1;
            return describe(cancelled);
          });
        }
        default:
          return undefined;
      }
    },
  };
}

async function findSlots(
  service: BookingOperations,
  accountId: number,
  type: AppointmentType,
  range: Range,
): Promise<{ slots: { start: number }[]; total: number }> {
  if (range.kind === "window") {
    const slots = await service.availableSlots(accountId, type.id, new Date(range.from), new Date(range.to));
    return { slots: spread(slots, type.timezone), total: slots.length };
  }
  const now = service.now().getTime();
  const horizon = Math.min(type.horizonDays, EARLIEST_SEARCH_DAYS) * DAY_MS;
  for (let from = now; from < now + horizon; from += MAX_RANGE_DAYS * DAY_MS) {
    const to = Math.min(from + MAX_RANGE_DAYS * DAY_MS, now + horizon);
    const slots = await service.availableSlots(accountId, type.id, new Date(from), new Date(to));
    if (slots.length > 0) return { slots: slots.slice(0, MAX_OFFERED_SLOTS), total: slots.length };
  }
  return { slots: [], total: 0 };
}

/** A short list over a longer range: the first slots of as many different days as fit. */
function spread<T extends { start: number }>(slots: T[], zone: string): T[] {
  if (slots.length <= MAX_OFFERED_SLOTS) return slots;
  const chosen: T[] = [];
  const days = new Set<string>();
  for (const slot of slots) {
    const day = isoIn(slot.start, zone).slice(0, 10);
    if (days.has(day)) continue;
    days.add(day);
    chosen.push(slot);
    if (chosen.length === MAX_OFFERED_SLOTS) return chosen;
  }
  for (const slot of slots) {
    if (chosen.length === MAX_OFFERED_SLOTS) break;
    if (!chosen.includes(slot)) chosen.push(slot);
  }
  return chosen.sort((a, b) => a.start - b.start);
}
