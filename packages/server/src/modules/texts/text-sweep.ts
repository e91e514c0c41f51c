import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { AppError } from "../../errors.ts";
import { PeriodicSweep } from "../../jobs/periodic-sweep.ts";
import type { TextQuietHours } from "./text-quiet-hours.ts";
import type { TextsService } from "./texts.service.ts";

/**
 * A queued text an instance took this long ago and never handed to the carrier was dropped by a
 * stop or a crash: another run takes it over. Far above the carrier client's timeout, so a send
 * still waiting for its answer is not doubled.
 */
export const STALE_CLAIM_MS = 5 * 60_000;
/** A text that could not leave within this of when it was due is failed and refunded instead. */
export const MAX_LATENESS_MS = 24 * 60 * 60_000;
const BATCH = 50;

interface DueText {
  id: number;
  accountId: number;
  from: string;
  to: string;
  body: string;
  dueAt: Date;
}

/**
 * Sends the texts whose time came: those scheduled after quiet hours, and those left `queued`
 * without a carrier id by a process that stopped between charging and sending. Each run claims
 * its batch in one statement (`FOR UPDATE SKIP LOCKED`, stamping `claimedAt`), so two instances
 * never take the same text.
 */
export class TextSendQueue {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { texts: TextsService; quietHours: TextQuietHours; clock: Clock },
  ) {}

  /** One pass; returns how many texts it took. */
  async sendDue(): Promise<number> {
    const now = this.parts.clock.now();
    const due = await this.deps.db.prisma.$queryRaw<DueText[]>`
      UPDATE "text_messages" AS t
      SET "status" = 'queued', "claimedAt" = ${now}::timestamptz, "updatedAt" = ${now}::timestamptz
      FROM (
        SELECT "id" FROM "text_messages"
        WHERE "direction" = 'outbound' AND "providerMessageId" IS NULL
          AND (("status" = 'scheduled' AND "sendAt" <= ${now}::timestamptz)
            OR ("status" = 'queued'
                AND COALESCE("claimedAt", "createdAt") <= ${new Date(now.getTime() - STALE_CLAIM_MS)}::timestamptz))
        ORDER BY "id" LIMIT ${BATCH}
        FOR UPDATE SKIP LOCKED
      ) AS claimed
      WHERE t."id" = claimed."id"
      RETURNING t."id", t."accountId", t."from", t."to", t."body", COALESCE(t."sendAt", t."createdAt") AS "dueAt"`;
    for (const text of due) await this.sendOne(text, now);
    return due.length;
  }

  private async sendOne(text: DueText, now: Date) {
    const { texts } = this.parts;
    const log = { accountId: text.accountId, textId: text.id };
    if (now.getTime() - text.dueAt.getTime() > MAX_LATENESS_MS) {
      this.deps.logger.warn("text too late to send; failed and refunded", log);
      await texts.textEvent({ textId: text.id, status: "failed", errorMessage: "Not sent in time." });
      return;
    }
    if (await texts.optedOut(text.accountId, text.from, text.to)) {
      await texts.textEvent({
        textId: text.id,
        status: "failed",
        errorMessage: "The recipient opted out before it was sent.",
      });
      return;
    }
    // A text left over by a crash may come due in quiet hours: it waits for their end too.
    const sendAt = await this.parts.quietHours.until(text.accountId, text.from, text.to, now);
    if (sendAt) {
      await this.deps.db.prisma.textMessage.updateMany({
        where: { id: text.id, status: "queued", providerMessageId: null },
        data: { status: "scheduled", sendAt, claimedAt: null },
      });
      return;
    }
    try {
      await texts.deliver(text);
      this.deps.logger.info("queued text sent", log);
    } catch (error) {
      // `deliver` failed and refunded it; a carrier's refusal is the text's outcome, not the sweep's.
      if (!(error instanceof AppError)) this.deps.logger.error("queued text not sent", { ...log, error });
    }
  }
}

export class TextSendSweep extends PeriodicSweep {
  constructor(
    deps: ServiceDeps,
    private readonly queue: TextSendQueue,
  ) {
    super("text send sweep", deps.config.telephony.textSweepIntervalMs, deps.logger);
  }

  protected runOnce() {
    return this.queue.sendDue();
  }
}
