import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { SlotUnavailableError } from "../../errors.ts";
import type {
  Appointment,
  AppointmentType,
  CalendarConnection,
  Prisma,
} from "../../generated/prisma/client.ts";
import { addDays, fromLocal, toLocal } from "../../zoned-time.ts";
import {
  type BusinessHours,
  type CalendarsService,
  type Interval,
  availableSlots as slotsByRules,
} from "../calendars/index.ts";

/** A claim older than this belongs to a booking that died mid-way (a crash): it no longer holds its slot. */
const CLAIM_TTL_MS = 2 * 60_000;
/** Namespace of the advisory locks that serialise one connection's bookings (any constant; "AP"). */
const LOCK_NAMESPACE = 0x4150;
const MINUTE = 60_000;

type TypeWithConnection = AppointmentType & { connection: CalendarConnection };

/**
 * Whether a slot may be booked: what the calendar and Voxgate's own bookings hold, and the type's
 * rules. `claim` takes a slot in the database under the connection's advisory lock, so concurrent
 * bookings of one calendar take turns (across instances); `checkWithProvider` asks the calendar.
 */
export class BookingSlots {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly calendars: CalendarsService,
    private readonly clock: Clock,
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  async slotsOf(type: TypeWithConnection, from: Date, to: Date): Promise<Interval[]> {
    const margin = (type.bufferBeforeMinutes + type.bufferAfterMinutes + type.durationMinutes) * MINUTE;
    const window = { start: from.getTime() - margin, end: to.getTime() + margin };
    const [providerBusy, held] = await Promise.all([
      this.providerBusy(type, window),
      this.prisma.appointment.findMany({
        where: {
          ...this.holding(type.connectionId),
          startsAt: { lt: new Date(window.end) },
          endsAt: { gt: new Date(window.start) },
        },
        select: { startsAt: true, endsAt: true },
      }),
    ]);
    const busy = [
      ...providerBusy,
      ...held.map((row) => ({ start: row.startsAt.getTime(), end: row.endsAt.getTime() })),
    ];
    const slots = slotsByRules({ rules: rulesOf(type), busy, from, to, now: this.clock.now() });
    if (type.maxPerDay === null || slots.length === 0) return slots;
    const full = await this.fullDays(type, slots[0]!.start, slots.at(-1)!.start, null);
    return slots.filter((slot) => !full.has(localDay(slot.start, type.timezone)));
  }

