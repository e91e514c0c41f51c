import type { ServiceDeps } from "../../deps.ts";
import { InsufficientBalanceError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { metrics } from "../../metrics.ts";
import { refundHeld, type Statements } from "./held-debits.ts";

/** One minute of a call: minute 1 is reserved when the call starts, the others charged as they start. */
export interface CallMinuteCharge {
  accountId: number;
  callId: number;
  /** From 1. */
  minute: number;
  amount: string;
}

export type CallMinuteOutcome = "charged" | "already-charged" | "insufficient-balance";

/**
 * A call's minutes in the ledger: minute 1 held while the call is dialled, the others charged as
 * they start, each exactly once. Every statement runs in the caller's transaction, the one that
 * records what happened to the call.
 */
export class CallCharges {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Reserves minute 1 of a call that is about to be dialled, in `tx`, the transaction that records
   * the call: a held debit (refused with InsufficientBalanceError), kept once the call is answered
   * (`settleCallStart`) and given back if it never is (`refundCallStart`). Subscribers are told by
   * the caller once `tx` committed (`balanceChanged`).
   */
  async reserveCallStart(tx: Statements, charge: Omit<CallMinuteCharge, "minute">): Promise<void> {
    const [entry] = await tx.$queryRaw<{ id: number }[]>`
      WITH debited AS (
        UPDATE "accounts" SET "balance" = "balance" - ${charge.amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${charge.accountId} AND "balance" >= ${charge.amount}::numeric
        RETURNING "balance")
      INSERT INTO "ledger_entries"
        ("accountId", "kind", "amount", "balanceAfter", "description", "callId", "callMinute", "heldUntil")
      SELECT ${charge.accountId}::integer, 'call_debit'::"ledger_kind", -(${charge.amount}::numeric), "balance",
             ${`Call #${charge.callId}: minute 1 (reserved)`}::text, ${charge.callId}::integer, 1,
             now() + make_interval(secs => ${this.deps.config.reservationHoldSeconds}::integer)
      FROM debited
      RETURNING "id"`;
    if (!entry) {
      metrics.reservationsRefused.inc({ kind: "call" });
      throw new InsufficientBalanceError();
    }
  }

  /**
   * The call was answered: its reserved first minute is kept. Safe to repeat. In `tx`, the
   * transaction that records the answer.
   */
  async settleCallStart(tx: Statements, callId: number): Promise<void> {
    await tx.$queryRaw`
      UPDATE "ledger_entries" SET "heldUntil" = NULL
      WHERE "callId" = ${callId}::integer AND "callMinute" = 1 AND "heldUntil" IS NOT NULL
      RETURNING "id"`;
  }

  /**
   * The call ended unanswered: its reserved first minute is given back, at most once, in `tx`, the
   * transaction that records the end. True when money moved (tell subscribers with
   * `balanceChanged` once `tx` committed).
   */
  async refundCallStart(tx: Statements, callId: number, reason: string): Promise<boolean> {
    const [held] = await tx.$queryRaw<{ id: number }[]>`
      SELECT "id" FROM "ledger_entries"
      WHERE "callId" = ${callId}::integer AND "callMinute" = 1 AND "heldUntil" IS NOT NULL`;
    return held ? (await refundHeld(tx, Number(held.id), reason)) !== null : false;
  }

  /**
   * Charges minute `minute` of a call, exactly once however often it is asked (a repeated provider
   * callback, the call's timer and its end racing, two instances): the call's row is locked first,
   * so the writers of one call's minutes take turns, and one statement then debits the balance
   * (never below zero) and writes the entry unless the minute is already in the ledger; the unique
   * (callId, callMinute) index stays the last guard. In `tx` when given (the transaction that ends
   * the call, or the timer's), which holds the lock (BillingService.chargeCallMinute opens one when
   * the caller has none).
   */
  async chargeMinute(charge: CallMinuteCharge, tx: Prisma.TransactionClient): Promise<CallMinuteOutcome> {
    await tx.$queryRaw`SELECT "id" FROM "calls" WHERE "id" = ${charge.callId}::integer FOR UPDATE`;
    const [entry] = await tx.$queryRaw<{ id: number }[]>`
      WITH debited AS (
        UPDATE "accounts" SET "balance" = "balance" - ${charge.amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${charge.accountId} AND "balance" >= ${charge.amount}::numeric
          AND NOT EXISTS (SELECT 1 FROM "ledger_entries"
                          WHERE "callId" = ${charge.callId}::integer AND "callMinute" = ${charge.minute}::integer)
        RETURNING "balance")
      INSERT INTO "ledger_entries"
        ("accountId", "kind", "amount", "balanceAfter", "description", "callId", "callMinute")
      SELECT ${charge.accountId}::integer, 'call_debit'::"ledger_kind", -(${charge.amount}::numeric), "balance",
             ${`Call #${charge.callId}: minute ${charge.minute}`}::text, ${charge.callId}::integer,
             ${charge.minute}::integer
      FROM debited
      RETURNING "id"`;
    if (entry) return "charged";
    const charged = await tx.ledgerEntry.count({
      where: { callId: charge.callId, callMinute: charge.minute },
    });
    return charged > 0 ? "already-charged" : "insufficient-balance";
  }

  /** The minutes of a call already in the ledger (charged or reserved), read in `tx`. */
  async chargedCallMinutes(tx: Prisma.TransactionClient, callId: number): Promise<Set<number>> {
    const entries = await tx.ledgerEntry.findMany({
      where: { callId, callMinute: { not: null } },
      select: { callMinute: true },
    });
    return new Set(entries.map((entry) => entry.callMinute!));
  }

  /**
   * What a call cost its account so far (its minute charges less their refunds), as a scalar
   * subquery: whoever records the total computes it in the statement that writes it, in the
   * transaction that moved the money.
   */
  callTotalQuery(callId: number): Prisma.Sql {
    return Prisma.sql`(SELECT -COALESCE(SUM("amount"), 0) FROM "ledger_entries" WHERE "callId" = ${callId}::integer)`;
  }
}
