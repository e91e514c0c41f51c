import type { Call, Message } from "./generated/prisma/client.ts";

/**
 * What happened in the domain that an account may want to hear about outside Voxgate (its
 * webhooks). Services report through an `EventSink`; they never know who listens. A leaf module:
 * services import it, the composition root (`services.ts`) hands them the sink.
 */
export type DomainEvent =
  /** A call was recorded (answered or not: a dial that fails still starts and ends). */
  | { type: "call.started"; call: Call }
  /** A call reached its final status; its charges are settled. */
  | { type: "call.ended"; call: Call }
  /** The post-call evaluation of an ended call was stored (or failed for good). */
  | { type: "call.evaluated"; call: Call }
  /** A lead of a campaign moved: a call's outcome applied by the dialer, or the do-not-call list. */
  | { type: "lead.updated"; accountId: number; leadId: number; callId: number | null }
  | { type: "conversation.message"; conversationId: string; assistantId: number; message: Message }
  /** A document's status changed: processing (added), active, failed, or deleted. */
  | {
      type: "document.status";
      accountId: number;
      knowledgebaseId: number;
      documentId: number;
      status: "processing" | "active" | "failed" | "deleted";
      failureReason: string | null;
      chunkCount: number;
    };

export type DomainEventType = DomainEvent["type"];

/**
 * Where services report domain events. `emit` never throws: a listener's failure must not undo or
 * fail the work that raised the event (it is logged by the sink).
 */
export interface EventSink {
  emit(event: DomainEvent): Promise<void>;
}

/** For tests and tools that build a service alone: events go nowhere. */
export const discardEvents: EventSink = { emit: async () => {} };
