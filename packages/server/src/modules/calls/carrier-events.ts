import type { ServiceDeps } from "../../deps.ts";
import type { Call } from "../../generated/prisma/client.ts";
import type { MachineVerdict, ProviderCallEvent } from "../telephony/provider.ts";
import type { CallHangUps } from "./call-hang-up.ts";
import type { CallLifecycle, CallProgress } from "./call-lifecycle.service.ts";
import { annotateCall, updateRunningCall } from "./call-record.ts";
import { ANSWERED_ENDINGS, CALL_TRANSITIONS, isFinal, toApiStatus } from "./call-status.ts";
import { CALLER_LEFT_TRANSFER } from "./call-transfers.ts";

/** Why an answering machine ended a call (`endReason`). */
export const VOICEMAIL_REASONS = {
  hungUp: "Voicemail reached.",
  messageLeft: "Voicemail message left.",
  fax: "A fax machine answered.",
} as const;

/**
 * Where a voicemail message is left by the live session of the call, when this instance carries one
 * (the voice engine's sessions). A port rather than an event: the answer is needed at once, since
 * without a session here the carrier speaks the message.
 */
export interface VoicemailSessions {
  /** Speaks `message` on the live call `callId`, then runs `done`; false when no session of it runs here. */
  leaveVoicemail(callId: number, message: string, done: () => Promise<void>): boolean;
}

/**
 * What carriers report about calls (status callbacks, answering machine detection), turned into
 * moves of the lifecycle. Repeats and stale reports are dropped here, so each transition, and the
 * money it moves, happens once.
 */
