import { z } from "zod";
import { type Clock, systemClock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError, ValidationError } from "../../errors.ts";
import { Prisma, type TransferDestination } from "../../generated/prisma/client.ts";
import { lazyRequire } from "../../lazy-require.ts";
import { ianaTimezone, optionalString, parseInput, requiredString } from "../../validation.ts";
import { type BusinessHours, BusinessHoursInput } from "../calendars/index.ts";
import { e164PhoneNumber } from "../phone-numbers/e164.ts";
import { isOpen } from "./business-hours.ts";

/** Destinations one assistant may have: the model reads them all on every transfer decision. */
export const MAX_DESTINATIONS_PER_ASSISTANT = 20;

const libphonenumber = lazyRequire<typeof import("libphonenumber-js/max")>("libphonenumber-js/max");

/**
 * Numbers a transfer must never dial: every transfer is a call the account pays for, and a
 * premium-rate or shared-cost destination is the classic toll-fraud target.
 */
const REFUSED_NUMBER_TYPES = new Set(["PREMIUM_RATE", "SHARED_COST"]);

export const transferPhoneNumber = e164PhoneNumber("phone number").refine(
  (value) => !REFUSED_NUMBER_TYPES.has(libphonenumber().parsePhoneNumberFromString(value)?.getType() ?? ""),
  "The phone number field must not be a premium-rate or shared-cost number.",
);

