import { AppError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { ServiceDeps } from "../../services.ts";

export class InsufficientBalanceError extends AppError {
  constructor() {
    super("INSUFFICIENT_BALANCE", "Insufficient balance. Please top up your account.");
  }
}

/** Money held for one message until its reply is delivered (then settled) or fails (then released). */
export interface Reservation {
  accountId: number;
  amount: string;
  /** The ledger entry of the debit; null when the message was free. */
  ledgerEntryId: number | null;
}

type Transaction = Prisma.TransactionClient;

/**
 * Charges for messages. A charge is taken before the model is called, by one conditional UPDATE
 * (`balance >= price`), so concurrent messages can never overdraw an account: with money for 20
 * messages and 50 sent at once, exactly 20 reservations succeed. The reply is then produced outside
 * any transaction; on success the debit is linked to the message it paid for, on failure the money
 * is given back (with a refund entry) in one transaction, so a failed call costs nothing.
 */
export class BillingService {
  constructor(private readonly deps: ServiceDeps) {}

  async reserve(
    accountId: number,
    amount: string,
    kind: "message_debit" | "reply_debit",
    description: string,
  ): Promise<Reservation> {
    if (new Prisma.Decimal(amount).lte(0)) return { accountId, amount, ledgerEntryId: null };
    const entryId = await this.deps.db.prisma.$transaction(async (tx) => {
      const [debited] = await tx.$queryRaw<{ balance: Prisma.Decimal }[]>`
        UPDATE "accounts" SET "balance" = "balance" - ${amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${accountId} AND "balance" >= ${amount}::numeric
        RETURNING "balance"`;
      if (!debited) return null;
      const entry = await tx.ledgerEntry.create({
        data: {
          accountId,
          kind,
          amount: new Prisma.Decimal(amount).neg(),
          balanceAfter: debited.balance,
          description,
        },
      });
      return entry.id;
    });
    if (entryId === null) throw new InsufficientBalanceError();
    this.deps.pubsub.publish("account:balance", accountId, { accountId });
    return { accountId, amount, ledgerEntryId: entryId };
  }

  /** Links the debit to the message it paid for, inside the transaction that stores that message. */
  async settle(tx: Transaction, reservation: Reservation, messageId: number): Promise<void> {
    if (reservation.ledgerEntryId === null) return;
    await tx.ledgerEntry.update({ where: { id: reservation.ledgerEntryId }, data: { messageId } });
  }

  /**
   * Gives the money back: the message it was held for was never answered. The ledger stays
   * append-only: the debit remains (with no message) and a refund entry of the same amount follows.
   */
  async release(reservation: Reservation): Promise<void> {
    if (reservation.ledgerEntryId === null) return;
    const { accountId, amount, ledgerEntryId } = reservation;
    await this.deps.db.prisma.$transaction(async (tx) => {
      const [credited] = await tx.$queryRaw<{ balance: Prisma.Decimal }[]>`
        UPDATE "accounts" SET "balance" = "balance" + ${amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${accountId} RETURNING "balance"`;
      if (!credited) return;
      await tx.ledgerEntry.create({
        data: {
          accountId,
          kind: "adjustment",
          amount,
          balanceAfter: credited.balance,
          description: `Refund of debit #${ledgerEntryId}: the reply failed`,
        },
      });
    });
    this.deps.pubsub.publish("account:balance", accountId, { accountId });
  }
}
