import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { InsufficientBalanceError, NotFoundError } from "../../errors.ts";
import { type Account, type LedgerEntry, Prisma } from "../../generated/prisma/client.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import { timed } from "../../logger.ts";
import { metrics } from "../../metrics.ts";
import { moneyAmount, parseInput } from "../../validation.ts";
import { requireOperator } from "../auth/operator-role.ts";
import type { Viewer } from "../auth/viewer.ts";
import { type Page, type PageRequest, paginate } from "../common/pagination.ts";
import { CallCharges, type CallMinuteCharge, type CallMinuteOutcome } from "./call-charges.ts";
import { refundHeld, type Statements } from "./held-debits.ts";
import * as texts from "./text-charges.ts";

const RESERVATION_SWEEP_INTERVAL_MS = 60_000;

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

const LedgerInput = z.object({
  accountId: z.number({ error: "The account id field must be an integer." }).int().positive(),
});

const CreditInput = z.object({
  amount: moneyAmount().refine((value) => Number(value) > 0, "The amount field must be greater than 0."),
  description: z.string().max(255).default("Balance top-up"),
});

/**
 * Every movement of an account's balance, each with its ledger entry: credits (top-ups and the
 * opening balance), charges for messages and for call minutes; no other module writes
 * `accounts.balance` or the ledger.
 *
 * A message's charge is taken before the model is called, by one conditional UPDATE
 * (`balance >= price`), so concurrent messages can never overdraw an account: with money for 20
 * messages and 50 sent at once, exactly 20 reservations succeed. The reply is then produced outside
 * any transaction. The work a reservation pays for settles it by linking the debit to the message
 * it paid for, in the statement that stores the exchange; if the work fails in any way the money is
 * given back with a refund entry, so only stored exchanges cost anything; an exchange whose hold
 * ran out (and was refunded) is not stored at all, so nothing stored is unpaid. The ledger thus holds,
 * per charged message, either one debit linked to its message or an unlinked debit followed by its
 * refund. Each step is a single statement, atomic without an open transaction. A debit is "held"
 * (`heldUntil`) until it is settled or refunded; a hold that outlives its process (a crash or a
 * restart mid-reply) is refunded by `ReservationSweep` once it expires.
 */
export class BillingService {
  private readonly calls: CallCharges;

  constructor(private readonly deps: ServiceDeps) {
    this.calls = new CallCharges(deps);
  }

  /**
   * An account's ledger, newest first: the caller's own account, or (`accountId`) any account for a
   * platform operator; FORBIDDEN to others, so that nobody learns whether an account exists.
   */
  async ledger(
    viewer: Viewer,
    accountId: number | null | undefined,
    page: PageRequest,
  ): Promise<Page<LedgerEntry>> {
    const { accountId: target } = parseInput(LedgerInput, { accountId: accountId ?? viewer.accountId });
    if (target !== viewer.accountId) {
      await requireOperator(this.deps.db.prisma, viewer, "read another account's ledger");
      if (!(await this.deps.db.prisma.account.findUnique({ where: { id: target }, select: { id: true } }))) {
        throw new NotFoundError("Account");
      }
    }
    const where = { accountId: target };
    return paginate(page, 25, {
      count: () => this.deps.db.prisma.ledgerEntry.count({ where }),
      items: (skip, take) =>
        this.deps.db.prisma.ledgerEntry.findMany({
          where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip,
          take,
        }),
    });
  }

  /** Adds money to an account (a top-up), records it in the ledger and tells subscribers. */
  async credit(accountId: number, input: { amount: unknown; description?: unknown }): Promise<Account> {
    const { amount, description } = parseInput(CreditInput, input);
    if (!(await this.addFunds(this.deps.db.prisma, accountId, amount, description))) {
      throw new NotFoundError("Account");
    }
    const account = await this.deps.db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
    this.deps.pubsub.publish("account:balance", accountId, { accountId });
    this.deps.logger.info("balance credited", { accountId, amount });
    return account;
  }

  /**
   * The opening balance of an account being created, written by `tx`, the transaction that creates
   * it, so that neither exists without the other.
   */
  async openingBalance(tx: Prisma.TransactionClient, accountId: number, amount: string): Promise<void> {
    if (new Prisma.Decimal(amount).lte(0)) return;
    await this.addFunds(tx, accountId, amount, "Opening balance");
  }

