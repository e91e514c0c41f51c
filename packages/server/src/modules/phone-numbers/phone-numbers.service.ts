import { createHash, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import {
  AppError,
  NotFoundError,
  NumberUnavailableError,
  RateLimitedError,
  ValidationError,
} from "../../errors.ts";
import { type Actor, type EventSink, systemActor } from "../../events.ts";
import type { PhoneNumber, PhoneNumberKind, Prisma } from "../../generated/prisma/client.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import { optionalString, parseInput } from "../../validation.ts";
import type { CallerIdDesk, NumberProvider } from "../telephony/provider.ts";
import { e164PhoneNumber, parseE164 } from "./e164.ts";

export const PHONE_NUMBER_KINDS = ["normal", "sip", "caller_id"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "cancelled", "none"] as const;
export const PHONE_NUMBER_STATUSES = ["pending_verification", "active", "releasing", "released"] as const;

/**
 * A caller ID's verification: a code spoken by the simulated carrier's call is good for 10 minutes and
 * 5 tries; a new verification call may be asked for once a minute (each is a real call on Twilio).
 */
export const CALLER_ID_VERIFICATION = { codeTtlMs: 10 * 60_000, maxAttempts: 5, restartAfterMs: 60_000 };

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

export class PhoneNumbersService implements CallerIdDesk {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly provider: NumberProvider,
    private readonly events: EventSink,
  ) {}

  /**
   * Every number the account holds; `smsReadyOnly` keeps those that can send a text now: SMS-capable
   * dedicated numbers, active (not being released), with an active subscription: exactly the `from`
   * numbers `sendText` accepts, less the cancelled ones still running out their period.
   */
  list(accountId: number, options: { smsReadyOnly?: boolean } = {}) {
    return this.deps.db.prisma.phoneNumber.findMany({
      where: {
        ...held(accountId),
        ...(options.smsReadyOnly
          ? { smsCapable: true, kind: "normal", status: "active", subscriptionStatus: "active" }
          : {}),
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

  /**
   * Adds a number: buys a dedicated one, starts verifying a caller ID, or records a SIP endpoint. The
   * number is claimed in the database first (one held row per number: a unique index), and only then
   * is the carrier asked, so that of two accounts adding it at once exactly one gets it and only that
   * one talks to the carrier; a carrier that refuses gives the claim up.
   */
  /**
   * Audited once the carrier confirmed: phone_number.purchased for a dedicated number,
   * phone_number.added for a caller ID or a SIP number.
   */
  async add(accountId: number, request: AddPhoneNumberRequest, now = new Date(), actor: Actor = systemActor) {
    const input = parseInput(AddPhoneNumberInput, request);
    const { e164, countryCode } = parseE164(input.phoneNumber)!;
    const prisma = this.deps.db.prisma;
    const holder = await prisma.phoneNumber.findFirst({
      where: { phoneNumber: e164, releasedAt: null },
      select: { accountId: true, status: true },
    });
    if (holder && holder.accountId !== accountId) throw new NumberUnavailableError();
    if (holder) {
      throw ValidationError.single(
        "phoneNumber",
        holder.status === "releasing"
          ? "The phone number is being released; it can be added again once the release completes."
          : "The phone number has already been added to this account.",
      );
    }
    if (input.kind === "caller_id") await this.allowVerificationCall(e164, now);
    const billingPeriodEnd = new Date(now);
    billingPeriodEnd.setUTCMonth(billingPeriodEnd.getUTCMonth() + BILLING_PERIOD_MONTHS);
    const data: Prisma.PhoneNumberUncheckedCreateInput = {
      accountId,
      phoneNumber: e164,
      countryCode,
      kind: input.kind,
      label: input.label ?? "",
      region: input.region ?? (countryCode === "ZZ" ? "" : (regionNames.of(countryCode) ?? "")),
      providerName: this.provider.name,
      ...(input.kind === "normal"
        ? {
            smsCapable: input.smsCapable ?? true,
            subscriptionStatus: "active",
            billingPeriodStart: now,
            billingPeriodEnd,
          }
        : { subscriptionStatus: "none" }),
      ...(input.kind === "sip" ? { sipUri: input.sipUri! } : {}),
      status: input.kind === "caller_id" ? "pending_verification" : "active",
    };
    let claimed: PhoneNumber;
    try {
      claimed = await prisma.phoneNumber.create({ data });
    } catch (error) {
      // Another request claimed it between the check and the insert: the unique index decided.
      if ((error as { code?: string }).code === "P2002") throw new NumberUnavailableError();
      throw error;
    }
    let phoneNumber: PhoneNumber;
    try {
      if (input.kind === "normal") {
        const bought = await this.provider.purchaseNumber({ accountId, phoneNumber: e164 });
        phoneNumber = await prisma.phoneNumber.update({
          where: { id: claimed.id },
          // SMS-capable only if the owner did not say otherwise and the carrier does not deny it.
          data: {
            providerRef: bought.providerRef,
            ...(bought.smsCapable === false ? { smsCapable: false } : {}),
          },
        });
      } else if (input.kind === "caller_id") {
        phoneNumber = await this.challenge(claimed, now);
      } else {
        phoneNumber = claimed;
      }
    } catch (error) {
      await prisma.phoneNumber.delete({ where: { id: claimed.id } });
      throw error;
    }
    this.deps.logger.info("phone number added", {
      accountId,
      phoneNumberId: phoneNumber.id,
      kind: input.kind,
    });
    await this.audit(
      input.kind === "normal" ? "phone_number.purchased" : "phone_number.added",
      actor,
      phoneNumber,
      {
        kind: input.kind,
      },
    );
    return phoneNumber;
  }

  /**
   * Confirms a caller ID pending verification. A code spoken by the carrier's call (the simulated
   * carrier) must be given, within its lifetime and tries; on a carrier that has the code typed on its
   * call (Twilio) no code is needed: the carrier is asked whether it verified the number, which also
   * catches a status callback that never arrived. A verified caller ID is returned as it is.
   */
  async verifyCallerId(accountId: number, id: number, code: string | null | undefined, now = new Date()) {
    const number = await this.get(accountId, id);
    if (number.kind !== "caller_id") throw ValidationError.single("id", "Only caller IDs are verified.");
    if (number.status === "active") return number;
    if (number.status !== "pending_verification") {
      throw new AppError("CONFLICT", "The phone number is being released.");
    }
    if (!number.verificationCodeHash) {
      if (!(await this.provider.callerIdVerified(number))) {
        throw ValidationError.single(
          "code",
          "The carrier has not confirmed this caller ID yet: answer its verification call and type the code shown.",
        );
      }
      return this.markVerified(number.id, now);
    }
    if (typeof code !== "string" || !/^\d{6}$/.test(code)) {
      throw ValidationError.single(
        "code",
        "The code field must be the 6-digit code the verification call gave.",
      );
    }
    if (!number.verificationExpiresAt || number.verificationExpiresAt <= now) {
      throw ValidationError.single(
        "code",
        "The verification code has expired: ask for a new verification call.",
      );
    }
    // The try is counted before the code is compared, conditionally, so that guesses sent at once
    // cannot get past the limit.
    const counted = await this.deps.db.prisma.phoneNumber.updateMany({
      where: {
        id,
        status: "pending_verification",
        verificationCodeHash: number.verificationCodeHash,
        verificationAttempts: { lt: CALLER_ID_VERIFICATION.maxAttempts },
      },
      data: { verificationAttempts: { increment: 1 } },
    });
    if (counted.count === 0) {
      throw ValidationError.single("code", "Too many wrong codes: ask for a new verification call.");
    }
    if (!sameHash(hashCode(code), number.verificationCodeHash)) {
      throw ValidationError.single("code", "The verification code is not correct.");
    }
    return this.markVerified(number.id, now);
  }

  /** Asks the carrier for a new verification call (a new code; the last one stops working), once a minute. */
  async restartCallerIdVerification(accountId: number, id: number, now = new Date()) {
    const number = await this.get(accountId, id);
    if (number.kind !== "caller_id" || number.status !== "pending_verification") {
      throw ValidationError.single("id", "Only a caller ID pending verification can be verified again.");
    }
    await this.allowVerificationCall(number.phoneNumber, now);
    return this.challenge(number, now);
  }

  /**
   * A phone gets one verification call a minute at most, whoever asks (a row released and added again,
   * by any account, counts too): each call rings someone's phone.
   */
  private async allowVerificationCall(phoneNumber: string, now: Date) {
    const last = await this.deps.db.prisma.phoneNumber.findFirst({
      where: { phoneNumber, kind: "caller_id", verificationExpiresAt: { not: null } },
      orderBy: { verificationExpiresAt: "desc" },
      select: { verificationExpiresAt: true },
    });
    const startedAt = (last?.verificationExpiresAt?.getTime() ?? 0) - CALLER_ID_VERIFICATION.codeTtlMs;
    const retryAt = startedAt + CALLER_ID_VERIFICATION.restartAfterMs;
    if (now.getTime() < retryAt) {
      throw new RateLimitedError(
        "A verification call was placed to this number less than a minute ago.",
        Math.ceil((retryAt - now.getTime()) / 1000),
      );
    }
  }

  /** A carrier's word on a `code-on-call` verification (Twilio's status callback). */
  async callerIdVerification(report: { carrier: string; phoneNumber: string; verified: boolean }) {
    const number = await this.deps.db.prisma.phoneNumber.findFirst({
      where: {
        phoneNumber: report.phoneNumber,
        releasedAt: null,
        kind: "caller_id",
        status: "pending_verification",
        providerName: report.carrier,
      },
    });
    if (!number) return;
    if (report.verified) {
      await this.markVerified(number.id, new Date());
      return;
    }
    // The call ended without the right code: that code is spent; the owner asks for a new call.
    await this.deps.db.prisma.phoneNumber.updateMany({
      where: { id: number.id, status: "pending_verification" },
      data: { validationCode: null },
    });
    this.deps.logger.info("caller id verification failed", { phoneNumberId: number.id });
  }

  /** Starts a carrier verification of a caller ID and keeps what checking it needs. */
  private async challenge(number: PhoneNumber, now: Date) {
    const challenge = await this.provider.addCallerId({
      accountId: number.accountId,
      phoneNumber: number.phoneNumber,
    });
    return this.deps.db.prisma.phoneNumber.update({
      where: { id: number.id },
      data: {
        providerRef: challenge.providerRef,
        validationCode: challenge.method === "code-on-call" ? challenge.validationCode : null,
        verificationCodeHash: challenge.method === "code-from-call" ? hashCode(challenge.code) : null,
        verificationExpiresAt: new Date(now.getTime() + CALLER_ID_VERIFICATION.codeTtlMs),
        verificationAttempts: 0,
      },
    });
  }

  private async markVerified(id: number, now: Date) {
    const prisma = this.deps.db.prisma;
    await prisma.phoneNumber.updateMany({
      where: { id, status: "pending_verification" },
      data: {
        status: "active",
        verifiedAt: now,
        validationCode: null,
        verificationCodeHash: null,
        verificationExpiresAt: null,
      },
    });
    this.deps.logger.info("caller id verified", { phoneNumberId: id });
    return prisma.phoneNumber.findUniqueOrThrow({ where: { id } });
  }

  /**
   * Releases a number as the spec defines per kind: a dedicated number's subscription is
   * cancelled and the number keeps working until its billing period ends (the release sweep then
   * releases it); SIP is released at once; a caller ID is released at once and removed from the
   * provider. While the carrier is being told the number is `releasing`, still held: nobody can
   * take it until the release completes. A carrier that fails leaves it `releasing` for the sweep.
   */
  /** Audited (phone_number.released) when asked, whether the number goes now or at its period's end. */
  async release(
    accountId: number,
    id: number,
    now = new Date(),
    actor: Actor = systemActor,
  ): Promise<ReleaseOutcome> {
    const outcome = await this.releaseNow(accountId, id, now);
    await this.audit("phone_number.released", actor, outcome.phoneNumber, {
      releasedNow: outcome.releasedNow,
      releasesAt: outcome.releasesAt?.toISOString() ?? null,
    });
    return outcome;
  }

  private audit(
    type: "phone_number.purchased" | "phone_number.added" | "phone_number.released",
    actor: Actor,
    number: PhoneNumber,
    details: Prisma.InputJsonObject,
  ) {
    return this.deps.db.prisma.$transaction((tx) =>
      this.events.emit(tx, {
        type,
        accountId: number.accountId,
        actor,
        target: { type: "phoneNumber", id: number.id },
        details: { phoneNumber: number.phoneNumber, ...details },
      }),
    );
  }

  private async releaseNow(accountId: number, id: number, now: Date): Promise<ReleaseOutcome> {
    const phoneNumber = await this.get(accountId, id);
    if (phoneNumber.status === "releasing") {
      throw new AppError("CONFLICT", "The phone number is already being released.");
    }
    if (phoneNumber.kind !== "normal") {
      const released = await releaseNumber(this.deps, this.provider, phoneNumber, now);
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
      const released = await releaseNumber(this.deps, this.provider, cancelled, now);
      return { phoneNumber: released ?? cancelled, releasedNow: true, releasesAt: null };
    }
    return { phoneNumber: cancelled, releasedNow: false, releasesAt: cancelled.billingPeriodEnd };
  }
}

const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");
const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Gives a number back: marks it `releasing` (still held), tells the carrier (a dedicated number is
 * released, a caller ID removed; SIP has nothing at the carrier), then releases it in the database.
 * Returns null when another instance finished first. A `releasing` number (a carrier that failed
 * before) is taken up where it was.
 */
async function releaseNumber(
  deps: ServiceDeps,
  provider: NumberProvider,
  number: PhoneNumber,
  now: Date,
): Promise<PhoneNumber | null> {
  await deps.db.prisma.phoneNumber.updateMany({
    where: { id: number.id, releasedAt: null },
    data: { status: "releasing", releaseRequestedAt: number.releaseRequestedAt ?? now },
  });
  try {
    if (number.kind === "normal") await provider.releaseNumber(number);
    else if (number.kind === "caller_id") await provider.removeCallerId(number);
  } catch (error) {
    deps.logger.warn("phone number release at the carrier failed; the release sweep retries", {
      phoneNumberId: number.id,
      error,
    });
    throw error;
  }
  return releaseInDatabase(deps, number.id, now);
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
      data: { status: "released", releasedAt: now },
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
 * Releases dedicated numbers whose release was requested once their billing period has ended, and
 * finishes releases a carrier failed (`releasing`). The schedule is the database itself
 * (`releaseRequestedAt` + `billingPeriodEnd`, `status`), so a restart loses nothing: the first sweep
 * runs as soon as the service starts.
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

  /** Releases every number due at `now`; returns the ids it released. One the carrier fails waits for the next sweep. */
  async sweep(now = new Date()): Promise<number[]> {
    const due = await this.deps.db.prisma.phoneNumber.findMany({
      where: {
        releasedAt: null,
        OR: [
          { status: "releasing" },
          { kind: "normal", releaseRequestedAt: { not: null }, billingPeriodEnd: { lte: now } },
        ],
      },
      orderBy: { id: "asc" },
    });
    const released: number[] = [];
    for (const phoneNumber of due) {
      try {
        if (await releaseNumber(this.deps, this.provider, phoneNumber, now)) released.push(phoneNumber.id);
      } catch {
        // Logged by releaseNumber; the number stays `releasing` and held.
      }
    }
    return released;
  }
}
