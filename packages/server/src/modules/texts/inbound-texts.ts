import type { ServiceDeps } from "../../deps.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { KEYWORD_REPLIES, textKeyword } from "./keywords.ts";
import { countSegments } from "./segments.ts";
import type { TextOptOuts } from "./text-opt-outs.ts";

/** The background job that answers an inbound text in its conversation (`TextConversations`). */
export const ANSWER_TEXT_TASK = "texts.answer";

/**
 * Texts that arrive from customers, as the carrier delivers them: recorded once, keywords obeyed,
 * anything else left to the number's assistant.
 */
export class InboundTexts {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { jobs: JobQueue; optOuts: TextOptOuts },
  ) {}

  /**
   * A text arrived on `to`: recorded for the account that holds the number (once, however often the
   * carrier delivers it), with its keyword obeyed. The answer is the keyword's fixed reply; any other
   * text is answered by the number's assistant in its conversation (`TextConversations`), later.
   */
  async receiveText(request: {
    carrier: string;
    providerMessageId: string;
    from: string;
    to: string;
    body: string;
  }): Promise<{ textId: number | null; reply: string | null }> {
    const prisma = this.deps.db.prisma;
    const number = await prisma.phoneNumber.findFirst({
      where: { phoneNumber: request.to, releasedAt: null },
    });
    if (!number) {
      this.deps.logger.warn("inbound text to a number nobody holds", { to: request.to });
      return { textId: null, reply: null };
    }
    const keyword = textKeyword(request.body);
    const count = countSegments(request.body);
    try {
      const text = await prisma.$transaction(async (tx) => {
        const created = await tx.textMessage.create({
          data: {
            accountId: number.accountId,
            direction: "inbound",
            from: request.from,
            to: request.to,
            body: request.body,
            encoding: count.encoding,
            segments: count.segments,
            status: "received",
            providerName: request.carrier,
            providerMessageId: request.providerMessageId,
          },
        });
        if (keyword && keyword.kind !== "help") {
          await this.parts.optOuts.record(number.accountId, request.to, request.from, keyword, tx);
        }
        // Answered in the background, so the carrier's webhook is answered at once; enqueued with
        // the text, so a restart cannot lose the answer, and once, as the text is recorded once.
        if (!keyword) {
          await this.parts.jobs.enqueue(ANSWER_TEXT_TASK, { textId: created.id }, { tx });
        }
        return created;
      });
      return { textId: text.id, reply: keyword ? KEYWORD_REPLIES[keyword.kind] : null };
    } catch (error) {
      // A repeated delivery: recorded and answered the first time.
      if ((error as { code?: string }).code !== "P2002") throw error;
      return { textId: null, reply: null };
    }
  }
}
