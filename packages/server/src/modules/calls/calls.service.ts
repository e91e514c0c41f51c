import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import {
  AccountSuspendedError,
  AppError,
  ConcurrentCallsLimitError,
  InvalidCallTransitionError,
  NotFoundError,
  SimulatedCarrierRequiredError,
  ValidationError,
} from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { MAX_CALL_VARIABLES_BYTES, MAX_TRANSCRIPT_CHARS } from "../../limits.ts";
import { parseInput } from "../../validation.ts";
import type { BillingService } from "../billing/index.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import { e164PhoneNumber } from "../phone-numbers/e164.ts";
import type {
  CallCarrier,
  CallDesk,
  InboundDecision,
  InboundSimulator,
  MachineVerdict,
  ProviderCallEvent,
  TranscriptLine,
} from "../telephony/provider.ts";
import { sipHostOf } from "../telephony/sip-uri.ts";
import { transcriptLineText } from "../telephony/transcript.ts";
import { annotateCall, type CallAnnotation, updateRunningCall } from "./call-record.ts";
import { CallSettlement, minutesStarted } from "./call-settlement.ts";
import {
  ACTIVE_DB_STATUSES,
  ANSWERED_ENDINGS,
  type ApiCallStatus,
  CALL_STATUSES,
  CALL_TRANSITIONS,
  isFinal,
  toApiStatus,
  toDbStatus,
} from "./call-status.ts";
import { nextDay, startOfLocalDay } from "./local-dates.ts";

export { minutesStarted } from "./call-settlement.ts";

const TICK_TASK = "calls:tick";
const WEB_CONNECT_DEADLINE_TASK = "calls:web-connect-deadline";

/** `providerName` of a browser web call: carried by Voxgate's own WebSocket, billed by the minute. */
export const WEB_CARRIER = "web";

/** What a refused inbound caller hears. */
export const INBOUND_REFUSALS = {
  unavailable: "Sorry, this number cannot take your call right now. Goodbye.",
  busy: "Sorry, all our lines are busy. Please call again later. Goodbye.",
  unknownNumber: "Sorry, this number is not in service. Goodbye.",
} as const;

/** What the assistant says when Voxgate ends a call itself. */
export const FAREWELLS = {
  balance: "I'm sorry, I have to end the call here. Goodbye.",
  maxDuration: "I'm sorry, we have reached the time limit for this call. Goodbye.",
} as const;

/** Why an answering machine ended a call (`endReason`). */
export const VOICEMAIL_REASONS = {
  hungUp: "Voicemail reached.",
  messageLeft: "Voicemail message left.",
  fax: "A fax machine answered.",
} as const;

/**
 * Speaks `message` on the live call `callId` and then tells `voicemailLeft`; false when this
 * instance carries no live session of the call.
 */
export type VoicemailSpeaker = (callId: number, message: string) => boolean;

export const CALLS_PER_PAGE = 15;
export const CALL_TYPES = ["inbound", "outbound", "web"] as const;

const calendarDay = (label: string) =>
  z.string({ error: `The ${label} field must be a date written YYYY-MM-DD.` }).refine((value) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, `The ${label} field must be a date written YYYY-MM-DD.`);

const optionalId = (label: string) =>
  z
    .number({ error: `The ${label} field must be an integer.` })
    .int(`The ${label} field must be an integer.`)
    .nullish();

const CallFilter = z
  .object({
    status: z.enum(CALL_STATUSES, { error: "The selected status is invalid." }).nullish(),
    type: z.enum(CALL_TYPES, { error: "The type field must be one of inbound, outbound, web." }).nullish(),
    phoneNumber: e164PhoneNumber().nullish(),
    assistantId: optionalId("assistant id"),
    campaignId: optionalId("campaign id"),
    dateFrom: calendarDay("date from").nullish(),
    dateTo: calendarDay("date to").nullish(),
  })
  .refine((filter) => !filter.dateFrom || !filter.dateTo || filter.dateFrom <= filter.dateTo, {
    path: ["dateTo"],
    message: "The date to field must be a date after or equal to date from.",
  });

export interface CallFilterRequest {
  status?: unknown;
  type?: unknown;
  phoneNumber?: unknown;
  assistantId?: unknown;
  campaignId?: unknown;
  dateFrom?: unknown;
  dateTo?: unknown;
}

const StartCallInput = z.object({
  assistantId: z.number({ error: "The assistant id field is required." }).int(),
  type: z.enum(CALL_TYPES, { error: "The type field must be one of inbound, outbound, web." }).default("web"),
  clientPhoneNumber: e164PhoneNumber("client phone number").nullish(),
  campaignId: optionalId("campaign id"),
  leadId: optionalId("lead id"),
  variables: z
    .record(z.string(), z.unknown(), { error: "The variables field must be an object." })
    .nullish()
    .transform((value) => value ?? {}),
});

