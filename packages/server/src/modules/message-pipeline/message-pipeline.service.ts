import type { ServiceDeps } from "../../deps.ts";
import { AppError, ConversationNotFoundError, ReservationExpiredError } from "../../errors.ts";
import type { Conversation, Message } from "../../generated/prisma/client.ts";
import type { ReplySettings, ReplySettingsCache } from "../assistants/index.ts";
import type { BillingService, Reservation } from "../billing/index.ts";
import { isUuid } from "../common/uuid.ts";
import {
  answeringAssistantId,
  CONVERSATION_COLUMNS,
  type ConversationWithAssistant,
  recentHistory,
} from "./conversation-reads.ts";
import type { FunctionSet } from "./function-sets.ts";
import type { MessageStore, NewMessage } from "./message-store.ts";
import { mergeVariables, type Passage, type Variables } from "./prompt.ts";
import { DeltaPublisher } from "./reply-deltas.ts";
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

/** How one customer message is charged. */
export interface Charge {
  price: string;
  kind: "message_debit" | "reply_debit";
}

export interface MessagePipelineParts {
  billing: BillingService;
  engine: ReplyEngine;
  replySettings: ReplySettingsCache;
  /** Storage of the conversation's messages, and the events of each. */
  store: MessageStore;
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

/**
 * The one way a message enters a conversation, whichever door it comes through (the widget,
 * generate-reply, the owner's test or operator messages): charge (through billing), reply (the
 * reply engine), storage and events (its MessageStore). The owner of the `messages` table: nothing
 * else writes it.
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
      const { messages, updated } = await this.parts.store.append(
        conversation,
        [{ role: "user", content: text, visitor }],
        {
          variables: changedVariables,
        },
      );
      const userMessage = messages[0]!;
      await this.parts.store.announce(conversation, userMessage);
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
      await this.parts.store.announce(conversation, userMessage);
      await this.parts.store.announce(conversation, replyMessage);
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
    const { messages } = await this.parts.store.append(conversation, [{ role: "operator", content }]);
    const message = messages[0]!;
    await this.parts.store.announce(conversation, message);
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
        conversation.recentHistory ?? recentHistory(this.deps.db, conversation.id),
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
      return await this.parts.store.append(conversation, messages, options);
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
}
