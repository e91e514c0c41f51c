import { z } from "zod";
import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import {
  type AuditedEvent,
  type DomainEvent,
  type EventRecorder,
  type EventSink,
  isAuditedEvent,
  type MessageSource,
} from "../../events.ts";
import { type Appointment, type Call, Prisma, type WebhookEvent } from "../../generated/prisma/client.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import type { JobQueue } from "../../jobs/index.ts";
import {
  INBOUND_WEBHOOK_RESPONSE_MAX_BYTES,
  MAX_CALL_VARIABLES_BYTES,
  WEBHOOK_RESPONSE_LOG_CHARS,
  WEBHOOK_RESPONSE_MAX_BYTES,
} from "../../limits.ts";
import { OutboundRequestError, safeFetch } from "../../net/safe-fetch.ts";
import { parseInput } from "../../validation.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import { callData, envelope, isCompletedCall, type WebhookSettings } from "./payloads.ts";
import { isRetryable, newMessageId, newSecret, retryDelayMs, signedHeaders } from "./signing.ts";

const STREAM_TASK = "webhooks:stream";
/** Namespace of the advisory locks that serialise one account's claims (any constant; "WH"). */
const LOCK_NAMESPACE = 0x5748;
/** A lease lasts the attempt's timeout and this much more; past it another runner may take over. */
const LEASE_MARGIN_MS = 30_000;
/** Deliveries one job makes before handing the stream to a new job (fairness between streams). */
const DELIVERIES_PER_JOB = 20;
/** The retention sweep's advisory lock (with LOCK_NAMESPACE); account ids, the other keys, are positive. */
const RETENTION_LOCK_KEY = -1;
/** Events deleted per statement by the retention sweep: short transactions on a large log. */
const PURGE_BATCH = 5_000;
/**
 * How long a call.ended waits for its call's charges to be settled (`call.settled`, normally a few
 * milliseconds later) and, when it carries the recording, for the recording to be stored
 * (`call.recorded`, as the media stream closes); past it, after a crash in between, it goes out
 * with what it has.
 */
const CALL_ENDED_HOLD_MS = 120_000;
const NO_RECORDING = { includeRecordingInWebhook: false } as WebhookSettings;
/** What a held call.ended waits for, each released by its own domain event. */
type Hold = "settlement" | "recording";
/** How often each instance looks for due deliveries whose job was lost (a crash between write and enqueue). */
const SWEEP_INTERVAL_MS = 30_000;
export const DELIVERIES_PER_PAGE = 20;
/** The longest a retired secret keeps signing after a rotation. */
export const MAX_SECRET_OVERLAP_SECONDS = 7 * 24 * 3600;

/** An assistant's inbound webhook, asked before one of its calls is answered. */
export interface InboundCallRequest {
  accountId: number;
  assistantId: number;
  url: string;
  from: string;
  to: string;
  phoneNumberId: number;
}

const settingsColumns = {
  isWebhookActive: true,
  webhookUrl: true,
  sendWebhookOnlyOnCompleted: true,
  includeRecordingInWebhook: true,
} as const;

const DeliveryFilter = z.object({
  type: z.string().max(64).nullish(),
  status: z
    .enum(["pending", "delivered", "failed"], {
      error: "The status field must be pending, delivered or failed.",
    })
    .nullish(),
  callId: z.number().int().nullish(),
});

const TestInput = z.object({
  url: z
    .string({ error: "The url field must be a string." })
    .max(2048, "The url field must not be greater than 2048 characters.")
    .refine(
      (value) => /^https?:\/\//.test(value) && URL.canParse(value),
      "The url field must be an http or https URL.",
    )
    .nullish(),
  assistantId: z.number({ error: "The assistant id field must be an integer." }).int().nullish(),
});

const InboundAnswer = z.object({
  variables: z
    .record(z.string(), z.unknown())
    .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_CALL_VARIABLES_BYTES),
});

type Claim =
  | { kind: "empty" | "busy" }
  | { kind: "wait"; at: Date }
  | { kind: "deliver"; event: WebhookEvent };

/**
 * Signed webhooks (docs/webhooks.md). Each domain event becomes one row per endpoint, written before
 * anything is sent, then delivered by durable jobs: at least once, retried with exponential backoff
 * and jitter for about a day, one after the other per stream (a call, a lead, a conversation, a
 * document), at most `accountConcurrency` at once per account, on a job queue of its own so that slow
 * endpoints never hold up calls or ingestion. The one writer of the webhook tables.
 */
