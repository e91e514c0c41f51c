import type { ServiceDeps } from "../../deps.ts";
import { InvalidLeadTransitionError, NotFoundError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import type { Lead, LeadStatus, Prisma } from "../../generated/prisma/client.ts";
import { afterAttempt, LEAD_TRANSITIONS, leadStatusesBefore } from "./lead-status.ts";

type Tx = Prisma.TransactionClient;

/** A lead the dialer picked, with what it needs to place the call. */
export interface ClaimedLead {
  id: number;
  accountId: number;
  campaignId: number;
  phoneNumber: string;
  variables: Prisma.JsonValue;
  contactIndex: number;
  attempts: number;
}

export interface RetryRules {
  maxRetries: number;
  retryIntervalMinutes: number;
}

/**
 * The one writer of where leads stand: status, attempts, the number being tried, next attempt
 * time, and the same for secondary contacts. Every write is conditional on the statuses the
 * transition table allows, so concurrent writers (two instances, a late provider callback and the
 * sweep) cannot both apply a move. Each change is announced on the campaign's progress topic.
 */
export class LeadProgress {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly events: EventSink,
  ) {}

  /**
   * Marks up to `limit` leads of the campaign that are due as `scheduled` and returns them, oldest
   * first. Rows another transaction holds are skipped, so two instances never pick the same lead.
   * The caller holds the campaign's row lock, which makes its count of free call slots exact.
   */
  async claimDue(tx: Tx, campaignId: number, limit: number, now: Date): Promise<ClaimedLead[]> {
    if (limit <= 0) return [];
    const claimed = await tx.$queryRaw<ClaimedLead[]>`
      UPDATE "leads" SET "status" = 'scheduled', "claimedAt" = now(), "activeCallId" = NULL, "updatedAt" = now()
      WHERE "id" IN (
        SELECT "id" FROM "leads"
        WHERE "campaignId" = ${campaignId}
          AND ("status" = 'created' OR ("status" = 'rescheduled' AND "nextAttemptAt" <= ${now}))
        ORDER BY COALESCE("nextAttemptAt", "createdAt"), "id"
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      RETURNING "id", "accountId", "campaignId", "phoneNumber", "variables", "contactIndex", "attempts"`;
    return claimed.sort((a, b) => a.id - b.id);
  }

  /** The call for a scheduled lead was placed: the lead is `processing` on it. */
  async markProcessing(lead: { id: number; campaignId: number; contactIndex: number }, callId: number) {
    const prisma = this.deps.db.prisma;
    const { count } = await prisma.lead.updateMany({
      where: { id: lead.id, status: { in: leadStatusesBefore("processing") } },
      data: { status: "processing", activeCallId: callId },
    });
    if (count === 0) return false;
    const contact = await this.contactAt(prisma, lead.id, lead.contactIndex);
    if (contact)
      await prisma.secondaryContact.update({ where: { id: contact.id }, data: { status: "processing" } });
    this.announce(lead.campaignId);
    return true;
  }

  /** The call could not be placed for a reason that is not the lead's: it waits for the next turn. */
  async release(lead: { id: number; campaignId: number; attempts: number }) {
    const to: LeadStatus = lead.attempts === 0 ? "created" : "rescheduled";
    const { count } = await this.deps.db.prisma.lead.updateMany({
      where: { id: lead.id, status: "scheduled" },
      data: { status: to, claimedAt: null },
    });
    if (count > 0) this.announce(lead.campaignId);
    return count > 0;
  }

  /**
   * Applies the outcome of one call (or of a dial that failed for the lead's own reason, `callId`
   * null) once: a call older than the last one applied, or not the lead's running call, changes
   * nothing, so repeated and late reports are harmless.
   */
  async recordOutcome(
    leadId: number,
    call: { id: number; reached: boolean } | { id: null; reached: false },
    rules: RetryRules,
    now: Date,
  ): Promise<boolean> {
    const applied = await this.deps.db.prisma.$transaction(async (tx) => {
      const [lead] = await tx.$queryRaw<
        {
          accountId: number;
          campaignId: number;
          status: LeadStatus;
          contactIndex: number;
          contactAttempts: number;
          activeCallId: number | null;
          lastCallId: number | null;
        }[]
      >`SELECT "accountId", "campaignId", "status", "contactIndex", "contactAttempts", "activeCallId", "lastCallId"
        FROM "leads" WHERE "id" = ${leadId} FOR UPDATE`;
      if (!lead || (lead.status !== "scheduled" && lead.status !== "processing")) return null;
      if (call.id !== null) {
        if (lead.lastCallId !== null && lead.lastCallId >= call.id) return null;
        if (lead.activeCallId !== null && lead.activeCallId !== call.id) return null;
      } else if (lead.status !== "scheduled") return null;
      const secondaryContactCount = await tx.secondaryContact.count({ where: { leadId } });
      const next = afterAttempt(
        {
          ...rules,
          contactIndex: lead.contactIndex,
          contactAttempts: lead.contactAttempts,
          secondaryContactCount,
        },
        call.reached,
        now,
      );
      await tx.lead.update({
        where: { id: leadId },
        data: {
          status: next.status,
          attempts: { increment: 1 },
          contactIndex: next.contactIndex,
          contactAttempts: next.contactAttempts,
          nextAttemptAt: next.nextAttemptAt,
          activeCallId: null,
          claimedAt: null,
          ...(call.id !== null ? { lastCallId: call.id } : {}),
        },
      });
      const contact = await this.contactAt(tx, leadId, lead.contactIndex);
      if (contact) {
        await tx.secondaryContact.update({
          where: { id: contact.id },
          data: { status: next.contactStatus, attempts: { increment: 1 } },
        });
      }
      await this.events.emit(tx, {
        type: "lead.updated",
        accountId: lead.accountId,
        leadId,
        callId: call.id,
      });
      return { campaignId: lead.campaignId };
    });
    if (applied === null) return false;
    this.announce(applied.campaignId);
    return true;
  }

  /**
   * Puts a lead on the do-not-call list, or takes it off (it is then tried with the attempts it has
   * left). A call already running is not hung up; its outcome no longer moves the lead.
   */
  async setBlacklisted(accountId: number, leadId: number, blacklisted: boolean): Promise<Lead> {
    const prisma = this.deps.db.prisma;
    const lead = await prisma.lead.findFirst({ where: { id: leadId, accountId } });
    if (!lead) throw new NotFoundError("Lead");
    const to: LeadStatus = blacklisted ? "blacklisted" : lead.attempts === 0 ? "created" : "rescheduled";
    if (lead.status === to) return lead;
    if (!LEAD_TRANSITIONS[lead.status].includes(to)) {
      throw new InvalidLeadTransitionError(lead.status, to, LEAD_TRANSITIONS[lead.status]);
    }
    const count = await prisma.$transaction(async (tx) => {
      const { count } = await tx.lead.updateMany({
        where: { id: leadId, status: lead.status },
        data: {
          status: to,
          activeCallId: null,
          claimedAt: null,
          blacklistReason: blacklisted ? "owner" : null,
          ...(blacklisted ? {} : { nextAttemptAt: null }),
        },
      });
      if (count > 0) await this.events.emit(tx, { type: "lead.updated", accountId, leadId, callId: null });
      return count;
    });
    // The dialer moved the lead meanwhile: decide again from where it is now.
    if (count === 0) return this.setBlacklisted(accountId, leadId, blacklisted);
    this.deps.logger.info(blacklisted ? "lead blacklisted" : "lead blacklist lifted", {
      accountId,
      leadId,
    });
    this.announce(lead.campaignId);
    return prisma.lead.findUniqueOrThrow({ where: { id: leadId } });
  }

  /**
   * A lead the dialer picked whose number opted out of the account's texts (STOP): blacklisted with
   * that reason instead of called. Returns whether it moved.
   */
  async blacklistOptedOut(
    lead: { id: number; accountId: number; campaignId: number },
    reason: "texts_opt_out" | "erased" = "texts_opt_out",
  ): Promise<boolean> {
    const count = await this.deps.db.prisma.$transaction(async (tx) => {
      const { count } = await tx.lead.updateMany({
        where: { id: lead.id, status: "scheduled" },
        data: {
          status: "blacklisted",
          blacklistReason: reason,
          claimedAt: null,
          activeCallId: null,
        },
      });
      if (count > 0) {
        await this.events.emit(tx, {
          type: "lead.updated",
          accountId: lead.accountId,
          leadId: lead.id,
          callId: null,
        });
      }
      return count;
    });
    if (count > 0) {
      this.deps.logger.info("lead blacklisted: its number may not be called", { leadId: lead.id, reason });
      this.announce(lead.campaignId);
    }
    return count > 0;
  }

  /** Something about the campaign's progress changed; subscribers on every instance re-read it. */
  announce(campaignId: number) {
    this.deps.pubsub.publish("campaign:progress", campaignId, { campaignId });
  }

  private contactAt(tx: Tx, leadId: number, contactIndex: number) {
    if (contactIndex === 0) return Promise.resolve(null);
    return tx.secondaryContact.findFirst({
      where: { leadId },
      orderBy: { id: "asc" },
      skip: contactIndex - 1,
    });
  }
}
