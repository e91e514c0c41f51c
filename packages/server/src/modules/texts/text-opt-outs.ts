import type { ServiceDeps } from "../../deps.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { TextKeyword } from "./keywords.ts";

/**
 * Who opted out of texts from which of an account's numbers: recorded from their keywords (STOP,
 * START) or the carrier's refusal, and read before any text goes to them.
 */
export class TextOptOuts {
  constructor(
    private readonly deps: ServiceDeps,
    /**
     * Whether the number is an erased customer's who had opted out (docs/data-governance.md): the
     * erasure took the opt-out rows, the tombstone keeps the opt-out.
     */
    private readonly erasedOptOut?: (accountId: number, customerNumber: string) => Promise<boolean>,
  ) {}

  /** Whether `customerNumber` opted out of texts from the account's `accountNumber`. */
  async optedOut(accountId: number, accountNumber: string, customerNumber: string): Promise<boolean> {
    const optOut = await this.deps.db.prisma.textOptOut.findUnique({
      where: { accountId_accountNumber_customerNumber: { accountId, accountNumber, customerNumber } },
      select: { optedOut: true },
    });
    if (optOut) return optOut.optedOut;
    return (await this.erasedOptOut?.(accountId, customerNumber)) ?? false;
  }

  /** Whether `customerNumber` opted out of texts from any of the account's numbers. */
  async optedOutAnywhere(accountId: number, customerNumber: string): Promise<boolean> {
    const count = await this.deps.db.prisma.textOptOut.count({
      where: { accountId, customerNumber, optedOut: true },
    });
    if (count > 0) return true;
    return (await this.erasedOptOut?.(accountId, customerNumber)) ?? false;
  }

  /** Records a keyword's opt-out or opt-in (or the carrier's refusal as an opt-out), in `tx` when given. */
  async record(
    accountId: number,
    accountNumber: string,
    customerNumber: string,
    keyword: TextKeyword,
    tx: Prisma.TransactionClient = this.deps.db.prisma,
  ) {
    const optedOut = keyword.kind === "opt-out";
    await tx.textOptOut.upsert({
      where: { accountId_accountNumber_customerNumber: { accountId, accountNumber, customerNumber } },
      create: { accountId, accountNumber, customerNumber, optedOut, keyword: keyword.keyword },
      update: { optedOut, keyword: keyword.keyword },
    });
    this.deps.logger.info(optedOut ? "text opt-out recorded" : "text opt-in recorded", {
      accountId,
      accountNumber,
    });
  }
}
