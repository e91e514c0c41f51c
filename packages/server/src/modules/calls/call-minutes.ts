import type { ServiceDeps } from "../../deps.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import type { JobQueue } from "../../jobs/index.ts";
import type { BillingService } from "../billing/index.ts";
import { type CallHangUps, FAREWELLS } from "./call-hang-up.ts";
import { CallSettlement, minutesStarted } from "./call-settlement.ts";

const TICK_TASK = "calls:tick";

/**
 * A call's money by the minute, through the billing module: the charges a transition moves
 * (`answered`, `ended`, in the transaction of the status change), and the timer of a running call
 * (a durable job, so it survives restarts) that charges each minute as it starts and ends the call
 * when the balance or its max duration runs out.
 */
export class CallMinutes {
  private readonly settlement: CallSettlement;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { billing: BillingService; jobs: JobQueue; hangUps: CallHangUps },
  ) {
    this.settlement = new CallSettlement(deps, parts.billing);
    parts.jobs.define(TICK_TASK, {
      run: (payload) => this.tick(Number(payload.callId)),
      maxAttempts: 5,
    });
  }

  /** The call was answered (in `tx`, its status change): its first minute is charged. */
  answered(tx: Prisma.TransactionClient, call: Call): Promise<void> {
    return this.settlement.answered(tx, call);
  }

  /** The call ended (in `tx`): its minutes are settled; true when the balance moved. */
  ended(tx: Prisma.TransactionClient, call: Call): Promise<boolean> {
    return this.settlement.ended(tx, call);
  }

  /** The answered call's timer starts: its next moment is the end of the first minute (or its max duration). */
  startTimer(call: Call) {
    return this.scheduleTick(call, call.maxDuration > 0 ? Math.min(60, call.maxDuration) : 60);
  }

  /**
   * Charges each minute as it starts, hangs up with a goodbye when the balance cannot pay for the
   * next one or when the call reaches its max duration, and sets itself for the next of those moments.
   */
  private async tick(callId: number, now = new Date()): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({ where: { id: callId } });
    if (call?.status !== "in_progress" || !call.startedAt || call.requestedEnd) return;
    const { hangUps } = this.parts;
    const speed = this.deps.config.telephony.clockSpeed;
    const elapsed = ((now.getTime() - call.startedAt.getTime()) / 1000) * speed;
    // The assistant's max duration bounds its own conversation: a caller transferred to a person
    // talks on (still billed by the minute).
    const maxDuration = call.transferState === "connected" ? 0 : call.maxDuration;
    if (maxDuration > 0 && elapsed >= maxDuration) {
      await hangUps.hangUp(call, "ended_by_assistant", "Maximum duration reached.", FAREWELLS.maxDuration);
      return;
    }
    const started = minutesStarted(elapsed);
    // A test call's timer only watches its max duration: it is never charged.
    const charged = call.test ? "paid" : await this.settlement.chargeRunning(call.id, started);
    if (charged === "not-running") return;
    if (charged === "short") {
      await hangUps.hangUp(call, "ended_by_assistant", "The balance ran out.", FAREWELLS.balance);
      return;
    }
    const nextMinute = started * 60;
    const next = maxDuration > 0 ? Math.min(nextMinute, maxDuration) : nextMinute;
    await this.scheduleTick(call, next);
  }

  private scheduleTick(call: Call, atCallSecond: number) {
    const speed = this.deps.config.telephony.clockSpeed;
    const runAt = new Date(call.startedAt!.getTime() + (atCallSecond * 1000) / speed);
    return this.parts.jobs.enqueue(TICK_TASK, { callId: call.id }, { key: `call-tick:${call.id}`, runAt });
  }
}
