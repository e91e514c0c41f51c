import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AccountSuspendedError, AppError, ConcurrentCallsLimitError, ValidationError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { MAX_CALL_VARIABLES_BYTES } from "../../limits.ts";
import { parseInput } from "../../validation.ts";
import type { BillingService } from "../billing/index.ts";
import { e164PhoneNumber } from "../phone-numbers/e164.ts";
import type { CallCarrier } from "../telephony/provider.ts";
import { WEB_CARRIER } from "./call-hang-up.ts";
import type { CallLifecycle } from "./call-lifecycle.service.ts";
import { ACTIVE_DB_STATUSES, CALL_TYPES } from "./call-status.ts";
import { answeredByFallback } from "./free-calls.ts";

const WEB_CONNECT_DEADLINE_TASK = "calls:web-connect-deadline";

const optionalId = (label: string) =>
  z
    .number({ error: `The ${label} field must be an integer.` })
    .int(`The ${label} field must be an integer.`)
    .nullish();

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

/** As callers send it; every value is checked here. */
export interface StartCallRequest {
  assistantId?: unknown;
  type?: unknown;
  clientPhoneNumber?: unknown;
  campaignId?: unknown;
  leadId?: unknown;
  variables?: unknown;
}

/**
 * Calls Voxgate starts: outbound phone calls (dialled through the carrier), browser web calls, and
 * calls recorded through the API. Each is created in its first status with its first minute
 * reserved where it is billed; the lifecycle moves it from there.
 */
export class CallStarts {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      carrier: CallCarrier;
      billing: BillingService;
      jobs: JobQueue;
      lifecycle: CallLifecycle;
      events: EventSink;
    },
  ) {
    parts.jobs.define(WEB_CONNECT_DEADLINE_TASK, {
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
    const { billing, lifecycle, jobs } = this.parts;
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
      await billing.reserveCallStart(tx, {
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
    billing.balanceChanged(accountId);
    lifecycle.publish(call, null);
    await jobs.enqueue(
      WEB_CONNECT_DEADLINE_TASK,
      { callId: call.id },
      { key: `web-connect:${call.id}`, runAt: request.connectBy },
    );
    return call;
  }

  private async webConnectDeadline(callId: number): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({ where: { id: callId } });
    if (call?.status !== "initiated") return;
    await this.parts.lifecycle.tryTransition(call, "failed", { endReason: "The browser never connected." });
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
    const { carrier, billing, lifecycle, events } = this.parts;
    const { maxConcurrentCalls, pricePerMinute } = this.deps.config.telephony;
    const free = answeredByFallback(this.deps.config, { carrier: carrier.name });
    const call = await prisma.$transaction(async (tx) => {
      // The account row is the lock that makes count-then-insert safe between concurrent requests;
      // read under it, a suspension that commits first is always seen (a campaign's dialler has no
      // credential that authentication would have refused).
      const [account] = await tx.$queryRaw<{ suspended: boolean }[]>`
        SELECT "suspendedAt" IS NOT NULL AS "suspended" FROM "accounts"
        WHERE "id" = ${accountId}::integer FOR UPDATE`;
      if (account?.suspended) throw new AccountSuspendedError();
      const running = await tx.call.count({
        where: { accountId, type: { not: "web" }, test: false, status: { in: [...ACTIVE_DB_STATUSES] } },
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
      if (!free)
        await billing.reserveCallStart(tx, { accountId, callId: created.id, amount: pricePerMinute });
      await events.emit(tx, { type: "call.started", call: created });
      return created;
    });
    this.deps.logger.info("outbound call placed", {
      accountId,
      callId: call.id,
      carrier: carrier.name,
      free,
    });
    if (!free) billing.balanceChanged(accountId);
    lifecycle.publish(call, null);
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
      return lifecycle.transition(call.id, "failed", { endReason: reason });
    }
  }

  /**
   * Records a new call (status initiated) for one of the account's assistants, copying the
   * names and numbers the call history shows so they survive renames and releases.
   */
  async start(accountId: number, request: StartCallRequest) {
    const input = parseInput(StartCallInput, request);
    const { lifecycle } = this.parts;
    const assistant = await this.deps.db.prisma.assistant.findFirst({
      where: { id: input.assistantId, accountId, deletedAt: null },
      include: { phoneNumber: true },
    });
    if (!assistant) throw ValidationError.single("assistantId", "The selected assistant id is invalid.");
    const campaign = await this.campaignAndLeadOf(accountId, input);
    const call = await lifecycle.create({
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
    lifecycle.publish(call, null);
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
}
