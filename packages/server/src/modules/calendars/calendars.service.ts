import { z } from "zod";
import { type Clock, systemClock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { CalendarConnectionError, NotFoundError, ValidationError } from "../../errors.ts";
import type { CalendarConnection, CalendarProviderKind } from "../../generated/prisma/client.ts";
import type { SecretBox } from "../../secret-box.ts";
import { ianaTimezone, parseInput, requiredString } from "../../validation.ts";
import { type AvailabilityRules, availableSlots, type BusinessHours, WEEKDAY_KEYS } from "./availability.ts";
import type { Interval } from "./ical.ts";
import {
  type CalendarAccess,
  type CalendarFailure,
  type CalendarProvider,
  CalendarProviderError,
} from "./provider.ts";

/** The longest window one availability query may ask about. */
export const MAX_AVAILABILITY_DAYS = 31;
const MAX_READ_CALENDARS = 10;

const calendarUrl = (label: string) =>
  requiredString(label, 2048).refine((value) => /^https?:\/\//i.test(value) && URL.canParse(value), {
    message: `The ${label} field must be an http or https URL.`,
  });

const CreateConnectionInput = z.object({
  name: requiredString("name"),
  provider: z.enum(["caldav"], { error: "The provider field must be caldav." }),
  url: calendarUrl("url"),
  readUrls: z
    .array(calendarUrl("readUrls"))
    .max(MAX_READ_CALENDARS, `At most ${MAX_READ_CALENDARS} further calendars can be read.`)
    .default([]),
  username: requiredString("username", 512),
  password: requiredString("password", 4096),
});

const UpdateConnectionInput = z.object({
  name: requiredString("name").optional(),
  url: calendarUrl("url").optional(),
  readUrls: CreateConnectionInput.shape.readUrls.removeDefault().optional(),
  username: requiredString("username", 512).optional(),
  password: requiredString("password", 4096).optional(),
});

const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "Times must be HH:MM (00:00 to 24:00).");
const hoursRange = z
  .object({ start: clockTime, end: clockTime })
  .refine((range) => range.start < range.end, "A range must start before it ends.");
const BusinessHoursInput = z
  .object(Object.fromEntries(WEEKDAY_KEYS.map((day) => [day, z.array(hoursRange).max(8).nullish()])))
  .strict()
  .refine(
    (hours) =>
      Object.values(hours).every((ranges) =>
        [...(ranges ?? [])]
          .sort((a, b) => (a.start < b.start ? -1 : 1))
          .every((range, index, sorted) => index === 0 || sorted[index - 1]!.end <= range.start),
      ),
    "The ranges of a day must not overlap.",
  );

const minutes = (label: string, max: number) =>
  z
    .number({ error: `The ${label} field must be a number.` })
    .int(`The ${label} field must be a whole number.`)
    .min(0, `The ${label} field must be 0 or more.`)
    .max(max, `The ${label} field must be at most ${max}.`);

const CreateAppointmentTypeInput = z.object({
  connectionId: z.number().int(),
  name: requiredString("name"),
  durationMinutes: minutes("durationMinutes", 24 * 60).min(
    5,
    "The durationMinutes field must be at least 5.",
  ),
  bufferBeforeMinutes: minutes("bufferBeforeMinutes", 24 * 60).default(0),
  bufferAfterMinutes: minutes("bufferAfterMinutes", 24 * 60).default(0),
  minimumNoticeMinutes: minutes("minimumNoticeMinutes", 90 * 24 * 60).default(0),
  horizonDays: minutes("horizonDays", 366).min(1, "The horizonDays field must be at least 1.").default(60),
  timezone: ianaTimezone(),
  businessHours: BusinessHoursInput,
  slotGranularityMinutes: minutes("slotGranularityMinutes", 24 * 60)
    .min(5, "The slotGranularityMinutes field must be at least 5.")
    .default(30),
  maxPerDay: minutes("maxPerDay", 1000).min(1, "The maxPerDay field must be at least 1.").nullish(),
});

