import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, ConversationNotFoundError, NotFoundError } from "../../errors.ts";
import { type Conversation, type Message, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import type { BillingService, Reservation } from "../billing/billing.service.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import {
  HISTORY_MAX_MESSAGES,
  type HistoryMessage,
  mergeVariables,
  type Variables,
} from "../replies/prompt.ts";
import type { ReplyEngine, ReplyResult } from "../replies/reply-engine.ts";
import type { FunctionCallRecord } from "../replies/tools.ts";

export const WIDGET_MESSAGE_MAX = 2000;
const VARIABLES_MAX_KEYS = 50;
const VARIABLE_VALUE_MAX = 1000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const TOO_MANY_MESSAGES = "Too many messages. Please wait a moment.";
export const TOO_MANY_CONVERSATIONS = "Too many conversations started. Please wait a moment.";
export const ORIGIN_NOT_ALLOWED = "This origin is not allowed to use this assistant.";

/** A required message of at most `max` characters, with the legacy API's wording. */
export function messageText(max: number, label = "message") {
  return z
    .string({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `The ${label} field is required.`
          : `The ${label} field must be a string.`,
    })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} field must not be greater than ${max} characters.`);
}

/** Flat variables for `{{name}}` substitution: at most 50 names, scalar values. */
export const variablesInput = z
  .unknown()
  .optional()
  .superRefine((value, context) => {
    if (value === undefined || value === null) return;
    if (typeof value !== "object" || Array.isArray(value)) {
      context.addIssue({ code: "custom", message: "The variables field must be an object." });
      return;
    }
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length > VARIABLES_MAX_KEYS) {
      context.addIssue({
        code: "custom",
        message: `The variables field must not have more than ${VARIABLES_MAX_KEYS} items.`,
      });
    }
    for (const [name, item] of entries) {
      const scalar = item === null || ["string", "number", "boolean"].includes(typeof item);
      if (!/^[A-Za-z_][\w.-]{0,63}$/.test(name)) {
        context.addIssue({
          code: "custom",
          path: [name],
          message: "Variable names start with a letter or _ and use at most 64 letters, digits, _ . or -.",
        });
      } else if (!scalar) {
        context.addIssue({
          code: "custom",
          path: [name],
          message: `The variables.${name} field must be a string, number, boolean or null.`,
        });
      } else if (typeof item === "string" && item.length > VARIABLE_VALUE_MAX) {
        context.addIssue({
          code: "custom",
          path: [name],
          message: `The variables.${name} field must not be greater than ${VARIABLE_VALUE_MAX} characters.`,
        });
      }
    }
  })
  .transform((value) => (value ?? {}) as Variables);

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
}

/** How one customer message is charged. */
export interface Charge {
  price: string;
  kind: "message_debit" | "reply_debit";
}

export interface ConversationsParts {
  billing: BillingService;
  rateLimits: RateLimitsService;
  engine: ReplyEngine;
}

/**
 * The assistant settings a reply reads. Every customer message loads them, and assistants have
 * dozens of columns: mapping only these makes that lookup about twice as cheap.
 */
const replyAssistantColumns = {
  name: true,
  systemPrompt: true,
  initialMessage: true,
  timezone: true,
  llmTemperature: true,
  knowledgebaseId: true,
  knowledgebaseMode: true,
  tools: true,
  variables: true,
  allowedOrigins: true,
} satisfies Prisma.AssistantSelect;

type ConversationWithAssistant = Conversation & {
  assistant: Prisma.AssistantGetPayload<{ select: typeof replyAssistantColumns }>;
};

const StartTestInput = z.object({
  assistantId: z.number({ error: "The assistant id field must be an integer." }).int(),
  variables: variablesInput,
});

const ListInput = z.object({
  assistantId: z.number().int().nullish(),
  channel: z.enum(["api", "widget", "test"]).nullish(),
});

/**
 * Conversations of every channel: the owner's view (list, read, test, take over, answer as a
 * person), the public widget's (start by assistant UUID, read and write by conversation UUID) and
 * the one pipeline every customer message goes through: limits, charge, reply, storage, events.
 */
export class ConversationsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: ConversationsParts,
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  // ------------------------------------------------------------------ owner

  list(
    accountId: number,
    filters: { assistantId?: number | null; channel?: string | null },
    page: PageRequest,
  ) {
    const { assistantId, channel } = parseInput(ListInput, filters);
    const where: Prisma.ConversationWhereInput = {
      accountId,
      ...(assistantId ? { assistantId } : {}),
      ...(channel ? { channel } : {}),
    };
    return paginate(page, 15, {
      count: () => this.prisma.conversation.count({ where }),
      items: (skip, take) =>
        this.prisma.conversation.findMany({
          where,
          orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
          skip,
          take,
        }),
    });
  }

  /** One of the account's conversations; another account's answers as not found. */
  async get(accountId: number, id: string): Promise<Conversation> {
    const conversation = UUID.test(id)
      ? await this.prisma.conversation.findFirst({ where: { id, accountId } })
      : null;
    if (!conversation) throw new NotFoundError("Conversation");
    return conversation;
  }

  /** The conversation's messages, oldest first (system messages are internal and left out). */
  messages(conversationId: string): Promise<Message[]> {
    return this.prisma.message.findMany({
      where: { conversationId, role: { in: ["user", "assistant", "operator"] } },
      orderBy: { id: "asc" },
    });
  }

  /** A conversation in which the owner plays the customer, to try an assistant out. It is free. */
  async startTest(accountId: number, input: { assistantId: unknown; variables?: unknown }) {
    const { assistantId, variables } = parseInput(StartTestInput, input);
    const assistant = await this.prisma.assistant.findFirst({
      where: { id: assistantId, accountId, deletedAt: null },
    });
    if (!assistant) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    return this.prisma.conversation.create({
      data: { accountId, assistantId: assistant.id, channel: "test", variables },
    });
  }

  async sendTestMessage(
    accountId: number,
    input: { conversationId: string; message: unknown; variables?: unknown },
  ): Promise<MessageOutcome> {
    const { message, variables } = parseInput(
      z.object({ message: messageText(WIDGET_MESSAGE_MAX), variables: variablesInput }),
      input,
    );
    const conversation = await this.get(accountId, input.conversationId);
    if (conversation.channel !== "test") {
      throw new AppError(
        "BAD_REQUEST",
        "Only test conversations take messages from the owner; answer a customer with sendOperatorMessage.",
      );
    }
    const withAssistant = await this.withLiveAssistant(conversation.id);
    if (!withAssistant) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    return this.process(withAssistant, message, variables, { price: "0", kind: "message_debit" });
  }

  /** A person takes over: customer messages are stored but no longer answered by the AI. */
  async setAiDisabled(accountId: number, id: string, aiDisabled: boolean): Promise<Conversation> {
    await this.get(accountId, id);
    const conversation = await this.prisma.conversation.update({ where: { id }, data: { aiDisabled } });
    this.deps.logger.info(aiDisabled ? "conversation taken over" : "conversation handed back", {
      accountId,
      conversationId: id,
    });
    return conversation;
  }

  /** A message written by a person of the business, shown to the customer like a reply. */
  async sendOperatorMessage(accountId: number, input: { conversationId: string; content: unknown }) {
    const { content } = parseInput(z.object({ content: messageText(WIDGET_MESSAGE_MAX, "content") }), input);
    const conversation = await this.get(accountId, input.conversationId);
    const { messages } = await this.store(conversation, [{ role: "operator", content }]);
    const message = messages[0]!;
    this.announce(message);
    return message;
  }

  // ------------------------------------------------------------------ public widget

  /** What the widget shows before a conversation starts; a deleted assistant is not found. */
  async widgetAssistant(uuid: string) {
    const assistant = UUID.test(uuid)
      ? await this.prisma.assistant.findFirst({ where: { uuid, deletedAt: null } })
      : null;
    if (!assistant) throw new NotFoundError("Assistant");
    return assistant;
  }

  async startWidgetConversation(
    input: { assistantUuid: string; variables?: unknown; origin: string | null; clientAddress: string },
    report: RateLimitReporter,
  ): Promise<{ conversation: Conversation; initialMessage: string }> {
    await this.parts.rateLimits.consume("widgetStart", input.clientAddress, report, TOO_MANY_CONVERSATIONS);
    const assistant = await this.widgetAssistant(input.assistantUuid);
    if (!originAllowed(assistant.allowedOrigins, input.origin))
      throw new AppError("FORBIDDEN", ORIGIN_NOT_ALLOWED);
    const { variables } = parseInput(z.object({ variables: variablesInput }), { variables: input.variables });
    const conversation = await this.prisma.conversation.create({
      data: {
        accountId: assistant.accountId,
        assistantId: assistant.id,
        channel: "widget",
        variables,
        origin: input.origin,
      },
    });
    return { conversation, initialMessage: assistant.initialMessage };
  }

  /**
   * A widget conversation by its UUID, which is the capability to read and write it, used from a
   * page of `origin`: the assistant's allow-list, as it is now, applies to every request.
   */
  async widgetConversation(id: string, origin: string | null): Promise<ConversationWithAssistant> {
    const conversation = await this.withLiveAssistant(id);
    if (conversation?.channel !== "widget") throw new ConversationNotFoundError();
    if (!originAllowed(conversation.assistant.allowedOrigins, origin))
      throw new AppError("FORBIDDEN", ORIGIN_NOT_ALLOWED);
    return conversation;
  }

  async sendWidgetMessage(
    input: { conversationId: string; message: unknown; origin: string | null; clientAddress: string },
    report: RateLimitReporter,
  ): Promise<MessageOutcome> {
    await this.parts.rateLimits.consume("widgetMessage", input.clientAddress, report, TOO_MANY_MESSAGES);
    const { message } = parseInput(z.object({ message: messageText(WIDGET_MESSAGE_MAX) }), input);
    const conversation = await this.widgetConversation(input.conversationId, input.origin);
    await this.parts.rateLimits.consume("conversationMessage", conversation.id, report, TOO_MANY_MESSAGES);
    return this.process(
      conversation,
      message,
      {},
      {
        price: this.deps.config.pricing.messagePrice,
        kind: "message_debit",
      },
    );
  }

  // ------------------------------------------------------------------ the pipeline

  /**
   * Finds or creates the API conversation of one external customer of one of the account's
   * assistants. Both are looked up at once; a conversation found under another account's
   * assistant is never used, since the assistant check fails first.
   */
  async apiConversation(
    accountId: number,
    assistantId: number,
    customerIdentifier: string,
  ): Promise<ConversationWithAssistant> {
    const key = { assistantId_customerIdentifier: { assistantId, customerIdentifier } };
    const [assistant, existing] = await Promise.all([
      this.prisma.assistant.findFirst({
        where: { id: assistantId, accountId, deletedAt: null },
        select: replyAssistantColumns,
      }),
      this.prisma.conversation.findUnique({ where: key }),
    ]);
    if (!assistant) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    if (existing) return { ...existing, assistant };
    try {
      const created = await this.prisma.conversation.create({
        data: { accountId, assistantId, channel: "api", customerIdentifier },
      });
      return { ...created, assistant };
    } catch (error) {
      // Two first messages of one customer at once: the other request created it a moment ago.
      if ((error as { code?: string }).code !== "P2002") throw error;
      return { ...(await this.prisma.conversation.findUniqueOrThrow({ where: key })), assistant };
    }
  }

  /**
   * Answers one customer message. While a person has taken over, the message is only stored. Else
   * the price is reserved first (refused if the balance cannot cover it), the reply generated, and
   * the exchange stored with the debit linked to the customer's message; if anything fails before
   * the exchange is stored, the money is given back and nothing is stored. Answers assembled
   * without a model are free. New variables are kept on the conversation.
   */
  async process(
    conversation: ConversationWithAssistant,
    text: string,
    requestVariables: Variables,
    charge: Charge,
  ): Promise<MessageOutcome> {
    const conversationVariables = mergeVariables(conversation.variables as Variables, requestVariables);
    const changedVariables = Object.keys(requestVariables).length > 0 ? conversationVariables : null;
    if (conversation.aiDisabled) {
      const { messages, updated } = await this.store(conversation, [{ role: "user", content: text }], {
        variables: changedVariables,
      });
      const userMessage = messages[0]!;
      this.announce(userMessage);
      return {
        conversation: updated,
        userMessage,
        replyMessage: null,
        reply: "",
        functionCalls: [],
        aiDisabled: true,
      };
    }

    const paid = {
      accountId: conversation.accountId,
      amount: this.parts.engine.modelConfigured ? charge.price : "0",
      kind: charge.kind,
      description: `${charge.kind === "reply_debit" ? "Generated reply" : "Widget message"} in conversation ${conversation.id}`,
    };
    return this.parts.billing.payFor(paid, async (reservation) => {
      const result = await this.reply(conversation, text, conversationVariables);
      const { messages, updated } = await this.storeExchange(
        conversation,
        [
          { role: "user", content: text },
          { role: "assistant", content: result.reply, functionCalls: result.functionCalls },
        ],
        { variables: changedVariables, paidBy: reservation },
      );
      const [userMessage, replyMessage] = messages as [Message, Message];
      this.announce(userMessage);
      this.announce(replyMessage);
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

  /** The assistant's reply to `text`; any failure is an UPSTREAM_FAILED error for the customer. */
  private async reply(
    conversation: ConversationWithAssistant,
    text: string,
    conversationVariables: Variables,
  ): Promise<ReplyResult> {
    try {
      const [history, passages] = await Promise.all([
        this.recentHistory(conversation.id),
        this.parts.engine.knowledgeFor(conversation.accountId, conversation.assistant, text),
      ]);
      return await this.parts.engine.generate({
        accountId: conversation.accountId,
        assistant: conversation.assistant,
        history: [...history, { role: "user", content: text }],
        passages,
        variables: mergeVariables(conversation.assistant.variables as Variables, conversationVariables),
        onDelta: (delta) =>
          this.deps.pubsub.publish("conversation:reply-delta", conversation.id, {
            conversationId: conversation.id,
            text: delta,
          }),
      });
    } catch (error) {
      if (error instanceof AppError) throw error;
      this.deps.logger.error("reply failed", { conversationId: conversation.id, error });
      throw new AppError("UPSTREAM_FAILED", "Failed to process message: internal error.");
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
      const exists = await this.prisma.conversation.count({ where: { id: conversation.id } });
      if (exists === 0) throw new ConversationNotFoundError();
      this.deps.logger.error("storing an exchange failed", { conversationId: conversation.id, error });
      throw error;
    }
  }

  /** The newest messages the model may be sent (the one being answered comes on top), oldest first. */
  private async recentHistory(conversationId: string): Promise<HistoryMessage[]> {
    const newestFirst = await this.prisma.message.findMany({
      where: { conversationId, role: { in: ["user", "assistant", "operator"] } },
      orderBy: { id: "desc" },
      take: HISTORY_MAX_MESSAGES - 1,
      select: { role: true, content: true },
    });
    return newestFirst.reverse().map((message) => ({
      role: message.role as HistoryMessage["role"],
      content: message.content,
    }));
  }

  /**
   * Appends messages to a conversation, in order, and touches it (with its new variables, if any);
   * with `paidBy`, the reservation's debit is linked to the first of them, the customer's message.
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
    const rows = messages.map(
      (message) =>
        Prisma.sql`(${conversation.id}::uuid, ${message.role}::"message_role", ${message.content}::text,
                    ${JSON.stringify(message.functionCalls ?? [])}::jsonb)`,
    );
    const stored = await this.prisma.$queryRaw<Message[]>`
      WITH appended AS (
        INSERT INTO "messages" ("conversationId", "role", "content", "functionCalls")
        VALUES ${Prisma.join(rows)}
        RETURNING "id", "conversationId", "role", "content", "functionCalls", "createdAt"),
      settled AS (
        UPDATE "ledger_entries"
        SET "messageId" = (SELECT min("id") FROM appended), "heldUntil" = NULL
        WHERE "id" = ${options.paidBy?.ledgerEntryId ?? null}::integer AND "heldUntil" IS NOT NULL),
      touched AS (
        UPDATE "conversations"
        SET "updatedAt" = ${now}::timestamptz,
            "variables" = COALESCE(${variables === null ? null : JSON.stringify(variables)}::jsonb, "variables")
        WHERE "id" = ${conversation.id}::uuid)
      SELECT * FROM appended ORDER BY "id"`;
    const { assistant: _assistant, ...plain } = conversation as ConversationWithAssistant;
    return {
      messages: stored.map((message) => ({ ...message, id: Number(message.id) })),
      updated: { ...plain, updatedAt: now, variables: variables ?? conversation.variables },
    };
  }

  private withLiveAssistant(id: string): Promise<ConversationWithAssistant | null> {
    if (!UUID.test(id)) return Promise.resolve(null);
    return this.prisma.conversation.findFirst({
      where: { id, assistant: { deletedAt: null } },
      include: { assistant: { select: replyAssistantColumns } },
    });
  }

  private announce(message: Message): void {
    this.deps.pubsub.publish("conversation:message", message.conversationId, {
      conversationId: message.conversationId,
      messageId: message.id,
    });
  }
}

/**
 * An empty allow-list admits every origin. Otherwise the request's Origin must be listed (compared
 * as scheme://host:port, so a trailing slash or letter case does not matter); a request without an
 * Origin (not from a browser page) is refused too, as it cannot prove where it comes from.
 */
export function originAllowed(allowed: readonly string[], origin: string | null): boolean {
  if (allowed.length === 0) return true;
  const normalised = normaliseOrigin(origin);
  return normalised !== null && allowed.some((entry) => normaliseOrigin(entry) === normalised);
}

function normaliseOrigin(value: string | null): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin.toLowerCase();
  } catch {
    return null;
  }
}
