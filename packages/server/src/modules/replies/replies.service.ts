import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { NotFoundError } from "../../errors.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { timed } from "../../logger.ts";
import { parseInput, requiredString } from "../../validation.ts";
import type { ReplySettingsCache } from "../assistants/index.ts";
import type { Viewer } from "../auth/auth.service.ts";
import type { BillingService, Reservation } from "../billing/index.ts";
import {
  type Charge,
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
      billing: BillingService;
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
    const charge: Charge = { price: this.deps.config.pricing.replyPrice, kind: "reply_debit" };
    const { conversation, reservation } = await this.apiConversation(
      viewer.accountId,
      data.assistantId,
      data.customerIdentifier,
      charge,
    );
    const outcome = await this.parts.pipeline.process(conversation, data.message, data.variables, {
      ...charge,
      ...(reservation ? { reservation } : {}),
    });
    return { ...outcome, customerIdentifier: data.customerIdentifier };
  }

  /**
   * Finds or creates the API conversation of one external customer of one of the account's
   * assistants. The assistant's settings (usually from the cache) and the conversation are looked
   * up at once; the conversation's statement also reads the history a reply sends and, when the
   * conversation exists and is answered by the model, reserves the reply's price (one round trip
   * for what took three). A first message is reserved by the pipeline instead, as is one whose
   * conversation the statement did not find answerable. A conversation found under another
   * account's assistant is never used, since the assistant check fails first.
   */
  private async apiConversation(
    accountId: number,
    assistantId: number,
    customerIdentifier: string,
    charge: Charge,
  ): Promise<{ conversation: ConversationWithAssistant; reservation?: Reservation }> {
    const answerable = Prisma.sql`EXISTS (
      SELECT 1 FROM "conversations" c JOIN "assistants" a ON a."id" = c."assistantId"
      WHERE c."assistantId" = ${assistantId}::integer AND c."customerIdentifier" = ${customerIdentifier}::text
        AND NOT c."aiDisabled" AND a."accountId" = ${accountId}::integer AND a."deletedAt" IS NULL)`;
    const steps = this.parts.pipeline.reservationSteps(
      accountId,
      charge,
      Prisma.sql`(SELECT "id" FROM "conversations"
                  WHERE "assistantId" = ${assistantId}::integer AND "customerIdentifier" = ${customerIdentifier}::text)`,
      answerable,
    );
    const statement = Prisma.sql`
      ${steps ? Prisma.sql`WITH ${steps}` : Prisma.empty}
      SELECT ${Prisma.raw(CONVERSATION_COLUMNS)}, ${Prisma.raw(RECENT_HISTORY_COLUMN)},
             ${steps ? Prisma.sql`${answerable} AS "reservable", (SELECT "id" FROM reservation)` : Prisma.sql`FALSE AS "reservable", NULL::integer`} AS "reservationId"
      FROM (SELECT 1) AS "one"
      LEFT JOIN "conversations" ON "assistantId" = ${assistantId}::integer AND "customerIdentifier" = ${customerIdentifier}::text`;
    const [assistant, [row]] = await Promise.all([
      this.parts.replySettings.get(accountId, assistantId),
      timed("conversation", () =>
        this.deps.db.withConnection((sql) =>
          sql.query<
            Omit<ConversationWithAssistant, "assistant"> & {
              reservable: boolean;
              reservationId: number | null;
            }
          >(statement.text, statement.values),
        ),
      ),
    ]);
    const { reservable, reservationId, ...found } = row!;
    const reservation = reservable
      ? this.parts.pipeline.reservationTaken(accountId, charge, reservationId)
      : undefined;
    if (!assistant) {
      // Deleted between the statement's check and the settings' read: nothing is answered or kept.
      if (reservation) await this.parts.billing.release(reservation);
      throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    }
    if (found.id !== null)
      return { conversation: { ...found, assistant }, ...(reservation ? { reservation } : {}) };
    const prisma = this.deps.db.prisma;
    const key = { assistantId_customerIdentifier: { assistantId, customerIdentifier } };
    try {
      const created = await prisma.conversation.create({
        data: { accountId, assistantId, channel: "api", customerIdentifier },
      });
      return { conversation: { ...created, assistant, recentHistory: [] } };
    } catch (error) {
      // Two first messages of one customer at once: the other request created it a moment ago.
      if ((error as { code?: string }).code !== "P2002") throw error;
      return {
        conversation: { ...(await prisma.conversation.findUniqueOrThrow({ where: key })), assistant },
      };
    }
  }
}
