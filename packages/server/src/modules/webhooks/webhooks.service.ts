import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import {
  type DomainEvent,
  type EventRecorder,
  type EventSink,
  isAuditedEvent,
  type MessageSource,
} from "../../events.ts";
import { type Call, Prisma } from "../../generated/prisma/client.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import type { JobQueue } from "../../jobs/index.ts";
import type { PageRequest } from "../common/pagination.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import { WebhookLog } from "./delivery-log.ts";
import { DeliveryWorker } from "./delivery-worker.ts";
import { eventRows, type Hold, settingsOf } from "./event-rows.ts";
import { type InboundCallRequest, InboundWebhook } from "./inbound.ts";
import { callData, envelope, type WebhookSettings } from "./payloads.ts";
import { WebhookSecrets } from "./secrets.ts";
import { newMessageId } from "./signing.ts";

/**
 * How long a call.ended waits for its call's charges to be settled (`call.settled`, normally a few
 * milliseconds later) and, when it carries the recording, for the recording to be stored
 * (`call.recorded`, as the media stream closes); past it, after a crash in between, it goes out
 * with what it has.
 */
const CALL_ENDED_HOLD_MS = 120_000;
const NO_RECORDING = { includeRecordingInWebhook: false } as WebhookSettings;

/**
 * Signed webhooks (docs/webhooks.md). Each domain event becomes one row per endpoint, written before
 * anything is sent, then delivered by durable jobs: at least once, retried with exponential backoff
 * and jitter for about a day, one after the other per stream (a call, a lead, a conversation, a
 * document), at most `accountConcurrency` at once per account, on a job queue of its own so that slow
 * endpoints never hold up calls or ingestion. The one writer of the webhook tables.
 */
export class WebhooksService implements EventSink, Lifecycle {
  private readonly signing: WebhookSecrets;
  private readonly worker: DeliveryWorker;
  private readonly log: WebhookLog;
  private readonly inbound: InboundWebhook;

  constructor(
    deps: ServiceDeps,
    collaborators: {
      jobs: JobQueue;
      /** Where the answers to a call's call.ended are told (`call.webhook_answered`); the calls module records them. */
      bus: Pick<InProcessBus, "publish">;
      rateLimits: RateLimitsService;
    },
  ) {
    this.signing = new WebhookSecrets(deps);
    this.worker = new DeliveryWorker(deps, collaborators, this.signing);
    this.log = new WebhookLog(deps, { worker: this.worker, rateLimits: collaborators.rateLimits });
    this.inbound = new InboundWebhook(deps, this.signing);
  }

  start() {
    return this.worker.start();
  }

  stop() {
    return this.worker.stop();
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
    for (const outgoing of await eventRows(tx, event)) {
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
      await this.worker.schedule(outgoing.accountId, outgoing.streamKey, { tx });
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
    const settings = (await settingsOf(tx, current.assistantId)) ?? NO_RECORDING;
    const payload = envelope("call.ended", callData(current, settings, "ended")) as Prisma.InputJsonObject;
    const now = new Date();
    for (const row of held) {
      const ready = row.heldFor.length === 0;
      await tx.webhookEvent.update({
        where: { id: row.id },
        data: { payload, ...(ready ? { nextAttemptAt: now } : {}) },
      });
      if (ready) await this.worker.schedule(row.accountId, row.streamKey, { tx });
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
    await this.worker.schedule(source.accountId, `conversation:${source.conversationId}`);
  }

  // ------------------------------------------------------------ signing secrets

  issueFirstSecret(accountId: number) {
    return this.signing.issueFirstSecret(accountId);
  }

  rotateSecret(accountId: number, overlapSeconds: number | null | undefined) {
    return this.signing.rotateSecret(accountId, overlapSeconds);
  }

  secrets(accountId: number) {
    return this.signing.secrets(accountId);
  }

  // ------------------------------------------------------------ the delivery log

  deliveries(
    accountId: number,
    page: PageRequest,
    filter?: { type?: unknown; status?: unknown; callId?: unknown },
  ) {
    return this.log.deliveries(accountId, page, filter);
  }

  delivery(accountId: number, id: number) {
    return this.log.delivery(accountId, id);
  }

  attemptsOf(eventId: number) {
    return this.log.attemptsOf(eventId);
  }

  redeliver(accountId: number, id: number) {
    return this.log.redeliver(accountId, id);
  }

  sendTest(accountId: number, request: { url?: unknown; assistantId?: unknown }, report: RateLimitReporter) {
    return this.log.sendTest(accountId, request, report);
  }

  purgeLog(cutoff: Date) {
    return this.log.purgeLog(cutoff);
  }

  // ------------------------------------------------------------ the inbound webhook

  inboundVariables(request: InboundCallRequest) {
    return this.inbound.inboundVariables(request);
  }
}
