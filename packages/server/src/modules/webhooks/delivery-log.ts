import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import { LOCK_NAMESPACE } from "./account-lock.ts";
import type { DeliveryWorker } from "./delivery-worker.ts";
import { envelope } from "./payloads.ts";
import { newMessageId } from "./signing.ts";

/** The retention sweep's advisory lock (with LOCK_NAMESPACE); account ids, the other keys, are positive. */
const RETENTION_LOCK_KEY = -1;
/** Events deleted per statement by the retention sweep: short transactions on a large log. */
const PURGE_BATCH = 5_000;
const DELIVERIES_PER_PAGE = 20;

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

/** The delivery log: what was sent and how each attempt went, sending again, test events, retention. */
export class WebhookLog {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly collaborators: { worker: DeliveryWorker; rateLimits: RateLimitsService },
  ) {}

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
    await this.collaborators.worker.schedule(updated.accountId, updated.streamKey);
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
    await this.collaborators.worker.schedule(accountId, row.streamKey);
    return row;
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
}
