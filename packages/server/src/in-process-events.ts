import type { Call, Prisma } from "./generated/prisma/client.ts";
import type { Logger } from "./logger.ts";

/**
 * What one module tells the others inside this process, after the change committed. Unlike the
 * domain events of `events.ts` (a transactional outbox delivered to the account's webhooks), these
 * are not stored: they are told once, in the process that made the change, to the listeners that
 * module registered when it was built. A leaf module, like `events.ts`.
 */
export interface InProcessEvents {
  /**
   * A call reached its final status (the status, its charges and call.ended committed). Told once
   * per call by whoever made the transition, before call.settled is recorded: what a listener
   * writes on the call (its evaluation queued) is part of that event.
   */
  "call.finished": { call: Call };
  /** The account's endpoint answered a delivery of a call's call.ended (or it failed for good, or will be retried). */
  "call.webhook_answered": { callId: number; response: Prisma.InputJsonObject };
}

export type InProcessEventType = keyof InProcessEvents;

type Listener<K extends InProcessEventType> = (event: InProcessEvents[K]) => Promise<void>;

/**
 * A small typed bus for `InProcessEvents`. `publish` awaits each listener in turn, in the order
 * they were registered (the composition root's order), so the publisher continues once all
 * reacted; a listener that fails is logged and does not stop the others nor fail the publisher,
 * whose change has already committed.
 */
export class InProcessBus {
  private readonly listeners: { [K in InProcessEventType]?: Listener<K>[] } = {};

  constructor(private readonly logger: Logger) {}

  on<K extends InProcessEventType>(type: K, listener: Listener<K>): void {
    const list: Listener<K>[] = this.listeners[type] ?? [];
    list.push(listener);
    (this.listeners as Record<K, Listener<K>[]>)[type] = list;
  }

  async publish<K extends InProcessEventType>(type: K, event: InProcessEvents[K]): Promise<void> {
    for (const listener of this.listeners[type] ?? []) {
      await listener(event).catch((error: unknown) =>
        this.logger.error("an in-process event listener failed", { type, ...subjectOf(event), error }),
      );
    }
  }
}

/** What a failure log names: the call the event is about. */
function subjectOf(event: InProcessEvents[InProcessEventType]): { callId: number } {
  return { callId: "call" in event ? event.call.id : event.callId };
}
