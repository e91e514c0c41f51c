import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { timed } from "../../logger.ts";
import { parseInput, requiredString } from "../../validation.ts";
import type { ReplySettings, ReplySettingsCache } from "../assistants/index.ts";
import type { Viewer } from "../auth/auth.service.ts";
import {
  CONVERSATION_COLUMNS,
  type ConversationWithAssistant,
  type MessageOutcome,
  type MessagePipeline,
  messageText,
  RECENT_HISTORY_COLUMN,
  variablesInput,
} from "../message-pipeline/index.ts";
import type { RateLimitReporter, RateLimitsService } from "../rate-limits/rate-limits.service.ts";

/** generate-reply takes longer messages than the widget: integrations forward e-mails and tickets. */
export const REPLY_MESSAGE_MAX = 4000;

const GenerateReplyInput = z.object({
  assistantId: z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? "The assistant id field is required."
          : "The assistant id field must be an integer.",
    })
    .int("The assistant id field must be an integer."),
  customerIdentifier: requiredString("customer identifier", 255),
  message: messageText(REPLY_MESSAGE_MAX),
  variables: variablesInput,
});

export interface GenerateReplyInput {
  assistantId?: unknown;
  customerIdentifier?: unknown;
  message?: unknown;
  variables?: unknown;
}

/**
 * AI replies for integrations (`POST /ai/generate-reply`): one conversation per assistant and
 * external customer identifier, kept across calls, charged at the reply price.
 */
export class RepliesService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      pipeline: MessagePipeline;
      rateLimits: RateLimitsService;
      replySettings: ReplySettingsCache;
    },
  ) {}

  async generateReply(
    viewer: Viewer,
    input: GenerateReplyInput,
    report: RateLimitReporter,
  ): Promise<MessageOutcome & { customerIdentifier: string }> {
    const limit = this.deps.config.rateLimits.replyPerMinute;
    await timed("rateLimit", () =>
      this.parts.rateLimits.consume(
        "reply",
        `${viewer.credential.kind}:${viewer.credential.id}`,
        report,
        `Too many requests: at most ${limit} replies per minute per API token.`,
      ),
    );
    const data = parseInput(GenerateReplyInput, input);
    const assistant = this.parts.replySettings.get(viewer.accountId, data.assistantId);
    // Retrieval needs only the assistant (usually cached) and the question, so it starts before the
    // conversation is found and the price reserved, and its embedding call overlaps both. What it
    // costs when the message gets no model reply (a person has taken over, or the price is refused)
    // the rate limit bounds. It settles to no passages rather than reject, so it is never left
    // rejected when the lookup fails first.
    const knowledge = assistant.then(
      (found) => (found ? this.parts.pipeline.retrieve(viewer.accountId, found, data.message) : []),
      () => [],
    );
    const conversation = await this.apiConversation(
      viewer.accountId,
      assistant,
      data.assistantId,
      data.customerIdentifier,
    );
    const outcome = await this.parts.pipeline.process(
      conversation,
      data.message,
      data.variables,
      { price: this.deps.config.pricing.replyPrice, kind: "reply_debit" },
      knowledge,
    );
    return { ...outcome, customerIdentifier: data.customerIdentifier };
  }

  /**
   * Finds or creates the API conversation of one external customer of one of the account's
   * assistants. Both are looked up at once (the assistant's settings usually from the cache, the
   * conversation with the history a reply sends, in one statement); a conversation found under
   * another account's assistant is never used, since the assistant check fails first. The reply's
   * price is reserved by a statement of its own (`payFor`): reserving it in this one saved no
   * measurable time in a same-run A/B (bench/reply/README.md), and kept billing's SQL outside billing.
   */
  private async apiConversation(
    accountId: number,
    settings: Promise<ReplySettings | null>,
    assistantId: number,
    customerIdentifier: string,
  ): Promise<ConversationWithAssistant> {
    const [assistant, existing] = await Promise.all([
      settings,
      timed("conversation", () =>
        // Prepared: planned once per connection (a unique-key lookup, whose plan is the same for all).
        this.deps.db.withConnection((sql) =>
          sql.prepared<Omit<ConversationWithAssistant, "assistant">>(
            `SELECT ${CONVERSATION_COLUMNS}, ${RECENT_HISTORY_COLUMN} FROM "conversations"
             WHERE "assistantId" = $1 AND "channel" = 'api' AND "customerIdentifier" = $2`,
            [assistantId, customerIdentifier],
          ),
        ),
      ),
    ]);
    if (!assistant) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    if (existing[0]) return { ...existing[0], assistant };
    const prisma = this.deps.db.prisma;
    const key = {
      assistantId_channel_customerIdentifier: { assistantId, channel: "api" as const, customerIdentifier },
    };
    try {
      const created = await prisma.conversation.create({
        data: { accountId, assistantId, channel: "api", customerIdentifier },
      });
      return { ...created, assistant, recentHistory: [] };
    } catch (error) {
      // Two first messages of one customer at once: the other request created it a moment ago.
      if ((error as { code?: string }).code !== "P2002") throw error;
      return { ...(await prisma.conversation.findUniqueOrThrow({ where: key })), assistant };
    }
  }
}