  /**
   * Claims `slot` in the database: under the connection's lock, no other live booking or claim on
   * the calendar may touch it (with the type's buffers) and its day must have room; `keep` is an
   * appointment being moved, which does not count against its new slot.
   */
  async claim(
    type: TypeWithConnection,
    slot: Interval,
    options: { keep: number | null; key: string | null },
    create: (tx: Prisma.TransactionClient) => Promise<Appointment>,
  ): Promise<{ appointment: Appointment; created: boolean }> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${type.connectionId}::integer)`;
      if (options.key) {
        // A retry that raced its first attempt to the lock finds that attempt's booking or claim.
        const existing = await tx.appointment.findUnique({
          where: { accountId_idempotencyKey: { accountId: type.accountId, idempotencyKey: options.key } },
        });
        if (existing && !this.isStaleClaim(existing)) return { appointment: existing, created: false };
        if (existing) await tx.appointment.delete({ where: { id: existing.id } });
      }
      const before = type.bufferBeforeMinutes * MINUTE;
      const after = type.bufferAfterMinutes * MINUTE;
      const clash = await tx.appointment.count({
        where: {
          ...this.holding(type.connectionId),
          ...(options.keep ? { id: { not: options.keep } } : {}),
          startsAt: { lt: new Date(slot.end + after) },
          endsAt: { gt: new Date(slot.start - before) },
        },
      });
      if (clash > 0) throw new SlotUnavailableError("taken", "That time is already booked.");
      if (type.maxPerDay !== null) {
        const full = await this.fullDays(type, slot.start, slot.start, options.keep, tx);
        if (full.size > 0)
          throw new SlotUnavailableError(
            "day_full",
            `No more ${type.name} appointments can be booked that day.`,
          );
      }
      return { appointment: await create(tx), created: true };
    });
  }

  /** The provider's busy time and the type's rules must allow `slot` (`moving`'s own event excepted). */
  async checkWithProvider(
    type: TypeWithConnection,
    slot: Interval,
    moving: Appointment | null,
  ): Promise<void> {
    const margin = (type.bufferBeforeMinutes + type.bufferAfterMinutes) * MINUTE;
    const window = { start: slot.start - margin, end: slot.end + margin };
    let busy = await this.providerBusy(type, window);
    if (moving) {
      const own = busy.findIndex(
        (interval) =>
          interval.start === moving.startsAt.getTime() && interval.end === moving.endsAt.getTime(),
      );
      if (own >= 0) busy = busy.filter((_, index) => index !== own);
    }
    const rules = rulesOf(type);
    const open = slotsByRules({
      rules,
      busy: [],
      from: new Date(slot.start),
      to: new Date(slot.start + 1),
      now: this.clock.now(),
    });
    if (!open.some((candidate) => candidate.start === slot.start))
      throw new SlotUnavailableError(
        "closed",
        "That time cannot be booked: it is outside the bookable hours, too soon or too far ahead, or not on a slot boundary.",
      );
    const free = slotsByRules({
      rules,
      busy,
      from: new Date(slot.start),
      to: new Date(slot.start + 1),
      now: this.clock.now(),
    });
    if (!free.some((candidate) => candidate.start === slot.start))
      throw new SlotUnavailableError("taken", "That time is no longer free in the calendar.");
  }

  /** Busy time from the provider (whose client retries a read that timed out or met a 5xx). */
  private providerBusy(type: TypeWithConnection, window: Interval): Promise<Interval[]> {
    return this.calendars.onConnection(type.connection, (provider, access) =>
      provider.busy(access, window, type.timezone),
    );
  }

  /** Local days (YYYY-MM-DD in the type's zone) between two instants that maxPerDay has filled. */
  private async fullDays(
    type: TypeWithConnection,
    first: number,
    last: number,
    keep: number | null,
    tx: Prisma.TransactionClient = this.prisma,
  ): Promise<Set<string>> {
    const firstDay = toLocal(first, type.timezone);
    const from = fromLocal({ ...firstDay, hour: 0, minute: 0, second: 0 }, type.timezone);
    const to = fromLocal(
      { ...addDays(toLocal(last, type.timezone), 1), hour: 0, minute: 0, second: 0 },
      type.timezone,
    );
    const rows = await tx.appointment.findMany({
      where: {
        ...this.holding(type.connectionId),
        appointmentTypeId: type.id,
        ...(keep ? { id: { not: keep } } : {}),
        startsAt: { gte: new Date(from), lt: new Date(to) },
      },
      select: { startsAt: true },
    });
    const counts = new Map<string, number>();
    for (const row of rows) {
      const day = localDay(row.startsAt.getTime(), type.timezone);
      counts.set(day, (counts.get(day) ?? 0) + 1);
    }
    return new Set([...counts].filter(([, count]) => count >= type.maxPerDay!).map(([day]) => day));
  }

  /** Bookings and live claims that hold time on a calendar. */
  holding(connectionId: number): Prisma.AppointmentWhereInput {
    return {
      connectionId,
      OR: [
        { status: "booked" },
        { status: "pending", createdAt: { gt: new Date(this.clock.now().getTime() - CLAIM_TTL_MS) } },
      ],
    };
  }

  isStaleClaim(appointment: Appointment): boolean {
    return (
      appointment.status === "pending" &&
      appointment.createdAt.getTime() <= this.clock.now().getTime() - CLAIM_TTL_MS
    );
  }
}

function rulesOf(type: AppointmentType) {
  return { ...type, businessHours: type.businessHours as BusinessHours };
}

function localDay(at: number, timeZone: string): string {
  const local = toLocal(at, timeZone);
  return `${local.year}-${String(local.month).padStart(2, "0")}-${String(local.day).padStart(2, "0")}`;
}
