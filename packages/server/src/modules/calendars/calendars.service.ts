import { z } from "zod";
import { type Clock, systemClock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { CalendarConnectionError, NotFoundError, ValidationError } from "../../errors.ts";
import type { CalendarConnection, CalendarProviderKind } from "../../generated/prisma/client.ts";
import type { SecretBox } from "../../secret-box.ts";
import { ianaTimezone, parseInput, requiredString } from "../../validation.ts";
import { WEEKDAY_KEYS } from "./availability.ts";
import type { CalendarOAuthService } from "./calendar-oauth.service.ts";
import {
  CheckedUrl,
  CreateConnectionInput,
  calendarIds,
  readUrls,
  UPDATABLE,
  UpdateConnectionInput,
} from "./connection-input.ts";
import type { ConnectionStatus } from "./connection-status.ts";
import type { CalendarEvent } from "./ical-writer.ts";
import {
  type CalendarAccess,
  type CalendarProvider,
  CalendarProviderError,
  isBreakingFailure,
} from "./provider.ts";

/** The longest window one availability query may ask about. */
export const MAX_AVAILABILITY_DAYS = 31;
const clockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "Times must be HH:MM (00:00 to 24:00).");
const hoursRange = z
  .object({ start: clockTime, end: clockTime })
  .refine((range) => range.start < range.end, "A range must start before it ends.");
