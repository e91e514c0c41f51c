import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError } from "../../errors.ts";
import type { Conversation, Message, Prisma } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import { BatchLoader } from "../common/batch-loader.ts";
import { type PageRequest, paginate } from "../common/pagination.ts";
import { isUuid } from "../common/uuid.ts";
import {
  type MessageOutcome,
  type MessagePipeline,
  messageText,
  variablesInput,
  WIDGET_MESSAGE_MAX,
} from "../message-pipeline/index.ts";

const StartTestInput = z.object({
  assistantId: z.number({ error: "The assistant id field must be an integer." }).int(),
  variables: variablesInput,
});

const ListInput = z.object({
  assistantId: z.number().int().nullish(),
  channel: z.enum(["api", "widget", "test", "sms"]).nullish(),
  unreadOnly: z.boolean().nullish(),
  waitingForHuman: z.boolean().nullish(),
});

/** Texts an operator's message in an `sms` conversation (the texts module's `TextConversations`). */
export interface OperatorTexting {
  sendOperatorText(conversation: Conversation, content: string): Promise<Message>;
}

/**
 * The owner's view of the account's conversations, of every channel: list and read them, try an
 * assistant out in a free test conversation, take a conversation over and answer as a person.
 */
export class ConversationsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { pipeline: MessagePipeline; texting: OperatorTexting },
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
  }

  list(
    accountId: number,
    filters: {
      assistantId?: number | null;
      channel?: string | null;
      unreadOnly?: boolean | null;
      waitingForHuman?: boolean | null;
    },
    page: PageRequest,
  ) {
    const { assistantId, channel, unreadOnly, waitingForHuman } = parseInput(ListInput, filters);
    const where: Prisma.ConversationWhereInput = {
      accountId,
      ...(assistantId ? { assistantId } : {}),
      ...(channel ? { channel } : {}),
      ...(unreadOnly
        ? { lastCustomerMessageId: { gt: this.prisma.conversation.fields.lastReadMessageId } }
        : {}),
      ...(waitingForHuman != null ? { humanRequestedAt: waitingForHuman ? { not: null } : null } : {}),
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
    const conversation = isUuid(id)
      ? await this.prisma.conversation.findFirst({ where: { id, accountId } })
      : null;
    if (!conversation) throw new NotFoundError("Conversation");
    return conversation;
  }

  /** The conversation's messages, oldest first; the caller has read the conversation through `get`. */
  messages(conversationId: string): Promise<Message[]> {
    return this.parts.pipeline.messages(conversationId);
  }

  /** One stored message, for the message subscription that announced it. */
  message(id: number): Promise<Message> {
    return this.prisma.message.findUniqueOrThrow({ where: { id } });
  }

  /** The newest message of a conversation, for an inbox preview. */
  lastMessage(conversation: Conversation): Promise<Message | null> {
    if (conversation.lastMessageAt === null) return Promise.resolve(null);
    return this.lastMessages.load(conversation.id);
  }

  /** An inbox page's previews in two statements, whatever its length. */
  private readonly lastMessages = new BatchLoader<string, Message | null>(async (conversationIds) => {
    const newest = await this.prisma.$queryRaw<{ id: number }[]>`
      SELECT DISTINCT ON ("conversationId") "id" FROM "messages"
      WHERE "conversationId" = ANY(${conversationIds}::uuid[])
      ORDER BY "conversationId", "id" DESC`;
    const messages = await this.prisma.message.findMany({
      where: { id: { in: newest.map((row) => row.id) } },
    });
    return new Map(messages.map((message) => [message.conversationId, message]));
  }, null);

  /** Every customer message stored so far counts as read, for everyone of the account. */
  async markRead(accountId: number, id: string): Promise<Conversation> {
    await this.get(accountId, id);
    // One statement on the row itself: two instances marking at once cannot move the mark backwards.
    await this.prisma.$executeRaw`
      UPDATE "conversations" SET "lastReadMessageId" = "lastCustomerMessageId" WHERE "id" = ${id}::uuid`;
    return this.get(accountId, id);
  }

  /** The conversation an inbox event names, as it is now. */
  activityConversation(event: { conversationId: string }): Promise<Conversation> {
    return this.prisma.conversation.findUniqueOrThrow({ where: { id: event.conversationId } });
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
    const withAssistant = await this.parts.pipeline.conversation(conversation.id);
    if (!withAssistant) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    return this.parts.pipeline.process(withAssistant, message, variables, {
      price: "0",
      kind: "message_debit",
    });
  }

  /**
   * A person takes over: customer messages are stored but no longer answered by the AI. Taking
   * over answers a request for a person (request_human): the conversation no longer waits.
   */
  async setAiDisabled(accountId: number, id: string, aiDisabled: boolean): Promise<Conversation> {
    await this.get(accountId, id);
    const conversation = await this.prisma.conversation.update({
      where: { id },
      data: { aiDisabled, ...(aiDisabled ? { humanRequestedAt: null } : {}) },
    });
    this.deps.pubsub.publish("conversation:activity", accountId, { conversationId: id, messageId: null });
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
    if (conversation.channel === "sms") return this.parts.texting.sendOperatorText(conversation, content);
    return this.parts.pipeline.appendOperatorMessage(conversation, content);
  }
}
