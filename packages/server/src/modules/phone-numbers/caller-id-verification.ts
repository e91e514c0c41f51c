import { createHash, timingSafeEqual } from "node:crypto";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, RateLimitedError, ValidationError } from "../../errors.ts";
import type { PhoneNumber } from "../../generated/prisma/client.ts";
import type { CallerIdDesk, NumberProvider } from "../telephony/provider.ts";

/**
 * A caller ID's verification: a code spoken by the simulated carrier's call is good for 10 minutes and
 * 5 tries; a new verification call may be asked for once a minute (each is a real call on Twilio).
 */
export const CALLER_ID_VERIFICATION = { codeTtlMs: 10 * 60_000, maxAttempts: 5, restartAfterMs: 60_000 };

/**
 * Proving a caller ID belongs to the account: the carrier's verification call, the code it gives, and
 * the carrier's word on it. The numbers it is given were looked up for their account by the
 * phone-number service; the carrier's reports arrive here directly.
 */
export class CallerIdVerification implements CallerIdDesk {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly provider: NumberProvider,
  ) {}

  /**
   * Confirms a caller ID pending verification. A code spoken by the carrier's call (the simulated
   * carrier) must be given, within its lifetime and tries; on a carrier that has the code typed on its
   * call (Twilio) no code is needed: the carrier is asked whether it verified the number, which also
   * catches a status callback that never arrived. A verified caller ID is returned as it is.
   */
  async verify(number: PhoneNumber, code: string | null | undefined, now: Date) {
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
        id: number.id,
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
  async restart(number: PhoneNumber, now: Date) {
    if (number.kind !== "caller_id" || number.status !== "pending_verification") {
      throw ValidationError.single("id", "Only a caller ID pending verification can be verified again.");
    }
    await this.allowCall(number.phoneNumber, now);
    return this.challenge(number, now);
  }

  /**
   * A phone gets one verification call a minute at most, whoever asks (a row released and added again,
   * by any account, counts too): each call rings someone's phone.
   */
  async allowCall(phoneNumber: string, now: Date) {
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
  async challenge(number: PhoneNumber, now: Date) {
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
}

const hashCode = (code: string) => createHash("sha256").update(code).digest("hex");
const sameHash = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
