import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError } from "../../errors.ts";
import {
  type Conversation,
  type ConversationNote,
  type Message,
  Prisma,
} from "../../generated/prisma/client.ts";
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
import { type InboxFilterInput, InboxFilters, inboxWhere, unreadBy } from "./inbox-filters.ts";

const StartTestInput = z.object({
  assistantId: z.number({ error: "The assistant id field must be an integer." }).int(),
  variables: variablesInput,
});

const NOTE_MAX = 5000;

/** The member acting in the inbox: their account, and who they are (read marks, "assigned to me"). */
export interface InboxMember {
  accountId: number;
  userId: number;
}

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

  /**
   * The account's conversations the filters keep, most recently active first: one statement for the
   * total and one for the page (the same conditions, see `inboxWhere`).
   */
  list(member: InboxMember, filters: InboxFilterInput, page: PageRequest) {
    const where = inboxWhere(member.accountId, member.userId, parseInput(InboxFilters, filters));
    return paginate(page, 15, {
      count: async () => {
        const [row] = await this.prisma.$queryRaw<{ count: number }[]>`
          SELECT count(*)::int AS "count" FROM "conversations" c WHERE ${where}`;
        return row?.count ?? 0;
      },
      items: (skip, take) =>
        this.prisma.$queryRaw<Conversation[]>`
          SELECT c.* FROM "conversations" c WHERE ${where}
          ORDER BY c."updatedAt" DESC, c."id" DESC LIMIT ${take} OFFSET ${skip}`,
    });
  }

  /** Open conversations with a customer message the member has not read (the navigation's badge). */
  async unreadCount(member: InboxMember): Promise<number> {
    const [row] = await this.prisma.$queryRaw<{ count: number }[]>`
      SELECT count(*)::int AS "count" FROM "conversations" c
      WHERE c."accountId" = ${member.accountId} AND c."status" = 'open'::"conversation_status"
        AND c."lastCustomerMessageId" > 0 AND ${unreadBy(member.userId)}`;
    return row?.count ?? 0;
  }

  /** Whether a customer message arrived after the member last read the conversation. */
  async unreadBy(conversation: Conversation, userId: number): Promise<boolean> {
    if (conversation.lastCustomerMessageId === 0) return false;
    const read = await this.readMarks.load(`${userId}:${conversation.id}`);
    return conversation.lastCustomerMessageId > read;
  }

  /** A page's read marks of one member in one statement; keys are `userId:conversationId`. */
  private readonly readMarks = new BatchLoader<string, number>(async (keys) => {
    const pairs = keys.map((key) => {
      const [userId, conversationId] = key.split(":") as [string, string];
      return Prisma.sql`(${Number(userId)}::integer, ${conversationId}::uuid)`;
    });
    const rows = await this.prisma.$queryRaw<
      { userId: number; conversationId: string; lastReadMessageId: number }[]
    >`SELECT r."userId", r."conversationId", r."lastReadMessageId" FROM "conversation_reads" r
      WHERE (r."userId", r."conversationId") IN (${Prisma.join(pairs)})`;
    return new Map(rows.map((row) => [`${row.userId}:${row.conversationId}`, row.lastReadMessageId]));
  }, 0);

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

  /**
   * Every customer message stored so far counts as read by this member (others keep their own
   * marks). The account-level mark (`lastReadMessageId`) still follows: someone of the account read it.
   */
  async markRead(member: InboxMember, id: string): Promise<Conversation> {
    await this.get(member.accountId, id);
    // Single statements on keyed rows: two tabs marking at once cannot move a mark backwards.
    await this.prisma.$executeRaw`
      INSERT INTO "conversation_reads" ("conversationId", "userId", "lastReadMessageId")
      SELECT "id", ${member.userId}, "lastCustomerMessageId" FROM "conversations" WHERE "id" = ${id}::uuid
      ON CONFLICT ("conversationId", "userId") DO UPDATE
      SET "lastReadMessageId" = GREATEST("conversation_reads"."lastReadMessageId", EXCLUDED."lastReadMessageId")`;
    await this.prisma.$executeRaw`
      UPDATE "conversations" SET "lastReadMessageId" = "lastCustomerMessageId" WHERE "id" = ${id}::uuid`;
    this.activity(member.accountId, id, { kind: "read", userId: member.userId });
    return this.get(member.accountId, id);
  }

  /**
   * Resolves a conversation or reopens it. Resolving does not stop the AI nor a take-over; a
   * customer's next message reopens it (the message pipeline's store).
   */
  async setStatus(accountId: number, id: string, status: "open" | "resolved"): Promise<Conversation> {
    await this.get(accountId, id);
    const conversation = await this.prisma.conversation.update({
      where: { id },
      data: { status, resolvedAt: status === "resolved" ? new Date() : null },
    });
    this.activity(accountId, id, { kind: "status" });
    this.deps.logger.info(status === "resolved" ? "conversation resolved" : "conversation reopened", {
      accountId,
      conversationId: id,
    });
    return conversation;
  }

  /** Assigns a conversation to a member of its account, or unassigns it (null). */
  async assign(accountId: number, id: string, input: { userId: unknown }): Promise<Conversation> {
    const { userId } = parseInput(
      z.object({ userId: z.number({ error: "The user id field must be an integer." }).int().nullable() }),
      input,
    );
    await this.get(accountId, id);
    if (userId !== null) {
      // Another account's user answers like one that does not exist.
      const member = await this.prisma.user.count({ where: { id: userId, accountId } });
      if (member === 0) throw new NotFoundError("User");
    }
    const conversation = await this.prisma.conversation.update({
      where: { id },
      data: { assigneeId: userId },
    });
    this.activity(accountId, id, { kind: "assignment" });
    this.deps.logger.info("conversation assigned", { accountId, conversationId: id, assigneeId: userId });
    return conversation;
  }

  /** The member a conversation is assigned to, for the inbox (a page's assignees in one statement). */
  assignee(conversation: Conversation) {
    return conversation.assigneeId === null ? null : this.members.load(conversation.assigneeId);
  }

  private readonly members = new BatchLoader<number, { id: number; name: string; email: string } | null>(
    async (ids) => {
      const users = await this.prisma.user.findMany({
        where: { id: { in: ids } },
        select: { id: true, name: true, email: true },
      });
      return new Map(users.map((user) => [user.id, user]));
    },
    null,
  );

  /**
   * A private note of a member: stored apart from the messages, so it never reaches the customer
   * (widget, texts), the model's history nor message webhooks.
   */
  async addNote(member: InboxMember, input: { conversationId: string; content: unknown }) {
    const { content } = parseInput(z.object({ content: messageText(NOTE_MAX, "content") }), input);
    const conversation = await this.get(member.accountId, input.conversationId);
    const note = await this.prisma.conversationNote.create({
      data: { conversationId: conversation.id, authorId: member.userId, content },
    });
    this.activity(member.accountId, conversation.id, { kind: "note", noteId: note.id });
    return note;
  }

  /** The conversation's notes, oldest first. */
  notes(conversationId: string): Promise<ConversationNote[]> {
    return this.prisma.conversationNote.findMany({ where: { conversationId }, orderBy: { id: "asc" } });
  }

  /** A note an inbox event announced. */
  note(id: number): Promise<ConversationNote | null> {
    return this.prisma.conversationNote.findUnique({ where: { id } });
  }

  /** A note's author (id and name); null once that user is gone. */
  noteAuthor(note: ConversationNote) {
    return note.authorId === null ? null : this.members.load(note.authorId);
  }

  private activity(
    accountId: number,
    conversationId: string,
    move: { kind: "status" | "assignment" | "note" | "read"; noteId?: number; userId?: number },
  ): void {
    this.deps.pubsub.publish("conversation:activity", accountId, {
      conversationId,
      messageId: null,
      ...move,
    });
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