/** sip:user@host[:port][;params] (or sips:), as a carrier's SIP dial takes it. */
const SIP_URI =
  /^sips?:[A-Za-z0-9._~!$&'()*+,=%-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?(?::\d{1,5})?(?:;[A-Za-z0-9_.-]+(?:=[A-Za-z0-9_.-]+)?)*$/;
const sipUri = requiredString("sip uri", 255).refine(
  (value) => SIP_URI.test(value),
  "The sip uri field must be a SIP URI such as sip:frontdesk@pbx.example.com.",
);

const fields = {
  name: requiredString("name", 100),
  phoneNumber: transferPhoneNumber.nullish(),
  sipUri: sipUri.nullish(),
  description: requiredString("description", 1000),
  mode: z.enum(["cold", "warm"], { error: "The mode field must be cold or warm." }),
  timezone: ianaTimezone(),
  businessHours: BusinessHoursInput.nullish(),
  briefingInstructions: optionalString("briefing instructions", 2000),
};

const CreateInput = z.object({
  assistantId: z.number({ error: "The assistant id field must be an integer." }).int(),
  ...fields,
  mode: fields.mode.default("cold"),
  timezone: fields.timezone.optional(),
});

const UpdateInput = z.object({
  name: fields.name.optional(),
  phoneNumber: fields.phoneNumber,
  sipUri: fields.sipUri,
  description: fields.description.optional(),
  mode: fields.mode.optional(),
  timezone: fields.timezone.optional(),
  businessHours: fields.businessHours,
  briefingInstructions: fields.briefingInstructions,
});

/** Days without ranges are left out, so a stored schedule lists only open days. */
function storedHours(hours: BusinessHours | null | undefined): Prisma.InputJsonValue | typeof Prisma.DbNull {
  if (!hours) return Prisma.DbNull;
  return Object.fromEntries(Object.entries(hours).filter(([, ranges]) => ranges && ranges.length > 0));
}

function exactlyOneTarget(phone: string | null, sip: string | null) {
  if ((phone === null) === (sip === null)) {
    throw ValidationError.single("phoneNumber", "Give exactly one of the phone number and sip uri fields.");
  }
}

/**
 * Where an assistant may transfer a call (docs/transfers.md#destinations): a person's number or SIP
 * address, what the model reads to choose it, cold or warm, and the hours it is offered.
 */
export class TransferDestinationsService {
  private readonly clock: Clock;

  constructor(
    private readonly deps: ServiceDeps,
    parts: { clock?: Clock } = {},
  ) {
    this.clock = parts.clock ?? systemClock;
  }

  private get prisma() {
    return this.deps.db.prisma;
  }

  private async assistant(accountId: number, assistantId: number) {
    const assistant = await this.prisma.assistant.findFirst({
      where: { id: assistantId, accountId, deletedAt: null },
      select: { id: true, timezone: true },
    });
    if (!assistant) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    return assistant;
  }

  /** An assistant's destinations, oldest first. */
  async list(accountId: number, assistantId: number): Promise<TransferDestination[]> {
    await this.assistant(accountId, assistantId);
    return this.prisma.transferDestination.findMany({
      where: { accountId, assistantId },
      orderBy: { id: "asc" },
    });
  }

  async get(accountId: number, id: number): Promise<TransferDestination> {
    const destination = await this.prisma.transferDestination.findFirst({ where: { id, accountId } });
    if (!destination) throw new NotFoundError("Transfer destination");
    return destination;
  }

  async create(accountId: number, input: unknown): Promise<TransferDestination> {
    const parsed = parseInput(CreateInput, input);
    const assistant = await this.assistant(accountId, parsed.assistantId);
    exactlyOneTarget(parsed.phoneNumber ?? null, parsed.sipUri ?? null);
    const count = await this.prisma.transferDestination.count({ where: { assistantId: assistant.id } });
    if (count >= MAX_DESTINATIONS_PER_ASSISTANT) {
      throw new AppError(
        "CONFLICT",
        `An assistant has at most ${MAX_DESTINATIONS_PER_ASSISTANT} transfer destinations.`,
      );
    }
    const destination = await this.prisma.transferDestination.create({
      data: {
        accountId,
        assistantId: assistant.id,
        name: parsed.name,
        phoneNumber: parsed.phoneNumber ?? null,
        sipUri: parsed.sipUri ?? null,
        description: parsed.description,
        mode: parsed.mode,
        timezone: parsed.timezone ?? assistant.timezone,
        businessHours: storedHours(parsed.businessHours),
        briefingInstructions: parsed.briefingInstructions ?? "",
      },
    });
    this.deps.logger.info("transfer destination created", { accountId, destinationId: destination.id });
    return destination;
  }

  /** Changes the given fields; null for phoneNumber, sipUri or businessHours clears them. */
  async update(accountId: number, id: number, input: unknown): Promise<TransferDestination> {
    const parsed = parseInput(UpdateInput, input);
    const current = await this.get(accountId, id);
    const given = input as Record<string, unknown>;
    const phone = "phoneNumber" in given ? (parsed.phoneNumber ?? null) : current.phoneNumber;
    const sip = "sipUri" in given ? (parsed.sipUri ?? null) : current.sipUri;
    exactlyOneTarget(phone, sip);
    return this.prisma.transferDestination.update({
      where: { id: current.id },
      data: {
        phoneNumber: phone,
        sipUri: sip,
        ...(parsed.name !== undefined ? { name: parsed.name } : {}),
        ...(parsed.description !== undefined ? { description: parsed.description } : {}),
        ...(parsed.mode !== undefined ? { mode: parsed.mode } : {}),
        ...(parsed.timezone !== undefined ? { timezone: parsed.timezone } : {}),
        ...("businessHours" in given ? { businessHours: storedHours(parsed.businessHours) } : {}),
        ...(parsed.briefingInstructions !== undefined
          ? { briefingInstructions: parsed.briefingInstructions }
          : {}),
      },
    });
  }

  async delete(accountId: number, id: number): Promise<void> {
    const destination = await this.get(accountId, id);
    await this.prisma.transferDestination.delete({ where: { id: destination.id } });
    this.deps.logger.info("transfer destination deleted", { accountId, destinationId: id });
  }

  /** Whether a destination is offered at `at` (its business hours; none: always). */
  isOpen(destination: TransferDestination, at: Date = this.clock.now()): boolean {
    return isOpen(
      { timezone: destination.timezone, hours: destination.businessHours as BusinessHours | null },
      at,
    );
  }

  /**
   * The destinations an assistant's call may be transferred to at `at`, oldest first: the ones
   * whose business hours are open then. What a transfer offers the model.
   */
  async openNow(accountId: number, assistantId: number, at: Date = this.clock.now()) {
    const destinations = await this.prisma.transferDestination.findMany({
      where: { accountId, assistantId, assistant: { deletedAt: null } },
      orderBy: { id: "asc" },
    });
    return destinations.filter((destination) => this.isOpen(destination, at));
  }
}
