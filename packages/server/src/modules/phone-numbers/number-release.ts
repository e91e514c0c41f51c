import type { ServiceDeps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import type { PhoneNumber } from "../../generated/prisma/client.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import type { NumberProvider } from "../telephony/provider.ts";

/** The outcome of a release request: released at once, or scheduled for the end of the period. */
export interface ReleaseOutcome {
  phoneNumber: PhoneNumber;
  releasedNow: boolean;
  /** When a scheduled release happens: the end of the paid billing period. */
  releasesAt: Date | null;
}

/**
 * Releases a number as the spec defines per kind: a dedicated number's subscription is
 * cancelled and the number keeps working until its billing period ends (the release sweep then
 * releases it); SIP is released at once; a caller ID is released at once and removed from the
 * provider. While the carrier is being told the number is `releasing`, still held: nobody can
 * take it until the release completes. A carrier that fails leaves it `releasing` for the sweep.
 */
export async function requestRelease(
  deps: ServiceDeps,
  provider: NumberProvider,
  phoneNumber: PhoneNumber,
  now: Date,
): Promise<ReleaseOutcome> {
  if (phoneNumber.status === "releasing") {
    throw new AppError("CONFLICT", "The phone number is already being released.");
  }
  if (phoneNumber.kind !== "normal") {
    const released = await releaseNumber(deps, provider, phoneNumber, now);
    return { phoneNumber: released ?? phoneNumber, releasedNow: true, releasesAt: null };
  }
  if (phoneNumber.releaseRequestedAt) {
    throw new AppError("CONFLICT", "The phone number is already scheduled for release.", {
      releasesAt: phoneNumber.billingPeriodEnd?.toISOString() ?? null,
    });
  }
  await provider.cancelSubscription(phoneNumber);
  const cancelled = await deps.db.prisma.phoneNumber.update({
    where: { id: phoneNumber.id },
    data: { subscriptionStatus: "cancelled", releaseRequestedAt: now },
  });
  deps.logger.info("phone number subscription cancelled", {
    accountId: phoneNumber.accountId,
    phoneNumberId: phoneNumber.id,
  });
  if (!cancelled.billingPeriodEnd || cancelled.billingPeriodEnd <= now) {
    const released = await releaseNumber(deps, provider, cancelled, now);
    return { phoneNumber: released ?? cancelled, releasedNow: true, releasesAt: null };
  }
  return { phoneNumber: cancelled, releasedNow: false, releasesAt: cancelled.billingPeriodEnd };
}

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
