import type { ServiceDeps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import type { Call } from "../../generated/prisma/client.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import type { BillingService } from "../billing/index.ts";
import type { CallCarrier } from "../telephony/provider.ts";
import type { CallHangUps } from "./call-hang-up.ts";
import type { CallLifecycle } from "./call-lifecycle.service.ts";
import { isFinal, toApiStatus } from "./call-status.ts";
import { answeredByFallback } from "./free-calls.ts";

/** Where a call's phone transfer stands (`calls.transferState`). */
export type TransferState = "" | "dialing" | "connected" | "returned";

/** How a transfer's leg ended without connecting the caller (declined: a warm transfer's person said no). */
export type TransferMiss = "busy" | "no-answer" | "failed" | "declined";

/** A running call can start a transfer from these states: none yet, or one that came back. */
const TRANSFERABLE: TransferState[] = ["", "returned"];

/** Why a caller's call and its transfer's leg end when the caller hangs up before the leg connected them. */
export const CALLER_LEFT_TRANSFER = "The caller hung up before the transfer connected.";
/** Why a transfer's leg ends when the caller's call was ended otherwise (through the API, its limits). */
const CALL_ENDED_TRANSFER = "The call ended before the transfer connected.";

/**
 * The records of phone transfers (docs/transfers.md#phone-transfers): a transfer's leg is a call of
 * its own (outbound, to the destination, billed by the minute like any carried call: its first
 * minute reserved here, the rest by the lifecycle as it answers and ends), linked both ways to the
 * call it was transferred from. The original's `transferState` moves once per outcome, in the
 * transaction of its webhook event, so repeated or replayed carrier reports change nothing.
 */
export class CallTransferRecords {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      carrier: CallCarrier;
      billing: BillingService;
      lifecycle: CallLifecycle;
      hangUps: CallHangUps;
      events: EventSink;
      bus: InProcessBus;
    },
  ) {
    parts.bus.on("call.finished", ({ call }) => this.originalEnded(call));
  }

  /**
   * Records the leg of a transfer of the running call `original` to `to` (E.164 or a SIP URI), with
   * its first minute reserved (INSUFFICIENT_BALANCE when the account cannot pay it), and marks the
   * original `dialing`; CONFLICT when the original is not running or already transferring.
   */
  async startLeg(original: Call, target: { to: string; destinationName: string }): Promise<Call> {
    const { billing, events, lifecycle, carrier } = this.parts;
    const free = answeredByFallback(this.deps.config, { carrier: carrier.name });
    const leg = await this.deps.db.prisma.$transaction(async (tx) => {
      const created = await tx.call.create({
        data: {
          accountId: original.accountId,
          assistantId: original.assistantId,
          phoneNumberId: original.phoneNumberId,
          type: "outbound",
          assistantName: original.assistantName,
          assistantPhoneNumber: original.assistantPhoneNumber,
          clientPhoneNumber: target.to,
          providerName: carrier.name,
          transferredFromCallId: original.id,
          transferDestinationName: target.destinationName,
        },
      });
      const { count } = await tx.call.updateMany({
        where: {
          id: original.id,
          status: "in_progress",
          requestedEnd: null,
          transferState: { in: TRANSFERABLE },
        },
        data: { transferState: "dialing", transferredToCallId: created.id },
      });
      if (count === 0) throw new AppError("CONFLICT", "The call cannot be transferred now.");
      // The leg of a call answered without a model is as free as the call (a simulated person answers).
      if (!free)
        await billing.reserveCallStart(tx, {
          accountId: original.accountId,
          callId: created.id,
          amount: this.deps.config.telephony.pricePerMinute,
        });
      await events.emit(tx, { type: "call.started", call: created });
      return created;
    });
    if (!free) billing.balanceChanged(original.accountId);
    lifecycle.publish(leg, null);
    this.deps.logger.info("call transfer started", { callId: original.id, legCallId: leg.id });
    return leg;
  }

  /**
   * The carrier placed the leg as a call of its own (a warm transfer's) and named it: recorded at once,
   * so that the leg can be cancelled before its first status report. A caller who hung up while it was
   * being placed (the leg could not be cancelled then, unnamed) has it cancelled now.
   */
  async legPlaced(legCallId: number, providerCallId: string): Promise<void> {
    const prisma = this.deps.db.prisma;
    await prisma.call.updateMany({
      where: { id: legCallId, providerCallId: null },
      data: { providerCallId },
    });
    const found = await this.legOf(legCallId);
    if (found && isFinal(toApiStatus(found.original.status))) await this.originalEnded(found.original);
  }

  /**
   * The caller's call ended while its transfer was dialing (the leg ringing, or a warm leg's person
   * hearing the briefing), the caller having hung up or the call ended otherwise (through the API,
   * its max duration, the balance): nobody is left to connect, so the leg is ended through its carrier
   * (cancelled while it rings, hung up once answered) with the reason. A leg that never answered costs
   * nothing (its reserved minute goes back at its end, as for any unanswered leg); an answered one is
   * billed as any call.
   */
  private async originalEnded(original: Call): Promise<void> {
    if (original.transferState !== "dialing" || original.transferredToCallId === null) return;
    const leg = await this.deps.db.prisma.call.findUnique({ where: { id: original.transferredToCallId } });
    if (!leg || isFinal(toApiStatus(leg.status))) return;
    this.deps.logger.info("call ended while its transfer dialed: the leg is ended", {
      callId: original.id,
      legCallId: leg.id,
    });
    const reason = original.status === "ended_by_customer" ? CALLER_LEFT_TRANSFER : CALL_ENDED_TRANSFER;
    await this.parts.hangUps.hangUp(leg, "ended_by_assistant", reason);
  }

  /** The leg and the call it belongs to, when `legCallId` is a transfer leg. */
  async legOf(legCallId: number): Promise<{ leg: Call; original: Call } | null> {
    const prisma = this.deps.db.prisma;
    const leg = await prisma.call.findUnique({ where: { id: legCallId } });
    if (!leg?.transferredFromCallId) return null;
    const original = await prisma.call.findUnique({ where: { id: leg.transferredFromCallId } });
    return original ? { leg, original } : null;
  }

  /**
   * The leg was answered: the original is `connected` and its end reason says to whom, with its
   * `call.transferred` event. Null when this leg's transfer was already decided (a repeat).
   */
  connected(legCallId: number): Promise<{ leg: Call; original: Call } | null> {
    return this.decide(legCallId, "connected", null);
  }

  /** The leg was not answered: the original is `returned` (its assistant takes the caller back), with `call.transfer_failed`. */
  missed(legCallId: number, outcome: TransferMiss): Promise<{ leg: Call; original: Call } | null> {
    return this.decide(legCallId, "returned", outcome);
  }

  private async decide(legCallId: number, state: "connected" | "returned", outcome: TransferMiss | null) {
    const found = await this.legOf(legCallId);
    if (!found) return null;
    const { leg } = found;
    return this.deps.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.call.updateMany({
        where: {
          id: found.original.id,
          transferState: "dialing",
          transferredToCallId: leg.id,
          // A caller who hung up meanwhile is connected to nobody, nor taken back.
          status: "in_progress",
        },
        data: {
          transferState: state,
          ...(state === "connected" ? { endReason: `Transferred to ${leg.transferDestinationName}.` } : {}),
        },
      });
      if (count === 0) return null;
      const original = await tx.call.findUniqueOrThrow({ where: { id: found.original.id } });
      await this.parts.events.emit(
        tx,
        outcome === null
          ? { type: "call.transferred", call: original, leg }
          : { type: "call.transfer_failed", call: original, leg, outcome },
      );
      this.deps.logger.info("call transfer decided", { callId: original.id, legCallId: leg.id, state });
      return { leg, original };
    });
  }

  /**
   * A session starts on a call that came back from a transfer: the destination it missed, once (the
   * state goes back to none, so a later reconnection greets as usual). Null otherwise.
   */
  async takeBack(callId: number): Promise<{ destinationName: string; outcome: string } | null> {
    const prisma = this.deps.db.prisma;
    const call = await prisma.call.findUnique({
      where: { id: callId },
      select: { transferState: true, transferredToCallId: true },
    });
    if (call?.transferState !== "returned" || call.transferredToCallId === null) return null;
    const { count } = await prisma.call.updateMany({
      where: { id: callId, transferState: "returned" },
      data: { transferState: "" },
    });
    if (count === 0) return null;
    const leg = await prisma.call.findUnique({
      where: { id: call.transferredToCallId },
      select: { transferDestinationName: true, status: true },
    });
    return leg ? { destinationName: leg.transferDestinationName, outcome: leg.status } : null;
  }
}