export class CalendarsService {
  private readonly clock: Clock;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      secrets: SecretBox;
      providers: Record<CalendarProviderKind, CalendarProvider>;
      clock?: Clock;
    },
  ) {
    this.clock = parts.clock ?? systemClock;
  }

  /** Saves a connection once its provider accepted the credentials; the password is stored sealed. */
  async createConnection(accountId: number, input: unknown): Promise<CalendarConnection> {
    const parsed = parseInput(CreateConnectionInput, input);
    const access: CalendarAccess = {
      url: parsed.url,
      readUrls: parsed.readUrls,
      username: parsed.username,
      secret: parsed.password,
    };
    await this.parts.providers[parsed.provider].verify(access).catch((error: unknown) => {
      throw error instanceof CalendarProviderError ? toApiError(parsed.provider, error) : error;
    });
    const connection = await this.deps.db.prisma.calendarConnection.create({
      data: {
        accountId,
        name: parsed.name,
        provider: parsed.provider,
        url: parsed.url,
        readUrls: parsed.readUrls,
        username: parsed.username,
        sealedCredentials: this.parts.secrets.seal(parsed.password),
        checkedAt: this.clock.now(),
      },
    });
    this.deps.logger.info("calendar connection created", { accountId, connectionId: connection.id });
    return connection;
  }

  /**
   * Changes a connection (a new password after a refusal, another calendar). The provider checks the
   * result before it is saved, even when only the name changed on a broken connection, so that a
   * saved connection is one the provider accepted.
   */
  async updateConnection(accountId: number, id: number, input: unknown): Promise<CalendarConnection> {
    const parsed = parseInput(UpdateConnectionInput, input);
    const connection = await this.deps.db.prisma.calendarConnection.findFirst({ where: { id, accountId } });
    if (!connection) throw new NotFoundError("Calendar connection");
    const access: CalendarAccess = {
      url: parsed.url ?? connection.url,
      readUrls: parsed.readUrls ?? connection.readUrls,
      username: parsed.username ?? connection.username,
      secret: parsed.password ?? (await this.accessOf(connection)).secret,
    };
    await this.parts.providers[connection.provider].verify(access).catch((error: unknown) => {
      throw error instanceof CalendarProviderError ? toApiError(connection.provider, error) : error;
    });
    const updated = await this.deps.db.prisma.calendarConnection.update({
      where: { id: connection.id },
      data: {
        name: parsed.name ?? connection.name,
        url: access.url,
        readUrls: [...access.readUrls],
        username: access.username,
        ...(parsed.password === undefined
          ? {}
          : { sealedCredentials: this.parts.secrets.seal(parsed.password) }),
        status: "active",
        lastError: null,
        checkedAt: this.clock.now(),
      },
    });
    this.deps.logger.info("calendar connection updated", { accountId, connectionId: id });
    return updated;
  }

  listConnections(accountId: number) {
    return this.deps.db.prisma.calendarConnection.findMany({
      where: { accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  }

  /** Deletes the connection and the appointment types that use it. */
  async deleteConnection(accountId: number, id: number): Promise<void> {
    const { count } = await this.deps.db.prisma.calendarConnection.deleteMany({ where: { id, accountId } });
    if (count === 0) throw new NotFoundError("Calendar connection");
    this.deps.logger.info("calendar connection deleted", { accountId, connectionId: id });
  }

  async createAppointmentType(accountId: number, input: unknown) {
    const parsed = parseInput(CreateAppointmentTypeInput, input);
    const connection = await this.deps.db.prisma.calendarConnection.findFirst({
      where: { id: parsed.connectionId, accountId },
      select: { id: true },
    });
    if (!connection) throw ValidationError.single("connectionId", "The calendar connection does not exist.");
    // Closed days are stored as absent, whether omitted or sent as null.
    const businessHours = Object.fromEntries(
      Object.entries(parsed.businessHours).filter(([, ranges]) => ranges && ranges.length > 0),
    );
    return this.deps.db.prisma.appointmentType.create({
      data: { ...parsed, businessHours, maxPerDay: parsed.maxPerDay ?? null, accountId },
    });
  }

  listAppointmentTypes(accountId: number) {
    return this.deps.db.prisma.appointmentType.findMany({
      where: { accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  }

  async deleteAppointmentType(accountId: number, id: number): Promise<void> {
    const { count } = await this.deps.db.prisma.appointmentType.deleteMany({ where: { id, accountId } });
    if (count === 0) throw new NotFoundError("Appointment type");
  }

  /** Bookable slots of an appointment type in [from, to): its rules minus the calendar's busy time. */
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
    const type = await this.deps.db.prisma.appointmentType.findFirst({
      where: { id: appointmentTypeId, accountId },
      include: { connection: true },
    });
    if (!type) throw new NotFoundError("Appointment type");
    const rules: AvailabilityRules = { ...type, businessHours: type.businessHours as BusinessHours };
    // Busy time that a slot's buffers could touch lies up to a buffer (and a slot) beyond the window.
    const margin = (type.bufferBeforeMinutes + type.bufferAfterMinutes + type.durationMinutes) * 60_000;
    const window = { start: from.getTime() - margin, end: to.getTime() + margin };
    const busy = await this.withConnection(type.connection, (provider, access) =>
      provider.busy(access, window, type.timezone),
    );
    return availableSlots({ rules, busy, from, to, now: this.clock.now() });
  }

  /**
   * Runs a provider call for a stored connection, keeping its status honest: a refusal marks it
   * broken (with what was refused), a success after a refusal marks it active again.
   */
  private async withConnection<T>(
    connection: CalendarConnection,
    work: (provider: CalendarProvider, access: CalendarAccess) => Promise<T>,
  ): Promise<T> {
    const access = await this.accessOf(connection);
    const provider = this.parts.providers[connection.provider];
    try {
      const result = await work(provider, access);
      if (connection.status !== "active") await this.setStatus(connection.id, "active", null);
      // After a key rotation, credentials move to the current key as they are used.
      if (this.parts.secrets.isStale(connection.sealedCredentials)) {
        await this.deps.db.prisma.calendarConnection.updateMany({
          where: { id: connection.id, sealedCredentials: connection.sealedCredentials },
          data: { sealedCredentials: this.parts.secrets.seal(access.secret) },
        });
      }
      return result;
    } catch (error) {
      if (!(error instanceof CalendarProviderError)) throw error;
      const apiError = toApiError(connection.provider, error);
      // A timeout or an unreachable server may pass; a refusal needs the owner to act.
      if (BREAKING_FAILURES.has(error.reason))
        await this.setStatus(connection.id, "broken", apiError.message);
      throw apiError;
    }
  }

  /**
   * The connection's credentials, opened. A value no configured key opens (the key was lost or
   * rotated out too early) breaks the connection: only saving the password again repairs it.
   */
  private async accessOf(connection: CalendarConnection): Promise<CalendarAccess> {
    let secret: string;
    try {
      secret = this.parts.secrets.open(connection.sealedCredentials);
    } catch {
      const error = new CalendarConnectionError(
        "credentials_unreadable",
        "The stored credentials cannot be decrypted with the configured secrets keys (VOXGATE_SECRETS_KEY, VOXGATE_SECRETS_PREVIOUS_KEYS); save the connection's password again.",
        { url: connection.url },
      );
      await this.setStatus(connection.id, "broken", error.message);
      throw error;
    }
    return { url: connection.url, readUrls: connection.readUrls, username: connection.username, secret };
  }

  private async setStatus(id: number, status: "active" | "broken", lastError: string | null): Promise<void> {
    await this.deps.db.prisma.calendarConnection.updateMany({
      where: { id },
      data: { status, lastError, checkedAt: this.clock.now() },
    });
  }

  /** An appointment type of the account with its connection (for bookings). */
  async appointmentTypeWithConnection(accountId: number, id: number) {
    const type = await this.deps.db.prisma.appointmentType.findFirst({
      where: { id, accountId },
      include: { connection: true },
    });
    if (!type) throw new NotFoundError("Appointment type");
    return type;
  }

  /**
   * Provider work on a stored connection for another module (bookings write and move events),
   * with the connection's status kept honest as for availability.
   */
  onConnection<T>(
    connection: CalendarConnection,
    work: (provider: CalendarProvider, access: CalendarAccess) => Promise<T>,
  ): Promise<T> {
    return this.withConnection(connection, work);
  }
}

/** Failures that say the connection cannot work as saved (as opposed to a server that is down). */
const BREAKING_FAILURES = new Set<CalendarFailure>([
  "unauthorized",
  "forbidden",
  "not_found",
  "not_a_calendar",
  "blocked_address",
  "invalid_url",
]);

/** A provider failure as the typed API error that names what the provider refused. */
function toApiError(provider: CalendarProviderKind, error: CalendarProviderError): CalendarConnectionError {
  return new CalendarConnectionError(error.reason, `${providerNames[provider]}: ${error.message}.`, {
    url: error.url,
    status: error.status,
  });
}

const providerNames: Record<CalendarProviderKind, string> = { caldav: "CalDAV" };