const variablesField = z
  .record(z.string(), z.unknown(), { error: "The variables field must be an object." })
  .nullish()
  .transform((value) => value ?? {})
  .refine(
    (value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_CALL_VARIABLES_BYTES,
    `The variables field must not be larger than ${MAX_CALL_VARIABLES_BYTES / 1024} KB.`,
  );

const OutboundCallInput = z.object({
  assistantId: z
    .number({ error: "The assistant id field is required and must be an integer." })
    .int("The assistant id field must be an integer."),
  to: e164PhoneNumber("phone number"),
  phoneNumberId: optionalId("phone number id"),
  campaignId: optionalId("campaign id"),
  leadId: optionalId("lead id"),
  variables: variablesField,
});

const SimulatedInboundInput = z.object({
  phoneNumberId: z
    .number({ error: "The phone number id field is required and must be an integer." })
    .int("The phone number id field must be an integer."),
  from: e164PhoneNumber("from"),
});

/** A phone call to place: who calls (one of the account's assistants, from one of its numbers) and whom. */
export interface OutboundCallRequest {
  accountId: number;
  assistantId: number;
  /** E.164. */
  to: string;
  /** The caller number (the account's, not released); default: the assistant's number. */
  phoneNumberId?: number | null;
  campaignId?: number | null;
  leadId?: number | null;
  variables?: Record<string, unknown>;
}

/** Told once per call when it reaches a final status (after the write). */
export type CallFinishedListener = (call: Call) => Promise<void>;

/** As callers send it; every value is checked here. */
export interface StartCallRequest {
  assistantId?: unknown;
  type?: unknown;
  clientPhoneNumber?: unknown;
  campaignId?: unknown;
  leadId?: unknown;
  variables?: unknown;
}

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
}

/** Asks an assistant's inbound webhook for a call's variables; null: use the assistant's defaults. */
export type InboundVariablesSource = (request: {
  accountId: number;
  assistantId: number;
  url: string;
  from: string;
  to: string;
  phoneNumberId: number;
}) => Promise<Record<string, unknown> | null>;

/** Where a call's evaluation stands; `evaluation` is set when it is done. */
export type EvaluationOutcome =
  | { status: "pending" }
  | { status: "done"; evaluation: Prisma.InputJsonObject }
  | { status: "failed"; error: string };

