import type { Prisma } from "../../generated/prisma/client.ts";

/** Prisma's client or an open transaction of it: both run raw statements. */
export type Statements = Pick<Prisma.TransactionClient, "$queryRaw">;

/**
 * Gives a held debit back. The ledger stays append-only: the debit remains (with no message) and a refund entry of the same
 * amount follows. Clearing the hold is the statement's first step and its condition, so a debit is
 * refunded at most once, whoever tries (the failed work, a sweep on any instance), and never after
 * it was settled. Returns the account refunded, or null.
 */
export async function refundHeld(
  statements: Statements,
  debitId: number,
  reason: string,
): Promise<number | null> {
  const [refund] = await statements.$queryRaw<{ accountId: number }[]>`
    WITH released AS (
      UPDATE "ledger_entries" SET "heldUntil" = NULL
      WHERE "id" = ${debitId}::integer AND "heldUntil" IS NOT NULL
      RETURNING "accountId", -"amount" AS "amount", "callId"),
    credited AS (
      UPDATE "accounts" SET "balance" = "accounts"."balance" + released."amount", "updatedAt" = now()
      FROM released WHERE "accounts"."id" = released."accountId"
      RETURNING "accounts"."id", "accounts"."balance", released."amount", released."callId")
    INSERT INTO "ledger_entries" ("accountId", "kind", "amount", "balanceAfter", "description", "callId")
    SELECT "id", 'adjustment'::"ledger_kind", "amount", "balance",
           ${`Refund of debit #${debitId}: ${reason}`}::text, "callId"
    FROM credited
    RETURNING "accountId"`;
  return refund ? Number(refund.accountId) : null;
}
