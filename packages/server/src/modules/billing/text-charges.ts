import { InsufficientBalanceError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { metrics } from "../../metrics.ts";
import type { Statements } from "./held-debits.ts";

// A text's segments in the ledger: charged in the transaction that records the text, refunded in
// the one that records its failure.

/**
 * Charges a text message its segments, in `tx`, the transaction that records it (refused with
 * InsufficientBalanceError, which rolls the record back), and sets its `cost` in the same
 * statement. Subscribers are told by the caller once `tx` committed (`balanceChanged`).
 */
export async function chargeText(
  tx: Statements,
  charge: { accountId: number; textMessageId: number; amount: string; description: string },
): Promise<void> {
  if (new Prisma.Decimal(charge.amount).lte(0)) return;
  const [entry] = await tx.$queryRaw<{ id: number }[]>`
    WITH debited AS (
      UPDATE "accounts" SET "balance" = "balance" - ${charge.amount}::numeric, "updatedAt" = now()
      WHERE "id" = ${charge.accountId} AND "balance" >= ${charge.amount}::numeric
      RETURNING "balance"),
    costed AS (
      UPDATE "text_messages" SET "cost" = ${charge.amount}::numeric
      WHERE "id" = ${charge.textMessageId}::integer AND EXISTS (SELECT 1 FROM debited)
      RETURNING "id")
    INSERT INTO "ledger_entries" ("accountId", "kind", "amount", "balanceAfter", "description", "textMessageId")
    SELECT ${charge.accountId}::integer, 'sms_debit'::"ledger_kind", -(${charge.amount}::numeric), "balance",
           ${charge.description}::text, ${charge.textMessageId}::integer
    FROM debited
    RETURNING "id"`;
  if (!entry) {
    metrics.reservationsRefused.inc({ kind: "sms" });
    throw new InsufficientBalanceError();
  }
}

/**
 * Gives a text's charge back (the carrier did not send it), in `tx`, the transaction that records
 * its failure: what its entries still net is refunded with an adjustment linked to it, and its
 * `cost` becomes 0, so a second refund finds nothing. The text's row is locked first, so two
 * refunds of one text take turns. True when money moved (tell subscribers once `tx` committed).
 */
export async function refundText(tx: Statements, textMessageId: number, reason: string): Promise<boolean> {
  await tx.$queryRaw`SELECT "id" FROM "text_messages" WHERE "id" = ${textMessageId}::integer FOR UPDATE`;
  const [refund] = await tx.$queryRaw<{ id: number }[]>`
    WITH charged AS (
      SELECT "accountId", -SUM("amount") AS "amount" FROM "ledger_entries"
      WHERE "textMessageId" = ${textMessageId}::integer GROUP BY "accountId"),
    credited AS (
      UPDATE "accounts" SET "balance" = "accounts"."balance" + charged."amount", "updatedAt" = now()
      FROM charged WHERE "accounts"."id" = charged."accountId" AND charged."amount" > 0
      RETURNING "accounts"."id", "accounts"."balance", charged."amount"),
    uncosted AS (
      UPDATE "text_messages" SET "cost" = 0
      WHERE "id" = ${textMessageId}::integer AND EXISTS (SELECT 1 FROM credited)
      RETURNING "id")
    INSERT INTO "ledger_entries" ("accountId", "kind", "amount", "balanceAfter", "description", "textMessageId")
    SELECT "id", 'adjustment'::"ledger_kind", "amount", "balance",
           ${`Refund of text #${textMessageId}: ${reason}`}::text, ${textMessageId}::integer
    FROM credited
    RETURNING "id"`;
  return refund !== undefined;
}
