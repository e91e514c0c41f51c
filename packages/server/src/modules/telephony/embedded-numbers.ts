import { randomBytes, randomInt } from "node:crypto";
import type { PrismaClient } from "../../db/client.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { CallerIdChallenge, NumberProvider, ProviderNumber } from "./provider.ts";

/**
 * Numbers of the simulated carrier: no carrier behind them. Which account holds a number is the
 * database's to say (phone-numbers claims it before asking here), and every operation is recorded in
 * `ProviderOperation`, so that behaviour can be inspected and tested. A caller ID is verified by a
 * simulated call speaking a six-digit code: what it said is recorded (`caller_id_verification_call`,
 * payload `code`), which is how a test, or someone trying Voxgate without a carrier, "hears" it.
 */
export class EmbeddedNumbers implements NumberProvider {
  readonly name: string = "simulated";

  constructor(protected readonly prisma: PrismaClient) {}

  async purchaseNumber(request: { accountId: number; phoneNumber: string }) {
    await this.record("purchase_number", request.phoneNumber, { accountId: request.accountId });
    return { providerRef: `embedded-${randomBytes(8).toString("hex")}` };
  }

  async cancelSubscription(number: ProviderNumber) {
    await this.record("cancel_subscription", number.phoneNumber, { providerRef: number.providerRef });
  }

  async releaseNumber(number: ProviderNumber) {
    await this.record("release_number", number.phoneNumber, { providerRef: number.providerRef });
  }

  async addCallerId(request: { accountId: number; phoneNumber: string }): Promise<CallerIdChallenge> {
    const providerRef = `embedded-cid-${randomBytes(8).toString("hex")}`;
    const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
    await this.record("add_caller_id", request.phoneNumber, { accountId: request.accountId, providerRef });
    await this.record("caller_id_verification_call", request.phoneNumber, { providerRef, code });
    return { method: "code-from-call", providerRef, code };
  }

  async callerIdVerified() {
    return false;
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
