import type { Prisma } from "../../generated/prisma/client.ts";
import { ACTIVE_DB_STATUSES } from "./call-status.ts";

/**
 * What may still be written on a call that has ended (docs/calls.md, "An ended call is final"):
 * notes that arrive after the end and change neither its outcome nor its money. The carrier's own
 * price of the call (Twilio reports it after the end), the recording, the evaluation and the
 * answer of the account's webhook. The transcript also takes the lines the engine was still
 * writing when the end was recorded (`CallAnnotations.transcriptLine`, append-only).
 */
export type CallAnnotation = Pick<
  Prisma.CallUpdateManyMutationInput,
  | "carrierCost"
  | "recordingStatus"
  | "recordingUrl"
  | "webhookResponse"
  | "evaluationStatus"
  | "evaluation"
  | "evaluationError"
  | "evaluatedAt"
>;

type CallWriter = Pick<Prisma.TransactionClient, "call">;

/**
 * Writes details on a call that has not ended (what a carrier adds to a repeated event, an
 * answering machine's verdict): conditional on the status in the same statement, so a call that
 * ends meanwhile is never changed. False when the call had ended (or does not exist).
 */
export async function updateRunningCall(
  db: CallWriter,
  callId: number,
  data: Prisma.CallUpdateManyMutationInput,
): Promise<boolean> {
  const { count } = await db.call.updateMany({
    where: { id: callId, status: { in: [...ACTIVE_DB_STATUSES] } },
    data,
  });
  return count > 0;
}

/** Writes annotations on a call, running or ended; its status, duration and costs are out of reach. */
export async function annotateCall(db: CallWriter, callId: number, data: CallAnnotation): Promise<boolean> {
  const { count } = await db.call.updateMany({ where: { id: callId }, data });
  return count > 0;
}
