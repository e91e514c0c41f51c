import type { LeadStatus } from "../../generated/prisma/client.ts";

/**
 * Where a lead may go from each status (database spelling). `scheduled` means the dialer picked
 * the lead and is placing its call: it goes back to `created`/`rescheduled` when the call could not
 * be placed for a reason that is not the lead's (no balance, the account's call cap), or straight
 * to an outcome when the call ended before it was recorded as running. `blacklisted` is reachable
 * from everywhere and left only by lifting it, after which the lead is tried with what it has left.
 */
export const LEAD_TRANSITIONS: Readonly<Record<LeadStatus, readonly LeadStatus[]>> = {
  created: ["scheduled", "blacklisted"],
  scheduled: ["processing", "created", "rescheduled", "completed", "reached_max_retries", "blacklisted"],
  processing: ["completed", "rescheduled", "reached_max_retries", "blacklisted"],
  rescheduled: ["scheduled", "blacklisted"],
  completed: ["blacklisted"],
  reached_max_retries: ["blacklisted"],
  blacklisted: ["created", "rescheduled"],
};

/** The statuses a lead may leave for `to`: the condition of every status write. */
export function leadStatusesBefore(to: LeadStatus): LeadStatus[] {
  return (Object.keys(LEAD_TRANSITIONS) as LeadStatus[]).filter((from) =>
    LEAD_TRANSITIONS[from].includes(to),
  );
}

export interface AttemptPlan {
  /** The lead's own number is 0; secondary contacts follow, 1-based, in the order they were given. */
  contactIndex: number;
  /** Calls already placed to that number. */
  contactAttempts: number;
  secondaryContactCount: number;
  maxRetries: number;
  retryIntervalMinutes: number;
}

export interface AttemptOutcome {
  status: Extract<LeadStatus, "completed" | "rescheduled" | "reached_max_retries">;
  /** What the number just called becomes. */
  contactStatus: Extract<LeadStatus, "completed" | "rescheduled" | "reached_max_retries">;
  contactIndex: number;
  contactAttempts: number;
  nextAttemptAt: Date | null;
}

/**
 * The rule after one call to a lead. Each number gets one call plus `maxRetries` retries, spaced
 * by the retry interval; when a number has used them, the next secondary contact is tried at once
 * (it is another number, nobody was called twice in a row); after the last number the lead has
 * reached its maximum.
 */
export function afterAttempt(plan: AttemptPlan, reached: boolean, now: Date): AttemptOutcome {
  const attempts = plan.contactAttempts + 1;
  if (reached) {
    return {
      status: "completed",
      contactStatus: "completed",
      contactIndex: plan.contactIndex,
      contactAttempts: attempts,
      nextAttemptAt: null,
    };
  }
  if (attempts <= plan.maxRetries) {
    return {
      status: "rescheduled",
      contactStatus: "rescheduled",
      contactIndex: plan.contactIndex,
      contactAttempts: attempts,
      nextAttemptAt: new Date(now.getTime() + plan.retryIntervalMinutes * 60_000),
    };
  }
  if (plan.contactIndex < plan.secondaryContactCount) {
    return {
      status: "rescheduled",
      contactStatus: "reached_max_retries",
      contactIndex: plan.contactIndex + 1,
      contactAttempts: 0,
      nextAttemptAt: now,
    };
  }
  return {
    status: "reached_max_retries",
    contactStatus: "reached_max_retries",
    contactIndex: plan.contactIndex,
    contactAttempts: attempts,
    nextAttemptAt: null,
  };
}
