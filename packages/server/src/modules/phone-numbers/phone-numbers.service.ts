import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError, ValidationError } from "../../errors.ts";
import type { PhoneNumber, PhoneNumberKind, Prisma } from "../../generated/prisma/client.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import { optionalString, parseInput } from "../../validation.ts";
import type { NumberProvider } from "../telephony/provider.ts";
import { e164PhoneNumber, parseE164 } from "./e164.ts";

export const PHONE_NUMBER_KINDS = ["normal", "sip", "caller_id"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "cancelled", "none"] as const;

export const TYPE_LABELS: Record<PhoneNumberKind, string> = {
  normal: "Dedicated Number",
  sip: "SIP",
  caller_id: "Caller ID",
};

/** A dedicated number is billed monthly from the day it is bought. */
const BILLING_PERIOD_MONTHS = 1;

const AddPhoneNumberInput = z
  .object({
    kind: z.enum(PHONE_NUMBER_KINDS, { error: "The kind field must be one of normal, sip, caller_id." }),
    phoneNumber: e164PhoneNumber(),
    label: optionalString("label"),
    region: optionalString("region", 100),
    smsCapable: z.boolean({ error: "The sms capable field must be true or false." }).nullish(),
    sipUri: optionalString("sip uri", 500).refine(
      (value) => value === undefined || /^sips?:[^\s@]+@[^\s@]+$/.test(value),
      "The sip uri field must be a SIP URI such as sip:agent@pbx.example.com.",
    ),
  })
  .superRefine((input, context) => {
    if (input.kind === "sip" && !input.sipUri) {
      context.addIssue({
        code: "custom",
        path: ["sipUri"],
        message: "The sip uri field is required for SIP numbers.",
      });
    }
    if (input.kind !== "sip" && input.sipUri) {
      context.addIssue({
        code: "custom",
        path: ["sipUri"],
        message: "The sip uri field is only for SIP numbers.",
      });
    }
    if (input.kind !== "normal" && input.smsCapable) {
      context.addIssue({
        code: "custom",
        path: ["smsCapable"],
        message: "Only dedicated numbers can be SMS capable.",
      });
    }
  });

export type AddPhoneNumberRequest = z.input<typeof AddPhoneNumberInput>;

/** The outcome of a release request: released at once, or scheduled for the end of the period. */
export interface ReleaseOutcome {
  phoneNumber: PhoneNumber;
  releasedNow: boolean;
  /** When a scheduled release happens: the end of the paid billing period. */
  releasesAt: Date | null;
}

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** Numbers an account holds: everything not yet released (a cancelled number works until its period ends). */
const held = (accountId: number) => ({ accountId, releasedAt: null }) satisfies Prisma.PhoneNumberWhereInput;

