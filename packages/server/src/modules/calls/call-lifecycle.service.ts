import type { ServiceDeps } from "../../deps.ts";
import { InvalidCallTransitionError, NotFoundError, ValidationError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import type { BillingService } from "../billing/index.ts";
import type { CallHangUps } from "./call-hang-up.ts";
import type { CallMinutes } from "./call-minutes.ts";
import {
  type ApiCallStatus,
  CALL_STATUSES,
  CALL_TRANSITIONS,
  isFinal,
  toApiStatus,
  toDbStatus,
} from "./call-status.ts";

/** What the voice engine reports when a call moves on; every field is optional. */
export interface CallProgress {
  endReason?: string;
  duration?: number;
  transcript?: string;
  answeredBy?: string;
  evaluation?: Prisma.InputJsonObject;
  webhookResponse?: Prisma.InputJsonObject;
  carrierCost?: string;
  totalCost?: string;
  /** The carrier's id of a call it told first in an event (a transfer's leg, which Twilio dials itself). */
  providerCallId?: string;
}

/**
 * The one writer of a call's status: every move goes through the transition table here, with the
 * money it moves (`CallMinutes`) and its domain events in the same transaction. Once a move
 * committed, subscribers are told (`call:status`), an answer starts the call's timer, and an end is
 * told in process (`call.finished`) before `call.settled` is recorded. Calls are created (in their
 * first status) by `CallStarts` and `InboundCalls`; carriers' reports arrive through `CarrierEvents`.
 */
export class CallLifecycle {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      billing: BillingService;
      minutes: CallMinutes;
      hangUps: CallHangUps;
      events: EventSink;
      bus: InProcessBus;
    },
  ) {}

  /** A new call row and its call.started event, together. */
  create(data: Prisma.CallUncheckedCreateInput): Promise<Call> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      const call = await tx.call.create({ data });
      await this.parts.events.emit(tx, { type: "call.started", call });
      return call;
    });
  }

  /**
   * The one way a call's status changes. Refuses moves the transition table does not allow;
   * records when the call was answered and when it ended (with its duration, unless the engine
   * reports one), and tells subscribers. The update is conditional on the status read, so two
   * concurrent moves cannot both succeed.
   */
  async transition(callId: number, status: ApiCallStatus, progress: CallProgress = {}, now = new Date()) {
    if (!CALL_STATUSES.includes(status))
      throw ValidationError.single("status", "The selected status is invalid.");
    const prisma = this.deps.db.prisma;
    const call = await prisma.call.findUnique({ where: { id: callId } });
    if (!call) throw new NotFoundError("Call");
    const from = toApiStatus(call.status);
    if (!CALL_TRANSITIONS[from].includes(status))
      throw new InvalidCallTransitionError(from, status, CALL_TRANSITIONS[from]);
    const ending = isFinal(status);
    const startedAt = status === "in-progress" ? now : call.startedAt;
    const speed = call.providerName === "" ? 1 : this.deps.config.telephony.clockSpeed;
    const data: Prisma.CallUpdateManyMutationInput = {
      ...progress,
      // A reason given earlier (Voxgate's own hang-up) is kept over the carrier's.
      ...(progress.endReason && call.endReason ? { endReason: call.endReason } : {}),
      status: toDbStatus(status),
      ...(status === "in-progress" ? { startedAt: now } : {}),
      ...(ending ? { endedAt: now } : {}),
      ...(ending && progress.duration === undefined && startedAt
        ? { duration: Math.max(0, Math.floor(((now.getTime() - startedAt.getTime()) / 1000) * speed)) }
        : {}),
    };
    const { minutes, events } = this.parts;
    // The status, the money it moves and the total it leaves commit together: whoever sees the
    // new status (a poll, a subscriber told below, the call.ended event) sees its charges too.
    const { updated, balanceMoved } = await prisma.$transaction(async (tx) => {
      const { count } = await tx.call.updateMany({ where: { id: callId, status: call.status }, data });
      const moved = await tx.call.findUniqueOrThrow({ where: { id: callId } });
      if (count === 0) {
        const movedTo = toApiStatus(moved.status);
        throw new InvalidCallTransitionError(movedTo, status, CALL_TRANSITIONS[movedTo]);
      }
      if (status === "in-progress") await minutes.answered(tx, moved);
      const balanceMoved = ending && (await minutes.ended(tx, moved));
      const current = ending ? await tx.call.findUniqueOrThrow({ where: { id: callId } }) : moved;
      if (ending) await events.emit(tx, { type: "call.ended", call: current });
      return { updated: current, balanceMoved };
    });
    this.deps.logger.info("call status changed", { callId, from, to: status });
    if (balanceMoved) this.parts.billing.balanceChanged(updated.accountId);
    this.publish(updated, from);
    await this.afterTransition(updated);
    return prisma.call.findUniqueOrThrow({ where: { id: callId } });
  }

  /** `transition`, with a lost race (another event moved the call first) logged instead of thrown. */
  async tryTransition(
    call: Call,
    status: ApiCallStatus,
    progress: CallProgress,
    at?: Date,
  ): Promise<boolean> {
    try {
      await this.transition(call.id, status, progress, at);
      return true;
    } catch (error) {
      if (!(error instanceof InvalidCallTransitionError)) throw error;
      this.refused(call, toApiStatus(call.status), status, "another event moved the call first");
      return false;
    }
  }

  /** A carrier's report that moves nothing, logged. */
  refused(call: Call, from: ApiCallStatus, to: ApiCallStatus, why: string) {
    this.deps.logger.warn("carrier event refused", { callId: call.id, from, to, why });
  }

  /**
   * Hangs up a call through its carrier; the end arrives as the carrier's event (status `ended`,
   * or `failed` for a call not yet answered). A web call, which has no carrier, ends at once. An
   * ended call is returned as it is.
   */
  async end(accountId: number, callId: number): Promise<Call> {
    const call = await this.deps.db.prisma.call.findFirst({ where: { accountId, id: callId } });
    if (!call) throw new NotFoundError("Call");
    if (isFinal(toApiStatus(call.status))) return call;
    if (call.type === "web") {
      return call.status === "in_progress"
        ? this.transition(call.id, "ended", { endReason: "Ended through the API." })
        : this.transition(call.id, "failed", { endReason: "Ended through the API before it connected." });
    }
    return this.parts.hangUps.hangUp(call, "ended", "Ended through the API.");
  }

  /**
   * The voice engine ends a running call itself (the assistant's end-call tool, silence, no capacity):
   * hung up through the carrier, ending `ended_by_assistant` with `reason`; `farewell` is spoken by
   * the carrier first. Nothing happens to a call that is not running or already being ended.
   */
  async endByAssistant(callId: number, reason: string, farewell?: string): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({ where: { id: callId } });
    if (!call || isFinal(toApiStatus(call.status)) || call.requestedEnd) return;
    await this.parts.hangUps.hangUp(call, "ended_by_assistant", reason, farewell);
  }

  /**
   * The caller hung up (the media stream stopped without Voxgate asking): the carrier's end event,
   * which follows, makes the call `ended_by_customer`. An end Voxgate asked for first is kept. A
   * stream that stops because the call is being transferred is the assistant leaving, not the caller.
   */
  async customerHungUp(callId: number): Promise<void> {
    await this.deps.db.prisma.call.updateMany({
      where: {
        id: callId,
        requestedEnd: null,
        status: "in_progress",
        transferState: { in: ["", "returned"] },
      },
      data: { requestedEnd: "ended_by_customer", endReason: "The caller hung up." },
    });
  }

  /** Tells subscribers (`callStatusChanged`) where the call is now. */
  publish(call: Call, previousStatus: ApiCallStatus | null) {
    this.deps.pubsub.publish("call:status", call.accountId, {
      callId: call.id,
      assistantId: call.assistantId,
      campaignId: call.campaignId,
      status: toApiStatus(call.status),
      previousStatus,
    });
  }

  /**
   * What a transition sets in motion once it committed, run once by whoever made it: the answer
   * starts the call's timer; an end is told in process (call.finished), then `call.settled`.
   */
  private async afterTransition(call: Call) {
    const status = toApiStatus(call.status);
    if (call.providerName !== "" && status === "in-progress") await this.parts.minutes.startTimer(call);
    if (!isFinal(status)) return;
    await this.parts.bus.publish("call.finished", { call });
    // Read again: a listener may have queued the evaluation (its status is part of the event).
    await this.deps.db.prisma.$transaction(async (tx) => {
      const final = await tx.call.findUniqueOrThrow({ where: { id: call.id } });
      await this.parts.events.emit(tx, { type: "call.settled", call: final });
    });
  }
}
