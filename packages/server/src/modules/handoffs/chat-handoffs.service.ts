import { z } from "zod";
import { type Clock, systemClock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError, ValidationError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import { type Conversation, Prisma } from "../../generated/prisma/client.ts";
import { ianaTimezone, parseInput, requiredString } from "../../validation.ts";
import { type BusinessHours, BusinessHoursInput } from "../calendars/index.ts";
import {
  answeringAssistantId,
  type ConversationTurn,
  type FunctionSet,
  type RealtimeFunction,
  refused,
  runBuiltin,
} from "../message-pipeline/index.ts";
import { describeLocal, isOpen, nextOpening } from "./business-hours.ts";
import {
  HANDOFF_TOOL_NAME,
  type HandoffTargetView,
  handoffDefinition,
  REQUEST_HUMAN_TOOL_NAME,
  requestHumanDefinition,
} from "./chat-functions.ts";
import { nextHandoff } from "./handoff-rules.ts";

/** Assistants one assistant may hand to: all of them are described to the model on every reply. */
export const MAX_HANDOFF_TARGETS = 10;

/** Channels whose conversations take these functions: a customer writes in them live. */
const CHAT_CHANNELS: ReadonlySet<Conversation["channel"]> = new Set(["widget", "sms"]);

const SettingsInput = z.object({
  assistantId: z.number({ error: "The assistant id field must be an integer." }).int(),
  requestHuman: z.boolean({ error: "The request human field must be a boolean." }).optional(),
  timezone: ianaTimezone().optional(),
  humanHours: BusinessHoursInput.nullish(),
  targets: z
    .array(
      z.object({
        assistantId: z.number({ error: "The assistant id field must be an integer." }).int(),
        description: requiredString("description", 500),
      }),
    )
    .max(MAX_HANDOFF_TARGETS, `At most ${MAX_HANDOFF_TARGETS} hand-off targets.`)
    .optional(),
});

export interface ChatHandoffSettingsView {
  assistantId: number;
  requestHuman: boolean;
  timezone: string;
  humanHours: BusinessHours | null;
  targets: HandoffTargetView[];
}

/** What `request_human` did; its `tell_customer` is what the model is asked to say. */
interface HumanRequestResult {
  waiting: true;
  already_requested: boolean;
  people_available_now: boolean;
  next_available: string | null;
  tell_customer: string;
}

/**
 * Hand-offs in chat (docs/transfers.md): `request_human` marks a widget or sms conversation as
 * waiting for a person (operators see it, a webhook goes out, taking over answers it), and
 * `handoff` moves it to another assistant of the account that the answering assistant lists as a
 * target. Both are function sets the message pipeline's replies are given.
 */
export class ChatHandoffsService {
  private readonly clock: Clock;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { events: EventSink; clock?: Clock },
  ) {
    this.clock = parts.clock ?? systemClock;
  }

  private get prisma() {
    return this.deps.db.prisma;
  }

  private async assistant(accountId: number, assistantId: number) {
    const assistant = await this.prisma.assistant.findFirst({
      where: { id: assistantId, accountId, deletedAt: null },
      select: { id: true, timezone: true },
    });
    if (!assistant) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    return assistant;
  }

  /** An assistant's chat hand-off settings (defaults when never set: nothing offered). */
  async settings(accountId: number, assistantId: number): Promise<ChatHandoffSettingsView> {
    const assistant = await this.assistant(accountId, assistantId);
    const [row, targets] = await Promise.all([
      this.prisma.assistantHandoffSettings.findUnique({ where: { assistantId } }),
      this.targets(accountId, assistantId),
    ]);
    return {
      assistantId,
      requestHuman: row?.requestHuman ?? false,
      timezone: row?.timezone ?? assistant.timezone,
      humanHours: (row?.humanHours as BusinessHours | null | undefined) ?? null,
      targets,
    };
  }

  /** The live assistants of the account `assistantId` may hand to, in the order set. */
  private async targets(accountId: number, assistantId: number): Promise<HandoffTargetView[]> {
    const rows = await this.prisma.assistantHandoffTarget.findMany({
      where: { assistantId, accountId, target: { accountId, deletedAt: null } },
      include: { target: { select: { name: true } } },
      orderBy: { position: "asc" },
    });
    return rows.map((row) => ({
      assistantId: row.targetAssistantId,
      name: row.target.name,
      description: row.description,
    }));
  }

  /**
   * Sets the given settings; `targets` replaces the list. Targets must be other live assistants of
   * the same account (another account's id answers as not found, as everywhere).
   */
  async setSettings(accountId: number, input: unknown): Promise<ChatHandoffSettingsView> {
    const parsed = parseInput(SettingsInput, input);
    const assistant = await this.assistant(accountId, parsed.assistantId);
    const targets = parsed.targets;
    if (targets) {
      const ids = targets.map((target) => target.assistantId);
      if (new Set(ids).size !== ids.length)
        throw ValidationError.single("targets", "Each hand-off target may be listed once.");
      if (ids.includes(assistant.id))
        throw ValidationError.single("targets", "An assistant cannot hand a conversation to itself.");
      const found = await this.prisma.assistant.count({
        where: { id: { in: ids }, accountId, deletedAt: null },
      });
      if (found !== ids.length) throw new NotFoundError("Assistant", "ASSISTANT_NOT_FOUND");
    }
    const hours =
      parsed.humanHours === undefined
        ? undefined
        : parsed.humanHours === null
          ? Prisma.DbNull
          : (Object.fromEntries(
              Object.entries(parsed.humanHours).filter(([, ranges]) => ranges && ranges.length > 0),
            ) as Prisma.InputJsonValue);
    await this.prisma.$transaction(async (tx) => {
      await tx.assistantHandoffSettings.upsert({
        where: { assistantId: assistant.id },
        create: {
          assistantId: assistant.id,
          accountId,
          requestHuman: parsed.requestHuman ?? false,
          timezone: parsed.timezone ?? assistant.timezone,
          ...(hours !== undefined ? { humanHours: hours } : {}),
        },
        update: {
          ...(parsed.requestHuman !== undefined ? { requestHuman: parsed.requestHuman } : {}),
          ...(parsed.timezone !== undefined ? { timezone: parsed.timezone } : {}),
          ...(hours !== undefined ? { humanHours: hours } : {}),
        },
      });
      if (targets) {
        await tx.assistantHandoffTarget.deleteMany({ where: { assistantId: assistant.id } });
        await tx.assistantHandoffTarget.createMany({
          data: targets.map((target, position) => ({
            assistantId: assistant.id,
            targetAssistantId: target.assistantId,
            accountId,
            description: target.description,
            position,
          })),
        });
      }
    });
    this.deps.logger.info("chat hand-off settings changed", { accountId, assistantId: assistant.id });
    return this.settings(accountId, assistant.id);
  }

  /**
   * The hand-off functions of a widget or sms reply: `request_human` when the answering assistant
   * offers people, `handoff` when it lists targets. Null when neither applies.
   */
  async functionsFor(turn: ConversationTurn): Promise<FunctionSet | null> {
    if (!CHAT_CHANNELS.has(turn.channel)) return null;
    const { settings, targets } = await this.replyOffer(turn.accountId, turn.assistantId);
    const offerHuman = settings?.requestHuman ?? false;
    if (!offerHuman && targets.length === 0) return null;
    const definitions: RealtimeFunction[] = [];
    if (offerHuman) definitions.push(requestHumanDefinition());
    if (targets.length > 0) definitions.push(handoffDefinition(targets));
    return {
      definitions: () => definitions,
      run: async (name, args) => {
        if (name === REQUEST_HUMAN_TOOL_NAME && offerHuman) {
          return runBuiltin(name, args, () =>
            this.requestHuman(turn, {
              reason: typeof args.reason === "string" ? args.reason.trim().slice(0, 500) || null : null,
              schedule: {
                timezone: settings!.timezone,
                hours: settings!.humanHours,
              },
            }),
          );
        }
        if (name === HANDOFF_TOOL_NAME && targets.length > 0) {
          const to = Number(args.assistant_id);
          const target = targets.find((candidate) => candidate.assistantId === to);
          if (!target)
            return refused(name, "assistant_id must be one of the assistants listed in this function.", args);
          const reason = typeof args.reason === "string" ? args.reason.trim().slice(0, 500) || null : null;
          return runBuiltin(name, args, () => this.handoff(turn, target, reason));
        }
        return undefined;
      },
    };
  }

  /**
   * What a reply of `assistantId` offers: its settings (null: never set) and live targets, in one
   * prepared statement, as every widget and sms reply asks.
   */
  private async replyOffer(accountId: number, assistantId: number) {
    const [row] = await this.deps.db.withConnection((sql) =>
      sql.prepared<{
        requestHuman: boolean | null;
        timezone: string | null;
        humanHours: BusinessHours | null;
        targets: HandoffTargetView[];
      }>(
        `SELECT s."requestHuman", s."timezone", s."humanHours",
           (SELECT coalesce(json_agg(json_build_object('assistantId', t."targetAssistantId", 'name', a."name",
                                                       'description', t."description") ORDER BY t."position"), '[]'::json)
            FROM "assistant_handoff_targets" t
            JOIN "assistants" a ON a."id" = t."targetAssistantId" AND a."accountId" = $2 AND a."deletedAt" IS NULL
            WHERE t."assistantId" = $1 AND t."accountId" = $2) AS "targets"
         FROM (SELECT 1) AS one
         LEFT JOIN "assistant_handoff_settings" s ON s."assistantId" = $1 AND s."accountId" = $2`,
        [assistantId, accountId],
      ),
    );
    const settings =
      row?.requestHuman == null
        ? null
        : { requestHuman: row.requestHuman, timezone: row.timezone!, humanHours: row.humanHours };
    return { settings, targets: row?.targets ?? [] };
  }

  /**
   * Marks the conversation as waiting for a person, once: asked again while it waits, nothing new
   * happens (no second webhook). The event is recorded with the change; operators' inboxes hear of it.
   */
  private async requestHuman(
    turn: ConversationTurn,
    request: { reason: string | null; schedule: { timezone: string; hours: BusinessHours | null } },
  ): Promise<HumanRequestResult> {
    const now = this.clock.now();
    const open = isOpen(request.schedule, now);
    const next = open ? null : nextOpening(request.schedule, now);
    const nextAvailable = next ? describeLocal(next, request.schedule.timezone) : null;
    const marked = await this.prisma.$transaction(async (tx) => {
      const { count } = await tx.conversation.updateMany({
        where: { id: turn.conversationId, accountId: turn.accountId, humanRequestedAt: null },
        data: { humanRequestedAt: now },
      });
      if (count === 0) return false;
      const conversation = await tx.conversation.findUniqueOrThrow({ where: { id: turn.conversationId } });
      await this.parts.events.emit(tx, {
        type: "conversation.human_requested",
        conversation,
        assistantId: turn.assistantId,
        reason: request.reason,
        nextOpenAt: next,
      });
      return true;
    });
    if (marked) {
      this.deps.pubsub.publish("conversation:activity", turn.accountId, {
        conversationId: turn.conversationId,
        messageId: null,
      });
      this.deps.logger.info("conversation waiting for a person", {
        accountId: turn.accountId,
        conversationId: turn.conversationId,
      });
    }
    return {
      waiting: true,
      already_requested: !marked,
      people_available_now: open,
      next_available: nextAvailable,
      tell_customer: open
        ? "A person of our team has been asked to join and will answer here shortly."
        : nextAvailable
          ? `Nobody of our team is available right now; someone will answer here from ${nextAvailable}.`
          : "Nobody of our team is available right now; someone will answer here as soon as possible.",
    };
  }

  /**
   * Moves the conversation to `target` from the next customer message on. Bounded: at most
   * MAX_HANDOFFS_PER_CONVERSATION, and never back to an assistant within the recent window. The
   * change is conditional on the conversation being as it was read, so two replies at once cannot
   * both hand it off.
   */
  private async handoff(turn: ConversationTurn, target: HandoffTargetView, reason: string | null) {
    const changed = await this.prisma.$transaction(async (tx) => {
      const conversation = await tx.conversation.findFirst({
        where: { id: turn.conversationId, accountId: turn.accountId },
      });
      if (!conversation) throw new NotFoundError("Conversation", "CONVERSATION_NOT_FOUND");
      const from = answeringAssistantId(conversation);
      if (from !== turn.assistantId)
        throw new AppError("CONFLICT", "This conversation was already handed to another assistant.");
      const next = await nextHandoff(
        tx,
        { noun: "conversation", party: "customer" },
        {
          accountId: turn.accountId,
          ownerAssistantId: conversation.assistantId,
          from,
          trail: conversation.handoffTrail,
        },
        target,
      );
      const { count } = await tx.conversation.updateMany({
        where: {
          id: conversation.id,
          activeAssistantId: conversation.activeAssistantId,
          handoffTrail: { equals: conversation.handoffTrail },
        },
        data: next,
      });
      if (count === 0)
        throw new AppError(
          "CONFLICT",
          "This conversation changed meanwhile; try again with the next message.",
        );
      const updated = await tx.conversation.findUniqueOrThrow({ where: { id: conversation.id } });
      await this.parts.events.emit(tx, {
        type: "conversation.handed_off",
        conversation: updated,
        fromAssistantId: from,
        toAssistantId: target.assistantId,
        reason,
      });
      return updated;
    });
    this.deps.pubsub.publish("conversation:activity", turn.accountId, {
      conversationId: changed.id,
      messageId: null,
    });
    this.deps.logger.info("conversation handed off", {
      accountId: turn.accountId,
      conversationId: changed.id,
      from: turn.assistantId,
      to: target.assistantId,
    });
    return {
      handed_off: true,
      to: { assistant_id: target.assistantId, name: target.name },
      tell_customer: `Tell the customer in one short sentence that ${target.name} takes over from their next message.`,
    };
  }
}
