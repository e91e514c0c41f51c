import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, NumberUnavailableError, ValidationError } from "../../errors.ts";
import { type Actor, type EventSink, systemActor } from "../../events.ts";
import type { PhoneNumber, PhoneNumberKind, Prisma } from "../../generated/prisma/client.ts";
import { optionalString, parseInput } from "../../validation.ts";
import type { NumberProvider } from "../telephony/provider.ts";
import type { CallerIdVerification } from "./caller-id-verification.ts";
import { e164PhoneNumber, parseE164 } from "./e164.ts";
import { type ReleaseOutcome, requestRelease } from "./number-release.ts";

export const PHONE_NUMBER_KINDS = ["normal", "sip", "caller_id"] as const;
export const SUBSCRIPTION_STATUSES = ["active", "cancelled", "none"] as const;
export const PHONE_NUMBER_STATUSES = ["pending_verification", "active", "releasing", "released"] as const;

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

const regionNames = new Intl.DisplayNames(["en"], { type: "region" });

/** Numbers an account holds: everything not yet released (a cancelled number works until its period ends). */
const held = (accountId: number) => ({ accountId, releasedAt: null }) satisfies Prisma.PhoneNumberWhereInput;

export class PhoneNumbersService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly provider: NumberProvider,
    private readonly events: EventSink,
    private readonly callerIds: CallerIdVerification,
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
    if (input.kind === "caller_id") await this.callerIds.allowCall(e164, now);
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
        phoneNumber = await this.callerIds.challenge(claimed, now);
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

  /** Confirms a caller ID of the account pending verification (see CallerIdVerification.verify). */
  async verifyCallerId(accountId: number, id: number, code: string | null | undefined, now = new Date()) {
    return this.callerIds.verify(await this.get(accountId, id), code, now);
  }

  /** Asks the carrier for a new verification call to a caller ID of the account, once a minute. */
  async restartCallerIdVerification(accountId: number, id: number, now = new Date()) {
    return this.callerIds.restart(await this.get(accountId, id), now);
  }

  /**
   * Releases a number of the account (see requestRelease), audited (phone_number.released) when
   * asked, whether the number goes now or at its period's end.
   */
  async release(
    accountId: number,
    id: number,
    now = new Date(),
    actor: Actor = systemActor,
  ): Promise<ReleaseOutcome> {
    const outcome = await requestRelease(this.deps, this.provider, await this.get(accountId, id), now);
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
}
