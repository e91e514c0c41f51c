import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { parseInput, requiredString } from "../../validation.ts";
import type { Viewer } from "../auth/auth.service.ts";
import {
  type ConversationsService,
  type MessageOutcome,
  messageText,
  variablesInput,
} from "../conversations/conversations.service.ts";
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
    private readonly parts: { conversations: ConversationsService; rateLimits: RateLimitsService },
  ) {}

  async generateReply(
    viewer: Viewer,
    input: GenerateReplyInput,
    report: RateLimitReporter,
  ): Promise<MessageOutcome & { customerIdentifier: string }> {
    const limit = this.deps.config.rateLimits.replyPerMinute;
    await this.parts.rateLimits.consume(
      "reply",
      `${viewer.credential.kind}:${viewer.credential.id}`,
      report,
      `Too many requests: at most ${limit} replies per minute per API token.`,
    );
    const data = parseInput(GenerateReplyInput, input);
    const conversation = await this.parts.conversations.apiConversation(
      viewer.accountId,
      data.assistantId,
      data.customerIdentifier,
    );
    const outcome = await this.parts.conversations.process(conversation, data.message, data.variables, {
      price: this.deps.config.pricing.replyPrice,
      kind: "reply_debit",
    });
    return { ...outcome, customerIdentifier: data.customerIdentifier };
  }
}
