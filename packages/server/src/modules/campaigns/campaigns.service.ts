import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { type FieldErrors, NotFoundError, ValidationError } from "../../errors.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { MAX_CAMPAIGN_CONCURRENT_CALLS } from "../../limits.ts";
import { ianaTimezone, parseInput, requiredString } from "../../validation.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";

export const CAMPAIGN_STATUSES = ["draft", "active", "paused", "completed"] as const;
export const CAMPAIGNS_PER_PAGE = 15;

const clockTime = (label: string) =>
  z
    .string({ error: `The ${label} field must be a time written HH:MM.` })
    .regex(
      /^(?:[01]\d|2[0-3]):[0-5]\d$/,
      `The ${label} field must be a time written HH:MM (00:00 to 23:59).`,
    );

const CampaignFields = z.object({
  status: z.enum(CAMPAIGN_STATUSES, {
    error: `The status field must be one of ${CAMPAIGN_STATUSES.join(", ")}.`,
  }),
  assistantId: z
    .number({ error: "The assistant id field must be an integer." })
    .int("The assistant id field must be an integer.")
    .nullable(),
  phoneNumberIds: z
    .array(
      z
        .number({ error: "Each phone number id must be an integer." })
        .int("Each phone number id must be an integer."),
      {
        error: "The phone number ids field must be an array of ids.",
      },
    )
    .max(50, "The phone number ids field must not have more than 50 items.")
    .refine(
      (ids) => new Set(ids).size === ids.length,
      "The phone number ids field must not repeat a number.",
    ),
  callingWindowStart: clockTime("calling window start"),
  callingWindowEnd: clockTime("calling window end"),
  timezone: ianaTimezone(),
  maxRetries: z
    .number({ error: "The max retries field must be an integer." })
    .int("The max retries field must be an integer.")
    .min(0, "The max retries field must be between 0 and 10.")
    .max(10, "The max retries field must be between 0 and 10."),
  retryIntervalMinutes: z
    .number({ error: "The retry interval minutes field must be an integer." })
    .int("The retry interval minutes field must be an integer.")
    .min(5, "The retry interval minutes field must be between 5 and 10080 (one week).")
    .max(10080, "The retry interval minutes field must be between 5 and 10080 (one week)."),
  maxConcurrentCalls: z
    .number({ error: "The max concurrent calls field must be an integer." })
    .int("The max concurrent calls field must be an integer.")
    .min(1, `The max concurrent calls field must be between 1 and ${MAX_CAMPAIGN_CONCURRENT_CALLS}.`)
    .max(
      MAX_CAMPAIGN_CONCURRENT_CALLS,
      `The max concurrent calls field must be between 1 and ${MAX_CAMPAIGN_CONCURRENT_CALLS}.`,
    ),
});

const CreateCampaignInput = CampaignFields.partial().extend({ name: requiredString("name") });
const UpdateCampaignInput = CampaignFields.partial().extend({ name: requiredString("name").optional() });
type CampaignSettings = z.output<typeof UpdateCampaignInput>;

const CampaignFilter = z.object({
  status: z
    .enum(CAMPAIGN_STATUSES, { error: `The status field must be one of ${CAMPAIGN_STATUSES.join(", ")}.` })
    .nullish(),
});

const live = (accountId: number) => ({ accountId, deletedAt: null }) satisfies Prisma.CampaignWhereInput;

/** The rotation, in the order calls go out. */
export const withRotation = {
  phoneNumbers: { orderBy: { position: "asc" }, include: { phoneNumber: true } },
} satisfies Prisma.CampaignInclude;

export class CampaignsService {
  constructor(private readonly deps: ServiceDeps) {}

  list(accountId: number, page: PageRequest, filter: { status?: unknown } = {}) {
    const { status } = parseInput(CampaignFilter, filter);
    const where: Prisma.CampaignWhereInput = { ...live(accountId), ...(status ? { status } : {}) };
    const prisma = this.deps.db.prisma;
    return paginate(page, CAMPAIGNS_PER_PAGE, {
      count: () => prisma.campaign.count({ where }),
      items: (skip, take) =>
        prisma.campaign.findMany({ where, include: withRotation, orderBy: { id: "desc" }, skip, take }),
    });
  }

  async get(accountId: number, id: number) {
    const campaign = await this.deps.db.prisma.campaign.findFirst({
      where: { ...live(accountId), id },
      include: withRotation,
    });
    if (!campaign) throw new NotFoundError("Campaign");
    return campaign;
  }

  /** A campaign of the account that is not deleted, including for filters and leads; else NOT_FOUND. */
  async requireOwned(accountId: number, id: number) {
    const campaign = await this.deps.db.prisma.campaign.findFirst({ where: { ...live(accountId), id } });
    if (!campaign) throw new NotFoundError("Campaign");
    return campaign;
  }

