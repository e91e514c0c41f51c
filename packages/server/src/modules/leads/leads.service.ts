import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError, ValidationError } from "../../errors.ts";
import type { LeadStatus, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import type { CampaignsService } from "../campaigns/campaigns.service.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import { e164PhoneNumber } from "../phone-numbers/e164.ts";
import type { LeadProgress } from "./lead-progress.ts";

export const LEADS_PER_PAGE = 15;

/** Statuses as the API spells them; the database enum cannot hold a hyphen in a name. */
export const LEAD_STATUSES = [
  "created",
  "scheduled",
  "processing",
  "completed",
  "rescheduled",
  "reached-max-retries",
  "blacklisted",
] as const;

export const leadStatusName = (status: LeadStatus) =>
  status === "reached_max_retries" ? "reached-max-retries" : status;

const MAX_SECONDARY_CONTACTS = 20;

const leadVariables = (label: string) =>
  z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()]), {
      error: `The ${label} field must be an object of strings, numbers or booleans.`,
    })
    .refine(
      (value) => Object.keys(value).length <= 100,
      `The ${label} field must not have more than 100 keys.`,
    )
    .nullish()
    .transform((value) => value ?? {});

const CreateLeadInput = z.object({
  phoneNumber: e164PhoneNumber(),
  campaignId: z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? "The campaign id field is required."
          : "The campaign id field must be an integer.",
    })
    .int("The campaign id field must be an integer."),
  variables: leadVariables("variables"),
  allowDuplicate: z
    .boolean({ error: "The allow duplicate field must be true or false." })
    .nullish()
    .transform((value) => value ?? false),
  secondaryContacts: z
    .array(
      z.object(
        { phoneNumber: e164PhoneNumber(), variables: leadVariables("variables") },
        { error: "Each secondary contact must be an object with phone_number and variables." },
      ),
      { error: "The secondary contacts field must be an array." },
    )
    .max(
      MAX_SECONDARY_CONTACTS,
      `The secondary contacts field must not have more than ${MAX_SECONDARY_CONTACTS} items.`,
    )
    .nullish()
    .transform((value) => value ?? []),
});

/** As callers send it; every value is checked here. */
export interface CreateLeadRequest {
  phoneNumber?: unknown;
  campaignId?: unknown;
  variables?: unknown;
  allowDuplicate?: unknown;
  secondaryContacts?: unknown;
}

const LeadFilter = z.object({
  campaignId: z.number().int().nullish(),
  status: z
    .enum(LEAD_STATUSES, { error: `The status field must be one of ${LEAD_STATUSES.join(", ")}.` })
    .nullish(),
});

export const leadDetails = {
  campaign: { select: { id: true, name: true } },
  secondaryContacts: { orderBy: { id: "asc" } },
} satisfies Prisma.LeadInclude;

export class LeadsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly collaborators: {
      campaigns: CampaignsService;
      progress: LeadProgress;
      /** CUSTOMER_ERASED for the first field whose number belongs to a customer the account erased. */
      requireNotErased: (accountId: number, numbers: Record<string, string>) => Promise<void>;
    },
  ) {}

  /**
   * Creates a lead and its secondary contacts in one transaction, all with status created. A number
   * of an erased customer is refused (CUSTOMER_ERASED).
   * Unless duplicates are allowed, a number already in the campaign is refused; the check and the
   * insert run under a per-campaign lock so two concurrent requests cannot both pass it.
   */
  async create(accountId: number, request: CreateLeadRequest) {
    const input = parseInput(CreateLeadInput, request);
    await this.collaborators.campaigns.requireOwned(accountId, input.campaignId);
    // An erased customer is not re-created silently (docs/data-governance.md#erasure-and-export).
    await this.collaborators.requireNotErased(accountId, {
      phoneNumber: input.phoneNumber,
      ...Object.fromEntries(
        input.secondaryContacts.map((contact, index) => [
          `secondaryContacts.${index}.phoneNumber`,
          contact.phoneNumber,
        ]),
      ),
    });
    const created = await this.deps.db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('voxgate:lead-campaign'), ${input.campaignId}::int)`;
      if (!input.allowDuplicate) {
        const existing = await tx.lead.count({
          where: { campaignId: input.campaignId, phoneNumber: input.phoneNumber },
        });
        if (existing > 0) {
          throw ValidationError.single(
            "phoneNumber",
            "A lead with this phone number already exists in this campaign (set allow_dupplicate to add it again).",
          );
        }
      }
      const lead = await tx.lead.create({
        data: {
          accountId,
          campaignId: input.campaignId,
          phoneNumber: input.phoneNumber,
          variables: input.variables,
          secondaryContacts: {
            create: input.secondaryContacts.map((contact) => ({
              phoneNumber: contact.phoneNumber,
              variables: contact.variables,
            })),
          },
        },
        include: leadDetails,
      });
      this.deps.logger.info("lead created", { accountId, leadId: lead.id, campaignId: input.campaignId });
      return lead;
    });
    this.collaborators.progress.announce(created.campaignId);
    return created;
  }

  async list(accountId: number, page: PageRequest, filter: { campaignId?: unknown; status?: unknown } = {}) {
    const { campaignId, status } = parseInput(LeadFilter, filter);
    if (campaignId) await this.collaborators.campaigns.requireOwned(accountId, campaignId);
    const where: Prisma.LeadWhereInput = {
      accountId,
      ...(campaignId ? { campaignId } : {}),
      ...(status ? { status: status === "reached-max-retries" ? "reached_max_retries" : status } : {}),
    };
    const prisma = this.deps.db.prisma;
    return paginate(page, LEADS_PER_PAGE, {
      count: () => prisma.lead.count({ where }),
      items: (skip, take) =>
        prisma.lead.findMany({
          where,
          include: leadDetails,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          skip,
          take,
        }),
    });
  }

  async get(accountId: number, id: number) {
    const lead = await this.deps.db.prisma.lead.findFirst({ where: { accountId, id }, include: leadDetails });
    if (!lead) throw new NotFoundError("Lead");
    return lead;
  }

  /**
   * Puts the lead on the do-not-call list (it is never dialled; a call running now finishes) or
   * takes it off (it is tried again with the attempts it has left).
   */
  async setBlacklisted(accountId: number, id: number, blacklisted: boolean) {
    await this.collaborators.progress.setBlacklisted(accountId, id, blacklisted);
    return this.get(accountId, id);
  }

  /** The calls placed to the lead and its secondary contacts, oldest first. */
  async callHistory(accountId: number, id: number) {
    return this.deps.db.prisma.call.findMany({
      where: { accountId, leadId: id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
  }

  /** Deletes a lead with its secondary contacts; calls placed to it keep their history. */
  async delete(accountId: number, id: number) {
    const lead = await this.deps.db.prisma.lead.findFirst({ where: { accountId, id } });
    if (!lead) throw new NotFoundError("Lead");
    await this.deps.db.prisma.lead.deleteMany({ where: { accountId, id } });
    this.collaborators.progress.announce(lead.campaignId);
    this.deps.logger.info("lead deleted", { accountId, leadId: id });
  }
}
