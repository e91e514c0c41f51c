import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import type { Call, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import { e164PhoneNumber } from "../phone-numbers/e164.ts";
import { CALL_STATUSES, CALL_TYPES, toDbStatus } from "./call-status.ts";
import { nextDay, startOfLocalDay } from "./local-dates.ts";

export const CALLS_PER_PAGE = 15;
/** Rows of a CSV export when none are asked for, and the most one export gives. */
export const CALL_EXPORT_DEFAULT_ROWS = 10_000;
export const CALL_EXPORT_MAX_ROWS = 100_000;
/** Calls read per query while an export streams: memory stays flat whatever the account's size. */
const EXPORT_BATCH = 500;

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
    includeTests: z.boolean({ error: "The include tests field must be a boolean." }).nullish(),
  })
  .refine((filter) => !filter.dateFrom || !filter.dateTo || filter.dateFrom <= filter.dateTo, {
    path: ["dateTo"],
    message: "The date to field must be a date after or equal to date from.",
  });

const ExportLimit = z.object({
  limit: z.coerce
    .number({ error: "The limit field must be an integer." })
    .int("The limit field must be an integer.")
    .min(1, "The limit field must be at least 1.")
    .max(CALL_EXPORT_MAX_ROWS, `The limit field must not be greater than ${CALL_EXPORT_MAX_ROWS}.`)
    .optional(),
});

export interface CallFilterRequest {
  status?: unknown;
  type?: unknown;
  phoneNumber?: unknown;
  assistantId?: unknown;
  campaignId?: unknown;
  dateFrom?: unknown;
  dateTo?: unknown;
  /** Agent tests' calls are left out unless asked for (docs/testing-assistants.md#phone-scenarios). */
  includeTests?: unknown;
}

/** Reads of an account's calls, for the API (GraphQL, and REST through it). */
export class CallQueries {
  constructor(private readonly deps: ServiceDeps) {}

  async list(accountId: number, page: PageRequest, filter: CallFilterRequest = {}) {
    const where = await this.whereOf(accountId, filter);
    const prisma = this.deps.db.prisma;
    return paginate(page, CALLS_PER_PAGE, {
      count: () => prisma.call.count({ where }),
      items: (skip, take) =>
        prisma.call.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip, take }),
    });
  }

  /**
   * The filtered calls, newest first as the list shows them, at most `limit`, in batches read one
   * after the other (keyset on the list's order, served by the filters' indexes). The filter is
   * checked before the first batch is asked for, so a bad one fails before anything is sent.
   */
  async exportBatches(
    accountId: number,
    filter: CallFilterRequest,
    limit: unknown,
  ): Promise<{ rows: number; batches: AsyncIterable<Call[]> }> {
    const rows = parseInput(ExportLimit, { limit }).limit ?? CALL_EXPORT_DEFAULT_ROWS;
    const where = await this.whereOf(accountId, filter);
    const prisma = this.deps.db.prisma;
    async function* batches() {
      let left = rows;
      let after: { createdAt: Date; id: number } | null = null;
      while (left > 0) {
        const batch: Call[] = await prisma.call.findMany({
          where: after
            ? {
                AND: [
                  where,
                  {
                    OR: [
                      { createdAt: { lt: after.createdAt } },
                      { createdAt: after.createdAt, id: { lt: after.id } },
                    ],
                  },
                ],
              }
            : where,
          orderBy: [{ createdAt: "desc" }, { id: "desc" }],
          take: Math.min(EXPORT_BATCH, left),
        });
        if (batch.length === 0) return;
        yield batch;
        left -= batch.length;
        const last = batch[batch.length - 1]!;
        after = { createdAt: last.createdAt, id: last.id };
      }
    }
    return { rows, batches: batches() };
  }

  async get(accountId: number, id: number) {
    const call = await this.deps.db.prisma.call.findFirst({ where: { accountId, id } });
    if (!call) throw new NotFoundError("Call");
    return call;
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
      ...(filter.includeTests ? {} : { test: false }),
      ...(filter.status ? { status: toDbStatus(filter.status) } : {}),
      ...(filter.type ? { type: filter.type } : {}),
      ...(filter.phoneNumber ? { clientPhoneNumber: filter.phoneNumber } : {}),
      ...(filter.assistantId ? { assistantId: filter.assistantId } : {}),
      ...(filter.campaignId ? { campaignId: filter.campaignId } : {}),
      ...(createdAt ? { createdAt } : {}),
    };
  }
}
