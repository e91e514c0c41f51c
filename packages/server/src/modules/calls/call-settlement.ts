import type { ServiceDeps } from "../../deps.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import type { BillingService } from "../billing/index.ts";

/** Minutes begun after `seconds` of an answered call: a call is charged from its first second. */
export const minutesStarted = (seconds: number) => Math.floor(Math.max(0, seconds) / 60) + 1;

/** What the timer's charge found: the minutes paid, one the balance could not pay, or no running call. */
export type RunningCharge = "paid" | "short" | "not-running";

/**
 * The money side of a call's lifecycle, always in the transaction that writes the call's row, so
 * that a reader never sees a status without the charges and the `totalCost` that go with it: the
 * answer keeps the reserved first minute, the end charges the minutes the timer had not reached
 * (or refunds the reservation of a call never answered) and records the total, and the timer
 * charges each minute as it begins. Whoever holds the call's row lock is the only one charging
 * its minutes (billing takes that lock too), so the timer and the end never race.
 *
 * Only carried calls are billed by the minute: phone calls and browser web calls (`providerName`
 * set); a call recorded through the API without a carrier costs nothing, and so does an agent
 * test's call (`test`), which is carried by the simulation only, and a call answered by the no-model
 * fallback (free-calls.ts), recorded with no first minute reserved: a call is charged its minutes
 * only when its first was reserved as it was recorded, which no configuration change mid-call alters.
 */
export class CallSettlement {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly billing: BillingService,
  ) {}

  private billed(call: Call): boolean {
    return call.providerName !== "" && !call.test;
  }

  /** In `tx`, which has just written the answer: the reserved first minute is kept. */
  async answered(tx: Prisma.TransactionClient, call: Call): Promise<void> {
    if (this.billed(call)) await this.billing.settleCallStart(tx, call.id);
  }

  /**
   * In `tx`, which has just written the call's final status (and holds its row): the minutes begun
   * and not yet charged are charged (what the balance cannot pay is waived: the call is over), or
   * the reservation of a call never answered is refunded; then `totalCost` is written. True when the
   * balance moved (tell subscribers once `tx` committed).
   */
  async ended(tx: Prisma.TransactionClient, call: Call): Promise<boolean> {
    if (!this.billed(call)) return false;
    const moved = call.startedAt
      ? (await this.chargeMinutes(tx, call, minutesStarted(call.duration))).charged
      : await this.billing.refundCallStart(tx, call.id, "the call was not answered");
    await this.recordTotal(tx, call.id);
    return moved;
  }

  /**
   * The call's timer: charges the minutes begun by `through` of a call still running with no end
   * asked for, holding its row, and records the total. "short" when the balance could not pay a
   * minute (the caller hangs up); "not-running" when the call ended or is being ended meanwhile (its
   * end charges what is left).
   */
  async chargeRunning(callId: number, through: number): Promise<RunningCharge> {
    const result = await this.deps.db.prisma.$transaction(async (tx) => {
      const [running] = await tx.$queryRaw<{ id: number }[]>`
        SELECT "id" FROM "calls"
        WHERE "id" = ${callId}::integer AND "status" = 'in-progress' AND "requestedEnd" IS NULL
        FOR UPDATE`;
      if (!running) return null;
      const call = await tx.call.findUniqueOrThrow({ where: { id: callId } });
      const outcome = await this.chargeMinutes(tx, call, through);
      if (outcome.charged) await this.recordTotal(tx, callId);
      return { call, ...outcome };
    });
    if (!result) return "not-running";
    if (result.charged) this.billing.balanceChanged(result.call.accountId);
    return result.paid ? "paid" : "short";
  }

  /**
   * Charges minutes 2..`through` not yet in the ledger (minute 1 was reserved at the start), in
   * order, stopping at the first the balance cannot pay (the next ones cost as much). None of a
   * free call's (its first minute was not reserved).
   */
  private async chargeMinutes(
    tx: Prisma.TransactionClient,
    call: Call,
    through: number,
  ): Promise<{ paid: boolean; charged: boolean }> {
    const inLedger = await this.billing.chargedCallMinutes(tx, call.id);
    if (!inLedger.has(1)) return { paid: true, charged: false };
    let charged = false;
    for (let minute = 2; minute <= through; minute++) {
      if (inLedger.has(minute)) continue;
      const outcome = await this.billing.chargeCallMinute(
        {
          accountId: call.accountId,
          callId: call.id,
          minute,
          amount: this.deps.config.telephony.pricePerMinute,
        },
        tx,
      );
      if (outcome === "charged") charged = true;
      if (outcome === "insufficient-balance") {
        this.deps.logger.warn("call minutes not paid: no balance left", {
          callId: call.id,
          from: minute,
          through,
        });
        return { paid: false, charged };
      }
    }
    return { paid: true, charged };
  }

  private async recordTotal(tx: Prisma.TransactionClient, callId: number): Promise<void> {
    await tx.$executeRaw`
      UPDATE "calls" SET "totalCost" = ${this.billing.callTotalQuery(callId)}, "updatedAt" = now()
      WHERE "id" = ${callId}::integer`;
  }
}