/** Weekly hours as the API takes them (appointment types, transfer destinations). */
export const BusinessHoursInput = z
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
      /** Access tokens of Google and Microsoft connections. */
      oauth: CalendarOAuthService;
      status: ConnectionStatus;
      clock?: Clock;
    },
  ) {
    this.clock = parts.clock ?? systemClock;
  }

  /**
   * Saves a CalDAV or Cal.com connection once its provider accepted the credentials; the password
   * or API key is stored sealed. Google and Microsoft connect through `CalendarOAuthService`.
   */
  async createConnection(accountId: number, input: unknown): Promise<CalendarConnection> {
    const parsed = parseInput(CreateConnectionInput, input);
    const access: CalendarAccess =
      parsed.provider === "caldav"
        ? { url: parsed.url, readUrls: parsed.readUrls, username: parsed.username, secret: parsed.password }
        : { url: String(parsed.eventTypeId), readUrls: [], username: "", secret: parsed.apiKey };
    const provider = this.parts.providers[parsed.provider];
    await this.checked(parsed.provider, async () => {
      await provider.verify(access);
      if (provider.account) access.username = await provider.account(access);
    });
    const connection = await this.deps.db.prisma.calendarConnection.create({
      data: {
        accountId,
        name: parsed.name,
        provider: parsed.provider,
        url: access.url,
        readUrls: [...access.readUrls],
        username: access.username,
        sealedCredentials: this.parts.secrets.seal(access.secret),
        checkedAt: this.clock.now(),
      },
    });
    this.deps.logger.info("calendar connection created", { accountId, connectionId: connection.id });
    return connection;
  }

  /**
   * Changes a connection (a new password or API key after a refusal, another calendar). The provider
   * checks the result before it is saved, even when only the name changed on a broken connection,
   * so that a saved connection is one the provider accepted; a broken one is restored by it.
   */
  async updateConnection(accountId: number, id: number, input: unknown): Promise<CalendarConnection> {
    const parsed = parseInput(UpdateConnectionInput, input);
    const connection = await this.deps.db.prisma.calendarConnection.findFirst({ where: { id, accountId } });
    if (!connection) throw new NotFoundError("Calendar connection");
    const kind = connection.provider;
    for (const field of ["url", "readUrls", "username", "password", "apiKey", "eventTypeId"] as const) {
      if (parsed[field] !== undefined && !UPDATABLE[kind].includes(field)) {
        throw ValidationError.single(field, `A ${providerNames[kind]} connection has no ${field} to change.`);
      }
    }
    if (kind === "caldav") {
      if (parsed.url !== undefined) parseInput(CheckedUrl, { url: parsed.url });
      if (parsed.readUrls !== undefined) parseInput(z.object({ readUrls }), { readUrls: parsed.readUrls });
    } else if (parsed.readUrls !== undefined) {
      parseInput(z.object({ readUrls: calendarIds }), { readUrls: parsed.readUrls });
    }
    const newSecret = parsed.password ?? parsed.apiKey;
    const access: CalendarAccess = {
      url: parsed.eventTypeId !== undefined ? String(parsed.eventTypeId) : (parsed.url ?? connection.url),
      readUrls: parsed.readUrls ?? connection.readUrls,
      username: parsed.username ?? connection.username,
      secret: newSecret ?? (await this.openSecret(connection)),
    };
    const provider = this.parts.providers[kind];
    await this.checked(kind, async () => {
      await provider.verify(access);
      if (kind === "calcom" && provider.account) access.username = await provider.account(access);
    });
    await this.deps.db.prisma.calendarConnection.update({
      where: { id: connection.id },
      data: {
        name: parsed.name ?? connection.name,
        url: access.url,
        readUrls: [...access.readUrls],
        username: access.username,
        ...(newSecret === undefined ? {} : { sealedCredentials: this.parts.secrets.seal(newSecret) }),
        checkedAt: this.clock.now(),
      },
    });
    await this.parts.status.restored(connection.id);
    this.deps.logger.info("calendar connection updated", { accountId, connectionId: id });
    return this.deps.db.prisma.calendarConnection.findUniqueOrThrow({ where: { id: connection.id } });
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

  /**
   * Runs a provider call for a stored connection, keeping its status honest: a refusal (a revoked
   * grant included) marks it broken (with what was refused, announced once per transition), a
   * success after a refusal marks it active again.
   */
  private async withConnection<T>(
    connection: CalendarConnection,
    work: (provider: CalendarProvider, access: CalendarAccess) => Promise<T>,
  ): Promise<T> {
    const provider = this.parts.providers[connection.provider];
    try {
      const access = await this.accessOf(connection);
      const result = await work(provider, access);
      if (connection.status !== "active") await this.parts.status.restored(connection.id);
      // After a key rotation, credentials move to the current key as they are used.
      if (!isOAuth(connection) && this.parts.secrets.isStale(connection.sealedCredentials)) {
        await this.deps.db.prisma.calendarConnection.updateMany({
          where: { id: connection.id, sealedCredentials: connection.sealedCredentials },
          data: { sealedCredentials: this.parts.secrets.seal(access.secret) },
        });
      }
      return result;
    } catch (error) {
      if (error instanceof CalendarConnectionError && error.extensions.reason === "credentials_unreadable") {
        await this.parts.status.broken(connection.id, error.message);
        throw error;
      }
      if (!(error instanceof CalendarProviderError)) throw error;
      const apiError = toApiError(connection.provider, error);
      // A timeout or an unreachable server may pass; a refusal needs the owner to act.
      if (isBreakingFailure(error.reason)) await this.parts.status.broken(connection.id, apiError.message);
      throw apiError;
    }
  }

  /** Runs a check of new credentials, reporting a refusal as the API error that names it. */
  private async checked(kind: CalendarProviderKind, check: () => Promise<void>): Promise<void> {
    await check().catch((error: unknown) => {
      throw error instanceof CalendarProviderError ? toApiError(kind, error) : error;
    });
  }

  /** The connection's access: its opened password or API key, or a fresh OAuth access token. */
  private async accessOf(connection: CalendarConnection): Promise<CalendarAccess> {
    const secret = isOAuth(connection)
      ? await this.unsealed(connection, () => this.parts.oauth.accessToken(connection))
      : await this.openSecret(connection);
    return { url: connection.url, readUrls: connection.readUrls, username: connection.username, secret };
  }

  /**
   * The connection's stored secret, opened. A value no configured key opens (the key was lost or
   * rotated out too early) breaks the connection: only saving the credentials again (or signing in
   * again) repairs it.
   */
  private openSecret(connection: CalendarConnection): Promise<string> {
    return this.unsealed(connection, async () => this.parts.secrets.open(connection.sealedCredentials));
  }

  private async unsealed(connection: CalendarConnection, open: () => Promise<string>): Promise<string> {
    try {
      return await open();
    } catch (error) {
      if (error instanceof CalendarProviderError) throw error;
      throw new CalendarConnectionError(
        "credentials_unreadable",
        isOAuth(connection)
          ? "The stored credentials cannot be decrypted with the configured secrets keys (VOXGATE_SECRETS_KEY, VOXGATE_SECRETS_PREVIOUS_KEYS); sign in to the provider again."
          : "The stored credentials cannot be decrypted with the configured secrets keys (VOXGATE_SECRETS_KEY, VOXGATE_SECRETS_PREVIOUS_KEYS); save the connection's password again.",
        { url: connection.url },
      );
    }
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

  /**
   * Replaces the text of an event Voxgate wrote in one of the account's calendars, in place (same
   * calendar, same times given in `event`): erasure takes a customer's details out of the business's
   * calendar this way. Failures are answered, not thrown, with whether trying again later may help;
   * a refusal still marks the connection broken, as any other use of it would.
   */
  async rewriteEvent(
    accountId: number,
    target: { connectionId: number; externalId: string },
    event: CalendarEvent,
  ): Promise<EventRewrite> {
    // Only the account's own connections: an id of another account's is as good as none.
    const connection = await this.deps.db.prisma.calendarConnection.findFirst({
      where: { id: target.connectionId, accountId },
    });
    if (!connection) return { outcome: "left", reason: "no_connection", retriable: false };
    // A booking system keeps the attendee in its own records, which its API does not let us edit.
    if (this.parts.providers[connection.provider].booksAttendees)
      return { outcome: "left", reason: "not_editable", retriable: false };
    try {
      return await this.withConnection(connection, async (provider, access) => {
        try {
          await provider.updateEvent(access, target.externalId, event);
          return { outcome: "rewritten" } as const;
        } catch (error) {
          // Deleted from the calendar meanwhile: nothing of it is left to rewrite. Answered here so
          // that an event gone does not mark the connection broken.
          if (error instanceof CalendarProviderError && (error.status === 404 || error.status === 410))
            return { outcome: "gone" } as const;
          throw error;
        }
      });
    } catch (error) {
      if (!(error instanceof CalendarConnectionError)) throw error;
      const reason = String(error.extensions.reason);
      return { outcome: "left", reason, retriable: PASSING_FAILURES.has(reason) };
    }
  }
}

/** What became of an event to rewrite; `reason` of one left is a `CalendarFailure` or the two below. */
export type EventRewrite =
  | { outcome: "rewritten" }
  /** The event is no longer in the calendar. */
  | { outcome: "gone" }
  | {
      outcome: "left";
      /** `no_connection`: the connection was deleted; `not_editable`: a booking system's (Cal.com). */
      reason: string;
      /** A failure that may pass (a server down, a timeout, a conflict), as opposed to a refusal. */
      retriable: boolean;
    };

/** Failures after which the same request may succeed later without anyone acting. */
const PASSING_FAILURES = new Set<string>(["timeout", "unreachable", "conflict", "unexpected_response"]);

function isOAuth(connection: CalendarConnection): boolean {
  return connection.provider === "google" || connection.provider === "microsoft";
}

/** A provider failure as the typed API error that names what the provider refused. */
function toApiError(provider: CalendarProviderKind, error: CalendarProviderError): CalendarConnectionError {
  return new CalendarConnectionError(error.reason, `${providerNames[provider]}: ${error.message}.`, {
    url: error.url,
    status: error.status,
  });
}

const providerNames: Record<CalendarProviderKind, string> = {
  caldav: "CalDAV",
  calcom: "Cal.com",
  google: "Google Calendar",
  microsoft: "Microsoft 365",
};
