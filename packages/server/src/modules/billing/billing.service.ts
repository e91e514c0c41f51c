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

/**
 * Charges for messages. A charge is taken before the model is called, by one conditional UPDATE
 * (`balance >= price`), so concurrent messages can never overdraw an account: with money for 20
 * messages and 50 sent at once, exactly 20 reservations succeed. The reply is then produced outside
 * any transaction; on success the debit is linked to the message it paid for (by the statement that
 * stores the exchange), on failure the money is given back with a refund entry, so a failed call
 * costs nothing. Each step is a single statement, atomic without an open transaction.
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
    // One statement, so no transaction is held open between the debit and its ledger entry.
    const [entry] = await this.deps.db.prisma.$queryRaw<{ id: number }[]>`
      WITH debited AS (
        UPDATE "accounts" SET "balance" = "balance" - ${amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${accountId} AND "balance" >= ${amount}::numeric
        RETURNING "balance")
      INSERT INTO "ledger_entries" ("accountId", "kind", "amount", "balanceAfter", "description")
      SELECT ${accountId}::integer, ${kind}::"ledger_kind", -(${amount}::numeric), "balance", ${description}::text
      FROM debited
      RETURNING "id"`;
    const entryId = entry ? Number(entry.id) : null;
    if (entryId === null) throw new InsufficientBalanceError();
    this.deps.pubsub.publish("account:balance", accountId, { accountId });
    return { accountId, amount, ledgerEntryId: entryId };
  }

  /**
   * Gives the money back: the message it was held for was never answered. The ledger stays
   * append-only: the debit remains (with no message) and a refund entry of the same amount follows.
   */
  async release(reservation: Reservation): Promise<void> {
    if (reservation.ledgerEntryId === null) return;
    const { accountId, amount, ledgerEntryId } = reservation;
    await this.deps.db.prisma.$executeRaw`
      WITH credited AS (
        UPDATE "accounts" SET "balance" = "balance" + ${amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${accountId}
        RETURNING "balance")
      INSERT INTO "ledger_entries" ("accountId", "kind", "amount", "balanceAfter", "description")
      SELECT ${accountId}::integer, 'adjustment'::"ledger_kind", ${amount}::numeric, "balance",
             ${`Refund of debit #${ledgerEntryId}: the reply failed`}::text
      FROM credited`;
    this.deps.pubsub.publish("account:balance", accountId, { accountId });
  }
}
