import { randomBytes } from "node:crypto";
import type { PrismaClient } from "../../db/client.ts";
import { NumberUnavailableError } from "../../errors.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { NumberProvider, ProviderNumber } from "./provider.ts";

/**
 * Numbers of the simulated carrier: no carrier behind them. It keeps its state in the database
 * (a number is taken while some account holds it unreleased) and records every operation in
 * `ProviderOperation`, so that behaviour can be inspected and tested.
 */
export class EmbeddedNumbers implements NumberProvider {
  readonly name: string = "simulated";

  constructor(protected readonly prisma: PrismaClient) {}

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
