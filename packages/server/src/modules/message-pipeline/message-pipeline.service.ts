import type { ServiceDeps } from "../../deps.ts";
import { AppError, ConversationNotFoundError, ReservationExpiredError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import { type Conversation, type Message, Prisma } from "../../generated/prisma/client.ts";
import { timed } from "../../logger.ts";
import { type ReplySettings, type ReplySettingsCache, replySettingsColumns } from "../assistants/index.ts";
import type { BillingService, Reservation } from "../billing/index.ts";
import { isUuid } from "../common/uuid.ts";
import type { RedactionService } from "../redaction/index.ts";
import type { FunctionSet } from "./function-sets.ts";
import {
  HISTORY_MAX_MESSAGES,
  type HistoryMessage,
  mergeVariables,
  type Passage,
  type Variables,
} from "./prompt.ts";
import type { ReplyEngine } from "./reply-engine.ts";
import type { ReplyResult } from "./reply-types.ts";
import type { FunctionCallRecord } from "./tools.ts";
import { NO_VISITOR, type VisitorDetails } from "./visitor.ts";

/** What a processed customer message produced. */
export interface MessageOutcome {
  conversation: Conversation;
  userMessage: Message;
  /** Null while a person has taken the conversation over. */
  replyMessage: Message | null;
  reply: string;
  functionCalls: FunctionCallRecord[];
  aiDisabled: boolean;
}

/** A message about to be appended to a conversation. */
interface NewMessage {
  role: "user" | "assistant" | "operator";
  content: string;
  functionCalls?: unknown;
  /** Where a customer message came from (widget). */
  visitor?: VisitorDetails;
}

/** How one customer message is charged. */
export interface Charge {
  price: string;
  kind: "message_debit" | "reply_debit";
}

export interface MessagePipelineParts {
  billing: BillingService;
  engine: ReplyEngine;
  replySettings: ReplySettingsCache;
  events: EventSink;
  /** PII redaction of what is stored (and so of what subscribers and webhooks are given). */
  redaction: Pick<RedactionService, "of">;
  /** Further built-in functions of a conversation's reply (calendar booking), by other modules. */
  functions?: (conversation: ConversationTurn) => Promise<FunctionSet[]>;
}

/** The conversation a reply is for, and which customer message it answers. */
export interface ConversationTurn {
  accountId: number;
  /** The assistant answering (after a hand-off, the one the conversation was handed to). */
  assistantId: number;
  conversationId: string;
  channel: Conversation["channel"];
  /**
   * Names the turn: the newest customer message stored before this one. A message sent again after
   * its reply failed is the same turn, so what the model does again in it is recognised as a retry.
   */
  turnKey: string;
  /**
   * The customer's phone number when the carrier vouches for it (a conversation by text): like a
   * caller's number, the default contact and whose bookings they may see.
   */
  customerPhone: string | null;
}

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

/**
 * The one way a message enters a conversation, whichever door it comes through (the widget,
 * generate-reply, the owner's test or operator messages): charge (through billing), reply (the
 * reply engine), storage and events. The owner of the `messages` table: nothing else writes it.
 */
export class MessagePipeline {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: MessagePipelineParts,
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  /**
   * A conversation whose assistant still exists, with the assistant's reply settings (cached). Plain
   * SQL: every widget message reads it, and Prisma compiles each query anew.
   */
  async conversation(id: string): Promise<ConversationWithAssistant | null> {
    if (!isUuid(id)) return null;
    const [conversation] = await this.deps.db.withConnection((sql) =>
      sql.query<Conversation>(`SELECT ${CONVERSATION_COLUMNS} FROM "conversations" WHERE "id" = $1::uuid`, [
        id,
      ]),
    );
    if (!conversation) return null;
    const entry = await this.parts.replySettings.get(conversation.accountId, conversation.assistantId);
    if (!entry) return null;
    if (conversation.activeAssistantId === null) return { ...conversation, assistant: entry };
    // Handed off: the assistant it was handed to answers; one deleted since gives it back to its own.
    const active = await this.parts.replySettings.get(conversation.accountId, conversation.activeAssistantId);
    return active
      ? { ...conversation, assistant: active, entryAssistant: entry }
      : { ...conversation, activeAssistantId: null, assistant: entry };
  }

  /** The conversation's messages, oldest first (system messages are internal and left out). */
  messages(conversationId: string): Promise<Message[]> {
    return this.prisma.message.findMany({
      where: { conversationId, role: { in: ["user", "assistant", "operator"] } },
      orderBy: { id: "asc" },
    });
  }

  /**
   * Answers one customer message. While a person has taken over, the message is only stored. Else
   * the price is reserved first (refused if the balance cannot cover it; the knowledge search runs
   * meanwhile), the reply generated, and
   * the exchange stored with the debit linked to the customer's message; if anything fails before
   * the exchange is stored, the money is given back and nothing is stored. Answers assembled
   * without a model are free. New variables are kept on the conversation.
   */
  async process(
    conversation: ConversationWithAssistant,
    text: string,
    requestVariables: Variables,
    charge: Charge,
    /** `retrieve(...)` of this message, when the caller could start it before finding the conversation. */
    knowledge?: Promise<Passage[]>,
    /** Where the customer wrote from (the widget's page, browser and country), kept with their message. */
    visitor: VisitorDetails = NO_VISITOR,
  ): Promise<MessageOutcome> {
    const conversationVariables = mergeVariables(conversation.variables as Variables, requestVariables);
    const changedVariables = Object.keys(requestVariables).length > 0 ? conversationVariables : null;
    if (conversation.aiDisabled) {
      const { messages, updated } = await this.store(
        conversation,
        [{ role: "user", content: text, visitor }],
        {
          variables: changedVariables,
        },
      );
      const userMessage = messages[0]!;
      await this.announce(conversation, userMessage);
      return {
        conversation: updated,
        userMessage,
        replyMessage: null,
        reply: "",
        functionCalls: [],
        aiDisabled: true,
      };
    }

    // Retrieval (an embedding call, then the search) starts while the price is reserved rather than
    // after it: the two do not depend on each other. When the reservation is refused the search was
    // for nothing, which the rate limit bounds; `retrieve` turns its failures into no passages, so
    // the promise never rejects unobserved.
    const passages = knowledge ?? this.retrieve(conversation.accountId, conversation.assistant, text);
    const paid = {
      accountId: conversation.accountId,
      amount: this.parts.engine.modelConfigured ? charge.price : "0",
      kind: charge.kind,
      description: `${charge.kind === "reply_debit" ? "Generated reply" : "Widget message"} in conversation ${conversation.id}`,
    };
    return this.parts.billing.payFor(paid, async (reservation) => {
      const result = await this.reply(conversation, text, conversationVariables, passages);
      const { messages, updated } = await this.storeExchange(
        conversation,
        [
          { role: "user", content: text, visitor },
          { role: "assistant", content: result.reply, functionCalls: result.functionCalls },
        ],
        { variables: changedVariables, paidBy: reservation },
      );
      const [userMessage, replyMessage] = messages as [Message, Message];
      await this.announce(conversation, userMessage);
      await this.announce(conversation, replyMessage);
      return {
        conversation: updated,
        userMessage,
        replyMessage,
        reply: result.reply,
        functionCalls: result.functionCalls,
        aiDisabled: false,
      };
    });
  }

  /**
   * The knowledge passages an assistant's reply to `text` takes (an embedding call, then the search),
   * for `process`. It never rejects: a failed retrieval is a reply without passages.
   */
  retrieve(accountId: number, assistant: ReplySettings, text: string): Promise<Passage[]> {
    return this.parts.engine.knowledgeFor(accountId, assistant, text);
  }

  /** A message written by a person of the business, shown to the customer like a reply (free). */
  async appendOperatorMessage(conversation: Conversation, content: string): Promise<Message> {
    const { messages } = await this.store(conversation, [{ role: "operator", content }]);
    const message = messages[0]!;
    await this.announce(conversation, message);
    return message;
  }

  /** The assistant's reply to `text`; any failure is an UPSTREAM_FAILED error for the customer. */
  private async reply(
    conversation: ConversationWithAssistant,
    text: string,
    conversationVariables: Variables,
    knowledge: Promise<Passage[]>,
  ): Promise<ReplyResult> {
    const deltas = new DeltaPublisher((delta) =>
      this.deps.pubsub.publish("conversation:reply-delta", conversation.id, {
        conversationId: conversation.id,
        text: delta,
      }),
    );
    try {
      const [history, passages, functions] = await Promise.all([
        conversation.recentHistory ?? this.recentHistory(conversation.id),
        knowledge,
        this.parts.functions?.({
          accountId: conversation.accountId,
          assistantId: answeringAssistantId(conversation),
          conversationId: conversation.id,
          channel: conversation.channel,
          turnKey: `conversation:${conversation.id}:${conversation.lastCustomerMessageId}`,
          customerPhone: conversation.channel === "sms" ? conversation.customerIdentifier : null,
        }) ?? [],
      ]);
      return await this.parts.engine.generate({
        accountId: conversation.accountId,
        assistant: conversation.assistant,
        history: [...history, { role: "user", content: text }],
        passages,
        variables: mergeVariables(conversation.assistant.variables as Variables, conversationVariables),
        onDelta: (delta) => deltas.add(delta),
        functions,
        ...(conversation.channel === "sms" ? { medium: "sms" as const } : {}),
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.deps.logger.error("reply failed", { conversationId: conversation.id, error });
      throw new AppError("UPSTREAM_FAILED", "Failed to process message: internal error.");
    } finally {
      // Every piece is out before the stored reply is announced.
      deltas.flush();
    }
  }

  /**
   * Stores a customer message and its reply. A conversation deleted while the reply was being
   * written cannot take it: the customer is told it is gone, as on their next message.
   */
  private async storeExchange(
    conversation: ConversationWithAssistant,
    messages: NewMessage[],
    options: { variables: Variables | null; paidBy: Reservation },
  ) {
    try {
      return await this.store(conversation, messages, options);
    } catch (error) {
      if (error instanceof ReservationExpiredError) {
        this.deps.logger.warn("a reply outlived its reservation; not stored", {
          conversationId: conversation.id,
        });
        throw error;
      }
      const exists = await this.prisma.conversation.count({ where: { id: conversation.id } });
      if (exists === 0) throw new ConversationNotFoundError();
      this.deps.logger.error("storing an exchange failed", { conversationId: conversation.id, error });
      throw error;
    }
  }

  /** The newest messages the model may be sent (the one being answered comes on top), oldest first. */
  private async recentHistory(conversationId: string): Promise<HistoryMessage[]> {
    const newestFirst = await this.deps.db.withConnection((sql) =>
      sql.query<HistoryMessage>(
        `SELECT "role"::text AS "role", "content" FROM "messages"
         WHERE "conversationId" = $1::uuid AND "role" IN ${HISTORY_ROLES}
         ORDER BY "id" DESC LIMIT $2`,
        [conversationId, HISTORY_MAX_MESSAGES - 1],
      ),
    );
    return newestFirst.reverse();
  }

  /**
   * Appends messages to a conversation, in order, and touches it (with its new variables, if any);
   * with `paidBy`, billing settles the reservation on the first of them, the customer's message.
   * One statement, so all of it happens or none, without holding a transaction open across round
   * trips (on the embedded store every other request would wait for it).
   */
  private async store(
    conversation: Conversation,
    messages: NewMessage[],
    options: { variables?: Variables | null; paidBy?: Reservation } = {},
  ): Promise<{ messages: Message[]; updated: Conversation }> {
    const now = new Date();
    const variables = options.variables ?? null;
    const source = {
      conversationId: conversation.id,
      accountId: conversation.accountId,
      assistantId: conversation.assistantId,
    };
    const paidBy =
      options.paidBy?.ledgerEntryId != null
        ? { ...options.paidBy, ledgerEntryId: options.paidBy.ledgerEntryId }
        : null;
    // Stored redacted by the conversation's own assistant (a hand-off does not change it).
    const redactor = await this.parts.redaction.of(conversation.accountId, conversation.assistantId);
    const rows = messages.map((message, index) => {
      const visitor = message.visitor ?? NO_VISITOR;
      return Prisma.sql`(${index}::integer, ${conversation.id}::uuid, ${message.role}::"message_role",
                    ${redactor.text(message.content)}::text,
                    ${JSON.stringify(redactor.json(message.functionCalls ?? []))}::jsonb,
                    ${visitor.pageUrl}::varchar, ${visitor.browser}::varchar, ${visitor.country}::char(2))`;
    });
    const visitor = messages.find((message) => message.visitor)?.visitor ?? NO_VISITOR;
    // A paid exchange is stored only if its debit is claimed by the same statement: the customer's
    // message takes the id the claim linked the debit to, and a hold already refunded stores nothing.
    const settled = paidBy
      ? Prisma.sql`settled AS (${this.parts.billing.settlement(paidBy, Prisma.sql`nextval('"messages_id_seq"')::integer`)}),`
      : Prisma.empty;
    const id = paidBy
      ? Prisma.sql`CASE WHEN "position" = 0 THEN (SELECT "messageId" FROM settled) ELSE nextval('"messages_id_seq"')::integer END`
      : Prisma.sql`nextval('"messages_id_seq"')::integer`;
    const statement = Prisma.sql`
      WITH ${settled}
      appended AS (
        INSERT INTO "messages" ("id", "conversationId", "role", "content", "functionCalls", "pageUrl", "browser", "country")
        SELECT ${id}, "conversationId", "role", "content", "functionCalls", "pageUrl", "browser", "country"
        FROM (VALUES ${Prisma.join(rows)})
          AS new ("position", "conversationId", "role", "content", "functionCalls", "pageUrl", "browser", "country")
        ${paidBy ? Prisma.sql`WHERE EXISTS (SELECT 1 FROM settled)` : Prisma.empty}
        ORDER BY "position"
        RETURNING "id", "conversationId", "role", "content", "functionCalls", "createdAt", "pageUrl", "browser", "country"),
      touched AS (
        UPDATE "conversations"
        SET "updatedAt" = ${now}::timestamptz,
            "lastMessageAt" = ${now}::timestamptz,
            "lastCustomerMessageId" = GREATEST("lastCustomerMessageId",
              COALESCE((SELECT max("id") FROM appended WHERE "role" = 'user'), 0)),
            "variables" = COALESCE(${variables === null ? null : JSON.stringify(variables)}::jsonb, "variables"),
            -- A customer writing again reopens a resolved conversation (docs/console.md "Inbox").
            "status" = CASE WHEN EXISTS (SELECT 1 FROM appended WHERE "role" = 'user')
                       THEN 'open'::"conversation_status" ELSE "status" END,
            "resolvedAt" = CASE WHEN EXISTS (SELECT 1 FROM appended WHERE "role" = 'user')
                           THEN NULL ELSE "resolvedAt" END,
            "pageUrl" = COALESCE(${visitor.pageUrl}::varchar, "pageUrl"),
            "browser" = COALESCE(${visitor.browser}::varchar, "browser"),
            "country" = COALESCE(${visitor.country}::char(2), "country")
        WHERE "id" = ${conversation.id}::uuid AND EXISTS (SELECT 1 FROM appended)),
      events AS (${this.parts.events.messageEventsSql(source, Prisma.sql`appended`)})
      SELECT *, (SELECT count(*) FROM events)::int AS "eventCount" FROM appended ORDER BY "id"`;
    // Through the driver rather than Prisma's raw query, which costs more than the statement itself,
    // and prepared: its few forms (one or two messages, paid or not) are planned once per connection,
    // and every step reads or writes rows by their keys, so one plan fits all.
    const stored = await timed("store", () =>
      this.deps.db.withConnection((sql) =>
        sql.prepared<Message & { eventCount: number }>(statement.text, statement.values),
      ),
    );
    if (paidBy && stored.length === 0) throw new ReservationExpiredError();
    if ((stored[0]?.eventCount ?? 0) > 0) await this.parts.events.messagesRecorded(source);
    const { assistant: _assistant, ...plain } = conversation as ConversationWithAssistant;
    // The one answering now is given the real words (the customer is in the conversation); what
    // is read back later, by anyone, is what was stored.
    const appended = stored.map(({ eventCount: _count, ...message }) => {
      const live = messages.find((candidate) => candidate.role === message.role);
      return {
        ...message,
        ...(live ? { content: live.content } : {}),
        id: Number(message.id),
      };
    });
    const customerIds = appended.filter((message) => message.role === "user").map((message) => message.id);
    return {
      messages: appended,
      updated: {
        ...plain,
        updatedAt: now,
        lastMessageAt: now,
        lastCustomerMessageId: Math.max(conversation.lastCustomerMessageId, ...customerIds),
        variables: variables ?? conversation.variables,
        ...(customerIds.length > 0 ? { status: "open" as const, resolvedAt: null } : {}),
        pageUrl: visitor.pageUrl ?? conversation.pageUrl,
        browser: visitor.browser ?? conversation.browser,
        country: visitor.country ?? conversation.country,
      },
    };
  }

  /** Tells subscribers (webhooks recorded their events with the messages, in `store`). */
  private async announce(conversation: Conversation, message: Message): Promise<void> {
    this.deps.pubsub.publish("conversation:message", message.conversationId, {
      conversationId: message.conversationId,
      messageId: message.id,
      role: message.role as "user" | "assistant" | "operator",
    });
    this.deps.pubsub.publish("conversation:activity", conversation.accountId, {
      conversationId: message.conversationId,
      messageId: message.id,
    });
  }
}

/**
 * Publishes the pieces of a reply as the model writes them, joining those that arrive in one turn of
 * the event loop. A fast model's stream delivers many pieces per network read; each published
 * separately costs a Redis write (a system call) per word, which was the largest single cost of a
 * reply. A subscriber receives the same text in the same order, in fewer events.
 */
class DeltaPublisher {
  private pending = "";
  private scheduled: NodeJS.Immediate | null = null;

  constructor(private readonly publish: (text: string) => void) {}

  add(text: string): void {
    this.pending += text;
    this.scheduled ??= setImmediate(() => this.flush());
  }

  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = null;
    if (this.pending === "") return;
    const text = this.pending;
    this.pending = "";
    this.publish(text);
  }
}
