import { z } from "zod";
import { Prisma } from "../../generated/prisma/client.ts";

/** The customer-visible messages a search reads (system messages are internal; notes live elsewhere). */
const SEARCHED_ROLES = Prisma.sql`('user', 'assistant', 'operator')`;

export const InboxFilters = z.object({
  assistantId: z.number().int().nullish(),
  channel: z.enum(["api", "widget", "test", "sms"]).nullish(),
  channels: z
    .array(z.enum(["api", "widget", "test", "sms"]))
    .max(4)
    .nullish(),
  status: z.enum(["open", "resolved"]).nullish(),
  unreadOnly: z.boolean().nullish(),
  waitingForHuman: z.boolean().nullish(),
  assignedToMe: z.boolean().nullish(),
  unassigned: z.boolean().nullish(),
  assigneeId: z.number().int().nullish(),
  search: z
    .string()
    .trim()
    .min(2, "The search field must be at least 2 characters.")
    .max(100, "The search field may not be greater than 100 characters.")
    .nullish(),
});

export type InboxFilterInput = z.input<typeof InboxFilters>;

/** `%text%` for ILIKE, with the pattern characters of the text matched literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/**
 * The WHERE clause of an inbox list over `conversations` aliased `c`, for the member `userId`: every
 * filter is one condition on the conversation's own columns (indexed by account, status and
 * activity), except unread (the member's read mark, one row by key) and search, a bounded ILIKE over
 * the conversation's messages (docs/console.md "Inbox" on pg_trgm for large PostgreSQL accounts).
 */
export function inboxWhere(
  accountId: number,
  userId: number,
  filters: z.output<typeof InboxFilters>,
): Prisma.Sql {
  const conditions: Prisma.Sql[] = [Prisma.sql`c."accountId" = ${accountId}`];
  if (filters.assistantId) conditions.push(Prisma.sql`c."assistantId" = ${filters.assistantId}`);
  if (filters.channel) {
    conditions.push(Prisma.sql`c."channel" = ${filters.channel}::"conversation_channel"`);
  }
  if (filters.channels) {
    // An empty list keeps nothing, as `IN ()` would.
    conditions.push(
      filters.channels.length === 0
        ? Prisma.sql`FALSE`
        : Prisma.sql`c."channel" IN (${Prisma.join(
            filters.channels.map((channel) => Prisma.sql`${channel}::"conversation_channel"`),
          )})`,
    );
  }
  if (filters.status) conditions.push(Prisma.sql`c."status" = ${filters.status}::"conversation_status"`);
  if (filters.waitingForHuman != null) {
    conditions.push(
      filters.waitingForHuman
        ? Prisma.sql`c."humanRequestedAt" IS NOT NULL`
        : Prisma.sql`c."humanRequestedAt" IS NULL`,
    );
  }
  if (filters.assignedToMe) conditions.push(Prisma.sql`c."assigneeId" = ${userId}`);
  if (filters.unassigned) conditions.push(Prisma.sql`c."assigneeId" IS NULL`);
  if (filters.assigneeId) conditions.push(Prisma.sql`c."assigneeId" = ${filters.assigneeId}`);
  if (filters.unreadOnly) conditions.push(unreadBy(userId));
  if (filters.search) {
    conditions.push(Prisma.sql`EXISTS (
      SELECT 1 FROM "messages" m
      WHERE m."conversationId" = c."id" AND m."role" IN ${SEARCHED_ROLES}
        AND m."content" ILIKE ${containsPattern(filters.search)})`);
  }
  return Prisma.join(conditions, " AND ");
}

/** The conversation `c` has a customer message newer than the member's read mark. */
export function unreadBy(userId: number): Prisma.Sql {
  return Prisma.sql`c."lastCustomerMessageId" > COALESCE((
    SELECT r."lastReadMessageId" FROM "conversation_reads" r
    WHERE r."conversationId" = c."id" AND r."userId" = ${userId}), 0)`;
}
