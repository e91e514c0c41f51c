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

export const CALL_TYPES = ["inbound", "outbound", "web"] as const;

export const toApiStatus = (status: CallStatus): ApiCallStatus =>
  status === "in_progress" ? "in-progress" : status === "no_answer" ? "no-answer" : status;

export const toDbStatus = (status: ApiCallStatus): CallStatus =>
  status === "in-progress" ? "in_progress" : status === "no-answer" ? "no_answer" : status;

/**
 * Where a call may go from each status; every carrier event and every move Voxgate makes goes
 * through it, and a move it does not list is refused (and logged), never applied. A phone call
 * rings before it is answered, though a carrier may report busy or no-answer without a ringing
 * event first; a web call connects without ringing. `ended` is an answered call that ended for a
 * reason the engine could not attribute (or that its owner ended); `completed` one whose
 * conversation reached its end; the two `ended_by_*` say who hung up. `failed` before the answer
 * is a carrier error or a call hung up before it was answered. Every status without a successor
 * is final, so a late or repeated event can never reopen an ended call.
 */
export const CALL_TRANSITIONS: Readonly<Record<ApiCallStatus, readonly ApiCallStatus[]>> = {
  initiated: ["ringing", "in-progress", "busy", "no-answer", "failed"],
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

/** Ends of an answered call: a carrier's plain "completed" becomes the end Voxgate asked for. */
export const ANSWERED_ENDINGS: readonly ApiCallStatus[] = [
  "ended",
  "completed",
  "ended_by_customer",
  "ended_by_assistant",
];

/** A call in one of these is running: it counts against the account's concurrent calls. */
export const ACTIVE_DB_STATUSES = [
  "initiated",
  "ringing",
  "in_progress",
] as const satisfies readonly CallStatus[];
