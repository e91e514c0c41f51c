import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { InvalidCallTransitionError, NotFoundError, ValidationError } from "../../errors.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import { e164PhoneNumber } from "../phone-numbers/e164.ts";
import {
  type ApiCallStatus,
  CALL_STATUSES,
  CALL_TRANSITIONS,
  isFinal,
  toApiStatus,
  toDbStatus,
} from "./call-status.ts";
import { nextDay, startOfLocalDay } from "./local-dates.ts";

export const CALLS_PER_PAGE = 15;
export const CALL_TYPES = ["inbound", "outbound", "web"] as const;

const calendarDay = (label: string) =>
  z.string({ error: `The ${label} field must be a date written YYYY-MM-DD.` }).refine((value) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
    const parsed = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(value);
  }, `The ${label} field must be a date written YYYY-MM-DD.`);

const optionalId = (label: string) =>
  z
    .number({ error: `The ${label} field must be an integer.` })
    .int(`The ${label} field must be an integer.`)
    .nullish();

const CallFilter = z
  .object({
    status: z.enum(CALL_STATUSES, { error: "The selected status is invalid." }).nullish(),
    type: z.enum(CALL_TYPES, { error: "The type field must be one of inbound, outbound, web." }).nullish(),
    phoneNumber: e164PhoneNumber().nullish(),
    assistantId: optionalId("assistant id"),
    campaignId: optionalId("campaign id"),
    dateFrom: calendarDay("date from").nullish(),
    dateTo: calendarDay("date to").nullish(),
  })
  .refine((filter) => !filter.dateFrom || !filter.dateTo || filter.dateFrom <= filter.dateTo, {
    path: ["dateTo"],
    message: "The date to field must be a date after or equal to date from.",
  });

export interface CallFilterRequest {
  status?: unknown;
  type?: unknown;
  phoneNumber?: unknown;
  assistantId?: unknown;
  campaignId?: unknown;
  dateFrom?: unknown;
  dateTo?: unknown;
}

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

/** As callers send it; every value is checked here. */
export interface StartCallRequest {
  assistantId?: unknown;
  type?: unknown;
  clientPhoneNumber?: unknown;
  campaignId?: unknown;
  leadId?: unknown;
  variables?: unknown;
}

/** What the voice engine reports when a call moves on; every field is optional. */
export interface CallProgress {
  duration?: number;
  transcript?: string;
  answeredBy?: string;
  recordingUrl?: string;
  evaluation?: Prisma.InputJsonObject;
  webhookResponse?: Prisma.InputJsonObject;
  carrierCost?: string;
  totalCost?: string;
}

export class CallsService {
  constructor(private readonly deps: ServiceDeps) {}

  /**
   * Records a new call (status initiated) for one of the account's assistants, copying the
   * names and numbers the call history shows so they survive renames and releases.
   */
  async start(accountId: number, request: StartCallRequest) {
    const input = parseInput(StartCallInput, request);
    const prisma = this.deps.db.prisma;
    const assistant = await prisma.assistant.findFirst({
      where: { id: input.assistantId, accountId, deletedAt: null },
      include: { phoneNumber: true },
    });
    if (!assistant) throw ValidationError.single("assistantId", "The selected assistant id is invalid.");
    const campaign = input.campaignId
      ? await prisma.campaign.findFirst({ where: { id: input.campaignId, accountId, deletedAt: null } })
      : null;
    if (input.campaignId && !campaign) {
      throw ValidationError.single("campaignId", "The selected campaign id is invalid.");
    }
    if (input.leadId && (await prisma.lead.count({ where: { id: input.leadId, accountId } })) === 0) {
      throw ValidationError.single("leadId", "The selected lead id is invalid.");
    }
    const call = await prisma.call.create({
      data: {
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
      },
    });
    this.deps.logger.info("call started", { accountId, callId: call.id, type: call.type });
    await this.publish(call, null);
    return call;
  }