export class CallsService implements CallDesk {
  private readonly finishedListeners: CallFinishedListener[] = [];
  private voicemailSpeaker: VoicemailSpeaker = () => false;
  private readonly settlement: CallSettlement;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly telephony: {
      carrier: CallCarrier;
      /** Set when the carrier is the simulation, which can ring the account's numbers itself. */
      inboundSimulator: InboundSimulator | null;
      billing: BillingService;
      jobs: JobQueue;
      /** Hangs up browser web calls (their socket may be on another instance). */
      webCarrier: () => Pick<CallCarrier, "hangUp">;
    },
    private readonly hooks: { events: EventSink; inboundVariables: InboundVariablesSource },
  ) {
    this.settlement = new CallSettlement(deps, telephony.billing);
    telephony.jobs.define(TICK_TASK, {
      run: (payload) => this.tick(Number(payload.callId)),
      maxAttempts: 5,
    });
    telephony.jobs.define(WEB_CONNECT_DEADLINE_TASK, {
      run: (payload) => this.webConnectDeadline(Number(payload.callId)),
      maxAttempts: 5,
    });
  }

  /**
   * A browser web call from the public widget: recorded `initiated` with its first minute reserved
   * (INSUFFICIENT_BALANCE when the account cannot pay it), `mediaStreamNonce` holding the digest of
   * its single-use connect token (`digestFor` its id). It goes in progress when the browser connects with the token
   * (`callEvent`, as a carrier reports an answer); one that never connects fails at `connectBy`,
   * refunded. Web calls do not count against the account's concurrent phone calls.
   */
  async startWebCall(request: {
    accountId: number;
    assistant: { id: number; name: string; maxDuration: number };
    digestFor: (callId: number) => string;
    connectBy: Date;
  }): Promise<Call> {
    const { accountId, assistant } = request;
    const call = await this.deps.db.prisma.$transaction(async (tx) => {
      const created = await tx.call.create({
        data: {
          accountId,
          assistantId: assistant.id,
          type: "web",
          assistantName: assistant.name,
          providerName: WEB_CARRIER,
          maxDuration: assistant.maxDuration,
        },
      });
      await this.telephony.billing.reserveCallStart(tx, {
        accountId,
        callId: created.id,
        amount: this.deps.config.telephony.pricePerMinute,
      });
      return tx.call.update({
        where: { id: created.id },
        data: { mediaStreamNonce: request.digestFor(created.id) },
      });
    });
    this.deps.logger.info("web call started", { accountId, callId: call.id });
    this.telephony.billing.balanceChanged(accountId);
    await this.publish(call, null);
    await this.telephony.jobs.enqueue(
      WEB_CONNECT_DEADLINE_TASK,
      { callId: call.id },
      { key: `web-connect:${call.id}`, runAt: request.connectBy },
    );
    return call;
  }

  private async webConnectDeadline(callId: number): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({ where: { id: callId } });
    if (call?.status !== "initiated") return;
    await this.tryTransition(call, "failed", { endReason: "The browser never connected." });
  }

  /**
   * Places a phone call: checks the input, that the assistant, number, campaign and lead are the
   * account's, that the account has fewer calls running than allowed and money for the first
   * minute (reserved here), records the call `initiated`, then asks the carrier to dial. A carrier
   * that refuses leaves the call `failed` (with the carrier's reason) and its money refunded; the
   * call is returned either way. Progress then comes from the carrier's events.
   */
  async placeOutbound(request: OutboundCallRequest): Promise<Call> {
    const { accountId } = request;
    const input = parseInput(OutboundCallInput, request);
    const prisma = this.deps.db.prisma;
    const assistant = await prisma.assistant.findFirst({
      where: { id: input.assistantId, accountId, deletedAt: null },
    });
    if (!assistant) throw ValidationError.single("assistantId", "The selected assistant id is invalid.");
    const phoneNumberId = input.phoneNumberId ?? assistant.phoneNumberId;
    if (!phoneNumberId) {
      throw ValidationError.single(
        "phoneNumberId",
        "The assistant has no phone number; the phone number id field is required.",
      );
    }
    const from = await prisma.phoneNumber.findFirst({
      where: { id: phoneNumberId, accountId, releasedAt: null },
    });
    if (!from) throw ValidationError.single("phoneNumberId", "The selected phone number id is invalid.");
    if (from.kind === "sip") {
      throw ValidationError.single("phoneNumberId", "A SIP number cannot place calls through the carrier.");
    }
    if (from.status !== "active") {
      throw ValidationError.single(
        "phoneNumberId",
        from.status === "pending_verification"
          ? "The caller ID has not been verified yet: verify it before calling from it."
          : "The phone number is being released.",
      );
    }
    const campaign = await this.campaignAndLeadOf(accountId, input);
    const { carrier, billing } = this.telephony;
    const { maxConcurrentCalls, pricePerMinute } = this.deps.config.telephony;
    const call = await prisma.$transaction(async (tx) => {
      // The account row is the lock that makes count-then-insert safe between concurrent requests;
      // read under it, a suspension that commits first is always seen (a campaign's dialler has no
      // credential that authentication would have refused).
      const [account] = await tx.$queryRaw<{ suspended: boolean }[]>`
        SELECT "suspendedAt" IS NOT NULL AS "suspended" FROM "accounts"
        WHERE "id" = ${accountId}::integer FOR UPDATE`;
      if (account?.suspended) throw new AccountSuspendedError();
      const running = await tx.call.count({
        where: { accountId, type: { not: "web" }, status: { in: [...ACTIVE_DB_STATUSES] } },
      });
      if (running >= maxConcurrentCalls) throw new ConcurrentCallsLimitError(maxConcurrentCalls);
      const created = await tx.call.create({
        data: {
          accountId,
          assistantId: assistant.id,
          campaignId: campaign?.id ?? null,
          leadId: input.leadId ?? null,
          phoneNumberId: from.id,
          type: "outbound",
          assistantName: assistant.name,
          campaignName: campaign?.name ?? "",
          assistantPhoneNumber: from.phoneNumber,
          clientPhoneNumber: input.to,
          variables: input.variables as Prisma.InputJsonObject,
          providerName: carrier.name,
          maxDuration: assistant.maxDuration,
        },
      });
      await billing.reserveCallStart(tx, { accountId, callId: created.id, amount: pricePerMinute });
      await this.hooks.events.emit(tx, { type: "call.started", call: created });
      return created;
    });
    this.deps.logger.info("outbound call placed", { accountId, callId: call.id, carrier: carrier.name });
    billing.balanceChanged(accountId);
    await this.publish(call, null);
    try {
      const { providerCallId } = await carrier.placeCall({
        callId: call.id,
        from: from.phoneNumber,
        to: input.to,
        onMachine: assistant.endCallOnVoicemail ? "hang-up" : "leave-message",
      });
      // A fast carrier's first event may already have moved the call: only the id is written here.
      return await prisma.call.update({ where: { id: call.id }, data: { providerCallId } });
    } catch (error) {
      const reason = error instanceof AppError ? error.message : "The carrier did not accept the call.";
      this.deps.logger.warn("carrier refused a call", { callId: call.id, error });
      return this.transition(call.id, "failed", { endReason: reason });
    }
  }

  /**
   * Hangs up a call through its carrier; the end arrives as the carrier's event (status `ended`,
   * or `failed` for a call not yet answered). A web call, which has no carrier, ends at once. An
   * ended call is returned as it is.
   */
  async end(accountId: number, callId: number): Promise<Call> {
    const call = await this.get(accountId, callId);
    if (isFinal(toApiStatus(call.status))) return call;
    if (call.type === "web") {
      return call.status === "in_progress"
        ? this.transition(call.id, "ended", { endReason: "Ended through the API." })
        : this.transition(call.id, "failed", { endReason: "Ended through the API before it connected." });
    }
    return this.hangUp(call, "ended", "Ended through the API.");
  }

  /**
   * The voice engine ends a running call itself (the assistant's end-call tool, silence, no capacity):
   * hung up through the carrier, ending `ended_by_assistant` with `reason`; `farewell` is spoken by
   * the carrier first. Nothing happens to a call that is not running or already being ended.
   */
  async endByAssistant(callId: number, reason: string, farewell?: string): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({ where: { id: callId } });
    if (!call || isFinal(toApiStatus(call.status)) || call.requestedEnd) return;
    await this.hangUp(call, "ended_by_assistant", reason, farewell);
  }

  /**
   * The caller hung up (the media stream stopped without Voxgate asking): the carrier's end event,
   * which follows, makes the call `ended_by_customer`. An end Voxgate asked for first is kept.
   */
  async customerHungUp(callId: number): Promise<void> {
    await this.deps.db.prisma.call.updateMany({
      where: { id: callId, requestedEnd: null, status: "in_progress" },
      data: { requestedEnd: "ended_by_customer", endReason: "The caller hung up." },
    });
  }

  /** Registers a listener told once per call after it reached a final status. */
  onCallFinished(listener: CallFinishedListener): void {
    this.finishedListeners.push(listener);
  }

  /**
   * A carrier's report about a call. Repeats and stale reports (a move the transition table does
   * not allow from where the call is now) are logged and dropped, so each transition, and the money
   * it moves, happens once. An end the carrier reports after Voxgate hung up takes the status
   * Voxgate asked for.
   */
  async callEvent(event: ProviderCallEvent): Promise<void> {
    const prisma = this.deps.db.prisma;
    const call = await this.eventCall(event);
    if (!call) return;
    const from = toApiStatus(call.status);
    let status = event.status ?? from;
    if (call.requestedEnd && ANSWERED_ENDINGS.includes(status)) status = toApiStatus(call.requestedEnd);
    const details = progressOf(event, call);
    if (isFinal(from)) {
      // News about an ended call (a late or repeated callback): its status, duration and costs are
      // final; only the carrier's own price of the call, which it reports after the end, is kept.
      if (details.carrierCost !== undefined)
        await annotateCall(prisma, call.id, { carrierCost: details.carrierCost });
      if (status !== from || details.duration !== undefined)
        this.refused(call, from, status, "the call has already ended");
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
      if (!(await this.tryTransition(call, "in-progress", { answeredBy: details.answeredBy }, answeredAt)))
        return;
      return this.callEvent({ ...event, callId: call.id });
    }
    if (!CALL_TRANSITIONS[from].includes(status)) {
      this.refused(call, from, status, "not a move the transition table allows");
      return;
    }
    await this.tryTransition(call, status, details);
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

  /** The voice engine speaks voicemail messages on the live calls it carries. */
  onVoicemailBeep(speaker: VoicemailSpeaker): void {
    this.voicemailSpeaker = speaker;
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
    if (event.verdict === "fax") return this.endByAssistant(call.id, VOICEMAIL_REASONS.fax);
    const assistant = call.assistantId
      ? await prisma.assistant.findUnique({
          where: { id: call.assistantId },
          select: { endCallOnVoicemail: true, initialMessage: true, name: true },
        })
      : null;
    if (!assistant || assistant.endCallOnVoicemail)
      return this.endByAssistant(call.id, VOICEMAIL_REASONS.hungUp);
    // machine_start: the greeting plays on; the message waits for its end (the beep).
    if (event.verdict === "machine_start") return;
    const claimed = await prisma.call.updateMany({
      where: { id: call.id, requestedEnd: null, status: "in_progress" },
      data: { requestedEnd: "ended_by_assistant", endReason: VOICEMAIL_REASONS.messageLeft },
    });
    if (claimed.count === 0) return;
    const message = voicemailMessage(assistant);
    if (this.voicemailSpeaker(call.id, message)) return;
    await this.hangUp(call, "ended_by_assistant", VOICEMAIL_REASONS.messageLeft, message);
  }

  /** The live session spoke the voicemail message `answeringMachine` asked for: the line drops. */
  async voicemailLeft(callId: number): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({ where: { id: callId } });
    if (call?.status !== "in_progress") return;
    await this.hangUp(call, "ended_by_assistant", VOICEMAIL_REASONS.messageLeft);
  }

  /**
   * A call arriving on one of the numbers: recorded `inbound` and answered by the number's
   * assistant when the account has room for another call and money for its first minute
   * (reserved); otherwise recorded `failed` with the reason and refused with a short spoken
   * message (`refusal`, decided by the carrier's side before the account is looked at, refuses it
   * too: the instance is at capacity). A call to a number no account holds is refused without a
   * record. A repeated delivery
   * of the same carrier call gets the decision made the first time.
   */
  async receiveInbound(request: {
    carrier: string;
    providerCallId: string;
    to: string;
    from: string;
    sipHost?: string;
    refusal?: { reason: string; words: string };
  }): Promise<InboundDecision> {
    const prisma = this.deps.db.prisma;
    const known = await prisma.call.findUnique({ where: { providerCallId: request.providerCallId } });
    if (known) {
      return known.status === "failed" && !known.startedAt
        ? { accepted: false, callId: known.id, refusal: INBOUND_REFUSALS.unavailable }
        : { accepted: true, callId: known.id };
    }
    // One row at most holds a number (a unique index), so the call can only reach its holder: over
    // SIP a SIP number whose URI is on the host the call came from, otherwise a dedicated number.
    const held = await prisma.phoneNumber.findFirst({
      where: {
        phoneNumber: request.to,
        releasedAt: null,
        status: "active",
        kind: request.sipHost ? "sip" : "normal",
      },
      include: { account: { select: { suspendedAt: true } } },
    });
    const number =
      held && (!request.sipHost || sipHostOf(held.sipUri ?? "") === request.sipHost.toLowerCase())
        ? held
        : null;
    if (!number) {
      this.deps.logger.warn("inbound call to a number no account holds", { to: request.to });
      return { accepted: false, callId: null, refusal: INBOUND_REFUSALS.unknownNumber };
    }
    const accountId = number.accountId;
    const assistant = await prisma.assistant.findFirst({
      where: { accountId, phoneNumberId: number.id, deletedAt: null },
      orderBy: { id: "asc" },
    });
    const { maxConcurrentCalls, pricePerMinute } = this.deps.config.telephony;
    // A suspended account's webhook is not asked: the call is refused whatever it would answer.
    const variables =
      assistant?.inboundWebhookUrl && !number.account.suspendedAt
        ? await this.hooks.inboundVariables({
            accountId,
            assistantId: assistant.id,
            url: assistant.inboundWebhookUrl,
            from: request.from,
            to: number.phoneNumber,
            phoneNumberId: number.id,
          })
        : null;
    const record = {
      accountId,
      variables: (variables ?? {}) as Prisma.InputJsonObject,
      assistantId: assistant?.id ?? null,
      phoneNumberId: number.id,
      type: "inbound" as const,
      assistantName: assistant?.name ?? "",
      assistantPhoneNumber: number.phoneNumber,
      clientPhoneNumber: request.from,
      providerName: request.carrier,
      providerCallId: request.providerCallId,
      maxDuration: assistant?.maxDuration ?? 0,
    };
    let refusal: { reason: string; words: string } | null = request.refusal
      ? request.refusal
      : number.account.suspendedAt
        ? { reason: "The account is suspended.", words: INBOUND_REFUSALS.unavailable }
        : assistant
          ? null
          : { reason: "The number has no inbound assistant.", words: INBOUND_REFUSALS.unavailable };
    let call: Call | null = null;
    if (!refusal) {
      try {
        call = await prisma.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT "id" FROM "accounts" WHERE "id" = ${accountId}::integer FOR UPDATE`;
          const running = await tx.call.count({
            where: { accountId, type: { not: "web" }, status: { in: [...ACTIVE_DB_STATUSES] } },
          });
          if (running >= maxConcurrentCalls) throw new ConcurrentCallsLimitError(maxConcurrentCalls);
          const created = await tx.call.create({ data: record });
          await this.telephony.billing.reserveCallStart(tx, {
            accountId,
            callId: created.id,
            amount: pricePerMinute,
          });
          await this.hooks.events.emit(tx, { type: "call.started", call: created });
          return created;
        });
      } catch (error) {
        if (error instanceof ConcurrentCallsLimitError) {
          refusal = { reason: "Too many calls were running.", words: INBOUND_REFUSALS.busy };
        } else if (error instanceof AppError && error.code === "INSUFFICIENT_BALANCE") {
          refusal = {
            reason: "The account had no balance for the call.",
            words: INBOUND_REFUSALS.unavailable,
          };
        } else throw error;
      }
    }
    if (refusal || !call) {
      const refused = await this.created({ ...record, endReason: refusal!.reason });
      await this.publish(refused, null);
      const failed = await this.transition(refused.id, "failed");
      this.deps.logger.info("inbound call refused", {
        accountId,
        callId: failed.id,
        reason: refusal!.reason,
      });
      return { accepted: false, callId: failed.id, refusal: refusal!.words };
    }
    this.telephony.billing.balanceChanged(accountId);
    await this.publish(call, null);
    // The carrier connects the call as soon as it is answered with the media stream.
    await this.transition(call.id, "in-progress");
    this.deps.logger.info("inbound call answered", { accountId, callId: call.id });
    return { accepted: true, callId: call.id };
  }

  /**
   * Rings one of the account's numbers from `from` on the simulated carrier, so the inbound path
   * can be tried without a telephony account: the call is answered or refused by `receiveInbound`
   * as a carrier's webhook would have it, and returned as recorded (in progress, or failed with the
   * reason). Refused on a real carrier, and for a number the account does not hold.
   */
  async simulateInbound(accountId: number, request: { phoneNumberId?: unknown; from?: unknown }) {
    const simulator = this.telephony.inboundSimulator;
    if (!simulator) throw new SimulatedCarrierRequiredError(this.telephony.carrier.name);
    const input = parseInput(SimulatedInboundInput, request);
    const number = await this.deps.db.prisma.phoneNumber.findFirst({
      where: { id: input.phoneNumberId, accountId },
    });
    if (!number) throw new NotFoundError("Phone number");
    if (number.releasedAt) {
      throw ValidationError.single("phoneNumberId", "The phone number has been released.");
    }
    if (number.kind === "caller_id") {
      throw ValidationError.single("phoneNumberId", "A caller ID cannot receive calls.");
    }
    // A SIP number's calls come from the account's own PBX: the host of its SIP URI.
    const decision = await simulator.simulateIncomingCall({
      from: input.from,
      to: number.phoneNumber,
      ...(number.kind === "sip" ? { sipHost: sipHostOf(number.sipUri ?? "") ?? "" } : {}),
    });
    if (decision.callId === null) throw new NotFoundError("Phone number");
    return this.get(accountId, decision.callId);
  }

  /** One line of a running call's conversation, appended to its transcript. */
  async transcriptLine(callId: number, line: TranscriptLine): Promise<void> {
    const text = transcriptLineText(line);
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { transcript: true },
    });
    if (!call) return;
    if (call.transcript.length + text.length + 1 > MAX_TRANSCRIPT_CHARS) {
      this.deps.logger.warn("transcript full; line dropped", { callId });
      return;
    }
    // Appended in SQL, so that two lines written at once both stay.
    await this.deps.db.prisma.$executeRaw`
      UPDATE "calls" SET "transcript" = CASE WHEN "transcript" = '' THEN ${text}::text
        ELSE "transcript" || E'\n' || ${text}::text END, "updatedAt" = now()
      WHERE "id" = ${callId}::integer`;
  }

  /** Asks the carrier to end a call, remembering the status and reason it should end with. */
  private async hangUp(call: Call, as: ApiCallStatus, reason: string, farewell?: string): Promise<Call> {
    const prisma = this.deps.db.prisma;
    await prisma.call.updateMany({
      where: { id: call.id, requestedEnd: null, status: { in: [...ACTIVE_DB_STATUSES] } },
      data: { requestedEnd: toDbStatus(as), endReason: reason },
    });
    const carrier = call.providerName === WEB_CARRIER ? this.telephony.webCarrier() : this.telephony.carrier;
    await carrier.hangUp(
      { callId: call.id, providerCallId: call.providerCallId, answered: call.status === "in_progress" },
      farewell,
    );
    this.deps.logger.info("call hang-up requested", { callId: call.id, as, reason });
    return prisma.call.findUniqueOrThrow({ where: { id: call.id } });
  }

  /**
   * The timer of a running call (a durable job, so it survives restarts): charges each minute as it
   * starts, hangs up with a goodbye when the balance cannot pay for the next one or when the call
   * reaches its max duration, and sets itself for the next of those moments.
   */
  private async tick(callId: number, now = new Date()): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({ where: { id: callId } });
    if (call?.status !== "in_progress" || !call.startedAt || call.requestedEnd) return;
    const speed = this.deps.config.telephony.clockSpeed;
    const elapsed = ((now.getTime() - call.startedAt.getTime()) / 1000) * speed;
    if (call.maxDuration > 0 && elapsed >= call.maxDuration) {
      await this.hangUp(call, "ended_by_assistant", "Maximum duration reached.", FAREWELLS.maxDuration);
      return;
    }
    const started = minutesStarted(elapsed);
    const charged = await this.settlement.chargeRunning(call.id, started);
    if (charged === "not-running") return;
    if (charged === "short") {
      await this.hangUp(call, "ended_by_assistant", "The balance ran out.", FAREWELLS.balance);
      return;
    }
    const nextMinute = started * 60;
    const next = call.maxDuration > 0 ? Math.min(nextMinute, call.maxDuration) : nextMinute;
    await this.scheduleTick(call, next);
  }

  private scheduleTick(call: Call, atCallSecond: number) {
    const speed = this.deps.config.telephony.clockSpeed;
    const runAt = new Date(call.startedAt!.getTime() + (atCallSecond * 1000) / speed);
    return this.telephony.jobs.enqueue(
      TICK_TASK,
      { callId: call.id },
      { key: `call-tick:${call.id}`, runAt },
    );
  }

  private refused(call: Call, from: ApiCallStatus, to: ApiCallStatus, why: string) {
    this.deps.logger.warn("carrier event refused", { callId: call.id, from, to, why });
  }

  /** `transition`, with a lost race (another event moved the call first) logged instead of thrown. */
  private async tryTransition(
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

  /**
   * What a transition sets in motion once it committed, run once by whoever made it: the answer
   * starts the call's timer; an end tells the listeners, then `call.settled`.
   */
  private async afterTransition(call: Call) {
    const status = toApiStatus(call.status);
    if (call.providerName !== "" && status === "in-progress") {
      await this.scheduleTick(call, call.maxDuration > 0 ? Math.min(60, call.maxDuration) : 60);
    }
    if (!isFinal(status)) return;
    for (const listener of this.finishedListeners) {
      await listener(call).catch((error: unknown) =>
        this.deps.logger.error("a call-finished listener failed", { callId: call.id, error }),
      );
    }
    // Read again: a listener may have queued the evaluation (its status is part of the event).
    await this.deps.db.prisma.$transaction(async (tx) => {
      const final = await tx.call.findUniqueOrThrow({ where: { id: call.id } });
      await this.hooks.events.emit(tx, { type: "call.settled", call: final });
    });
  }

  /**
   * The call's media stream is being recorded (the voice module's recordings): its call.ended,
   * when it asks for the recording, waits for `recordingStored` or `recordingFailed`.
   */
  async recordingStarted(callId: number): Promise<void> {
    await annotateCall(this.deps.db.prisma, callId, { recordingStatus: "recording" });
  }

  /** Where the call's recording is served, once it is stored. */
  recordingStored(callId: number, url: string): Promise<void> {
    return this.recordingSettled(callId, { recordingStatus: "stored", recordingUrl: url });
  }

  /** The stream closed without a recording (it could not be stored): nothing to wait for any more. */
  recordingFailed(callId: number): Promise<void> {
    return this.recordingSettled(callId, { recordingStatus: "failed" });
  }

  private async recordingSettled(callId: number, data: CallAnnotation) {
    await this.deps.db.prisma.$transaction(async (tx) => {
      if (!(await annotateCall(tx, callId, data))) return;
      const call = await tx.call.findUniqueOrThrow({ where: { id: callId } });
      await this.hooks.events.emit(tx, { type: "call.recorded", call });
    });
  }

  /** The last answer of the account's endpoint to the call's call.ended event (the webhooks module). */
  async recordWebhookResponse(callId: number, response: Prisma.InputJsonObject): Promise<void> {
    await annotateCall(this.deps.db.prisma, callId, { webhookResponse: response });
  }

  /**
   * Where the call's evaluation stands (the evaluation module). A result or a final failure is
   * announced to subscribers and to the account's webhooks (call.evaluated).
   */
  async recordEvaluation(callId: number, outcome: EvaluationOutcome): Promise<void> {
    const call = await this.deps.db.prisma.$transaction(async (tx) => {
      const updated = await tx.call.update({
        where: { id: callId },
        data:
          outcome.status === "pending"
            ? { evaluationStatus: "pending", evaluationError: "" }
            : outcome.status === "done"
              ? {
                  evaluationStatus: "done",
                  evaluation: outcome.evaluation,
                  evaluationError: "",
                  evaluatedAt: new Date(),
                }
              : { evaluationStatus: "failed", evaluationError: outcome.error, evaluatedAt: new Date() },
      });
      if (outcome.status !== "pending")
        await this.hooks.events.emit(tx, { type: "call.evaluated", call: updated });
      return updated;
    });
    if (outcome.status === "pending") return;
    this.deps.pubsub.publish("call:evaluated", call.accountId, { callId, status: outcome.status });
  }

  /** A new call row and its call.started event, together. */
  private created(data: Prisma.CallUncheckedCreateInput): Promise<Call> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      const call = await tx.call.create({ data });
      await this.hooks.events.emit(tx, { type: "call.started", call });
      return call;
    });
  }

  /**
   * Records a new call (status initiated) for one of the account's assistants, copying the
   * names and numbers the call history shows so they survive renames and releases.
   */
  async start(accountId: number, request: StartCallRequest) {
    const input = parseInput(StartCallInput, request);
    const prisma = this.deps.db.prisma;
    const assistant = await prisma.assistant.findFirst({
      where: { id: input.assistantId, accountId, deletedAt: null },
      include: { phoneNumber: true },
    });
    if (!assistant) throw ValidationError.single("assistantId", "The selected assistant id is invalid.");
    const campaign = await this.campaignAndLeadOf(accountId, input);
    const call = await this.created({
      accountId,
      assistantId: assistant.id,
      campaignId: campaign?.id ?? null,
      leadId: input.leadId ?? null,
      phoneNumberId: input.type === "web" ? null : (assistant.phoneNumberId ?? null),
      type: input.type,
      assistantName: assistant.name,
      campaignName: campaign?.name ?? "",
      assistantPhoneNumber: input.type === "web" ? "" : (assistant.phoneNumber?.phoneNumber ?? ""),
      clientPhoneNumber: input.clientPhoneNumber ?? "",
      variables: input.variables as Prisma.InputJsonObject,
    });
    this.deps.logger.info("call started", { accountId, callId: call.id, type: call.type });
    await this.publish(call, null);
    return call;
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
    // The status, the money it moves and the total it leaves commit together: whoever sees the
    // new status (a poll, a subscriber told below, the call.ended event) sees its charges too.
    const { updated, balanceMoved } = await prisma.$transaction(async (tx) => {
      const { count } = await tx.call.updateMany({ where: { id: callId, status: call.status }, data });
      const moved = await tx.call.findUniqueOrThrow({ where: { id: callId } });
      if (count === 0) {
        const movedTo = toApiStatus(moved.status);
        throw new InvalidCallTransitionError(movedTo, status, CALL_TRANSITIONS[movedTo]);
      }
      if (status === "in-progress") await this.settlement.answered(tx, moved);
      const balanceMoved = ending && (await this.settlement.ended(tx, moved));
      const current = ending ? await tx.call.findUniqueOrThrow({ where: { id: callId } }) : moved;
      if (ending) await this.hooks.events.emit(tx, { type: "call.ended", call: current });
      return { updated: current, balanceMoved };
    });
    this.deps.logger.info("call status changed", { callId, from, to: status });
    if (balanceMoved) this.telephony.billing.balanceChanged(updated.accountId);
    await this.publish(updated, from);
    await this.afterTransition(updated);
    return prisma.call.findUniqueOrThrow({ where: { id: callId } });
  }

  async list(accountId: number, page: PageRequest, filter: CallFilterRequest = {}) {
    const where = await this.whereOf(accountId, filter);
    const prisma = this.deps.db.prisma;
    return paginate(page, CALLS_PER_PAGE, {
      count: () => prisma.call.count({ where }),
      items: (skip, take) =>
        prisma.call.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip, take }),
    });
  }

  async get(accountId: number, id: number) {
    const call = await this.deps.db.prisma.call.findFirst({ where: { accountId, id } });
    if (!call) throw new NotFoundError("Call");
    return call;
  }

  /** The campaign a call belongs to, if any; it and the lead must be the account's (not deleted). */
  private async campaignAndLeadOf(
    accountId: number,
    input: { campaignId?: number | null; leadId?: number | null },
  ) {
    const prisma = this.deps.db.prisma;
    const campaign = input.campaignId
      ? await prisma.campaign.findFirst({ where: { id: input.campaignId, accountId, deletedAt: null } })
      : null;
    if (input.campaignId && !campaign) {
      throw ValidationError.single("campaignId", "The selected campaign id is invalid.");
    }
    if (input.leadId && (await prisma.lead.count({ where: { id: input.leadId, accountId } })) === 0) {
      throw ValidationError.single("leadId", "The selected lead id is invalid.");
    }
    return campaign;
  }

  /**
   * The filters as a query. Dates are whole days in the account's time zone, both ends included.
   * Assistant and campaign ids must be the account's (deleted ones too: their calls remain).
   */
  private async whereOf(accountId: number, request: CallFilterRequest): Promise<Prisma.CallWhereInput> {
    const filter = parseInput(CallFilter, request);
    const prisma = this.deps.db.prisma;
    await this.assertOwnedFilters(accountId, filter);
    let createdAt: Prisma.DateTimeFilter | undefined;
    if (filter.dateFrom || filter.dateTo) {
      const { timezone } = await prisma.account.findUniqueOrThrow({ where: { id: accountId } });
      createdAt = {
        ...(filter.dateFrom ? { gte: startOfLocalDay(filter.dateFrom, timezone) } : {}),
        ...(filter.dateTo ? { lt: startOfLocalDay(nextDay(filter.dateTo), timezone) } : {}),
      };
    }
    return {
      accountId,
      ...(filter.status ? { status: toDbStatus(filter.status) } : {}),
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.phoneNumber ? { clientPhoneNumber: filter.phoneNumber } : {}),
      ...(filter.assistantId ? { assistantId: filter.assistantId } : {}),
      ...(filter.campaignId ? { campaignId: filter.campaignId } : {}),
      ...(createdAt ? { createdAt } : {}),
    };
  }

  /**
   * Ids a caller filters calls by must be the account's; deleted assistants and campaigns count,
   * since their calls remain. Anything else is NOT_FOUND, as for any other account's resource.
   */
  async assertOwnedFilters(
    accountId: number,
    ids: { callId?: number | null; assistantId?: number | null; campaignId?: number | null },
  ) {
    const prisma = this.deps.db.prisma;
    if (ids.callId && (await prisma.call.count({ where: { id: ids.callId, accountId } })) === 0) {
      throw new NotFoundError("Call");
    }
    if (
      ids.assistantId &&
      (await prisma.assistant.count({ where: { id: ids.assistantId, accountId } })) === 0
    ) {
      throw new NotFoundError("Assistant");
    }
    if (ids.campaignId && (await prisma.campaign.count({ where: { id: ids.campaignId, accountId } })) === 0) {
      throw new NotFoundError("Campaign");
    }
  }

  private async publish(call: Call, previousStatus: ApiCallStatus | null) {
    this.deps.pubsub.publish("call:status", call.accountId, {
      callId: call.id,
      assistantId: call.assistantId,
      campaignId: call.campaignId,
      status: toApiStatus(call.status),
      previousStatus,
    });
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
  };
}