export class CarrierEvents {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { lifecycle: CallLifecycle; hangUps: CallHangUps; voicemail: VoicemailSessions },
  ) {}

  /**
   * A carrier's report about a call. Repeats and stale reports (a move the transition table does
   * not allow from where the call is now) are logged and dropped. An end the carrier reports after
   * Voxgate hung up takes the status Voxgate asked for.
   */
  async callEvent(event: ProviderCallEvent): Promise<void> {
    const prisma = this.deps.db.prisma;
    const { lifecycle } = this.parts;
    const call = await this.eventCall(event);
    if (!call) return;
    const from = toApiStatus(call.status);
    let status = event.status ?? from;
    if (call.requestedEnd && ANSWERED_ENDINGS.includes(status)) status = toApiStatus(call.requestedEnd);
    // While a transfer dials, the assistant has left (no stream tells a hang-up): a plain end nobody
    // asked for is the caller's.
    const callerLeft = !call.requestedEnd && call.transferState === "dialing" && status === "completed";
    if (callerLeft) status = "ended_by_customer";
    const details = progressOf(callerLeft ? { ...event, reason: CALLER_LEFT_TRANSFER } : event, call);
    if (isFinal(from)) {
      // News about an ended call (a late or repeated callback): its status, duration and costs are
      // final; only the carrier's own price of the call, which it reports after the end, is kept.
      if (details.carrierCost !== undefined)
        await annotateCall(prisma, call.id, { carrierCost: details.carrierCost });
      if (status !== from || details.duration !== undefined)
        lifecycle.refused(call, from, status, "the call has already ended");
      return;
    }
    if (status === from) {
      // A repeat: what it adds is kept, unless the call ended meanwhile.
      if (Object.keys(details).length > 0) await updateRunningCall(prisma, call.id, details);
      return;
    }
    // An end that overtook the answer: the answer is applied first, dated from the duration.
    if (
      ANSWERED_ENDINGS.includes(status) &&
      !CALL_TRANSITIONS[from].includes(status) &&
      CALL_TRANSITIONS[from].includes("in-progress") &&
      (event.duration ?? 0) > 0
    ) {
      const answeredAt = new Date(
        Date.now() - (event.duration! * 1000) / this.deps.config.telephony.clockSpeed,
      );
      if (
        !(await lifecycle.tryTransition(call, "in-progress", { answeredBy: details.answeredBy }, answeredAt))
      )
        return;
      return this.callEvent({ ...event, callId: call.id });
    }
    if (!CALL_TRANSITIONS[from].includes(status)) {
      lifecycle.refused(call, from, status, "not a move the transition table allows");
      return;
    }
    await lifecycle.tryTransition(call, status, details);
  }

  /** The call a carrier's event is about; null (logged) when unknown or naming another carrier call. */
  private async eventCall(event: { callId?: number; providerCallId?: string }): Promise<Call | null> {
    const prisma = this.deps.db.prisma;
    const call =
      event.callId !== undefined
        ? await prisma.call.findUnique({ where: { id: event.callId } })
        : event.providerCallId
          ? await prisma.call.findUnique({ where: { providerCallId: event.providerCallId } })
          : null;
    if (!call) {
      this.deps.logger.warn("carrier event for an unknown call", { ...event });
      return null;
    }
    if (event.providerCallId && call.providerCallId && event.providerCallId !== call.providerCallId) {
      this.deps.logger.warn("carrier event names another carrier call", {
        callId: call.id,
        providerCallId: event.providerCallId,
      });
      return null;
    }
    return call;
  }

  /**
   * The carrier's answering machine detection on an answered outbound call: `answered_by` is
   * recorded; a fax is hung up on; a machine is hung up on at once when the assistant has
   * `end_call_on_voicemail`, otherwise, once its greeting ended (`machine_end_*`), the assistant's
   * message is left (by the live session when this instance carries it, else spoken by the carrier)
   * and the call ends. Safe to repeat: the end is claimed by one conditional write.
   */
  async answeringMachine(event: {
    callId?: number;
    providerCallId?: string;
    verdict: MachineVerdict;
  }): Promise<void> {
    const prisma = this.deps.db.prisma;
    const { lifecycle, hangUps } = this.parts;
    const call = await this.eventCall(event);
    if (!call) return;
    if (call.status !== "in_progress" || call.type !== "outbound") {
      this.deps.logger.info("answering machine verdict ignored", {
        callId: call.id,
        status: call.status,
        verdict: event.verdict,
      });
      return;
    }
    const machine = event.verdict !== "human" && event.verdict !== "unknown";
    // The detection's verdict outranks an AnsweredBy the answer webhook may have carried.
    const answeredBy = machine ? "machine" : "human";
    if (event.verdict !== "unknown" && call.answeredBy !== answeredBy)
      await updateRunningCall(prisma, call.id, { answeredBy });
    this.deps.logger.info("answering machine verdict", { callId: call.id, verdict: event.verdict });
    if (!machine) return;
    if (event.verdict === "fax") return lifecycle.endByAssistant(call.id, VOICEMAIL_REASONS.fax);
    const assistant = call.assistantId
      ? await prisma.assistant.findUnique({
          where: { id: call.assistantId },
          select: { endCallOnVoicemail: true, initialMessage: true, name: true },
        })
      : null;
    if (!assistant || assistant.endCallOnVoicemail)
      return lifecycle.endByAssistant(call.id, VOICEMAIL_REASONS.hungUp);
    // machine_start: the greeting plays on; the message waits for its end (the beep).
    if (event.verdict === "machine_start") return;
    const claimed = await prisma.call.updateMany({
      where: { id: call.id, requestedEnd: null, status: "in_progress" },
      data: { requestedEnd: "ended_by_assistant", endReason: VOICEMAIL_REASONS.messageLeft },
    });
    if (claimed.count === 0) return;
    const message = voicemailMessage(assistant);
    if (this.parts.voicemail.leaveVoicemail(call.id, message, () => this.voicemailLeft(call.id))) return;
    await hangUps.hangUp(call, "ended_by_assistant", VOICEMAIL_REASONS.messageLeft, message);
  }

  /** The live session spoke the voicemail message `answeringMachine` asked for: the line drops. */
  private async voicemailLeft(callId: number): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({ where: { id: callId } });
    if (call?.status !== "in_progress") return;
    await this.parts.hangUps.hangUp(call, "ended_by_assistant", VOICEMAIL_REASONS.messageLeft);
  }
}

/** What an answering machine records: the assistant's opening, or a short note of who called. */
export function voicemailMessage(assistant: { initialMessage: string; name: string }): string {
  return (
    assistant.initialMessage.trim() ||
    `Hello, this is ${assistant.name}. Sorry we missed you; we will call you back.`
  );
}

/** The details of a carrier event worth keeping on the call. */
function progressOf(event: ProviderCallEvent, call: Call): CallProgress {
  return {
    ...(event.answeredBy && !call.answeredBy ? { answeredBy: event.answeredBy } : {}),
    ...(event.duration !== undefined && event.status && isFinal(event.status)
      ? { duration: event.duration }
      : {}),
    ...(event.carrierCost !== undefined ? { carrierCost: event.carrierCost } : {}),
    ...(event.reason && !call.endReason ? { endReason: event.reason } : {}),
    ...(event.providerCallId && !call.providerCallId ? { providerCallId: event.providerCallId } : {}),
  };
}
