import type { ServiceDeps } from "../../deps.ts";
import { AppError, NotFoundError } from "../../errors.ts";
import type { EventSink } from "../../events.ts";
import { type FunctionSet, refused, runBuiltin } from "../message-pipeline/index.ts";
import { HANDOFF_TOOL_NAME, type HandoffTargetView, handoffDefinition } from "./chat-functions.ts";
import { nextHandoff } from "./handoff-rules.ts";

/** The live call a reply is for, and the assistant answering it now. */
export interface LiveCallTurn {
  callId: number;
  accountId: number;
  assistantId: number;
}

/** A hand-off recorded on a call: who answers from the next turn. */
export interface CallHandover {
  from: number;
  to: HandoffTargetView;
  reason: string | null;
}

/**
 * `handoff` on live calls (docs/transfers.md#live-call-hand-offs): the chat hand-off's targets,
 * bounds and webhook, recorded on the call. The voice engine applies the change between turns.
 */
export class CallHandoffsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { events: EventSink },
  ) {}

  private get prisma() {
    return this.deps.db.prisma;
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
   * `handoff` for a reply of the assistant answering a live call, when it lists targets; null
   * otherwise. `handedOver` hears of each hand-off recorded, for the engine to apply after the reply.
   */
  async functionsFor(
    turn: LiveCallTurn,
    handedOver: (handover: CallHandover) => void,
  ): Promise<FunctionSet | null> {
    const targets = await this.targets(turn.accountId, turn.assistantId);
    if (targets.length === 0) return null;
    const definition = handoffDefinition(targets, "the caller's next turn");
    return {
      definitions: () => [definition],
      run: async (name, args) => {
        if (name !== HANDOFF_TOOL_NAME) return undefined;
        const to = Number(args.assistant_id);
        const target = targets.find((candidate) => candidate.assistantId === to);
        if (!target)
          return refused(name, "assistant_id must be one of the assistants listed in this function.", args);
        const reason = typeof args.reason === "string" ? args.reason.trim().slice(0, 500) || null : null;
        return runBuiltin(name, args, async () => {
          await this.handoff(turn, target, reason);
          handedOver({ from: turn.assistantId, to: target, reason });
          return {
            handed_off: true,
            to: { assistant_id: target.assistantId, name: target.name },
            tell_customer: `Tell the caller in one short sentence that ${target.name} takes over now.`,
          };
        });
      },
    };
  }

  /**
   * Records the hand-off on the call, bounded as in chat, conditional on the call as it was read (a
   * second `handoff` in the same reply is refused), with its webhook in the same transaction.
   */
  private async handoff(turn: LiveCallTurn, target: HandoffTargetView, reason: string | null) {
    const changed = await this.prisma.$transaction(async (tx) => {
      const call = await tx.call.findFirst({ where: { id: turn.callId, accountId: turn.accountId } });
      if (!call) throw new NotFoundError("Call");
      if (call.status !== "in_progress") throw new AppError("CONFLICT", "The call is over.");
      const from = call.activeAssistantId ?? call.assistantId;
      if (from !== turn.assistantId)
        throw new AppError("CONFLICT", "This call was already handed to another assistant.");
      const next = await nextHandoff(
        tx,
        { noun: "call", party: "caller" },
        { accountId: turn.accountId, ownerAssistantId: call.assistantId, from, trail: call.handoffTrail },
        target,
      );
      const { count } = await tx.call.updateMany({
        where: {
          id: call.id,
          activeAssistantId: call.activeAssistantId,
          handoffTrail: { equals: call.handoffTrail },
        },
        data: next,
      });
      if (count === 0)
        throw new AppError("CONFLICT", "This call changed meanwhile; keep helping the caller.");
      const updated = await tx.call.findUniqueOrThrow({ where: { id: call.id } });
      await this.parts.events.emit(tx, {
        type: "call.handed_off",
        call: updated,
        fromAssistantId: from,
        toAssistantId: target.assistantId,
        reason,
      });
      return updated;
    });
    this.deps.logger.info("call handed off", {
      accountId: turn.accountId,
      callId: changed.id,
      from: turn.assistantId,
      to: target.assistantId,
      handoffs: changed.handoffTrail.length,
    });
  }
}
