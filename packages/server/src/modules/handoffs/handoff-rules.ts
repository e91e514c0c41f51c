import { AppError } from "../../errors.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { HandoffTargetView } from "./chat-functions.ts";

/** Hand-offs one conversation or call may have: past it the assistant answering keeps it. */
export const MAX_HANDOFFS_PER_CONVERSATION = 5;
/**
 * A conversation or call is never handed back to an assistant that answered it before either of its
 * last this many hand-offs: A→B→A (and A→B→C→A) ping-pong is refused, a later return is not.
 */
export const HANDOFF_RECENT_WINDOW = 2;

/** What is handed off, in the words told to the model when a hand-off is refused. */
export interface HandedThing {
  /** "conversation" or "call". */
  noun: string;
  /** Who the assistant keeps helping: "customer" or "caller". */
  party: string;
}

/**
 * The next hand-off state of a conversation or call answered by `from` with `trail` behind it,
 * within the bounds (at most MAX_HANDOFFS_PER_CONVERSATION, never back within the recent window) and
 * to a live assistant of the account, read in `tx`: refusals are CONFLICTs whose words the model
 * reads. `ownerAssistantId` is the record's own assistant: handing back to it clears the override.
 */
export async function nextHandoff(
  tx: Prisma.TransactionClient,
  subject: HandedThing,
  state: { accountId: number; ownerAssistantId: number | null; from: number; trail: number[] },
  target: HandoffTargetView,
): Promise<{ activeAssistantId: number | null; handoffTrail: number[] }> {
  const { trail } = state;
  if (trail.length >= MAX_HANDOFFS_PER_CONVERSATION)
    throw new AppError(
      "CONFLICT",
      `This ${subject.noun} was handed off ${MAX_HANDOFFS_PER_CONVERSATION} times already; keep helping the ${subject.party} yourself.`,
    );
  if (trail.slice(-HANDOFF_RECENT_WINDOW).includes(target.assistantId))
    throw new AppError(
      "CONFLICT",
      `${target.name} handed this ${subject.noun} over only recently; keep helping the ${subject.party} yourself.`,
    );
  // Re-read under the change: the target must still be a live assistant of this account.
  const live = await tx.assistant.count({
    where: { id: target.assistantId, accountId: state.accountId, deletedAt: null },
  });
  if (live === 0) throw new AppError("CONFLICT", `${target.name} is no longer available.`);
  return {
    activeAssistantId: target.assistantId === state.ownerAssistantId ? null : target.assistantId,
    handoffTrail: [...trail, state.from],
  };
}
