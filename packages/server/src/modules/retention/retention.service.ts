import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import type { Actor, EventSink } from "../../events.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";

/** What retention applies to, each with its days column (docs/data-governance.md#retention). */
export const CONTENT_KINDS = {
  transcripts: "transcriptDays",
  recordings: "recordingDays",
  messages: "messageDays",
  callTurns: "callTurnDays",
  webhookLogs: "webhookLogDays",
  texts: "textDays",
} as const;

export type ContentKind = keyof typeof CONTENT_KINDS;
export type DaysColumn = (typeof CONTENT_KINDS)[ContentKind];

export const MAX_RETENTION_DAYS = 3650;
/** The audit log's retention when the account never set one. */
export const DEFAULT_AUDIT_LOG_DAYS = 365;

export type AccountRetention = Record<DaysColumn | "auditLogDays", number | null>;
/** null: the account's; 0: forever. */
export type AssistantRetention = Record<DaysColumn, number | null>;

const COLUMNS = Object.values(CONTENT_KINDS);

function days(column: string, min: number) {
  const label = column.replace(/Days$/, "").replace(/[A-Z]/g, (c) => ` ${c.toLowerCase()}`);
  return z
    .number({ error: `The ${label} days field must be a whole number of days or null.` })
    .int(`The ${label} days field must be a whole number of days or null.`)
    .min(min, `The ${label} days field must be at least ${min} (or null).`)
    .max(MAX_RETENTION_DAYS, `The ${label} days field must not be greater than ${MAX_RETENTION_DAYS}.`)
    .nullable()
    .optional();
}

// Absent: unchanged; null: forever (account) or the account's (assistant).
const AccountInput = z.object({
  ...Object.fromEntries(COLUMNS.map((column) => [column, days(column, 1)])),
  auditLogDays: days("auditLogDays", 1),
}) as z.ZodType<Partial<AccountRetention>>;
const AssistantInput = z.object(
  Object.fromEntries(COLUMNS.map((column) => [column, days(column, 0)])),
) as z.ZodType<Partial<AssistantRetention>>;

const ACCOUNT_DEFAULTS: AccountRetention = {
  ...(Object.fromEntries(COLUMNS.map((column) => [column, null])) as Record<DaysColumn, null>),
  auditLogDays: DEFAULT_AUDIT_LOG_DAYS,
};

/**
 * Retention settings (docs/data-governance.md#retention): per account, days to keep each kind of
 * customer content (null: forever), and per assistant an override kind by kind. The sweep
 * (`RetentionSweep`) applies them. Every change is audited (`retention.updated`).
 */
export class RetentionService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { events: EventSink },
  ) {}

  async forAccount(accountId: number): Promise<AccountRetention> {
    const row = await this.deps.db.prisma.retentionPolicy.findUnique({ where: { accountId } });
    return row ? pick(row, [...COLUMNS, "auditLogDays"]) : { ...ACCOUNT_DEFAULTS };
  }

  async setForAccount(accountId: number, input: unknown, actor: Actor): Promise<AccountRetention> {
    const changes = parseInput(AccountInput, input);
    return this.deps.db.prisma.$transaction(async (tx) => {
      const before = await tx.retentionPolicy.findUnique({ where: { accountId } });
      const row = await tx.retentionPolicy.upsert({
        where: { accountId },
        create: { ...ACCOUNT_DEFAULTS, ...changes, accountId },
        update: changes,
      });
      const after = pick(row, [...COLUMNS, "auditLogDays"]);
      await this.audit(
        tx,
        accountId,
        actor,
        { type: "account", id: accountId },
        before ?? ACCOUNT_DEFAULTS,
        after,
      );
      return after;
    });
  }

  async forAssistant(accountId: number, assistantId: number): Promise<AssistantRetention> {
    await this.assistantOf(this.deps.db.prisma, accountId, assistantId);
    const row = await this.deps.db.prisma.assistantRetentionPolicy.findUnique({ where: { assistantId } });
    return row ? pick(row, COLUMNS) : emptyOverride();
  }

  async setForAssistant(
    accountId: number,
    assistantId: number,
    input: unknown,
    actor: Actor,
  ): Promise<AssistantRetention> {
    const changes = parseInput(AssistantInput, input);
    return this.deps.db.prisma.$transaction(async (tx) => {
      await this.assistantOf(tx, accountId, assistantId);
      const before = await tx.assistantRetentionPolicy.findUnique({ where: { assistantId } });
      const row = await tx.assistantRetentionPolicy.upsert({
        where: { assistantId },
        create: { ...emptyOverride(), ...changes, assistantId, accountId },
        update: changes,
      });
      const after = pick(row, COLUMNS);
      await this.audit(
        tx,
        accountId,
        actor,
        { type: "assistant", id: assistantId },
        before ?? emptyOverride(),
        after,
      );
      return after;
    });
  }

  /** What applies to the assistant's content: its overrides over the account's (null: forever). */
  async effective(accountId: number, assistantId: number): Promise<AccountRetention> {
    const [account, assistant] = await Promise.all([
      this.forAccount(accountId),
      this.forAssistant(accountId, assistantId),
    ]);
    const merged = { ...account };
    for (const column of COLUMNS) {
      const own = assistant[column];
      if (own !== null) merged[column] = own === 0 ? null : own;
    }
    return merged;
  }

  private async assistantOf(db: Prisma.TransactionClient, accountId: number, assistantId: number) {
    const found = await db.assistant.count({ where: { id: assistantId, accountId, deletedAt: null } });
    if (found === 0) throw new NotFoundError("Assistant");
  }

  private async audit(
    tx: Prisma.TransactionClient,
    accountId: number,
    actor: Actor,
    target: { type: string; id: number },
    before: Record<string, unknown>,
    after: Record<string, number | null>,
  ) {
    const changed = Object.fromEntries(
      Object.entries(after)
        .filter(([column, value]) => before[column] !== value)
        .map(([column, value]) => [column, { from: (before[column] as number | null) ?? null, to: value }]),
    );
    if (Object.keys(changed).length === 0) return;
    await this.parts.events.emit(tx, {
      type: "retention.updated",
      accountId,
      actor,
      target,
      details: { changed },
    });
  }
}

function pick<K extends string>(
  row: Record<K, number | null>,
  columns: readonly K[],
): Record<K, number | null> {
  return Object.fromEntries(columns.map((column) => [column, row[column]])) as Record<K, number | null>;
}

function emptyOverride(): AssistantRetention {
  return Object.fromEntries(COLUMNS.map((column) => [column, null])) as AssistantRetention;
}
