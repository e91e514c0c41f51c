import { z } from "zod";
import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import {
  NotFoundError,
  NumberNotSmsCapableError,
  RecipientOptedOutError,
  SimulatedCarrierRequiredError,
  ValidationError,
} from "../../errors.ts";
import { Prisma, type TextMessage } from "../../generated/prisma/client.ts";
import type { JobQueue } from "../../jobs/index.ts";
import { parseInput, requiredString } from "../../validation.ts";
import type { BillingService } from "../billing/index.ts";
import { type Page, type PageRequest, paginate } from "../common/pagination.ts";
import { isUuid } from "../common/uuid.ts";
import type { FunctionSet } from "../message-pipeline/index.ts";
import { e164PhoneNumber } from "../phone-numbers/e164.ts";
import type { RedactionService } from "../redaction/index.ts";
import type { ProviderTextEvent, TextCarrier, TextDesk, TextSimulator } from "../telephony/index.ts";
import { InboundTexts } from "./inbound-texts.ts";
import { countSegments } from "./segments.ts";
import { TextOptOuts } from "./text-opt-outs.ts";
import type { TextQuietHours } from "./text-quiet-hours.ts";
import { textStatusesBefore } from "./text-status.ts";
import { textingFunctionSet } from "./texts.functions.ts";

/** Twilio's limit for one message's body; carriers split it into at most 10 segments in practice. */
export const MAX_TEXT_CHARACTERS = 1600;
export const MAX_TEXT_SEGMENTS = 10;

const SendTextInput = z.object({
  from: e164PhoneNumber("from"),
  to: e164PhoneNumber("to"),
  body: requiredString("body", MAX_TEXT_CHARACTERS),
  conversationId: z.string().refine(isUuid, "The conversation id field must be a UUID.").nullish(),
});

const SimulatedTextInput = z.object({
  to: e164PhoneNumber("to"),
  from: e164PhoneNumber("from"),
  body: requiredString("body", MAX_TEXT_CHARACTERS),
});

export interface SendTextRequest {
  from?: unknown;
  to?: unknown;
  body?: unknown;
  conversationId?: unknown;
}

/**
 * Text messages (docs/sms.md): an outbound text leaves only from the account's own active
 * SMS-capable number, never to a customer who opted out of that number; it is recorded and charged
 * its segments in one transaction before the carrier is asked, and refunded in the transaction that
 * records its failure when the carrier refuses it or reports it failed. The carrier's status reports
 * move a text forward only; a final status is never changed. Inbound texts are recorded, their
 * opt-out, opt-in and HELP keywords obeyed and answered.
 */
