import { randomUUID } from "node:crypto";
import { z } from "zod";
import { type Clock, systemClock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError, ValidationError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import type { Appointment, Prisma } from "../../generated/prisma/client.ts";
import { emailAddress, optionalString, parseInput, requiredString } from "../../validation.ts";
import { type CalendarsService, type Interval, MAX_AVAILABILITY_DAYS } from "../calendars/index.ts";
import { type Page, type PageRequest, paginate } from "../common/pagination.ts";
import type { FunctionSet } from "../message-pipeline/index.ts";
import { type BookingContext, bookingFunctionSet } from "./booking-functions.ts";
import { bookingEvent, eventUid } from "./calendar-events.ts";
import { BookingSlots } from "./slots.ts";

const MINUTE = 60_000;

/** Where a booking was made: its assistant and call or conversation, when a model made it. */
export interface BookingOrigin {
  assistantId?: number | null;
  callId?: number | null;
  conversationId?: string | null;
}

/** E.164 as carriers write it; kept loose (a caller's number is whatever the carrier reported). */
const phone = (label: string) =>
  z
    .string({ error: `The ${label} field must be a string.` })
    .trim()
    .regex(
      /^\+[1-9]\d{6,14}$/,
      `The ${label} field must be a phone number in E.164 format (e.g. +14155550123).`,
    );

const BookInput = z.object({
  appointmentTypeId: z.number().int(),
  startsAt: z.date({ error: "The startsAt field must be a date and time." }),
  customerName: requiredString("customerName", 200),
  customerPhone: phone("customerPhone").nullish(),
  customerEmail: emailAddress("customerEmail").nullish(),
  notes: optionalString("notes", 2000).nullish(),
  idempotencyKey: requiredString("idempotencyKey", 200).nullish(),
});
export type BookRequest = z.input<typeof BookInput>;

const ListFilter = z.object({
  status: z.enum(["booked", "cancelled"]).nullish(),
  assistantId: z.number().int().nullish(),
  from: z.date().nullish(),
  to: z.date().nullish(),
});

/** Statuses a reader sees: a pending claim is not an appointment yet. */
const VISIBLE = { in: ["booked", "cancelled"] as ("booked" | "cancelled")[] };

/**
 * Appointments Voxgate books in its accounts' calendars (docs/calendars.md#bookings). A booking
 * claims its slot in the database first (a short transaction under an advisory lock per connection,
 * so concurrent bookings of one calendar take turns across instances), then re-checks the slot
 * against the provider's busy time and writes the event, and only then becomes `booked`, with its
 * webhook event in the same transaction. A provider failure drops the claim: no record claims a
 * booking the calendar does not have. No transaction is held open across a provider's request.
 */
export class AppointmentsService {
  private readonly clock: Clock;
  private readonly slots: BookingSlots;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { calendars: CalendarsService; events: EventSink; clock?: Clock },
  ) {
    this.clock = parts.clock ?? systemClock;
    this.slots = new BookingSlots(deps, parts.calendars, this.clock);
  }

  now(): Date {
    return this.clock.now();
  }

  private get prisma() {
    return this.deps.db.prisma;
  }

  /**
   * Bookable slots of a type in [from, to): its rules minus the provider's busy time and the
   * appointments Voxgate holds on the same calendar, without days its maxPerDay has filled.
   */
  async availableSlots(
    accountId: number,
    appointmentTypeId: number,
    from: Date,
    to: Date,
  ): Promise<Interval[]> {
    if (!(from < to)) throw ValidationError.single("to", "The to field must be after from.");
    if (to.getTime() - from.getTime() > MAX_AVAILABILITY_DAYS * 86_400_000) {
      throw ValidationError.single("to", `At most ${MAX_AVAILABILITY_DAYS} days can be asked for at once.`);
    }
    const type = await this.parts.calendars.appointmentTypeWithConnection(accountId, appointmentTypeId);
    return this.slots.slotsOf(type, from, to);
  }

  /** The account's appointments (booked and cancelled), soonest first. */
  list(accountId: number, filter: unknown, page: PageRequest): Promise<Page<Appointment>> {
    const parsed = parseInput(ListFilter, filter ?? {});
    const where: Prisma.AppointmentWhereInput = {
      accountId,
      status: parsed.status ? parsed.status : VISIBLE,
      ...(parsed.assistantId ? { assistantId: parsed.assistantId } : {}),
      ...(parsed.from || parsed.to
        ? {
            startsAt: {
              ...(parsed.from ? { gte: parsed.from } : {}),
              ...(parsed.to ? { lt: parsed.to } : {}),
            },
          }
        : {}),
    };
    return paginate(page, 25, {
      count: () => this.prisma.appointment.count({ where }),
      items: (skip, take) =>
        this.prisma.appointment.findMany({
          where,
          orderBy: [{ startsAt: "asc" }, { id: "asc" }],
          skip,
          take,
        }),
    });
  }

  async get(accountId: number, id: number): Promise<Appointment> {
    const appointment = await this.prisma.appointment.findFirst({
      where: { id, accountId, status: VISIBLE },
    });
    if (!appointment) throw new NotFoundError("Appointment");
    return appointment;
  }

  /**
   * A customer's upcoming booked appointments: those of the conversation or call, and those under
   * the phone number the call came from (a chat customer's typed number or email proves nothing).
   */
  upcoming(
    accountId: number,
    customer: { conversationId?: string | null; callId?: number | null; phone?: string | null },
  ): Promise<Appointment[]> {
    const who: Prisma.AppointmentWhereInput[] = [];
    if (customer.conversationId) who.push({ conversationId: customer.conversationId });
    if (customer.callId) who.push({ callId: customer.callId });
    if (customer.phone) who.push({ customerPhone: customer.phone });
    if (who.length === 0) return Promise.resolve([]);
    return this.prisma.appointment.findMany({
      where: { accountId, status: "booked", startsAt: { gte: this.clock.now() }, OR: who },
      orderBy: [{ startsAt: "asc" }, { id: "asc" }],
      take: 10,
    });
  }

  /**
   * Books a slot. The same idempotency key books once: a retry (a model's, a network's) returns the
   * booking it made, and never writes a second event. Without a key, every call is a new booking.
   */
  async book(accountId: number, input: BookRequest, origin: BookingOrigin = {}): Promise<Appointment> {
    const parsed = parseInput(BookInput, input);
    const key = parsed.idempotencyKey ?? `random:${randomUUID()}`;
    const type = await this.parts.calendars.appointmentTypeWithConnection(
      accountId,
      parsed.appointmentTypeId,
    );
    const start = parsed.startsAt.getTime();
    const slot = { start, end: start + type.durationMinutes * MINUTE };
    const previous = await this.byKey(accountId, key);
    if (previous && previous.status !== "pending") return this.replayed(previous, type.id, slot.start);

    const claim = await this.slots.claim(type, slot, { keep: null, key }, (tx) =>
      tx.appointment.create({
        data: {
          accountId,
          appointmentTypeId: type.id,
          appointmentTypeName: type.name,
          timezone: type.timezone,
          connectionId: type.connectionId,
          provider: type.connection.provider,
          externalId: "",
          startsAt: new Date(slot.start),
          endsAt: new Date(slot.end),
          status: "pending",
          customerName: parsed.customerName,
          customerPhone: parsed.customerPhone ?? null,
          customerEmail: parsed.customerEmail?.toLowerCase() ?? null,
          notes: parsed.notes || null,
          assistantId: origin.assistantId ?? null,
          callId: origin.callId ?? null,
          conversationId: origin.conversationId ?? null,
          idempotencyKey: key,
          // The claim's age is read on the service's clock (CLAIM_TTL_MS), so it is written with it too.
          createdAt: this.clock.now(),
        },
      }),
    );
    if (!claim.created) return this.replayed(claim.appointment, type.id, slot.start);

    const claimed = claim.appointment;
    let externalId: string;
    try {
      await this.slots.checkWithProvider(type, slot, null);
      ({ externalId } = await this.parts.calendars.onConnection(type.connection, (provider, access) =>
        provider.createEvent(access, bookingEvent(claimed, eventUid(accountId, key))),
      ));
    } catch (error) {
      await this.prisma.appointment.deleteMany({ where: { id: claimed.id, status: "pending" } });
      throw error;
    }
    const booked = await this.prisma.$transaction(async (tx) => {
      const { count } = await tx.appointment.updateMany({
        where: { id: claimed.id, status: "pending" },
        data: { status: "booked", externalId },
      });
      if (count === 0) return null;
      const appointment = await tx.appointment.findUniqueOrThrow({ where: { id: claimed.id } });
      await this.parts.events.emit(tx, { type: "appointment.booked", appointment });
      return appointment;
    });
    if (!booked) {
      // The claim outlived CLAIM_TTL_MS and was taken over: this attempt's event must not stay.
      await this.parts.calendars
        .onConnection(type.connection, (provider, access) => provider.deleteEvent(access, externalId))
        .catch(() => {});
      throw new AppError("CONFLICT", "The booking took too long and was abandoned; please try again.");
    }
    this.deps.logger.info("appointment booked", { accountId, appointmentId: booked.id });
    return booked;
  }

  /** Moves a booked appointment to another slot of its type: the same checks as a booking. */
  async reschedule(accountId: number, id: number, startsAt: Date): Promise<Appointment> {
    if (!(startsAt instanceof Date) || Number.isNaN(startsAt.getTime()))
      throw ValidationError.single("startsAt", "The startsAt field must be a date and time.");
    const current = await this.get(accountId, id);
    if (current.status !== "booked")
      throw new AppError("CONFLICT", "A cancelled appointment cannot be rescheduled.");
    const type = await this.parts.calendars.appointmentTypeWithConnection(
      accountId,
      current.appointmentTypeId,
    );
    const slot = { start: startsAt.getTime(), end: startsAt.getTime() + type.durationMinutes * MINUTE };
    if (slot.start === current.startsAt.getTime() && slot.end === current.endsAt.getTime()) return current;

    // A placeholder holds the new slot while the provider moves the event.
    const placeholderKey = `reschedule:${current.id}:${randomUUID()}`;
    const { appointment: placeholder } = await this.slots.claim(
      type,
      slot,
      { keep: current.id, key: null },
      (tx) =>
        tx.appointment.create({
          data: {
            ...withoutIds(current),
            startsAt: new Date(slot.start),
            endsAt: new Date(slot.end),
            status: "pending",
            idempotencyKey: placeholderKey,
            cancelledAt: null,
            createdAt: this.clock.now(),
          },
        }),
    );
    try {
      await this.slots.checkWithProvider(type, slot, current);
      const moved = { ...current, startsAt: new Date(slot.start), endsAt: new Date(slot.end) };
      // Cal.com gives a moved booking a new uid: the record follows it.
      const rewritten = await this.parts.calendars.onConnection(type.connection, (provider, access) =>
        provider.updateEvent(
          access,
          current.externalId,
          bookingEvent(moved, eventUid(accountId, current.idempotencyKey)),
        ),
      );
      return await this.prisma.$transaction(async (tx) => {
        await tx.appointment.delete({ where: { id: placeholder.id } });
        const updated = await tx.appointment.update({
          where: { id: current.id },
          data: {
            startsAt: moved.startsAt,
            endsAt: moved.endsAt,
            ...(rewritten ? { externalId: rewritten.externalId } : {}),
          },
        });
        await this.parts.events.emit(tx, {
          type: "appointment.rescheduled",
          appointment: updated,
          previousStartsAt: current.startsAt,
        });
        return updated;
      });
    } finally {
      await this.prisma.appointment.deleteMany({ where: { id: placeholder.id } });
    }
  }

  /** Cancels a booked appointment: its event leaves the calendar, the record stays, cancelled. */
  async cancel(accountId: number, id: number): Promise<Appointment> {
    const current = await this.get(accountId, id);
    if (current.status === "cancelled") return current;
    const connection = await this.prisma.calendarConnection.findFirst({
      where: { id: current.connectionId, accountId },
    });
    // A connection deleted since leaves no calendar to remove the event from.
    if (connection)
      await this.parts.calendars.onConnection(connection, (provider, access) =>
        provider.deleteEvent(access, current.externalId),
      );
    const cancelled = await this.prisma.$transaction(async (tx) => {
      const now = this.clock.now();
      const { count } = await tx.appointment.updateMany({
        where: { id, status: "booked" },
        data: { status: "cancelled", cancelledAt: now },
      });
      const appointment = await tx.appointment.findUniqueOrThrow({ where: { id } });
      if (count > 0) await this.parts.events.emit(tx, { type: "appointment.cancelled", appointment });
      return appointment;
    });
    this.deps.logger.info("appointment cancelled", { accountId, appointmentId: id });
    return cancelled;
  }

  /**
   * The calendar functions for a conversation or call of an assistant that may book (it has
   * appointment types); null otherwise, so the model is not offered them.
   */
  async functionsFor(context: Omit<BookingContext, "timezone" | "language">): Promise<FunctionSet | null> {
    const links = await this.prisma.assistantAppointmentType.findMany({
      where: { assistantId: context.assistantId, appointmentType: { accountId: context.accountId } },
      select: { appointmentType: true },
      orderBy: { appointmentTypeId: "asc" },
    });
    if (links.length === 0) return null;
    const assistant = await this.prisma.assistant.findUnique({
      where: { id: context.assistantId },
      select: { timezone: true, language: true },
    });
    return bookingFunctionSet(
      this,
      links.map((link) => link.appointmentType),
      { ...context, timezone: assistant?.timezone ?? "UTC", language: assistant?.language ?? null },
    );
  }

  private byKey(accountId: number, key: string) {
    return this.prisma.appointment.findUnique({
      where: { accountId_idempotencyKey: { accountId, idempotencyKey: key } },
    });
  }

  /** What a repeated key answers: the booking it made, if it asked for the same slot. */
  private replayed(appointment: Appointment, typeId: number, start: number): Appointment {
    if (appointment.appointmentTypeId !== typeId || appointment.startsAt.getTime() !== start)
      throw new AppError("CONFLICT", "This idempotency key was used for another booking.");
    if (appointment.status === "pending")
      throw new AppError("CONFLICT", "This booking is being made; try again in a moment.");
    return appointment;
  }
}

function withoutIds(appointment: Appointment) {
  const { id: _id, createdAt: _created, updatedAt: _updated, ...rest } = appointment;
  return rest;
}
