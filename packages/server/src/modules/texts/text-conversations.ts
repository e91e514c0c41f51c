import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError, RateLimitedError } from "../../errors.ts";
import type { Conversation, Message, Prisma, TextMessage } from "../../generated/prisma/client.ts";
import type { JobQueue } from "../../jobs/index.ts";
import type { ConversationWithAssistant, MessagePipeline } from "../message-pipeline/index.ts";
import type { RateLimitsService } from "../rate-limits/index.ts";
import type { RedactionService, Redactor } from "../redaction/index.ts";
import { ANSWER_TEXT_TASK } from "./inbound-texts.ts";
import { countSegments } from "./segments.ts";
import { MAX_TEXT_CHARACTERS, MAX_TEXT_SEGMENTS, type TextsService } from "./texts.service.ts";

/**
 * Conversations by text (docs/sms.md): a customer's text to one of the account's numbers joins the
 * `sms` conversation of that number's assistant with that customer (one per assistant and customer
 * number), is answered through the message pipeline like a widget message, and the reply goes back
 * as a text from the number the customer texted. An operator's message in such a conversation is
 * texted too.
 */
export class TextConversations {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      texts: TextsService;
      pipeline: MessagePipeline;
      jobs: JobQueue;
      rateLimits: RateLimitsService;
      /** An answered text's body is kept as its conversation message is: redacted. */
      redaction: Pick<RedactionService, "of">;
    },
  ) {
    parts.jobs.define(ANSWER_TEXT_TASK, {
      run: (payload) => this.answer(Number(payload.textId)),
    });
  }

  private get prisma() {
    return this.deps.db.prisma;
  }

  /**
   * Answers one inbound text (the job `receiveText` enqueued). Safe to run again after a stop at any
   * point: a text already linked to its conversation message is done; a customer message stored by
   * a run cut short before that link is found again rather than answered twice; a reply recorded as
   * a text but not yet handed to the carrier is sent by the sweep.
   */
  async answer(textId: number): Promise<void> {
    const text = await this.prisma.textMessage.findUnique({ where: { id: textId } });
    if (text?.direction !== "inbound" || text.messageId !== null) return;
    const log = { accountId: text.accountId, textId };
    const number = await this.prisma.phoneNumber.findFirst({
      where: { accountId: text.accountId, phoneNumber: text.to, releasedAt: null },
      select: { id: true, account: { select: { suspendedAt: true } } },
    });
    if (number?.account.suspendedAt) {
      // As its calls are refused: a suspended account's assistant does not answer.
      this.deps.logger.info("inbound text kept without a conversation: the account is suspended", log);
      return;
    }
    const assistant =
      number &&
      (await this.prisma.assistant.findFirst({
        where: { accountId: text.accountId, phoneNumberId: number.id, deletedAt: null },
        orderBy: { id: "asc" },
        select: { id: true },
      }));
    if (!assistant) {
      this.deps.logger.info("inbound text kept without a conversation: the number has no assistant", log);
      return;
    }
    const conversation = await this.conversationFor(text.accountId, assistant.id, text.from);
    const redactor = await this.parts.redaction.of(conversation.accountId, conversation.assistantId);
    const { userMessage, reply } =
      (await this.storedEarlier(conversation.id, text, redactor)) ??
      (await this.process(conversation.id, text));
    // The model has read the real words by now: the text keeps what its conversation message keeps.
    const link = (tx: Prisma.TransactionClient) =>
      tx.textMessage.update({
        where: { id: text.id },
        data: { conversationId: conversation.id, messageId: userMessage.id, body: redactor.text(text.body) },
      });
    const body = reply ? fitToText(reply.content) : "";
    if (!reply || body === "") {
      await link(this.prisma);
      return;
    }
    try {
      // The reply's text and the link that marks this text answered are one change: a run after a
      // stop either finds both or neither.
      await this.parts.texts.send(
        text.accountId,
        { from: text.to, to: text.from, body, conversationId: conversation.id },
        { messageId: reply.id, alsoInTransaction: async (tx) => void (await link(tx)) },
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      // Refused (opted out meanwhile, balance, number no longer able to text, carrier): the reply
      // stays in the conversation for the inbox; running again would be refused the same way.
      this.deps.logger.warn("reply to a text not sent", { ...log, code: error.code });
      const unlinked = await this.prisma.textMessage.count({ where: { id: text.id, messageId: null } });
      if (unlinked > 0) await link(this.prisma);
    }
  }

  /**
   * An operator's message in an `sms` conversation: checked as a text first (opted out, the number
   * can no longer text: refused, nothing stored), stored in the conversation, and texted from the
   * number the customer last texted.
   */
  async sendOperatorText(conversation: Conversation, content: string): Promise<Message> {
    const last = await this.prisma.textMessage.findFirst({
      where: { conversationId: conversation.id, direction: "inbound" },
      orderBy: { id: "desc" },
      select: { to: true, from: true },
    });
    if (!last) throw new NotFoundError("Text conversation", "CONVERSATION_NOT_FOUND");
    const request = { from: last.to, to: last.from, body: content, conversationId: conversation.id };
    await this.parts.texts.sendable(conversation.accountId, request);
    const message = await this.parts.pipeline.appendOperatorMessage(conversation, content);
    await this.parts.texts.send(conversation.accountId, request, { messageId: message.id });
    return message;
  }

  /** The assistant's `sms` conversation with the customer at `customerNumber`, created on the first text. */
  private async conversationFor(accountId: number, assistantId: number, customerNumber: string) {
    const key = {
      assistantId_channel_customerIdentifier: {
        assistantId,
        channel: "sms" as const,
        customerIdentifier: customerNumber,
      },
    };
    const existing = await this.prisma.conversation.findUnique({ where: key });
    if (existing) return existing;
    try {
      return await this.prisma.conversation.create({
        data: { accountId, assistantId, channel: "sms", customerIdentifier: customerNumber },
      });
    } catch (error) {
      // Two first texts of one customer at once: the other job created it a moment ago.
      if ((error as { code?: string }).code !== "P2002") throw error;
      return this.prisma.conversation.findUniqueOrThrow({ where: key });
    }
  }

  /**
   * The customer message (and its reply) a run cut short stored for this text before linking it: the
   * first customer message with its words stored since it arrived that no text claims.
   */
  private async storedEarlier(
    conversationId: string,
    text: TextMessage,
    redactor: Redactor,
  ): Promise<{ userMessage: Message; reply: Message | null } | null> {
    const claimed = await this.prisma.textMessage.findMany({
      where: { conversationId, direction: "inbound", messageId: { not: null } },
      select: { messageId: true },
    });
    const userMessage = await this.prisma.message.findFirst({
      where: {
        conversationId,
        role: "user",
        content: redactor.text(text.body),
        createdAt: { gte: text.createdAt },
        id: { notIn: claimed.map((row) => row.messageId!) },
      },
      orderBy: { id: "asc" },
    });
    if (!userMessage) return null;
    const next = await this.prisma.message.findFirst({
      where: { conversationId, id: { gt: userMessage.id }, role: { in: ["user", "assistant"] } },
      orderBy: { id: "asc" },
    });
    this.deps.logger.info("inbound text found answered by an earlier run", { textId: text.id });
    return { userMessage, reply: next?.role === "assistant" ? next : null };
  }

  /**
   * The pipeline's answer to the text, charged like a widget message. A customer who opted out of
   * texts, one texting faster than a widget visitor may write (the per-conversation limit), or an
   * account that cannot pay gets no reply: the text is stored in the conversation only, as while an
   * operator has taken over.
   */
  private async process(conversationId: string, text: TextMessage) {
    const conversation = await this.parts.pipeline.conversation(conversationId);
    if (!conversation) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    const charge = { price: this.deps.config.pricing.messagePrice, kind: "message_debit" as const };
    const storeOnly = (target: ConversationWithAssistant) =>
      this.parts.pipeline.process({ ...target, aiDisabled: true }, text.body, {}, charge);
    if (await this.parts.texts.optedOut(text.accountId, text.to, text.from)) {
      return this.outcome(await storeOnly(conversation));
    }
    if (!conversation.aiDisabled && !(await this.withinLimit(conversation.id))) {
      this.deps.logger.warn("inbound text not answered: the conversation's rate limit", { textId: text.id });
      return this.outcome(await storeOnly(conversation));
    }
    try {
      return this.outcome(await this.parts.pipeline.process(conversation, text.body, {}, charge));
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "INSUFFICIENT_BALANCE") throw error;
      this.deps.logger.warn("inbound text not answered: insufficient balance", { textId: text.id });
      return this.outcome(await storeOnly(conversation));
    }
  }

  private async withinLimit(conversationId: string): Promise<boolean> {
    try {
      await this.parts.rateLimits.consume("conversationMessage", conversationId, () => {}, "");
      return true;
    } catch (error) {
      if (error instanceof RateLimitedError) return false;
      throw error;
    }
  }

  private outcome(outcome: { userMessage: Message; replyMessage: Message | null }) {
    return { userMessage: outcome.userMessage, reply: outcome.replyMessage };
  }
}

/**
 * A reply cut to what one text may carry (the model is not told the limit): at most 1600
 * characters and 10 segments, ending with "..." when cut (GSM-7: an ellipsis character would make
 * the whole text UCS-2, fewer characters per segment).
 */
export function fitToText(reply: string): string {
  let body = reply.trim();
  if (body.length <= MAX_TEXT_CHARACTERS && countSegments(body).segments <= MAX_TEXT_SEGMENTS) return body;
  body = body.slice(0, MAX_TEXT_CHARACTERS - 3);
  while (countSegments(`${body}...`).segments > MAX_TEXT_SEGMENTS) body = body.slice(0, -20);
  // Never half of a surrogate pair.
  if (/[\uD800-\uDBFF]$/.test(body)) body = body.slice(0, -1);
  return `${body.trimEnd()}...`;
}