export class TextsService implements TextDesk {
  private readonly optOuts: TextOptOuts;
  private readonly inbound: InboundTexts;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      carrier: TextCarrier;
      simulator: TextSimulator | null;
      billing: BillingService;
      jobs: JobQueue;
      clock: Clock;
      quietHours: TextQuietHours;
      /** A conversation's text, once handed to the carrier, keeps its body as its message does: redacted. */
      redaction: Pick<RedactionService, "of">;
      /**
       * Whether the number is an erased customer's who had opted out (docs/data-governance.md): the
       * erasure took the opt-out rows, the tombstone keeps the opt-out.
       */
      erasedOptOut?: (accountId: number, customerNumber: string) => Promise<boolean>;
    },
  ) {
    this.optOuts = new TextOptOuts(deps, parts.erasedOptOut);
    this.inbound = new InboundTexts(deps, { jobs: parts.jobs, optOuts: this.optOuts });
  }

  /**
   * Sends a text, or schedules it for the end of the account's quiet hours (`scheduled`, charged
   * now like any text) unless the recipient texted this number within the conversation window.
   * `messageId` names the conversation message the text carries.
   */
  async send(
    accountId: number,
    request: SendTextRequest,
    options: { messageId?: number; alsoInTransaction?: (tx: Prisma.TransactionClient) => Promise<void> } = {},
  ): Promise<TextMessage> {
    const input = await this.sendable(accountId, request);
    const count = countSegments(input.body);
    const prisma = this.deps.db.prisma;
    const now = this.parts.clock.now();
    const sendAt = await this.parts.quietHours.until(accountId, input.from, input.to, now);
    const amount = new Prisma.Decimal(this.deps.config.telephony.smsPricePerSegment)
      .mul(count.segments)
      .toFixed(4);
    const text = await prisma.$transaction(async (tx) => {
      const created = await tx.textMessage.create({
        data: {
          accountId,
          direction: "outbound",
          from: input.from,
          to: input.to,
          body: input.body,
          encoding: count.encoding,
          segments: count.segments,
          status: sendAt ? "scheduled" : "queued",
          sendAt,
          // Taken by this process at once; the sweep takes it over only if it is still unsent later.
          claimedAt: sendAt ? null : now,
          providerName: this.parts.carrier.name,
          conversationId: input.conversationId ?? null,
          messageId: options.messageId ?? null,
        },
      });
      await this.parts.billing.chargeText(tx, {
        accountId,
        textMessageId: created.id,
        amount,
        description: `Text #${created.id}: ${count.segments} segment${count.segments === 1 ? "" : "s"}`,
      });
      await options.alsoInTransaction?.(tx);
      return created;
    });
    this.parts.billing.balanceChanged(accountId);
    if (sendAt) {
      this.deps.logger.info("text scheduled after quiet hours", { accountId, textId: text.id, sendAt });
    } else {
      await this.deliver(text);
      this.deps.logger.info("text sent", { accountId, textId: text.id, segments: count.segments });
    }
    return prisma.textMessage.findUniqueOrThrow({ where: { id: text.id } });
  }

  /**
   * Everything `send` checks before anything is stored: the body, the account's own active
   * SMS-capable dedicated number, the conversation, the recipient's opt-out. Throws the refusal.
   */
  async sendable(accountId: number, request: SendTextRequest) {
    const input = parseInput(SendTextInput, request);
    const count = countSegments(input.body);
    if (count.segments > MAX_TEXT_SEGMENTS) {
      throw ValidationError.single(
        "body",
        `The body field takes ${count.segments} segments; a text may take at most ${MAX_TEXT_SEGMENTS}.`,
      );
    }
    const prisma = this.deps.db.prisma;
    const number = await prisma.phoneNumber.findFirst({
      where: { accountId, phoneNumber: input.from, releasedAt: null },
    });
    if (!number?.smsCapable || number.kind !== "normal" || number.status !== "active") {
      throw new NumberNotSmsCapableError(input.from);
    }
    if (input.conversationId) {
      const conversation = await prisma.conversation.findFirst({
        where: { id: input.conversationId, accountId },
        select: { id: true },
      });
      if (!conversation) throw new NotFoundError("Conversation", "CONVERSATION_NOT_FOUND");
    }
    if (await this.optedOut(accountId, input.from, input.to)) throw new RecipientOptedOutError(input.to);
    return input;
  }

  /**
   * Hands a recorded text to the carrier. A refusal fails and refunds it (and an opt-out the
   * carrier reports is recorded), then is thrown.
   */
  async deliver(text: Pick<TextMessage, "id" | "accountId" | "from" | "to" | "body">): Promise<void> {
    try {
      // Kept redacted from the moment it goes (the carrier is given the real words below); a run
      // cut short between the two sends the redacted body (a safe failure) when the sweep retries it.
      await this.redactSent(text);
      const { providerMessageId } = await this.parts.carrier.sendSms({
        textId: text.id,
        from: text.from,
        to: text.to,
        body: text.body,
      });
      // A status callback may have named it first.
      await this.deps.db.prisma.textMessage.updateMany({
        where: { id: text.id, providerMessageId: null },
        data: { providerMessageId },
      });
    } catch (error) {
      const refused = error instanceof Error ? error.message : String(error);
      await this.textEvent({ textId: text.id, status: "failed", errorMessage: refused.slice(0, 500) });
      if (error instanceof RecipientOptedOutError) {
        await this.optOuts.record(text.accountId, text.from, text.to, {
          kind: "opt-out",
          keyword: "CARRIER",
        });
      }
      throw error;
    }
  }

  /** The stored body of a conversation's text being sent, by the conversation's assistant's redaction. */
  private async redactSent(text: Pick<TextMessage, "id" | "body">): Promise<void> {
    const row = await this.deps.db.prisma.textMessage.findUnique({
      where: { id: text.id },
      select: { conversation: { select: { accountId: true, assistantId: true } } },
    });
    if (!row?.conversation) return;
    const redactor = await this.parts.redaction.of(row.conversation.accountId, row.conversation.assistantId);
    const body = redactor.text(text.body);
    if (body !== text.body)
      await this.deps.db.prisma.textMessage.update({ where: { id: text.id }, data: { body } });
  }

  /**
   * `send_sms` for a conversation with the customer at `to` through the account's number `from`
   * (a phone call's two ends): null when `from` cannot send texts, so the model is not offered it.
   */
  async textingFor(accountId: number, ends: { from: string; to: string }): Promise<FunctionSet | null> {
    const number = await this.deps.db.prisma.phoneNumber.findFirst({
      where: {
        accountId,
        phoneNumber: ends.from,
        releasedAt: null,
        smsCapable: true,
        kind: "normal",
        status: "active",
      },
      select: { id: true },
    });
    if (!number || !ends.to) return null;
    return textingFunctionSet(async (body) => {
      const text = await this.send(accountId, { from: ends.from, to: ends.to, body });
      return { textId: text.id, segments: text.segments, status: text.status };
    });
  }

  /** The account's texts, newest first. */
  async list(accountId: number, page: PageRequest): Promise<Page<TextMessage>> {
    const where = { accountId };
    return paginate(page, 25, {
      count: () => this.deps.db.prisma.textMessage.count({ where }),
      items: (skip, take) =>
        this.deps.db.prisma.textMessage.findMany({ where, orderBy: { id: "desc" }, skip, take }),
    });
  }

  /**
   * A carrier's report on an outbound text: applied if it moves the text forward (a final status is
   * never changed: a late or repeated report is ignored). A text the carrier failed is refunded in
   * the same transaction.
   */
  async textEvent(event: ProviderTextEvent): Promise<void> {
    const where =
      event.textId !== undefined
        ? { id: event.textId }
        : event.providerMessageId
          ? { providerName: this.parts.carrier.name, providerMessageId: event.providerMessageId }
          : null;
    if (!where) return;
    const outcome = await this.deps.db.prisma.$transaction(async (tx) => {
      const text = await tx.textMessage.findFirst({ where: { ...where, direction: "outbound" } });
      if (!text) return null;
      if (
        event.providerMessageId &&
        text.providerMessageId &&
        text.providerMessageId !== event.providerMessageId
      ) {
        return null;
      }
      const moved = await tx.textMessage.updateMany({
        where: { id: text.id, status: { in: textStatusesBefore(event.status) } },
        data: {
          status: event.status,
          ...(text.providerMessageId === null && event.providerMessageId
            ? { providerMessageId: event.providerMessageId }
            : {}),
          ...(event.errorCode !== undefined ? { errorCode: event.errorCode } : {}),
          ...(event.errorMessage !== undefined ? { errorMessage: event.errorMessage } : {}),
        },
      });
      if (moved.count === 0) return null;
      const refunded =
        event.status === "failed" &&
        (await this.parts.billing.refundText(tx, text.id, "the carrier did not send it"));
      return { accountId: text.accountId, refunded };
    });
    if (outcome?.refunded) this.parts.billing.balanceChanged(outcome.accountId);
  }

  /**
   * A text arrived on `to`: recorded for the account that holds the number (once, however often the
   * carrier delivers it), with its keyword obeyed (see InboundTexts).
   */
  receiveText(request: {
    carrier: string;
    providerMessageId: string;
    from: string;
    to: string;
    body: string;
  }): Promise<{ textId: number | null; reply: string | null }> {
    return this.inbound.receiveText(request);
  }

  /**
   * A text from `from` to one of the account's numbers on the simulated carrier, delivered as a
   * carrier's webhook would: returns the text recorded and the reply it got.
   */
  async simulateInbound(
    accountId: number,
    request: { to?: unknown; from?: unknown; body?: unknown },
  ): Promise<{ text: TextMessage; reply: string | null }> {
    const simulator = this.parts.simulator;
    if (!simulator) throw new SimulatedCarrierRequiredError(this.parts.carrier.name);
    const input = parseInput(SimulatedTextInput, request);
    const number = await this.deps.db.prisma.phoneNumber.findFirst({
      where: { accountId, phoneNumber: input.to, releasedAt: null },
      select: { id: true },
    });
    if (!number) throw new NotFoundError("Phone number");
    const { textId, reply } = await simulator.simulateIncomingText(input);
    if (textId === null) throw new NotFoundError("Phone number");
    const text = await this.deps.db.prisma.textMessage.findUniqueOrThrow({ where: { id: textId } });
    return { text, reply };
  }

  /** Whether `customerNumber` opted out of texts from the account's `accountNumber`. */
  optedOut(accountId: number, accountNumber: string, customerNumber: string): Promise<boolean> {
    return this.optOuts.optedOut(accountId, accountNumber, customerNumber);
  }

  /** Whether `customerNumber` opted out of texts from any of the account's numbers. */
  optedOutAnywhere(accountId: number, customerNumber: string): Promise<boolean> {
    return this.optOuts.optedOutAnywhere(accountId, customerNumber);
  }
}
