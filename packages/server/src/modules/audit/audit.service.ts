import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { type DomainEvent, isAuditedEvent } from "../../events.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";

/** Entries per page of `auditLog` by default, and at most. */
export const AUDIT_PAGE_DEFAULT = 50;
export const AUDIT_PAGE_MAX = 200;

/** Keys never copied into an entry's details, whatever an event carries (defence in depth). */
const SECRET_KEYS = /token|secret|password|key$|authorization/i;

const AuditLogQuery = z.object({
  action: z
    .string({ error: "The action field must be a string." })
    .trim()
    .max(64, "The action field must not be greater than 64 characters.")
    .nullish(),
  actorKind: z
    .enum(["user", "apiKey", "system"], { error: "The actor kind field must be user, apiKey or system." })
    .nullish(),
  actorId: z.number().int().positive("The actor id field must be a positive integer.").nullish(),
  from: z.date().nullish(),
  to: z.date().nullish(),
  first: z
    .number()
    .int()
    .min(1, "The first field must be at least 1.")
    .max(AUDIT_PAGE_MAX, `The first field must not be greater than ${AUDIT_PAGE_MAX}.`)
    .nullish(),
  after: z
    .string({ error: "The after field must be a string." })
    .regex(/^\d{1,12}$/, "The after field must be a cursor returned by a previous page.")
    .nullish(),
});

export interface AuditLogInput {
  action?: string | null;
  actorKind?: string | null;
  actorId?: number | null;
  from?: Date | null;
  to?: Date | null;
  first?: number | null;
  after?: string | null;
}

/**
 * The account's audit log (docs/data-governance.md#audit-log): who did what. Entries are written
 * from domain events (`record`, in the transaction of the change) and never changed; only the
 * retention sweep deletes them. Modules report actions as events, never through this class.
 */
export class AuditLog {
  constructor(private readonly deps: ServiceDeps) {}

  /** An `EventRecorder`: events that carry an actor become entries, others are not audited. */
  readonly record = async (tx: Prisma.TransactionClient, event: DomainEvent): Promise<void> => {
    if (!isAuditedEvent(event)) return;
    const { actor } = event;
    await tx.auditEntry.create({
      data: {
        accountId: event.accountId,
        actorKind: actor.kind,
        actorId: actor.id,
        userId: actor.userId,
        action: event.type,
        targetType: event.target.type,
        targetId: String(event.target.id),
        details: withoutSecrets(event.details ?? {}),
        ip: actor.ip,
      },
    });
  };

  /** The account's entries, newest first, filtered; `nextCursor` continues after the last one. */
  async list(accountId: number, input: AuditLogInput) {
    const query = parseInput(AuditLogQuery, input);
    const take = query.first ?? AUDIT_PAGE_DEFAULT;
    const entries = await this.deps.db.prisma.auditEntry.findMany({
      where: {
        accountId,
        ...(query.action ? { action: query.action } : {}),
        ...(query.actorKind ? { actorKind: query.actorKind } : {}),
        ...(query.actorId ? { actorId: query.actorId } : {}),
        ...(query.from || query.to
          ? { at: { ...(query.from ? { gte: query.from } : {}), ...(query.to ? { lt: query.to } : {}) } }
          : {}),
        ...(query.after ? { id: { lt: Number(query.after) } } : {}),
      },
      orderBy: { id: "desc" },
      take: take + 1,
    });
    const page = entries.slice(0, take);
    return {
      entries: page,
      nextCursor: entries.length > take ? String(page.at(-1)!.id) : null,
    };
  }

  /**
   * The account's entries oldest first, `AUDIT_PAGE_MAX` at most after entry `afterId`: the export
   * (`audit:export`) pages through the whole log with it, one bounded batch at a time.
   */
  async exportBatch(accountId: number, afterId: number) {
    const entries = await this.deps.db.prisma.auditEntry.findMany({
      where: { accountId, id: { gt: afterId } },
      orderBy: { id: "asc" },
      take: AUDIT_PAGE_MAX,
    });
    return { entries, last: entries.length === AUDIT_PAGE_MAX ? entries.at(-1)!.id : null };
  }
}

function withoutSecrets(details: Prisma.InputJsonObject): Prisma.InputJsonObject {
  return Object.fromEntries(Object.entries(details).filter(([key]) => !SECRET_KEYS.test(key)));
}
