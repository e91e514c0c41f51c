import type { ServiceDeps } from "../../deps.ts";
import type { Prisma, WebhookEvent } from "../../generated/prisma/client.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { WEBHOOK_RESPONSE_LOG_CHARS, WEBHOOK_RESPONSE_MAX_BYTES } from "../../limits.ts";
import { OutboundRequestError, safeFetch } from "../../net/safe-fetch.ts";
import { lockAccount } from "./account-lock.ts";
import type { WebhookSecrets } from "./secrets.ts";
import { isRetryable, retryDelayMs, signedHeaders } from "./signing.ts";

const STREAM_TASK = "webhooks:stream";
/** A lease lasts the attempt's timeout and this much more; past it another runner may take over. */
const LEASE_MARGIN_MS = 30_000;
/** Deliveries one job makes before handing the stream to a new job (fairness between streams). */
const DELIVERIES_PER_JOB = 20;
/** How often each instance looks for due deliveries whose job was lost (a crash between write and enqueue). */
const SWEEP_INTERVAL_MS = 30_000;

type Claim =
  | { kind: "empty" | "busy" }
  | { kind: "wait"; at: Date }
  | { kind: "deliver"; event: WebhookEvent };

/**
 * Durable delivery: one job per stream delivers its events in order, at least once, retried with
 * exponential backoff and jitter, at most `accountConcurrency` at once per account; a sweep gives a
 * job again to due deliveries whose job was lost.
 */
export class DeliveryWorker {
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly collaborators: {
      jobs: JobQueue;
      /** Where the answers to a call's call.ended are told (`call.webhook_answered`); the calls module records them. */
      bus: Pick<InProcessBus, "publish">;
    },
    private readonly secrets: WebhookSecrets,
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

  schedule(
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
      await lockAccount(tx, accountId);
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
    const secrets = await this.secrets.signingSecrets(event.accountId);
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