export class WebhooksService implements EventSink, Lifecycle {
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly collaborators: {
      jobs: JobQueue;
      /** Where the answers to a call's call.ended are told (`call.webhook_answered`); the calls module records them. */
      bus: Pick<InProcessBus, "publish">;
      rateLimits: RateLimitsService;
    },
  ) {
    collaborators.jobs.define(STREAM_TASK, {
      run: (payload, { signal }) =>
        this.runStream(Number(payload.accountId), String(payload.streamKey), signal),
      maxAttempts: 5,
    });
  }

  private get config() {
    return this.deps.config.webhooks;
  }

  async start() {
    await this.collaborators.jobs.start();
    const sweep = () => {
      this.sweepTimer = setTimeout(() => {
        this.sweeping = this.sweep()
          .catch((error: unknown) => this.deps.logger.error("webhook sweep failed", { error }))
          .finally(() => {
            if (this.sweepTimer) sweep();
          });
      }, SWEEP_INTERVAL_MS);
    };
    sweep();
  }

  async stop() {
    if (this.sweepTimer) clearTimeout(this.sweepTimer);
    this.sweepTimer = null;
    await this.sweeping;
    await this.collaborators.jobs.stop();
  }

  // ------------------------------------------------------------ events in (the outbox)

  private readonly recorders: EventRecorder[] = [];

  /**
   * Adds a module that keeps its own record of every domain event (the audit log), in the
   * transaction of the change that raised it, before its deliveries are recorded.
   */
  recordEventsWith(recorder: EventRecorder): void {
    this.recorders.push(recorder);
  }

  /**
   * Records the event's rows in `tx`, the transaction of the change that raised it, with the job
   * that delivers them: both exist iff the change commits. A call.ended is held until its call is
   * settled (`call.settled`) and, when it carries the recording, recorded (`call.recorded`): each
   * completes it, the last releases it; if one never comes (a crash in between), it goes out when
   * the hold ends with what it had.
   */
  async emit(tx: Prisma.TransactionClient, event: DomainEvent): Promise<void> {
    for (const record of this.recorders) await record(tx, event);
    if (isAuditedEvent(event)) return;
    // An agent test's call sends no webhooks (docs/testing-assistants.md#phone-scenarios).
    if ("call" in event && event.call.test) return;
    if (event.type === "call.settled") return this.release(tx, event.call, "settlement");
    if (event.type === "call.recorded") return this.release(tx, event.call, "recording");
    const held = event.type === "call.ended";
    const nextAttemptAt = held ? new Date(Date.now() + CALL_ENDED_HOLD_MS) : new Date();
    for (const outgoing of await this.outgoing(tx, event)) {
      await tx.webhookEvent.create({
        data: {
          ...outgoing,
          messageId: newMessageId(),
          payload: outgoing.payload as Prisma.InputJsonObject,
          nextAttemptAt,
        },
      });
      // Now, not at the hold's end: the job's key is the stream's, and events ahead of a held one go
      // out meanwhile (the stream's job waits on the held head by itself).
      await this.schedule(outgoing.accountId, outgoing.streamKey, { tx });
    }
  }

  /**
   * One of the things a held call.ended waits for came: its content is completed from the call as
   * it is now (costs, evaluation status, recording URL), and once nothing is left to wait for, it is
   * sent. The settlement and the recording come in either order, possibly at once from two
   * instances: removing one from `heldFor` is a single statement on the event's row, so exactly one
   * of them sees the list emptied, and it reads the call after the other's commit.
   */
  private async release(tx: Prisma.TransactionClient, call: Call, hold: Hold): Promise<void> {
    // attempts = 0: an event the hold's end already sent keeps the content it went out with.
    const held = await tx.$queryRaw<
      { id: number; accountId: number; streamKey: string; heldFor: string[] }[]
    >`
      UPDATE "webhook_events" SET "heldFor" = array_remove("heldFor", ${hold}::text), "updatedAt" = now()
      WHERE "callId" = ${call.id}::integer AND "type" = 'call.ended' AND "status" = 'pending'
        AND "attempts" = 0 AND ${hold}::text = ANY("heldFor")
      RETURNING "id", "accountId", "streamKey", "heldFor"`;
    if (held.length === 0) return;
    const current = (await tx.call.findUnique({ where: { id: call.id } })) ?? call;
    const settings = (await this.settingsOf(tx, current.assistantId)) ?? NO_RECORDING;
    const payload = envelope("call.ended", callData(current, settings, "ended")) as Prisma.InputJsonObject;
    const now = new Date();
    for (const row of held) {
      const ready = row.heldFor.length === 0;
      await tx.webhookEvent.update({
        where: { id: row.id },
        data: { payload, ...(ready ? { nextAttemptAt: now } : {}) },
      });
      if (ready) await this.schedule(row.accountId, row.streamKey, { tx });
    }
  }

  /**
   * An account-level event's rows: one per distinct webhook URL among the account's assistants that
   * `assistants` selects and that have webhooks on, named by the first (lowest id) assistant with it.
   */
  private async toAssistantEndpoints(
    tx: Prisma.TransactionClient,
    event: {
      accountId: number;
      assistants: Prisma.AssistantWhereInput;
      type: string;
      streamKey: string;
      payload: unknown;
    },
  ): Promise<NewEvent[]> {
    const assistants = await tx.assistant.findMany({
      where: {
        ...event.assistants,
        accountId: event.accountId,
        deletedAt: null,
        isWebhookActive: true,
        webhookUrl: { not: null },
      },
      select: { id: true, webhookUrl: true },
      orderBy: { id: "asc" },
    });
    const urls = new Map<string, number>();
    for (const assistant of assistants) {
      if (!urls.has(assistant.webhookUrl!)) urls.set(assistant.webhookUrl!, assistant.id);
    }
    return [...urls].map(([url, assistantId]) => ({
      accountId: event.accountId,
      assistantId,
      callId: null,
      type: event.type,
      url,
      streamKey: event.streamKey,
      payload: event.payload,
    }));
  }

  /** The event's rows: one per endpoint that wants it (none when webhooks are off). */
  private async outgoing(
    tx: Prisma.TransactionClient,
    event: Exclude<DomainEvent, { type: "call.settled" | "call.recorded" } | AuditedEvent>,
  ): Promise<NewEvent[]> {
    const at = new Date();
    switch (event.type) {
      case "call.started":
      case "call.ended":
      case "call.evaluated": {
        const { call } = event;
        const settings = await this.settingsOf(tx, call.assistantId);
        if (!settings) return [];
        if (settings.sendWebhookOnlyOnCompleted && (event.type === "call.started" || !isCompletedCall(call)))
          return [];
        const kind = event.type.slice("call.".length) as "started" | "ended" | "evaluated";
        return [
          {
            accountId: call.accountId,
            assistantId: call.assistantId,
            callId: call.id,
            type: event.type,
            url: settings.webhookUrl!,
            streamKey: `call:${call.id}`,
            payload: envelope(event.type, callData(call, settings, kind), at),
            ...(event.type === "call.ended" ? { heldFor: callEndedHolds(call, settings) } : {}),
          },
        ];
      }
      case "lead.updated": {
        const lead = await tx.lead.findFirst({
          where: { id: event.leadId, accountId: event.accountId },
          include: { campaign: { select: { id: true, name: true, status: true, assistantId: true } } },
        });
        const settings = lead && (await this.settingsOf(tx, lead.campaign.assistantId));
        if (!lead || !settings) return [];
        const data = {
          id: lead.id,
          campaign: { id: lead.campaign.id, name: lead.campaign.name, status: lead.campaign.status },
          phone_number: lead.phoneNumber,
          status: lead.status.replaceAll("_", "-"),
          attempts: lead.attempts,
          next_attempt_at: lead.nextAttemptAt?.toISOString() ?? null,
          call_id: event.callId,
          variables: lead.variables,
        };
        return [
          {
            accountId: lead.accountId,
            assistantId: lead.campaign.assistantId,
            callId: null,
            type: event.type,
            url: settings.webhookUrl!,
            streamKey: `lead:${lead.id}`,
            payload: envelope(event.type, data, at),
          },
        ];
      }
      case "document.status":
        // A document belongs to a knowledge base, not an assistant: every assistant using the base
        // with webhooks on hears of it.
        return this.toAssistantEndpoints(tx, {
          accountId: event.accountId,
          assistants: { knowledgebaseId: event.knowledgebaseId },
          type: event.type,
          streamKey: `document:${event.documentId}`,
          payload: envelope(
            event.type,
            {
              document_id: event.documentId,
              knowledgebase_id: event.knowledgebaseId,
              status: event.status,
              failure_reason: event.failureReason,
              chunk_count: event.chunkCount,
            },
            at,
          ),
        });
      case "calendar.connection_broken":
      case "calendar.connection_restored": {
        // A connection belongs to the account, not an assistant: every assistant of the account
        // with webhooks on hears of it.
        const { connection } = event;
        return this.toAssistantEndpoints(tx, {
          accountId: connection.accountId,
          assistants: {},
          type: event.type,
          streamKey: `calendar-connection:${connection.id}`,
          payload: envelope(
            event.type,
            {
              connection_id: connection.id,
              name: connection.name,
              provider: connection.provider,
              account: connection.username,
              status: connection.status,
              last_error: connection.lastError,
              checked_at: connection.checkedAt.toISOString(),
            },
            at,
          ),
        });
      }
      case "appointment.booked":
      case "appointment.rescheduled":
      case "appointment.cancelled": {
        // The assistant that booked it hears of it; one booked through the API, every assistant
        // offering its appointment type.
        const { appointment } = event;
        return this.toAssistantEndpoints(tx, {
          accountId: appointment.accountId,
          assistants:
            appointment.assistantId !== null
              ? { id: appointment.assistantId }
              : { appointmentTypeLinks: { some: { appointmentTypeId: appointment.appointmentTypeId } } },
          type: event.type,
          streamKey: `appointment:${appointment.id}`,
          payload: envelope(
            event.type,
            {
              ...appointmentData(appointment),
              ...(event.previousStartsAt ? { previous_starts_at: event.previousStartsAt.toISOString() } : {}),
            },
            at,
          ),
        });
      }
      case "conversation.human_requested":
      case "conversation.handed_off": {
        // The conversation's own assistant and whichever answer(s) it hear of it, on the stream of
        // its messages so a receiver gets them in order.
        const { conversation } = event;
        const assistantIds =
          event.type === "conversation.handed_off"
            ? [conversation.assistantId, event.fromAssistantId, event.toAssistantId]
            : [conversation.assistantId, event.assistantId];
        const common = {
          conversation_id: conversation.id,
          channel: conversation.channel,
          customer_identifier: conversation.customerIdentifier,
          reason: event.reason,
        };
        const data =
          event.type === "conversation.handed_off"
            ? {
                ...common,
                from_assistant_id: event.fromAssistantId,
                to_assistant_id: event.toAssistantId,
                handoff_count: conversation.handoffTrail.length,
              }
            : {
                ...common,
                assistant_id: event.assistantId,
                requested_at: (conversation.humanRequestedAt ?? at).toISOString(),
                next_open_at: event.nextOpenAt?.toISOString() ?? null,
              };
        return this.toAssistantEndpoints(tx, {
          accountId: conversation.accountId,
          assistants: { id: { in: [...new Set(assistantIds)] } },
          type: event.type,
          streamKey: `conversation:${conversation.id}`,
          payload: envelope(event.type, data, at),
        });
      }
      case "call.handed_off": {
        // The chat hand-off's webhook, for a call: on the call's stream (in order with call.started
        // and call.ended), to the call's assistant and both assistants of the hand-off.
        const { call } = event;
        const type = "conversation.handed_off";
        const rows = await this.toAssistantEndpoints(tx, {
          accountId: call.accountId,
          assistants: {
            id: {
              in: [
                ...new Set([
                  call.assistantId ?? event.fromAssistantId,
                  event.fromAssistantId,
                  event.toAssistantId,
                ]),
              ],
            },
          },
          type,
          streamKey: `call:${call.id}`,
          payload: envelope(
            type,
            {
              conversation_id: null,
              call_id: call.id,
              channel: call.type === "web" ? "web" : "phone",
              customer_identifier: call.type === "web" ? null : call.clientPhoneNumber || null,
              reason: event.reason,
              from_assistant_id: event.fromAssistantId,
              to_assistant_id: event.toAssistantId,
              handoff_count: call.handoffTrail.length,
            },
            at,
          ),
        });
        return rows.map((row) => ({ ...row, callId: call.id }));
      }
      case "call.transferred":
      case "call.transfer_failed": {
        // On the call's own stream, so a receiver gets it between the call's started and ended.
        const { call, leg } = event;
        const settings = await this.settingsOf(tx, call.assistantId);
        if (!settings) return [];
        return [
          {
            accountId: call.accountId,
            assistantId: call.assistantId,
            callId: call.id,
            type: event.type,
            url: settings.webhookUrl!,
            streamKey: `call:${call.id}`,
            payload: envelope(
              event.type,
              {
                call_id: call.id,
                assistant_id: call.assistantId,
                transfer_call_id: leg.id,
                destination: leg.transferDestinationName,
                to: leg.clientPhoneNumber,
                ...(event.type === "call.transfer_failed" ? { outcome: event.outcome } : {}),
              },
              at,
            ),
          },
        ];
      }
    }
  }

  /**
   * conversation.message rows for the messages `appended` (a CTE of the statement storing them)
   * when the conversation's assistant has webhooks on; the payload is what `envelope` makes.
   */
  messageEventsSql(source: MessageSource, appended: Prisma.Sql): Prisma.Sql {
    const iso = (column: Prisma.Sql) =>
      Prisma.sql`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    return Prisma.sql`
      INSERT INTO "webhook_events"
        ("messageId", "accountId", "assistantId", "type", "url", "streamKey", "payload", "updatedAt")
      SELECT 'msg_' || replace(gen_random_uuid()::text, '-', ''), ${source.accountId}::integer,
             a."id", 'conversation.message', a."webhookUrl",
             ${`conversation:${source.conversationId}`}::text,
             jsonb_build_object('type', 'conversation.message', 'timestamp', ${iso(Prisma.sql`now()`)},
               'data', jsonb_build_object(
                 'conversation_id', ${source.conversationId}::text, 'assistant_id', a."id",
                 'message', jsonb_build_object('id', m."id", 'role', m."role", 'content', m."content",
                                               'created_at', ${iso(Prisma.sql`m."createdAt"`)}))),
             now()
      FROM ${appended} m
      JOIN "assistants" a ON a."id" = ${source.assistantId}::integer
       AND a."deletedAt" IS NULL AND a."isWebhookActive" AND a."webhookUrl" IS NOT NULL
      ORDER BY m."id"
      RETURNING "id"`;
  }

  /** Starts delivering what `messageEventsSql` recorded (once its statement committed). */
  async messagesRecorded(source: MessageSource): Promise<void> {
    await this.schedule(source.accountId, `conversation:${source.conversationId}`);
  }

  private async settingsOf(
    tx: Prisma.TransactionClient,
    assistantId: number | null,
  ): Promise<WebhookSettings | null> {
    if (assistantId === null) return null;
    const settings = await tx.assistant.findFirst({
      where: { id: assistantId, deletedAt: null },
      select: settingsColumns,
    });
    return settings?.isWebhookActive && settings.webhookUrl ? settings : null;
  }

  private schedule(
    accountId: number,
    streamKey: string,
    options: { runAt?: Date; tx?: Prisma.TransactionClient } = {},
  ) {
    return this.collaborators.jobs.enqueue(
      STREAM_TASK,
      { accountId, streamKey },
      { key: `webhook-stream:${streamKey}`, ...options },
    );
  }

  // ------------------------------------------------------------ delivery

  /** Delivers a stream's events in order until it is empty, waiting (a retry) or someone else's. */
  private async runStream(accountId: number, streamKey: string, signal: AbortSignal): Promise<void> {
    for (let delivered = 0; delivered < DELIVERIES_PER_JOB; delivered++) {
      const claim = await this.claim(accountId, streamKey);
      if (claim.kind === "wait") {
        await this.schedule(accountId, streamKey, { runAt: claim.at });
        return;
      }
      if (claim.kind !== "deliver") return;
      await this.deliver(claim.event, signal);
    }
    await this.schedule(accountId, streamKey);
  }

  /**
   * Takes the head of a stream for delivery (a lease), unless it is being delivered, not due yet,
   * or the account already has as many deliveries running as it may. Claims of one account take
   * turns (an advisory lock), so the count is exact across instances.
   */
  private claim(accountId: number, streamKey: string): Promise<Claim> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${accountId}::integer)`;
      const head = await tx.webhookEvent.findFirst({
        where: { streamKey, status: "pending" },
        orderBy: { id: "asc" },
      });
      if (!head) return { kind: "empty" };
      const now = new Date();
      if (head.deliveringUntil && head.deliveringUntil > now) return { kind: "busy" };
      if (head.nextAttemptAt > now) return { kind: "wait", at: head.nextAttemptAt };
      const running = await tx.webhookEvent.count({
        where: { accountId, deliveringUntil: { gt: now } },
      });
      if (running >= this.config.accountConcurrency) {
        // Looked at again in 1 to 2 s: often enough for a healthy endpoint, and a dead one's waiting
        // streams do not keep the queue and the database busy asking (bench/webhooks).
        return { kind: "wait", at: new Date(now.getTime() + 1_000 + Math.random() * 1_000) };
      }
      const event = await tx.webhookEvent.update({
        where: { id: head.id },
        data: {
          deliveringUntil: new Date(now.getTime() + this.config.timeoutMs + LEASE_MARGIN_MS),
          attempts: { increment: 1 },
        },
      });
      return { kind: "deliver", event };
    });
  }

  private async deliver(event: WebhookEvent, signal: AbortSignal): Promise<void> {
    const prisma = this.deps.db.prisma;
    const secrets = await this.signingSecrets(event.accountId);
    const body = JSON.stringify(event.payload);
    const started = performance.now();
    let statusCode: number | null = null;
    let responseBody = "";
    let error: string | null = null;
    let retryable = true;
    let retryAfterMs: number | null = null;
    try {
      const response = await safeFetch(event.url, {
        method: "POST",
        headers: signedHeaders(secrets, event.messageId, body),
        body,
        timeoutMs: this.config.timeoutMs,
        maxBytes: WEBHOOK_RESPONSE_MAX_BYTES,
        // The Standard Webhooks recommendation: a redirect is a misconfigured endpoint, not followed.
        maxRedirects: 0,
        allowList: this.deps.config.outboundAllowList,
        signal,
      });
      statusCode = response.status;
      responseBody = response.body.toString("utf8").slice(0, WEBHOOK_RESPONSE_LOG_CHARS);
      retryable = isRetryable(statusCode);
      retryAfterMs = retryAfter(response.headers.get("retry-after"));
    } catch (failure) {
      if (signal.aborted) {
        // Stopping is not the endpoint's fault: the attempt is given back and runs after the restart.
        await prisma.webhookEvent.update({
          where: { id: event.id },
          data: { deliveringUntil: null, attempts: { decrement: 1 } },
        });
        throw failure;
      }
      if (!(failure instanceof OutboundRequestError)) throw failure;
      error = failure.message;
      retryable =
        failure.reason === "timeout" || failure.reason === "network" || failure.reason === "too_large";
    }
    const latencyMs = Math.round(performance.now() - started);
    const now = new Date();
    const succeeded = statusCode !== null && statusCode >= 200 && statusCode < 300;
    const again = !succeeded && retryable && event.attempts < this.config.maxAttempts;
    await prisma.$transaction([
      prisma.webhookAttempt.create({
        data: { eventId: event.id, attempt: event.attempts, statusCode, error, latencyMs, responseBody },
      }),
      prisma.webhookEvent.update({
        where: { id: event.id },
        data: {
          deliveringUntil: null,
          lastStatusCode: statusCode,
          lastError: succeeded ? null : (error ?? `HTTP ${statusCode}`),
          status: succeeded ? "delivered" : again ? "pending" : "failed",
          ...(succeeded ? { deliveredAt: now } : {}),
          ...(again
            ? {
                nextAttemptAt: new Date(
                  now.getTime() +
                    retryDelayMs(event.attempts, {
                      baseMs: this.config.retryBaseMs,
                      maxDelayMs: this.config.retryMaxDelayMs,
                      retryAfterMs,
                    }),
                ),
              }
            : {}),
        },
      }),
    ]);
    this.deps.logger.info("webhook attempt", {
      accountId: event.accountId,
      webhookId: event.messageId,
      type: event.type,
      attempt: event.attempts,
      statusCode,
      error,
      latencyMs,
      outcome: succeeded ? "delivered" : again ? "retrying" : "failed",
    });
    if (event.type === "call.ended" && event.callId !== null) {
      await this.collaborators.bus.publish("call.webhook_answered", {
        callId: event.callId,
        response: {
          status: succeeded ? "delivered" : again ? "retrying" : "failed",
          status_code: statusCode,
          data: parsedBody(responseBody),
          error,
          webhook_id: event.messageId,
          attempt: event.attempts,
          responded_at: now.toISOString(),
        },
      });
    }
  }

  /** Due deliveries whose job was lost (a crash after the write, a lease that ran out) get one again. */
  private async sweep(): Promise<void> {
    const now = new Date();
    const due = await this.deps.db.prisma.webhookEvent.findMany({
      where: {
        status: "pending",
        nextAttemptAt: { lte: now },
        OR: [{ deliveringUntil: null }, { deliveringUntil: { lt: now } }],
      },
      distinct: ["streamKey"],
      select: { accountId: true, streamKey: true },
      take: 500,
    });
    for (const stream of due) await this.schedule(stream.accountId, stream.streamKey);
  }

  /**
   * Deletes delivered and failed events (their attempts go with them) last touched before `cutoff`,
   * in batches. One instance at a time: null when another is already at it.
   */
  async purgeLog(cutoff: Date): Promise<number | null> {
    let deleted = 0;
    for (;;) {
      const batch = await this.deps.db.prisma.$transaction(async (tx) => {
        const [lock] = await tx.$queryRaw<{ taken: boolean }[]>`
          SELECT pg_try_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${RETENTION_LOCK_KEY}::integer) AS "taken"`;
        if (!lock?.taken) return null;
        return tx.$executeRaw`
          DELETE FROM "webhook_events" WHERE "id" IN (
            SELECT "id" FROM "webhook_events"
            WHERE "status" IN ('delivered', 'failed') AND "updatedAt" < ${cutoff}::timestamptz
            LIMIT ${PURGE_BATCH}::integer)`;
      });
      if (batch === null) return deleted > 0 ? deleted : null;
      deleted += batch;
      if (batch < PURGE_BATCH) return deleted;
    }
  }

  // ------------------------------------------------------------ signing secrets

  /** The secrets that sign now: the current one and any retiring within its overlap window. */
  private async signingSecrets(accountId: number): Promise<string[]> {
    const prisma = this.deps.db.prisma;
    const active = await prisma.webhookSecret.findMany({
      where: { accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      orderBy: { id: "desc" },
    });
    if (active.length > 0) return active.map((row) => row.secret);
    // Nobody was given one yet (a test event before any assistant turned webhooks on): deliveries are
    // still signed; the first assistant with webhooks on, or a rotation, gives the owner a secret.
    const created = await prisma.webhookSecret.create({ data: { accountId, secret: newSecret() } });
    return [created.secret];
  }

  /**
   * The account's first secret its owner sees, made now if it has never been given one: a secret
   * made earlier to sign a delivery nobody has seen is replaced (nobody can be verifying with it).
   */
  async issueFirstSecret(accountId: number): Promise<string | null> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${accountId}::integer)`;
      if ((await tx.webhookSecret.count({ where: { accountId, shownAt: { not: null } } })) > 0) return null;
      await tx.webhookSecret.deleteMany({ where: { accountId } });
      const created = await tx.webhookSecret.create({
        data: { accountId, secret: newSecret(), shownAt: new Date() },
      });
      return created.secret;
    });
  }

  /**
   * A new signing secret, returned this once. The previous one keeps signing for `overlapSeconds`
   * (default a day), so receivers can switch without rejecting a delivery.
   */
  async rotateSecret(accountId: number, overlapSeconds: number | null | undefined) {
    const overlap = overlapSeconds ?? 24 * 3600;
    if (!Number.isInteger(overlap) || overlap < 0 || overlap > MAX_SECRET_OVERLAP_SECONDS) {
      throw ValidationError.single(
        "overlapSeconds",
        `The overlap seconds field must be an integer between 0 and ${MAX_SECRET_OVERLAP_SECONDS}.`,
      );
    }
    const now = new Date();
    const prisma = this.deps.db.prisma;
    return prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}::integer, ${accountId}::integer)`;
      const retiresAt = new Date(now.getTime() + overlap * 1000);
      await tx.webhookSecret.updateMany({
        where: { accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: retiresAt } }] },
        data: { expiresAt: retiresAt },
      });
      await tx.webhookSecret.deleteMany({ where: { accountId, expiresAt: { lte: now } } });
      const created = await tx.webhookSecret.create({
        data: { accountId, secret: newSecret(), shownAt: now },
      });
      return {
        secret: created.secret,
        createdAt: created.createdAt,
        previousExpiresAt: overlap > 0 ? retiresAt : null,
      };
    });
  }

  /** When the account's signing secrets were made and until when they sign; never the secrets. */
  secrets(accountId: number) {
    return this.deps.db.prisma.webhookSecret.findMany({
      where: { accountId, OR: [{ expiresAt: null }, { expiresAt: { gt: new Date() } }] },
      orderBy: { id: "desc" },
      select: { id: true, createdAt: true, expiresAt: true },
    });
  }

  // ------------------------------------------------------------ the delivery log

  deliveries(
    accountId: number,
    page: PageRequest,
    filter: { type?: unknown; status?: unknown; callId?: unknown } = {},
  ) {
    const input = parseInput(DeliveryFilter, filter);
    const where: Prisma.WebhookEventWhereInput = {
      accountId,
      ...(input.type ? { type: input.type } : {}),
      ...(input.status ? { status: input.status } : {}),
      ...(input.callId ? { callId: input.callId } : {}),
    };
    const prisma = this.deps.db.prisma;
    return paginate(page, DELIVERIES_PER_PAGE, {
      count: () => prisma.webhookEvent.count({ where }),
      items: (skip, take) => prisma.webhookEvent.findMany({ where, orderBy: { id: "desc" }, skip, take }),
    });
  }

  async delivery(accountId: number, id: number) {
    const event = await this.deps.db.prisma.webhookEvent.findFirst({ where: { id, accountId } });
    if (!event) throw new NotFoundError("Webhook delivery");
    return event;
  }

  attemptsOf(eventId: number) {
    return this.deps.db.prisma.webhookAttempt.findMany({ where: { eventId }, orderBy: { id: "asc" } });
  }

  /**
   * Sends an event again, with the same webhook-id (receivers that already have it can tell), and a
   * fresh budget of attempts. An event still being retried is tried now.
   */
  async redeliver(accountId: number, id: number) {
    const event = await this.delivery(accountId, id);
    const updated = await this.deps.db.prisma.webhookEvent.update({
      where: { id: event.id },
      data: { status: "pending", attempts: 0, nextAttemptAt: new Date() },
    });
    await this.schedule(updated.accountId, updated.streamKey);
    return updated;
  }

  /** A `webhook.test` event to `url` (or the assistant's webhook URL), delivered like any other. */
  async sendTest(
    accountId: number,
    request: { url?: unknown; assistantId?: unknown },
    report: RateLimitReporter,
  ) {
    const limit = this.deps.config.rateLimits.testWebhookPerMinute;
    await this.collaborators.rateLimits.consume(
      "testWebhook",
      String(accountId),
      report,
      `Too many test webhooks: at most ${limit} per minute per account.`,
    );
    const input = parseInput(TestInput, request);
    let url = input.url ?? null;
    if (!url && input.assistantId) {
      const assistant = await this.deps.db.prisma.assistant.findFirst({
        where: { id: input.assistantId, accountId, deletedAt: null },
        select: { webhookUrl: true },
      });
      if (!assistant) throw ValidationError.single("assistantId", "The selected assistant id is invalid.");
      url = assistant.webhookUrl;
    }
    if (!url)
      throw ValidationError.single("url", "The url field is required when the assistant has no webhook url.");
    const messageId = newMessageId();
    const data = {
      message: "A test event from Voxgate: your endpoint is reachable and can verify signatures.",
    };
    const row = await this.deps.db.prisma.webhookEvent.create({
      data: {
        messageId,
        accountId,
        assistantId: input.assistantId ?? null,
        type: "webhook.test",
        url,
        streamKey: `test:${messageId}`,
        payload: envelope("webhook.test", data) as Prisma.InputJsonObject,
      },
    });
    await this.schedule(accountId, row.streamKey);
    return row;
  }

  // ------------------------------------------------------------ the inbound webhook

  /**
   * Asks an assistant's inbound webhook for the variables of a call about to be answered (signed
   * like every delivery, with a short timeout). Null when it fails, times out or answers something
   * else than `{"variables": {...}}`: the call then goes on with the assistant's defaults.
   */
  async inboundVariables(request: InboundCallRequest): Promise<Record<string, unknown> | null> {
    const messageId = newMessageId();
    const body = JSON.stringify(
      envelope("call.inbound", {
        assistant_id: request.assistantId,
        phone_number_id: request.phoneNumberId,
        from: request.from,
        to: request.to,
      }),
    );
    try {
      const response = await safeFetch(request.url, {
        method: "POST",
        headers: signedHeaders(await this.signingSecrets(request.accountId), messageId, body),
        body,
        timeoutMs: this.config.inboundTimeoutMs,
        maxBytes: INBOUND_WEBHOOK_RESPONSE_MAX_BYTES,
        maxRedirects: 0,
        allowList: this.deps.config.outboundAllowList,
      });
      if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
      const parsed = InboundAnswer.safeParse(JSON.parse(response.body.toString("utf8")));
      if (!parsed.success) throw new Error('the answer is not {"variables": {...}} within the size limit');
      return parsed.data.variables;
    } catch (error) {
      this.deps.logger.warn("inbound webhook failed; the call uses the assistant's defaults", {
        accountId: request.accountId,
        assistantId: request.assistantId,
        error: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  }
}

interface NewEvent {
  accountId: number;
  assistantId: number | null;
  callId: number | null;
  type: string;
  url: string;
  streamKey: string;
  payload: unknown;
  heldFor?: Hold[];
}

/**
 * What a call.ended waits for: the call's charges, always; its recording when the event carries it
 * and the media stream is still being recorded (a carrier may report the end before the stream closes).
 */
function callEndedHolds(call: Call, settings: WebhookSettings): Hold[] {
  return settings.includeRecordingInWebhook && call.recordingStatus === "recording"
    ? ["settlement", "recording"]
    : ["settlement"];
}

/** Retry-After in seconds (the HTTP-date form is rare for webhooks and ignored). */
function retryAfter(header: string | null): number | null {
  if (!header || !/^\d{1,6}$/.test(header.trim())) return null;
  return Number(header.trim()) * 1000;
}

/** The receiver's answer as the spec's webhook_response.data: its JSON object, or its text. */
function parsedBody(text: string): Prisma.InputJsonObject {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Prisma.InputJsonObject;
  } catch {
    // Not JSON: kept as text.
  }
  return text ? { text } : {};
}

/** An appointment as webhooks carry it (docs/webhooks.md#appointment-events). */
function appointmentData(appointment: Appointment) {
  return {
    id: appointment.id,
    status: appointment.status,
    starts_at: appointment.startsAt.toISOString(),
    ends_at: appointment.endsAt.toISOString(),
    timezone: appointment.timezone,
    appointment_type_id: appointment.appointmentTypeId,
    appointment_type_name: appointment.appointmentTypeName,
    customer_name: appointment.customerName,
    customer_phone: appointment.customerPhone,
    customer_email: appointment.customerEmail,
    notes: appointment.notes,
    assistant_id: appointment.assistantId,
    call_id: appointment.callId,
    conversation_id: appointment.conversationId,
    provider: appointment.provider,
    cancelled_at: appointment.cancelledAt?.toISOString() ?? null,
  };
}