  async create(accountId: number, input: Record<string, unknown>) {
    const settings = parseInput(CreateCampaignInput, input);
    await this.check(accountId, settings, { start: "09:00", end: "17:00", assistantId: null });
    const { phoneNumberIds, ...fields } = settings;
    const campaign = await this.deps.db.prisma.campaign.create({
      data: {
        ...fields,
        name: settings.name,
        accountId,
        phoneNumbers: {
          create: (phoneNumberIds ?? []).map((phoneNumberId, position) => ({ phoneNumberId, position })),
        },
      },
    });
    this.deps.logger.info("campaign created", { accountId, campaignId: campaign.id });
    return this.get(accountId, campaign.id);
  }

  /** Changes the given fields; a given phoneNumberIds replaces the whole rotation. */
  async update(accountId: number, id: number, input: Record<string, unknown>) {
    const current = await this.requireOwned(accountId, id);
    const settings = parseInput(UpdateCampaignInput, input);
    await this.check(accountId, settings, {
      start: current.callingWindowStart,
      end: current.callingWindowEnd,
      assistantId: current.assistantId,
    });
    const { phoneNumberIds, ...fields } = settings;
    await this.deps.db.prisma.$transaction(async (tx) => {
      await tx.campaign.update({ where: { id }, data: fields });
      if (phoneNumberIds) {
        await tx.campaignPhoneNumber.deleteMany({ where: { campaignId: id } });
        await tx.campaignPhoneNumber.createMany({
          data: phoneNumberIds.map((phoneNumberId, position) => ({
            campaignId: id,
            phoneNumberId,
            position,
          })),
        });
      }
    });
    if (settings.status && settings.status !== current.status) {
      this.deps.logger.info("campaign status changed", {
        accountId,
        campaignId: id,
        from: current.status,
        to: settings.status,
      });
      this.deps.pubsub.publish("campaign:progress", id, { campaignId: id });
    }
    return this.get(accountId, id);
  }

  /**
   * Marks active campaigns (one, or all) that have leads and none left to try as completed: every
   * lead was reached, ran out of retries or is blacklisted. A campaign with no leads stays active,
   * waiting for them. Returns the ids completed.
   */
  async completeIfDone(campaignId?: number): Promise<number[]> {
    const prisma = this.deps.db.prisma;
    const only = campaignId ?? null;
    const done = await prisma.$queryRaw<{ id: number }[]>`
      UPDATE "campaigns" c SET "status" = 'completed', "updatedAt" = now()
      WHERE c."status" = 'active' AND c."deletedAt" IS NULL
        AND (${only}::int IS NULL OR c."id" = ${only}::int)
        AND EXISTS (SELECT 1 FROM "leads" l WHERE l."campaignId" = c."id")
        AND NOT EXISTS (
          SELECT 1 FROM "leads" l WHERE l."campaignId" = c."id"
            AND l."status" IN ('created', 'scheduled', 'processing', 'rescheduled'))
      RETURNING c."id"`;
    for (const { id } of done) {
      this.deps.logger.info("campaign completed", { campaignId: id });
      this.deps.pubsub.publish("campaign:progress", id, { campaignId: id });
    }
    return done.map(({ id }) => id);
  }

  /** Soft delete: the campaign leaves lists; its leads can no longer be listed by it; calls keep its name. */
  async delete(accountId: number, id: number, now = new Date()) {
    const { count } = await this.deps.db.prisma.campaign.updateMany({
      where: { ...live(accountId), id },
      data: { deletedAt: now },
    });
    if (count === 0) throw new NotFoundError("Campaign");
  }

  /**
   * Checks references and the window against what the campaign will be (`current`: its stored
   * values). A campaign set active must have an assistant, since the dialer calls with it.
   */
  private async check(
    accountId: number,
    settings: CampaignSettings,
    current: { start: string; end: string; assistantId: number | null },
  ) {
    const prisma = this.deps.db.prisma;
    const fields: FieldErrors = {};
    if (settings.assistantId) {
      const owned = await prisma.assistant.count({
        where: { id: settings.assistantId, accountId, deletedAt: null },
      });
      if (owned === 0) fields.assistantId = ["The selected assistant id is invalid."];
    }
    if (settings.phoneNumberIds && settings.phoneNumberIds.length > 0) {
      const held = await prisma.phoneNumber.findMany({
        where: { id: { in: settings.phoneNumberIds }, accountId, releasedAt: null },
        select: { id: true, status: true },
      });
      const statuses = new Map(held.map((number) => [number.id, number.status]));
      settings.phoneNumberIds.forEach((phoneNumberId, index) => {
        const status = statuses.get(phoneNumberId);
        if (!status) fields[`phoneNumberIds.${index}`] = ["The selected phone number id is invalid."];
        else if (status === "pending_verification")
          fields[`phoneNumberIds.${index}`] = [
            "The caller ID has not been verified yet: verify it before calling from it.",
          ];
      });
    }
    const start = settings.callingWindowStart ?? current.start;
    const end = settings.callingWindowEnd ?? current.end;
    if (start >= end)
      fields.callingWindowEnd = ["The calling window end must be after the calling window start."];
    const assistantId = settings.assistantId === undefined ? current.assistantId : settings.assistantId;
    if (settings.status === "active" && !assistantId && !fields.assistantId)
      fields.assistantId = ["An active campaign needs an assistant to call with."];
    if (Object.keys(fields).length > 0) throw new ValidationError(fields);
  }
}
