// What messages and replies cost, and how long a reply's money stays held (calls and texts: telephony.ts).
import { z } from "zod";
import { longestReplySeconds, REPLY_BOUNDS } from "../limits.ts";
import type { ModelsEnv } from "./models.ts";
import { moneyString, positiveInt } from "./validators.ts";

export const billingEnv = z.object({
  VOXGATE_MESSAGE_PRICE: moneyString.default("0.01"),
  VOXGATE_REPLY_PRICE: moneyString.default("0.01"),
  VOXGATE_RESERVATION_HOLD_SECONDS: positiveInt.max(86_400, "must be at most 86400").default(900),
});

type BillingEnv = z.output<typeof billingEnv>;

export function checkBillingEnv(
  env: BillingEnv & Pick<ModelsEnv, "OPENAI_TIMEOUT_SECONDS">,
  context: z.RefinementCtx,
): void {
  // A reply must be stored while its money is still held, or it could only be refused.
  const longestReply = longestReplySeconds(env.OPENAI_TIMEOUT_SECONDS);
  if (env.VOXGATE_RESERVATION_HOLD_SECONDS <= longestReply) {
    context.addIssue({
      code: "custom",
      path: ["VOXGATE_RESERVATION_HOLD_SECONDS"],
      message:
        `must be more than the longest a reply can take, ${longestReply} s with OPENAI_TIMEOUT_SECONDS=` +
        `${env.OPENAI_TIMEOUT_SECONDS} (${REPLY_BOUNDS.modelRounds} model calls, each tried ` +
        `${REPLY_BOUNDS.modelAttempts} times, functions of up to ${REPLY_BOUNDS.toolTimeoutSeconds} s between ` +
        "them, and a minute more): raise it or lower OPENAI_TIMEOUT_SECONDS",
    });
  }
}

export interface BillingSettings {
  pricing: { messagePrice: string; replyPrice: string };
  /**
   * How long money reserved for a reply stays held: past it, a reservation that was neither settled
   * nor refunded (its process stopped mid-reply) is refunded by the billing sweep.
   */
  reservationHoldSeconds: number;
}

export function billingSettings(env: BillingEnv): BillingSettings {
  return {
    pricing: { messagePrice: env.VOXGATE_MESSAGE_PRICE, replyPrice: env.VOXGATE_REPLY_PRICE },
    reservationHoldSeconds: env.VOXGATE_RESERVATION_HOLD_SECONDS,
  };
}
