import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { ValidationError } from "../../errors.ts";
import type { Call, CallStatus, LeadStatus, Prisma } from "../../generated/prisma/client.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { CALL_STATUSES, isFinal, toApiStatus, toDbStatus } from "../calls/call-status.ts";
import type { CampaignsService } from "../campaigns/campaigns.service.ts";
import type { ClaimedLead, LeadProgress } from "../leads/lead-progress.ts";
import { isWithinCallingWindow } from "./calling-window.ts";
import type { OutboundCalls } from "./outbound-calls.ts";

const DIAL_TASK = "dialer:campaign";

/** A lead picked this long ago (database time) whose call never showed up was lost in a crash. */
const STALE_CLAIM_SECONDS = 120;

/**
 * A call that ended this long ago while its lead is still `processing` lost its outcome (the
 * listener runs just after the call's final write; the sweep must not race it for every call).
 */
const LOST_OUTCOME_SECONDS = 30;

/** Final call statuses in which nobody answered. */
const NOT_REACHED: ReadonlySet<CallStatus> = new Set(["busy", "no_answer", "failed"]);

/** Final call statuses: as Prisma names them, and as the database stores them (raw SQL). */
const FINAL_CALL_STATUSES: CallStatus[] = CALL_STATUSES.filter(isFinal).map(toDbStatus);
const FINAL_CALL_STATUS_VALUES: string[] = CALL_STATUSES.filter(isFinal);

export interface CampaignProgress {
  campaignId: number;
  status: string;
  leads: Record<LeadStatus, number> & { total: number };
  callsRunning: number;
  withinCallingWindow: boolean;
}

/**
 * The campaign dialer. An active campaign's due leads are dialled by a job on the shared queue
 * (one per campaign at a time, keyed), at most `maxConcurrentCalls` at once, from the campaign's
 * numbers in rotation; each finished call moves its lead on (`LeadProgress`) and asks for the
 * next dial at once. `DialerSweep` requests dials for leads that came due and repairs what a crash
 * left behind.
 */
