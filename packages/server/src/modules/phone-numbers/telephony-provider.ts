import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../../db/client.ts";
import { NumberUnavailableError } from "../../errors.ts";
import type { Prisma } from "../../generated/prisma/client.ts";

/** A number as the provider knows it. */
export interface ProviderNumber {
  phoneNumber: string;
  providerRef: string | null;
}

/**
 * What Voxgate asks of a telephony carrier. Implementations for real carriers live beside the
 * embedded one; the phone-number service never talks to a carrier any other way.
 */
export interface TelephonyProvider {
  readonly name: string;
  /** Buys a dedicated number; refuses (CONFLICT) a number someone else holds. */
  purchaseNumber(request: { accountId: number; phoneNumber: string }): Promise<{ providerRef: string }>;
  /** Stops renewing a dedicated number; the carrier keeps it working until the period ends. */
  cancelSubscription(number: ProviderNumber): Promise<void>;
  /** Gives a dedicated number back to the carrier. Safe to repeat. */
  releaseNumber(number: ProviderNumber): Promise<void>;
  /** Registers a number the customer owns elsewhere as an outbound caller ID. */
  addCallerId(request: { accountId: number; phoneNumber: string }): Promise<{ providerRef: string }>;
  removeCallerId(number: ProviderNumber): Promise<void>;
}

/**
 * The provider of the embedded mode: no carrier behind it. It keeps its state in the database
 * (a number is taken while some account holds it unreleased) and records every operation in
 * `ProviderOperation`, so that behaviour can be inspected and tested.
 */
export class EmbeddedTelephonyProvider implements TelephonyProvider {
  readonly name = "embedded";

  constructor(private readonly prisma: PrismaClient) {}

  async purchaseNumber(request: { accountId: number; phoneNumber: string }) {
    const held = await this.prisma.phoneNumber.count({
      where: { phoneNumber: request.phoneNumber, kind: "normal", releasedAt: null },
    });
    await this.record("purchase_number", request.phoneNumber, {
      accountId: request.accountId,
      accepted: held === 0,
    });
    if (held > 0) throw new NumberUnavailableError();
    return { providerRef: `embedded-${randomBytes(8).toString("hex")}` };
  }

  async cancelSubscription(number: ProviderNumber) {
    await this.record("cancel_subscription", number.phoneNumber, { providerRef: number.providerRef });
  }

  async releaseNumber(number: ProviderNumber) {
    await this.record("release_number", number.phoneNumber, { providerRef: number.providerRef });
  }

  async addCallerId(request: { accountId: number; phoneNumber: string }) {
    const providerRef = `embedded-cid-${randomBytes(8).toString("hex")}`;
    await this.record("add_caller_id", request.phoneNumber, { accountId: request.accountId, providerRef });
    return { providerRef };
  }

  async removeCallerId(number: ProviderNumber) {
    await this.record("remove_caller_id", number.phoneNumber, { providerRef: number.providerRef });
  }

  private async record(operation: string, phoneNumber: string, payload: Prisma.InputJsonObject) {
    await this.prisma.providerOperation.create({
      data: { provider: this.name, operation, phoneNumber, payload },
    });
  }
}
