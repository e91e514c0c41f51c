import type { CallStatus } from "../../generated/prisma/client.ts";

/** Statuses as the API spells them (the database enum cannot hold hyphens in names). */
export const CALL_STATUSES = [
  "initiated",
  "ringing",
  "busy",
  "in-progress",
  "ended",
  "completed",
  "ended_by_customer",
  "ended_by_assistant",
  "no-answer",
  "failed",
] as const;

export type ApiCallStatus = (typeof CALL_STATUSES)[number];

export const toApiStatus = (status: CallStatus): ApiCallStatus =>
  status === "in_progress" ? "in-progress" : status === "no_answer" ? "no-answer" : status;

export const toDbStatus = (status: ApiCallStatus): CallStatus =>
  status === "in-progress" ? "in_progress" : status === "no-answer" ? "no_answer" : status;

/**
 * Where a call may go from each status. A phone call rings before it is answered; a web call
 * connects without ringing. `ended` is an answered call that ended for a reason the engine could
 * not attribute; `completed` one whose conversation reached its end; the two `ended_by_*` say who
 * hung up. Every status without a successor is final.
 */
export const CALL_TRANSITIONS: Readonly<Record<ApiCallStatus, readonly ApiCallStatus[]>> = {
  initiated: ["ringing", "in-progress", "failed"],
  ringing: ["in-progress", "busy", "no-answer", "failed"],
  "in-progress": ["ended", "completed", "ended_by_customer", "ended_by_assistant", "failed"],
  busy: [],
  "no-answer": [],
  failed: [],
  ended: [],
  completed: [],
  ended_by_customer: [],
  ended_by_assistant: [],
};

export const isFinal = (status: ApiCallStatus) => CALL_TRANSITIONS[status].length === 0;
