import type { Database } from "../../db/client.ts";
import type { Conversation, Message } from "../../generated/prisma/client.ts";
import { type ReplySettings, replySettingsColumns } from "../assistants/index.ts";
import { HISTORY_MAX_MESSAGES, type HistoryMessage } from "./prompt.ts";
import type { FunctionCallRecord } from "./tools.ts";

/** The assistant settings a reply reads (kept for compatibility: `replySettingsColumns`). */
export const replyAssistantColumns = replySettingsColumns;

/**
 * A conversation with what the pipeline needs of its assistant, and its recent history when it was
 * read with the conversation (`RECENT_HISTORY_COLUMN`; otherwise a reply reads it on its own).
 */
export type ConversationWithAssistant = Conversation & {
  /** The answering assistant's settings: after a hand-off, `activeAssistantId`'s. */
  assistant: ReplySettings;
  /** After a hand-off, the settings of the conversation's own assistant (its widget's origins). */
  entryAssistant?: ReplySettings;
  recentHistory?: HistoryMessage[];
};

/** The assistant answering a conversation: after a hand-off the one it was handed to. */
export function answeringAssistantId(conversation: Conversation): number {
  return conversation.activeAssistantId ?? conversation.assistantId;
}

/** The roles of the stored messages a model is sent (system messages are internal). */
const HISTORY_ROLES = `('user', 'assistant', 'operator')`;

/**
 * The newest messages the model may be sent (the one being answered comes on top), oldest first, as
 * a column of a statement that reads `"conversations"`: a reply's lookup reads them with the
 * conversation, one statement fewer on every reply.
 */
export const RECENT_HISTORY_COLUMN = `(
  SELECT coalesce(json_agg(json_build_object('role', h."role", 'content', h."content") ORDER BY h."id"), '[]'::json)
  FROM (SELECT m."id", m."role"::text AS "role", m."content" FROM "messages" m
        WHERE m."conversationId" = "conversations"."id" AND m."role" IN ${HISTORY_ROLES}
        ORDER BY m."id" DESC LIMIT ${HISTORY_MAX_MESSAGES - 1}) h
) AS "recentHistory"`;

/** Every column of `conversations`, as Prisma's `Conversation` has them, for plain SQL reads. */
export const CONVERSATION_COLUMNS = `"id", "accountId", "assistantId", "channel", "customerIdentifier", "variables",
  "aiDisabled", "origin", "lastMessageAt", "lastCustomerMessageId", "lastReadMessageId", "createdAt", "updatedAt",
  "humanRequestedAt", "activeAssistantId", "handoffTrail", "status", "resolvedAt", "assigneeId", "pageUrl",
  "browser", "country"`;

/** The function calls stored with a message (a JSON column). */
export function storedFunctionCalls(message: Message): FunctionCallRecord[] {
  return (Array.isArray(message.functionCalls)
    ? message.functionCalls
    : []) as unknown as FunctionCallRecord[];
}

/** The newest messages the model may be sent (the one being answered comes on top), oldest first. */
export async function recentHistory(db: Database, conversationId: string): Promise<HistoryMessage[]> {
  const newestFirst = await db.withConnection((sql) =>
    sql.query<HistoryMessage>(
      `SELECT "role"::text AS "role", "content" FROM "messages"
       WHERE "conversationId" = $1::uuid AND "role" IN ${HISTORY_ROLES}
       ORDER BY "id" DESC LIMIT $2`,
      [conversationId, HISTORY_MAX_MESSAGES - 1],
    ),
  );
  return newestFirst.reverse();
}
