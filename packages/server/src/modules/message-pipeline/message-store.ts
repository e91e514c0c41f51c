import type { ServiceDeps } from "../../deps.ts";
import { ReservationExpiredError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import { type Conversation, type Message, Prisma } from "../../generated/prisma/client.ts";
import { timed } from "../../logger.ts";
import type { BillingService, Reservation } from "../billing/index.ts";
import type { RedactionService } from "../redaction/index.ts";
import type { ConversationWithAssistant } from "./conversation-reads.ts";
import type { Variables } from "./prompt.ts";
import { NO_VISITOR, type VisitorDetails } from "./visitor.ts";

/** A message about to be appended to a conversation. */
export interface NewMessage {
  role: "user" | "assistant" | "operator";
  content: string;
  functionCalls?: unknown;
  /** Where a customer message came from (widget). */
  visitor?: VisitorDetails;
}

export interface MessageStoreParts {
  billing: BillingService;
  events: EventSink;
  /** PII redaction of what is stored (and so of what subscribers and webhooks are given). */
  redaction: Pick<RedactionService, "of">;
}

/**
 * The message pipeline's storage: appends a conversation's messages (with their debit and webhook
 * events, in one statement) and tells subscribers of them. Only the pipeline is given it.
 */
export class MessageStore {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: MessageStoreParts,
  ) {}

  /**
   * Appends messages to a conversation, in order, and touches it (with its new variables, if any);
   * with `paidBy`, billing settles the reservation on the first of them, the customer's message.
   * One statement, so all of it happens or none, without holding a transaction open across round
   * trips (on the embedded store every other request would wait for it).
   */
  async append(
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

  /** Tells subscribers (webhooks recorded their events with the messages, in `append`). */
  async announce(conversation: Conversation, message: Message): Promise<void> {
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
