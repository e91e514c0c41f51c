import { AppError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import type { ServiceDeps } from "../../services.ts";

export class InsufficientBalanceError extends AppError {
  constructor() {
    super("INSUFFICIENT_BALANCE", "Insufficient balance. Please top up your account.");
  }
}

/** Money held for one message until its exchange is stored (then settled) or fails (then released). */
export interface Reservation {
  accountId: number;
  amount: string;
  /** The ledger entry of the debit; null when the message was free. */
  ledgerEntryId: number | null;
}

/** What one piece of paid work costs and how the ledger names it. */
export interface Charge {
  accountId: number;
  amount: string;
  kind: "message_debit" | "reply_debit";
  description: string;
}

/**
 * Charges for messages. A charge is taken before the model is called, by one conditional UPDATE
 * (`balance >= price`), so concurrent messages can never overdraw an account: with money for 20
 * messages and 50 sent at once, exactly 20 reservations succeed. The reply is then produced outside
 * any transaction. The work a reservation pays for settles it by linking the debit to the message
 * it paid for, in the statement that stores the exchange; if the work fails in any way the money is
 * given back with a refund entry, so only stored exchanges cost anything. The ledger thus holds,
 * per charged message, either one debit linked to its message or an unlinked debit followed by its
 * refund. Each step is a single statement, atomic without an open transaction.
 */
export class BillingService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Runs `work` paid for by `charge`: the money is reserved first (refused with
   * InsufficientBalanceError), and whatever makes `work` fail (the model, a function, storage, a
   * bug) gives it back before the failure goes on. `work` settles the reservation by storing what
   * it paid for with the debit linked (see `Reservation.ledgerEntryId`).
   */
  async payFor<T>(charge: Charge, work: (reservation: Reservation) => Promise<T>): Promise<T> {
    const reservation = await this.reserve(charge.accountId, charge.amount, charge.kind, charge.description);
    try {
      return await work(reservation);
    } catch (error) {
      await this.release(reservation).catch((releaseError: unknown) =>
        // The failure the caller must see is the work's; this one needs a person to refund by hand.
        this.deps.logger.error("refund of a failed message's reservation failed", {
          ...reservation,
          error: releaseError,
        }),
      );
      throw error;
    }
  }

  private async reserve(
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
   * Gives the money back: the exchange it was held for was never stored. The ledger stays
   * append-only: the debit remains (with no message) and a refund entry of the same amount follows.
   */
  private async release(reservation: Reservation): Promise<void> {
    if (reservation.ledgerEntryId === null) return;
    const { accountId, amount, ledgerEntryId } = reservation;
    await this.deps.db.prisma.$executeRaw`
      WITH credited AS (
        UPDATE "accounts" SET "balance" = "balance" + ${amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${accountId}
        RETURNING "balance")
      INSERT INTO "ledger_entries" ("accountId", "kind", "amount", "balanceAfter", "description")
      SELECT ${accountId}::integer, 'adjustment'::"ledger_kind", ${amount}::numeric, "balance",
             ${`Refund of debit #${ledgerEntryId}: the message was not answered`}::text
      FROM credited`;
    this.deps.pubsub.publish("account:balance", accountId, { accountId });
  }
}