  /** One statement: the balance and its ledger entry change together. False if there is no such account. */
  private async addFunds(
    statements: Statements,
    accountId: number,
    amount: string,
    description: string,
  ): Promise<boolean> {
    const entries = await statements.$queryRaw<{ id: number }[]>`
      WITH credited AS (
        UPDATE "accounts" SET "balance" = "balance" + ${amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${accountId}
        RETURNING "balance")
      INSERT INTO "ledger_entries" ("accountId", "kind", "amount", "balanceAfter", "description")
      SELECT ${accountId}::integer, 'credit'::"ledger_kind", ${amount}::numeric, "balance", ${description}::text
      FROM credited
      RETURNING "id"`;
    return entries.length > 0;
  }

  /**
   * Runs `work` paid for by `charge`: the money is reserved first (refused with
   * InsufficientBalanceError), and whatever makes `work` fail (the model, a function, storage, a
   * bug) gives it back before the failure goes on. `work` settles the reservation in the statement
   * that stores what it paid for (see `settlement`).
   *
   * Balance subscribers hear of the charge once the work is done (or given back), not when it is
   * reserved: announced with the work's own events, it leaves in the same Redis write as they do,
   * one system call fewer per reply.
   */
  async payFor<T>(charge: Charge, work: (reservation: Reservation) => Promise<T>): Promise<T> {
    const reservation = await this.reserve(charge.accountId, charge.amount, charge.kind, charge.description);
    try {
      const done = await work(reservation);
      if (reservation.ledgerEntryId !== null)
        this.deps.pubsub.publish("account:balance", charge.accountId, { accountId: charge.accountId });
      return done;
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
    const statement = Prisma.sql`
      WITH debited AS (
        UPDATE "accounts" SET "balance" = "balance" - ${amount}::numeric, "updatedAt" = now()
        WHERE "id" = ${accountId} AND "balance" >= ${amount}::numeric
        RETURNING "balance")
      INSERT INTO "ledger_entries" ("accountId", "kind", "amount", "balanceAfter", "description", "heldUntil")
      SELECT ${accountId}::integer, ${kind}::"ledger_kind", -(${amount}::numeric), "balance", ${description}::text,
             now() + make_interval(secs => ${this.deps.config.reservationHoldSeconds}::integer)
      FROM debited
      RETURNING "id"`;
    // Through the driver: every paid message takes this path, and Prisma's raw query costs more
    // than the statement itself; prepared, planned once per connection (an update by primary key).
    const [entry] = await timed("reservation", () =>
      this.deps.db.withConnection((sql) => sql.prepared<{ id: number }>(statement.text, statement.values)),
    );
    const entryId = entry ? Number(entry.id) : null;
    if (entryId === null) {
      metrics.reservationsRefused.inc({ kind });
      throw new InsufficientBalanceError();
    }
    return { accountId, amount, ledgerEntryId: entryId };
  }

  /**
   * Settles `reservation`: the first step (the body of a `WITH` query) of the one statement that
   * stores what it paid for, so that the exchange and its charge are kept together or not at all.
   * It claims the held debit (clears the hold) and links it to `messageId`, an id the statement
   * then gives the message it stores (`RETURNING "messageId"`); a hold already refunded (the work
   * outlived it and the sweep gave the money back) yields no row, and the statement must then store
   * nothing. Only for a debit (`ledgerEntryId` set): a free message has nothing to settle.
   */
  settlement(reservation: Reservation & { ledgerEntryId: number }, messageId: Prisma.Sql): Prisma.Sql {
    return Prisma.sql`
      UPDATE "ledger_entries" SET "messageId" = ${messageId}, "heldUntil" = NULL
      WHERE "id" = ${reservation.ledgerEntryId}::integer AND "heldUntil" IS NOT NULL
      RETURNING "messageId"`;
  }

  /** Holds minute 1 of a call about to be dialled, in `tx` (see CallCharges.reserveCallStart). */
  async reserveCallStart(tx: Statements, charge: Omit<CallMinuteCharge, "minute">): Promise<void> {
    await this.calls.reserveCallStart(tx, charge);
  }

  /** The call was answered: its held first minute is kept (see CallCharges.settleCallStart). */
  async settleCallStart(tx: Statements, callId: number): Promise<void> {
    await this.calls.settleCallStart(tx, callId);
  }

  /** The call ended unanswered: its held first minute is given back (see CallCharges.refundCallStart). */
  async refundCallStart(tx: Statements, callId: number, reason: string): Promise<boolean> {
    return this.calls.refundCallStart(tx, callId, reason);
  }

  /**
   * Charges minute `minute` of a call exactly once (see CallCharges.chargeMinute), in `tx` when
   * given; otherwise in a transaction of its own, whose subscribers are told. Without `tx`, balance
   * subscribers are told here; with it, by the caller once `tx` committed (`balanceChanged`).
   */
  async chargeCallMinute(
    charge: CallMinuteCharge,
    tx?: Prisma.TransactionClient,
  ): Promise<CallMinuteOutcome> {
    if (tx) return this.calls.chargeMinute(charge, tx);
    const outcome = await this.deps.db.prisma.$transaction((own) => this.calls.chargeMinute(charge, own));
    if (outcome === "charged") this.balanceChanged(charge.accountId);
    return outcome;
  }

  /** The minutes of a call already in the ledger (charged or reserved), read in `tx`. */
  async chargedCallMinutes(tx: Prisma.TransactionClient, callId: number): Promise<Set<number>> {
    return this.calls.chargedCallMinutes(tx, callId);
  }

  /** What a call cost its account so far, as a scalar subquery (see CallCharges.callTotalQuery). */
  callTotalQuery(callId: number): Prisma.Sql {
    return this.calls.callTotalQuery(callId);
  }

  /** Charges a text its segments in `tx`, the transaction that records it (see text-charges.ts). */
  async chargeText(
    tx: Statements,
    charge: { accountId: number; textMessageId: number; amount: string; description: string },
  ): Promise<void> {
    await texts.chargeText(tx, charge);
  }

  /** Gives a text's charge back in `tx`, the transaction that records its failure (see text-charges.ts). */
  async refundText(tx: Statements, textMessageId: number, reason: string): Promise<boolean> {
    return texts.refundText(tx, textMessageId, reason);
  }

  /** Tells the account's balance subscribers, once the transaction that moved its money committed. */
  balanceChanged(accountId: number): void {
    this.deps.pubsub.publish("account:balance", accountId, { accountId });
  }

  /** Gives the money back: the exchange it was held for was never stored. */
  private async release(reservation: Reservation): Promise<void> {
    if (reservation.ledgerEntryId === null) return;
    const accountId = await refundHeld(
      this.deps.db.prisma,
      reservation.ledgerEntryId,
      "the message was not answered",
    );
    if (accountId !== null) this.balanceChanged(accountId);
  }

  /**
   * Refunds reservations whose hold ran out: the process that made them stopped before it could
   * settle or release them. Returns the ids of the debits refunded.
   */
  async refundExpiredHolds(): Promise<number[]> {
    const expired = await this.deps.db.prisma.$queryRaw<{ id: number; callId: number | null }[]>`
      SELECT "id", "callId" FROM "ledger_entries" WHERE "heldUntil" < now() ORDER BY "heldUntil" LIMIT 500`;
    const refunded: number[] = [];
    for (const { id, callId } of expired) {
      const reason = callId === null ? "the reply was interrupted" : "the call was never answered";
      const accountId = await refundHeld(this.deps.db.prisma, Number(id), reason);
      if (accountId === null) continue;
      refunded.push(Number(id));
      this.balanceChanged(accountId);
    }
    return refunded;
  }
}

/** Refunds expired holds on start and then every minute. */
export class ReservationSweep extends PeriodicSweep {
  constructor(
    deps: ServiceDeps,
    private readonly billing: BillingService,
  ) {
    super("reservation sweep", RESERVATION_SWEEP_INTERVAL_MS, deps.logger);
  }

  protected async runOnce() {
    const refunded = await this.billing.refundExpiredHolds();
    if (refunded.length > 0) this.logger.warn("refunded interrupted replies", { debits: refunded });
  }
}
