import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import {
  AppError,
  ConcurrentCallsLimitError,
  NotFoundError,
  SimulatedCarrierRequiredError,
  ValidationError,
} from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import type { BillingService } from "../billing/index.ts";
import { e164PhoneNumber } from "../phone-numbers/e164.ts";
import type { InboundDecision, InboundSimulator } from "../telephony/provider.ts";
import { sipHostOf } from "../telephony/sip-uri.ts";
import type { CallLifecycle } from "./call-lifecycle.service.ts";
import type { CallQueries } from "./call-queries.ts";
import { ACTIVE_DB_STATUSES } from "./call-status.ts";
import { answeredByFallback } from "./free-calls.ts";

/** What a refused inbound caller hears. */
export const INBOUND_REFUSALS = {
  unavailable: "Sorry, this number cannot take your call right now. Goodbye.",
  busy: "Sorry, all our lines are busy. Please call again later. Goodbye.",
  unknownNumber: "Sorry, this number is not in service. Goodbye.",
} as const;

const SimulatedInboundInput = z.object({
  phoneNumberId: z
    .number({ error: "The phone number id field is required and must be an integer." })
    .int("The phone number id field must be an integer."),
  from: e164PhoneNumber("from"),
});

/** Asks an assistant's inbound webhook for a call's variables; null: use the assistant's defaults. */
export type InboundVariablesSource = (request: {
  accountId: number;
  assistantId: number;
  url: string;
  from: string;
  to: string;
  phoneNumberId: number;
}) => Promise<Record<string, unknown> | null>;

/** Calls arriving on the accounts' numbers: answered by the number's assistant, or refused and recorded. */
export class InboundCalls {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      /** The carrier's name (SIMULATED_CARRIER_REQUIRED names it). */
      carrierName: string;
      /** Set when the carrier is the simulation, which can ring the account's numbers itself. */
      inboundSimulator: InboundSimulator | null;
      billing: BillingService;
      lifecycle: CallLifecycle;
      queries: CallQueries;
      events: EventSink;
      inboundVariables: InboundVariablesSource;
    },
  ) {}

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
        ? await this.parts.inboundVariables({
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
    const free = answeredByFallback(this.deps.config, { carrier: request.carrier });
    let call: Call | null = null;
    if (!refusal) {
      try {
        call = await prisma.$transaction(async (tx) => {
          await tx.$queryRaw`SELECT "id" FROM "accounts" WHERE "id" = ${accountId}::integer FOR UPDATE`;
          const running = await tx.call.count({
            where: { accountId, type: { not: "web" }, test: false, status: { in: [...ACTIVE_DB_STATUSES] } },
          });
          if (running >= maxConcurrentCalls) throw new ConcurrentCallsLimitError(maxConcurrentCalls);
          const created = await tx.call.create({ data: record });
          if (!free)
            await this.parts.billing.reserveCallStart(tx, {
              accountId,
              callId: created.id,
              amount: pricePerMinute,
            });
          await this.parts.events.emit(tx, { type: "call.started", call: created });
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
      const refused = await this.parts.lifecycle.create({ ...record, endReason: refusal!.reason });
      this.parts.lifecycle.publish(refused, null);
      const failed = await this.parts.lifecycle.transition(refused.id, "failed");
      this.deps.logger.info("inbound call refused", {
        accountId,
        callId: failed.id,
        reason: refusal!.reason,
      });
      return { accepted: false, callId: failed.id, refusal: refusal!.words };
    }
    if (!free) this.parts.billing.balanceChanged(accountId);
    this.parts.lifecycle.publish(call, null);
    // The carrier connects the call as soon as it is answered with the media stream.
    await this.parts.lifecycle.transition(call.id, "in-progress");
    this.deps.logger.info("inbound call answered", { accountId, callId: call.id, free });
    return { accepted: true, callId: call.id };
  }

  /**
   * Rings one of the account's numbers from `from` on the simulated carrier, so the inbound path
   * can be tried without a telephony account: the call is answered or refused by `receiveInbound`
   * as a carrier's webhook would have it, and returned as recorded (in progress, or failed with the
   * reason). Refused on a real carrier, and for a number the account does not hold.
   */
  async simulateInbound(accountId: number, request: { phoneNumberId?: unknown; from?: unknown }) {
    const simulator = this.parts.inboundSimulator;
    if (!simulator) throw new SimulatedCarrierRequiredError(this.parts.carrierName);
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
    return this.parts.queries.get(accountId, decision.callId);
  }
}