export class DialerService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly collaborators: {
      calls: OutboundCalls;
      /** Tells it of each finished call (`call.finished`), in the process that ended it. */
      bus: Pick<InProcessBus, "on">;
      campaigns: CampaignsService;
      leads: LeadProgress;
      jobs: JobQueue;
      clock: Clock;
      /** Whether the number opted out of texts from any of the account's numbers (STOP). */
      optedOutOfTexts: (accountId: number, phoneNumber: string) => Promise<boolean>;
      /** Whether the number belongs to a customer the account erased (a tombstone): never called again. */
      erased: (accountId: number, phoneNumber: string) => Promise<boolean>;
    },
  ) {
    collaborators.jobs.define(DIAL_TASK, {
      run: async (payload) => {
        await this.dialCampaign(Number(payload.campaignId));
      },
    });
    collaborators.bus.on("call.finished", ({ call }) => this.callFinished(call));
  }

  /** Asks for a dial of the campaign; requests made while one is pending fold into it. */
  async requestDial(campaignId: number) {
    await this.collaborators.jobs.enqueue(DIAL_TASK, { campaignId }, { key: `${DIAL_TASK}:${campaignId}` });
  }

  /**
   * Places calls to the campaign's due leads while it has free call slots. The count of slots and
   * the claim of leads happen under the campaign's row lock: instances dialling the same campaign
   * take turns, and none sees a slot another has just filled.
   */
  async dialCampaign(campaignId: number) {
    const { clock, leads, campaigns } = this.collaborators;
    const now = clock.now();
    const campaign = await this.deps.db.prisma.campaign.findFirst({
      where: { id: campaignId, deletedAt: null, status: "active" },
      include: {
        assistant: { select: { id: true, deletedAt: true } },
        account: { select: { suspendedAt: true } },
        phoneNumbers: { orderBy: { position: "asc" }, include: { phoneNumber: true } },
      },
    });
    if (!campaign) return;
    // Its leads wait, unclaimed, until the platform operator reinstates the account; placeOutbound
    // refuses too, for a suspension that lands between this read and a dial.
    if (campaign.account.suspendedAt) {
      this.deps.logger.info("campaign of a suspended account; nothing dialled", { campaignId });
      return;
    }
    if (!campaign.assistant || campaign.assistant.deletedAt) {
      this.deps.logger.warn("active campaign has no assistant; nothing dialled", { campaignId });
      return;
    }
    if (!isWithinCallingWindow(now, campaign)) return;
    const rotation = campaign.phoneNumbers
      // SIP numbers take calls but cannot place them through the carrier; a caller ID awaiting
      // verification, or a number being released, cannot call either.
      .filter((entry) => entry.phoneNumber.status === "active" && entry.phoneNumber.kind !== "sip")
      .map((entry) => entry.phoneNumberId);

    const batch = await this.deps.db.prisma.$transaction(async (tx) => {
      const [locked] = await tx.$queryRaw<
        { status: string; maxConcurrentCalls: number; rotationCursor: number }[]
      >`SELECT "status", "maxConcurrentCalls", "rotationCursor" FROM "campaigns"
        WHERE "id" = ${campaignId} AND "deletedAt" IS NULL FOR UPDATE`;
      if (locked?.status !== "active") return null;
      const busy = await this.slotsInUse(tx, campaignId);
      const claimed = await leads.claimDue(tx, campaignId, locked.maxConcurrentCalls - busy, now);
      if (claimed.length > 0) {
        await tx.$executeRaw`UPDATE "campaigns" SET "rotationCursor" = "rotationCursor" + ${claimed.length}
          WHERE "id" = ${campaignId}`;
      }
      return { claimed, cursor: locked.rotationCursor };
    });
    if (!batch) return;
    if (batch.claimed.length === 0) {
      await campaigns.completeIfDone(campaignId);
      return;
    }
    for (const [index, lead] of batch.claimed.entries()) {
      const phoneNumberId = rotation.length > 0 ? rotation[(batch.cursor + index) % rotation.length]! : null;
      const placed = await this.dial(campaign, lead, phoneNumberId);
      if (!placed) {
        // The account cannot call now (balance, its call cap): the others go back too.
        for (const rest of batch.claimed.slice(index + 1)) await leads.release(rest);
        break;
      }
    }
  }

  /**
   * Calls the number the lead is at. False when the account could not place a call at all; a
   * refusal that is the lead's own counts as a failed attempt.
   */
  private async dial(
    campaign: {
      id: number;
      accountId: number;
      assistantId: number | null;
      maxRetries: number;
      retryIntervalMinutes: number;
    },
    lead: ClaimedLead,
    phoneNumberId: number | null,
  ): Promise<boolean> {
    const { calls, leads, clock } = this.collaborators;
    const target = await this.numberFor(lead);
    if (!target) {
      await leads.recordOutcome(lead.id, { id: null, reached: false }, campaign, clock.now());
      return true;
    }
    // Checked at dial time, not only when the lead was added: a customer erased or opted out since
    // is never called. A person who told the business to stop texting them is not called either.
    const refusal = (await this.collaborators.erased(campaign.accountId, target.phoneNumber))
      ? "erased"
      : (await this.collaborators.optedOutOfTexts(campaign.accountId, target.phoneNumber))
        ? "texts_opt_out"
        : null;
    if (refusal) {
      if (lead.contactIndex === 0) await leads.blacklistOptedOut(lead, refusal);
      else await leads.recordOutcome(lead.id, { id: null, reached: false }, campaign, clock.now());
      return true;
    }
    let call: Call;
    try {
      call = await calls.placeOutbound({
        accountId: campaign.accountId,
        assistantId: campaign.assistantId!,
        to: target.phoneNumber,
        phoneNumberId,
        campaignId: campaign.id,
        leadId: lead.id,
        variables: target.variables,
      });
    } catch (error) {
      if (error instanceof ValidationError && "leadId" in error.fields) {
        // The lead was deleted while it was being dialled: nothing to call, nothing to release.
        return true;
      }
      if (error instanceof ValidationError && isAboutTheNumber(error)) {
        this.deps.logger.warn("lead number refused", { leadId: lead.id, error: error.message });
        await leads.recordOutcome(lead.id, { id: null, reached: false }, campaign, clock.now());
        return true;
      }
      this.deps.logger.warn("campaign call not placed; the lead waits", {
        campaignId: campaign.id,
        leadId: lead.id,
        error: error instanceof Error ? error.message : String(error),
      });
      await leads.release(lead);
      return false;
    }
    this.deps.logger.info("campaign call placed", {
      campaignId: campaign.id,
      leadId: lead.id,
      callId: call.id,
    });
    await leads.markProcessing(lead, call.id);
    // A dial the provider refused at once may already be final: its outcome is applied here too.
    if (isFinal(toApiStatus(call.status))) await this.callFinished(call);
    return true;
  }

  /** The number and variables of the contact the lead is at: its own, or a secondary contact's. */
  private async numberFor(lead: ClaimedLead) {
    const own = (lead.variables ?? {}) as Record<string, unknown>;
    if (lead.contactIndex === 0) return { phoneNumber: lead.phoneNumber, variables: own };
    const contact = await this.deps.db.prisma.secondaryContact.findFirst({
      where: { leadId: lead.id },
      orderBy: { id: "asc" },
      skip: lead.contactIndex - 1,
    });
    if (!contact) return null;
    return {
      phoneNumber: contact.phoneNumber,
      variables: { ...own, ...((contact.variables ?? {}) as Record<string, unknown>) },
    };
  }

  /**
   * A campaign call ended: its lead moves on (once, however often this is called), and the
   * campaign is asked to dial again, since a slot is free.
   */
  async callFinished(call: Call) {
    if (!call.leadId || !call.campaignId || !isFinal(toApiStatus(call.status))) return;
    const prisma = this.deps.db.prisma;
    const campaign = await prisma.campaign.findUnique({
      where: { id: call.campaignId },
      select: { maxRetries: true, retryIntervalMinutes: true },
    });
    if (!campaign) return;
    const reached = await this.reached(call);
    const applied = await this.collaborators.leads.recordOutcome(
      call.leadId,
      { id: call.id, reached },
      campaign,
      this.collaborators.clock.now(),
    );
    if (applied) {
      this.deps.logger.info("campaign lead attempt recorded", {
        campaignId: call.campaignId,
        leadId: call.leadId,
        callId: call.id,
        callStatus: toApiStatus(call.status),
        reached,
      });
    }
    await this.requestDial(call.campaignId);
  }

  /**
   * Whether a finished call reached the person: answered, and not by a voicemail the assistant is
   * set to hang up on (then it is tried again; otherwise the message it left counts).
   */
  private async reached(call: Call) {
    if (NOT_REACHED.has(call.status)) return false;
    if (call.answeredBy !== "machine") return true;
    if (!call.assistantId) return true;
    const assistant = await this.deps.db.prisma.assistant.findUnique({
      where: { id: call.assistantId },
      select: { endCallOnVoicemail: true },
    });
    return !assistant?.endCallOnVoicemail;
  }

  /**
   * Repairs what a crash between two writes left: leads `processing` on a call that ended over
   * half a minute ago get that call's outcome; leads picked long ago move to their call if it was placed, else go
   * back to wait. Returns how many leads were repaired.
   */
  async reconcile(): Promise<number> {
    const prisma = this.deps.db.prisma;
    const finished = await prisma.$queryRaw<{ callId: number }[]>`
      SELECT c."id" AS "callId" FROM "leads" l JOIN "calls" c ON c."id" = l."activeCallId"
      WHERE l."status" = 'processing' AND c."status"::text = ANY(${FINAL_CALL_STATUS_VALUES}::text[])
        AND COALESCE(c."endedAt", c."updatedAt") < now() - make_interval(secs => ${LOST_OUTCOME_SECONDS})`;
    const stale = await prisma.$queryRaw<
      { id: number; campaignId: number; attempts: number; contactIndex: number; lastCallId: number | null }[]
    >`SELECT "id", "campaignId", "attempts", "contactIndex", "lastCallId" FROM "leads"
      WHERE "status" = 'scheduled' AND "claimedAt" < now() - make_interval(secs => ${STALE_CLAIM_SECONDS})`;
    for (const { callId } of finished) {
      await this.callFinished(await prisma.call.findUniqueOrThrow({ where: { id: callId } }));
    }
    for (const lead of stale) {
      const call = await prisma.call.findFirst({
        where: { leadId: lead.id, ...(lead.lastCallId ? { id: { gt: lead.lastCallId } } : {}) },
        orderBy: { id: "desc" },
      });
      if (!call) await this.collaborators.leads.release(lead);
      else if (isFinal(toApiStatus(call.status))) await this.callFinished(call);
      else await this.collaborators.leads.markProcessing(lead, call.id);
    }
    const repaired = finished.length + stale.length;
    if (repaired > 0)
      this.deps.logger.warn("dialer repaired leads", { processing: finished.length, stale: stale.length });
    return repaired;
  }

  /** Requests a dial for every active campaign, inside its window, with a lead due now. */
  async requestDueDials(): Promise<number[]> {
    const now = this.collaborators.clock.now();
    const due = await this.deps.db.prisma.$queryRaw<
      { id: number; callingWindowStart: string; callingWindowEnd: string; timezone: string }[]
    >`SELECT c."id", c."callingWindowStart", c."callingWindowEnd", c."timezone" FROM "campaigns" c
      WHERE c."status" = 'active' AND c."deletedAt" IS NULL AND EXISTS (
        SELECT 1 FROM "leads" l WHERE l."campaignId" = c."id"
          AND (l."status" = 'created' OR (l."status" = 'rescheduled' AND l."nextAttemptAt" <= ${now})))`;
    const open = due
      .filter((campaign) => isWithinCallingWindow(now, campaign))
      .map((campaign) => campaign.id);
    for (const campaignId of open) await this.requestDial(campaignId);
    return open;
  }

  /** Counters for the campaign's progress (the caller checked that the campaign is the viewer's). */
  async progress(campaign: {
    id: number;
    status: string;
    callingWindowStart: string;
    callingWindowEnd: string;
    timezone: string;
  }): Promise<CampaignProgress> {
    const prisma = this.deps.db.prisma;
    const [groups, callsRunning] = await Promise.all([
      prisma.lead.groupBy({ by: ["status"], where: { campaignId: campaign.id }, _count: { _all: true } }),
      prisma.call.count({ where: { campaignId: campaign.id, status: { notIn: FINAL_CALL_STATUSES } } }),
    ]);
    const leads = {
      created: 0,
      scheduled: 0,
      processing: 0,
      completed: 0,
      rescheduled: 0,
      reached_max_retries: 0,
      blacklisted: 0,
      total: 0,
    };
    for (const group of groups) {
      leads[group.status] = group._count._all;
      leads.total += group._count._all;
    }
    return {
      campaignId: campaign.id,
      status: campaign.status,
      leads,
      callsRunning,
      withinCallingWindow: isWithinCallingWindow(this.collaborators.clock.now(), campaign),
    };
  }

  /**
   * Call slots the campaign is using: its calls not yet ended, plus picked leads whose call is not
   * placed yet. A lead between the two is counted twice, never not at all.
   */
  private async slotsInUse(tx: Prisma.TransactionClient, campaignId: number) {
    const [running, picked] = await Promise.all([
      tx.call.count({ where: { campaignId, status: { notIn: FINAL_CALL_STATUSES } } }),
      tx.lead.count({ where: { campaignId, status: "scheduled", activeCallId: null } }),
    ]);
    return running + picked;
  }
}

/** A validation error on the number dialled is the lead's; any other is the account's or campaign's. */
function isAboutTheNumber(error: ValidationError): boolean {
  return Object.keys(error.fields).some((field) => field === "to" || field === "phoneNumber");
}
