import { filter, pipe } from "graphql-yoga";
import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, ConversationNotFoundError, NotFoundError } from "../../errors.ts";
import type { Conversation, Message } from "../../generated/prisma/client.ts";
import { parseInput } from "../../validation.ts";
import { isUuid } from "../common/uuid.ts";
import {
  type ConversationWithAssistant,
  type MessageOutcome,
  type MessagePipeline,
  messageText,
  type VisitorDetails,
  variablesInput,
  visitorDetails,
  WIDGET_MESSAGE_MAX,
} from "../message-pipeline/index.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import { originAllowed } from "./origins.ts";

const TOO_MANY_MESSAGES = "Too many messages. Please wait a moment.";
const TOO_MANY_CONVERSATIONS = "Too many conversations started. Please wait a moment.";
const ACCOUNT_SUSPENDED = "This assistant is not available.";
const ORIGIN_NOT_ALLOWED = "This origin is not allowed to use this assistant.";

/** Where a public request comes from: the page's origin (as the browser reports it) and the client's address. */
export interface WidgetCaller {
  origin: string | null;
  clientAddress: string;
  /** The request's headers (user agent, the trusted country header); absent over a WebSocket. */
  headers?: Headers | null;
}

/**
 * The public widget API, used without a credential by website visitors: an assistant by its UUID,
 * conversations started on it and read and written by their UUID (the capability). Guards every
 * request with the assistant's origin allow-list and the per-client and per-conversation limits.
 */
export class WidgetService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { pipeline: MessagePipeline; rateLimits: RateLimitsService },
  ) {}

  /** What the widget shows before a conversation starts; a deleted assistant is not found. */
  async assistant(uuid: string) {
    const assistant = isUuid(uuid)
      ? await this.deps.db.prisma.assistant.findFirst({
          where: { uuid, deletedAt: null, account: { suspendedAt: null } },
        })
      : null;
    if (!assistant) throw new NotFoundError("Assistant");
    return assistant;
  }

  /** The assistant as a page of `origin` may use it: FORBIDDEN when its allow-list leaves the page out. */
  async publicAssistant(uuid: string, origin: string | null) {
    const assistant = await this.assistant(uuid);
    if (!originAllowed(assistant.allowedOrigins, origin)) throw new AppError("FORBIDDEN", ORIGIN_NOT_ALLOWED);
    return assistant;
  }

  async startConversation(
    input: { assistantUuid: string; variables?: unknown; pageUrl?: string | null },
    caller: WidgetCaller,
    report: RateLimitReporter,
  ): Promise<{ conversation: Conversation; initialMessage: string }> {
    await this.parts.rateLimits.consume("widgetStart", caller.clientAddress, report, TOO_MANY_CONVERSATIONS);
    const assistant = await this.publicAssistant(input.assistantUuid, caller.origin);
    const { variables } = parseInput(z.object({ variables: variablesInput }), { variables: input.variables });
    const conversation = await this.deps.db.prisma.conversation.create({
      data: {
        accountId: assistant.accountId,
        assistantId: assistant.id,
        channel: "widget",
        variables,
        origin: caller.origin,
        ...this.visitor(caller, input.pageUrl),
      },
    });
    return { conversation, initialMessage: assistant.initialMessage };
  }

  /**
   * A widget conversation by its UUID, which is the capability to read and write it, used from a
   * page of `origin`: the assistant's allow-list, as it is now, applies to every request.
   */
  async conversation(id: string, origin: string | null): Promise<ConversationWithAssistant> {
    const conversation = await this.parts.pipeline.conversation(id);
    if (conversation?.channel !== "widget") throw new ConversationNotFoundError();
    // The page's assistant decides, also after a hand-off to one with other origins.
    const own = conversation.entryAssistant ?? conversation.assistant;
    if (!originAllowed(own.allowedOrigins, origin)) throw new AppError("FORBIDDEN", ORIGIN_NOT_ALLOWED);
    const suspended = await this.deps.db.prisma.account.count({
      where: { id: conversation.accountId, suspendedAt: { not: null } },
    });
    if (suspended > 0) throw new AppError("FORBIDDEN", ACCOUNT_SUSPENDED);
    return conversation;
  }

  /** The conversation's messages, oldest first; the caller has passed `conversation`'s checks. */
  messages(conversationId: string): Promise<Message[]> {
    return this.parts.pipeline.messages(conversationId);
  }

  /** The AI's and operators' messages of a widget conversation, as they are stored. */
  async events(id: string, caller: WidgetCaller, report: RateLimitReporter) {
    // A (re)connection costs what a message does: a page cannot open streams faster than it could write.
    await this.parts.rateLimits.consume("widgetMessage", caller.clientAddress, report, TOO_MANY_MESSAGES);
    const conversation = await this.conversation(id, caller.origin);
    return pipe(
      this.deps.pubsub.subscribe("conversation:message", conversation.id),
      // The visitor's own messages are already on their screen.
      filter((event) => event.role !== "user"),
    );
  }

  /** A message an event of `events` announced. */
  message(id: number): Promise<Message> {
    return this.deps.db.prisma.message.findUniqueOrThrow({ where: { id } });
  }

  async sendMessage(
    input: { conversationId: string; message: unknown; pageUrl?: string | null },
    caller: WidgetCaller,
    report: RateLimitReporter,
  ): Promise<MessageOutcome> {
    await this.parts.rateLimits.consume("widgetMessage", caller.clientAddress, report, TOO_MANY_MESSAGES);
    const { message } = parseInput(z.object({ message: messageText(WIDGET_MESSAGE_MAX) }), input);
    const conversation = await this.conversation(input.conversationId, caller.origin);
    await this.parts.rateLimits.consume("conversationMessage", conversation.id, report, TOO_MANY_MESSAGES);
    return this.parts.pipeline.process(
      conversation,
      message,
      {},
      { price: this.deps.config.pricing.messagePrice, kind: "message_debit" },
      undefined,
      this.visitor(caller, input.pageUrl),
    );
  }

  /** What the inbox shows of where a visitor writes from (docs/console.md "Inbox"). */
  private visitor(caller: WidgetCaller, pageUrl: string | null | undefined): VisitorDetails {
    const countryHeader = this.deps.config.visitorCountryHeader;
    return visitorDetails({
      pageUrl,
      origin: caller.origin,
      userAgent: caller.headers?.get("user-agent") ?? null,
      countryHeaderValue: countryHeader ? (caller.headers?.get(countryHeader) ?? null) : null,
    });
  }
}
