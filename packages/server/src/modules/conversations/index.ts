import type { ServiceDeps } from "../../services.ts";
import { BillingService, ReservationSweep } from "../billing/billing.service.ts";
import { RateLimitsService } from "../rate-limits/rate-limits.service.ts";
import { RepliesService } from "../replies/replies.service.ts";
import { type KnowledgeSearch, ReplyEngine } from "../replies/reply-engine.ts";
import { ConversationsService } from "./conversations.service.ts";

/**
 * The services behind conversations and replies, built together because they share the billing,
 * the limits and the reply engine. `knowledge` is read when a reply needs it, so the knowledge
 * service may be built after these.
 */
export function createConversationServices(deps: ServiceDeps, knowledge: () => KnowledgeSearch | null) {
  const billing = new BillingService(deps);
  const rateLimits = new RateLimitsService(deps);
  const replyEngine = new ReplyEngine(deps, knowledge);
  const conversations = new ConversationsService(deps, { billing, rateLimits, engine: replyEngine });
  const replies = new RepliesService(deps, { conversations, rateLimits });
  return {
    billing,
    reservationSweep: new ReservationSweep(deps, billing),
    rateLimits,
    replyEngine,
    conversations,
    replies,
  };
}