export class PhoneNumbersService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly provider: NumberProvider,
  ) {}

  /** Every number the account holds; `smsReadyOnly` keeps SMS-capable numbers with an active subscription. */
  list(accountId: number, options: { smsReadyOnly?: boolean } = {}) {
    return this.deps.db.prisma.phoneNumber.findMany({
      where: {
        ...held(accountId),
        ...(options.smsReadyOnly ? { smsCapable: true, subscriptionStatus: "active" } : {}),
      },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
  }

  async get(accountId: number, id: number) {
    const phoneNumber = await this.deps.db.prisma.phoneNumber.findFirst({
      where: { ...held(accountId), id },
    });
    if (!phoneNumber) throw new NotFoundError("Phone number");
    return phoneNumber;
  }

  /** Adds a number: buys a dedicated one, registers a caller ID with the provider, or records a SIP endpoint. */
  async add(accountId: number, request: AddPhoneNumberRequest, now = new Date()) {
    const input = parseInput(AddPhoneNumberInput, request);
    const { e164, countryCode } = parseE164(input.phoneNumber)!;
    const duplicate = await this.deps.db.prisma.phoneNumber.count({
      where: { ...held(accountId), phoneNumber: e164, kind: input.kind },
    });
    if (duplicate > 0) {
      throw ValidationError.single("phoneNumber", "The phone number has already been added to this account.");
    }
    const base = {
      accountId,
      phoneNumber: e164,
      countryCode,
      kind: input.kind,
      label: input.label ?? "",
      region: input.region ?? (countryCode === "ZZ" ? "" : (regionNames.of(countryCode) ?? "")),
      providerName: this.provider.name,
    };
    let data: Prisma.PhoneNumberUncheckedCreateInput;
    if (input.kind === "normal") {
      const { providerRef } = await this.provider.purchaseNumber({ accountId, phoneNumber: e164 });
      const billingPeriodEnd = new Date(now);
      billingPeriodEnd.setUTCMonth(billingPeriodEnd.getUTCMonth() + BILLING_PERIOD_MONTHS);
      data = {
        ...base,
        providerRef,
        smsCapable: input.smsCapable ?? true,
        subscriptionStatus: "active",
        billingPeriodStart: now,
        billingPeriodEnd,
      };
    } else if (input.kind === "caller_id") {
      const { providerRef } = await this.provider.addCallerId({ accountId, phoneNumber: e164 });
      data = { ...base, providerRef, subscriptionStatus: "none" };
    } else {
      data = { ...base, sipUri: input.sipUri!, subscriptionStatus: "none" };
    }
    const phoneNumber = await this.deps.db.prisma.phoneNumber.create({ data });
    this.deps.logger.info("phone number added", {
      accountId,
      phoneNumberId: phoneNumber.id,
      kind: input.kind,
    });
    return phoneNumber;
  }

  /**
   * Releases a number as the spec defines per kind: a dedicated number's subscription is
   * cancelled and the number keeps working until its billing period ends (the release sweep then
   * releases it); SIP is released at once; a caller ID is released at once and removed from the
   * provider.
   */
  async release(accountId: number, id: number, now = new Date()): Promise<ReleaseOutcome> {
    const phoneNumber = await this.get(accountId, id);
    if (phoneNumber.kind !== "normal") {
      if (phoneNumber.kind === "caller_id") await this.provider.removeCallerId(phoneNumber);
      const released = await releaseInDatabase(this.deps, phoneNumber.id, now);
      return { phoneNumber: released ?? phoneNumber, releasedNow: true, releasesAt: null };
    }
    if (phoneNumber.releaseRequestedAt) {
      throw new AppError("CONFLICT", "The phone number is already scheduled for release.", {
        releasesAt: phoneNumber.billingPeriodEnd?.toISOString() ?? null,
      });
    }
    await this.provider.cancelSubscription(phoneNumber);
    const cancelled = await this.deps.db.prisma.phoneNumber.update({
      where: { id: phoneNumber.id },
      data: { subscriptionStatus: "cancelled", releaseRequestedAt: now },
    });
    this.deps.logger.info("phone number subscription cancelled", { accountId, phoneNumberId: id });
    if (!cancelled.billingPeriodEnd || cancelled.billingPeriodEnd <= now) {
      await this.provider.releaseNumber(cancelled);
      const released = await releaseInDatabase(this.deps, cancelled.id, now);
      return { phoneNumber: released ?? cancelled, releasedNow: true, releasesAt: null };
    }
    return { phoneNumber: cancelled, releasedNow: false, releasesAt: cancelled.billingPeriodEnd };
  }
}

/**
 * Marks a number released and detaches it: assistants lose it, campaigns drop it from their
 * rotation. The row stays (calls keep their own copy of the number) so history stays readable.
 * Returns null when another instance released it first.
 */
async function releaseInDatabase(deps: ServiceDeps, id: number, now: Date): Promise<PhoneNumber | null> {
  return deps.db.prisma.$transaction(async (tx) => {
    const claimed = await tx.phoneNumber.updateMany({
      where: { id, releasedAt: null },
      data: { releasedAt: now, releaseRequestedAt: now },
    });
    if (claimed.count === 0) return null;
    const unassigned = await tx.assistant.updateMany({
      where: { phoneNumberId: id },
      data: { phoneNumberId: null },
    });
    const dropped = await tx.campaignPhoneNumber.deleteMany({ where: { phoneNumberId: id } });
    deps.logger.info("phone number released", {
      phoneNumberId: id,
      assistantsUnassigned: unassigned.count,
      campaignsUpdated: dropped.count,
    });
    return tx.phoneNumber.findUniqueOrThrow({ where: { id } });
  });
}

/** How often the sweep looks for dedicated numbers whose paid period has ended. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Releases dedicated numbers whose release was requested once their billing period has ended.
 * The schedule is the database itself (`releaseRequestedAt` + `billingPeriodEnd`), so a restart
 * loses nothing: the first sweep runs as soon as the service starts.
 */
export class PhoneNumberReleaseSweep extends PeriodicSweep {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly provider: NumberProvider,
  ) {
    super("phone number release sweep", SWEEP_INTERVAL_MS, deps.logger);
  }

  protected runOnce() {
    return this.sweep();
  }

  /** Releases every number due at `now`; returns the ids it released. */
  async sweep(now = new Date()): Promise<number[]> {
    const due = await this.deps.db.prisma.phoneNumber.findMany({
      where: {
        kind: "normal",
        releasedAt: null,
        releaseRequestedAt: { not: null },
        billingPeriodEnd: { lte: now },
      },
      orderBy: { id: "asc" },
    });
    const released: number[] = [];
    for (const phoneNumber of due) {
      await this.provider.releaseNumber(phoneNumber);
      if (await releaseInDatabase(this.deps, phoneNumber.id, now)) released.push(phoneNumber.id);
    }
    return released;
  }
}