  /**
   * The one way a call's status changes. Refuses moves the transition table does not allow;
   * records when the call was answered and when it ended (with its duration, unless the engine
   * reports one), and tells subscribers. The update is conditional on the status read, so two
   * concurrent moves cannot both succeed.
   */
  async transition(callId: number, status: ApiCallStatus, progress: CallProgress = {}, now = new Date()) {
    if (!CALL_STATUSES.includes(status))
      throw ValidationError.single("status", "The selected status is invalid.");
    const prisma = this.deps.db.prisma;
    const call = await prisma.call.findUnique({ where: { id: callId } });
    if (!call) throw new NotFoundError("Call");
    const from = toApiStatus(call.status);
    if (!CALL_TRANSITIONS[from].includes(status))
      throw new InvalidCallTransitionError(from, status, CALL_TRANSITIONS[from]);
    const ending = isFinal(status);
    const startedAt = status === "in-progress" ? now : call.startedAt;
    const data: Prisma.CallUpdateManyMutationInput = {
      ...progress,
      status: toDbStatus(status),
      ...(status === "in-progress" ? { startedAt: now } : {}),
      ...(ending ? { endedAt: now } : {}),
      ...(ending && progress.duration === undefined && startedAt
        ? { duration: Math.max(0, Math.round((now.getTime() - startedAt.getTime()) / 1000)) }
        : {}),
    };
    const { count } = await prisma.call.updateMany({ where: { id: callId, status: call.status }, data });
    if (count === 0) {
      const moved = await prisma.call.findUniqueOrThrow({ where: { id: callId } });
      const current = toApiStatus(moved.status);
      throw new InvalidCallTransitionError(current, status, CALL_TRANSITIONS[current]);
    }
    const updated = await prisma.call.findUniqueOrThrow({ where: { id: callId } });
    await this.publish(updated, from);
    return updated;
  }

  async list(accountId: number, page: PageRequest, filter: CallFilterRequest = {}) {
    const where = await this.whereOf(accountId, filter);
    const prisma = this.deps.db.prisma;
    return paginate(page, CALLS_PER_PAGE, {
      count: () => prisma.call.count({ where }),
      items: (skip, take) =>
        prisma.call.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip, take }),
    });
  }

  async get(accountId: number, id: number) {
    const call = await this.deps.db.prisma.call.findFirst({ where: { accountId, id } });
    if (!call) throw new NotFoundError("Call");
    return call;
  }

  /**
   * The filters as a query. Dates are whole days in the account's time zone, both ends included.
   * Assistant and campaign ids must be the account's (deleted ones too: their calls remain).
   */
  private async whereOf(accountId: number, request: CallFilterRequest): Promise<Prisma.CallWhereInput> {
    const filter = parseInput(CallFilter, request);
    const prisma = this.deps.db.prisma;
    await this.assertOwnedFilters(accountId, filter);
    let createdAt: Prisma.DateTimeFilter | undefined;
    if (filter.dateFrom || filter.dateTo) {
      const { timezone } = await prisma.account.findUniqueOrThrow({ where: { id: accountId } });
      createdAt = {
        ...(filter.dateFrom ? { gte: startOfLocalDay(filter.dateFrom, timezone) } : {}),
        ...(filter.dateTo ? { lt: startOfLocalDay(nextDay(filter.dateTo), timezone) } : {}),
      };
    }
    return {
      accountId,
      ...(filter.status ? { status: toDbStatus(filter.status) } : {}),
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.phoneNumber ? { clientPhoneNumber: filter.phoneNumber } : {}),
      ...(filter.assistantId ? { assistantId: filter.assistantId } : {}),
      ...(filter.campaignId ? { campaignId: filter.campaignId } : {}),
      ...(createdAt ? { createdAt } : {}),
    };
  }

  /**
   * Ids a caller filters calls by must be the account's; deleted assistants and campaigns count,
   * since their calls remain. Anything else is NOT_FOUND, as for any other account's resource.
   */
  async assertOwnedFilters(
    accountId: number,
    ids: { callId?: number | null; assistantId?: number | null; campaignId?: number | null },
  ) {
    const prisma = this.deps.db.prisma;
    if (ids.callId && (await prisma.call.count({ where: { id: ids.callId, accountId } })) === 0) {
      throw new NotFoundError("Call");
    }
    if (
      ids.assistantId &&
      (await prisma.assistant.count({ where: { id: ids.assistantId, accountId } })) === 0
    ) {
      throw new NotFoundError("Assistant");
    }
    if (ids.campaignId && (await prisma.campaign.count({ where: { id: ids.campaignId, accountId } })) === 0) {
      throw new NotFoundError("Campaign");
    }
  }

  private async publish(call: Call, previousStatus: ApiCallStatus | null) {
    this.deps.pubsub.publish("call:status", call.accountId, {
      callId: call.id,
      assistantId: call.assistantId,
      campaignId: call.campaignId,
      status: toApiStatus(call.status),
      previousStatus,
    });
  }
}
