import type { ServiceDeps } from "../../deps.ts";
import type { EventSink } from "../../events.ts";
import type { Prisma } from "../../generated/prisma/client.ts";
import type { InProcessBus } from "../../in-process-events.ts";
import { MAX_TRANSCRIPT_CHARS } from "../../limits.ts";
import type { RedactionService } from "../redaction/index.ts";
import type { TranscriptLine } from "../telephony/provider.ts";
import { transcriptLineText } from "../telephony/transcript.ts";
import { annotateCall, type CallAnnotation } from "./call-record.ts";

/** Where a call's evaluation stands; `evaluation` is set when it is done. */
export type EvaluationOutcome =
  | { status: "pending" }
  | { status: "done"; evaluation: Prisma.InputJsonObject }
  | { status: "failed"; error: string };

/**
 * What other modules add to a call without moving its status: its transcript (the voice engine),
 * its recording (the voice module's recordings), its evaluation (the evaluation module) and the
 * answer of the account's endpoint to its call.ended (the webhooks module, through the
 * `call.webhook_answered` in-process event). What may still be written after the end is
 * `annotateCall`'s rule (call-record.ts).
 */
export class CallAnnotations {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      events: EventSink;
      bus: InProcessBus;
      /** The call's assistant's PII redaction, applied to the transcript and evaluation stored. */
      redaction: Pick<RedactionService, "of" | "ofCall">;
    },
  ) {
    parts.bus.on("call.webhook_answered", ({ callId, response }) =>
      this.recordWebhookResponse(callId, response),
    );
  }

  /** One line of a running call's conversation, appended to its transcript. */
  async transcriptLine(callId: number, line: TranscriptLine): Promise<void> {
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: callId },
      select: { transcript: true, accountId: true, assistantId: true },
    });
    if (!call) return;
    const redactor = await this.parts.redaction.of(call.accountId, call.assistantId);
    const text = redactor.text(transcriptLineText(line));
    if (call.transcript.length + text.length + 1 > MAX_TRANSCRIPT_CHARS) {
      this.deps.logger.warn("transcript full; line dropped", { callId });
      return;
    }
    // Appended in SQL, so that two lines written at once both stay.
    await this.deps.db.prisma.$executeRaw`
      UPDATE "calls" SET "transcript" = CASE WHEN "transcript" = '' THEN ${text}::text
        ELSE "transcript" || E'\n' || ${text}::text END, "updatedAt" = now()
      WHERE "id" = ${callId}::integer`;
  }

  /**
   * The call's media stream is being recorded (the voice module's recordings): its call.ended,
   * when it asks for the recording, waits for `recordingStored` or `recordingFailed`.
   */
  async recordingStarted(callId: number): Promise<void> {
    await annotateCall(this.deps.db.prisma, callId, { recordingStatus: "recording" });
  }

  /** Where the call's recording is served, once it is stored. */
  recordingStored(callId: number, url: string): Promise<void> {
    return this.recordingSettled(callId, { recordingStatus: "stored", recordingUrl: url });
  }

  /** The stream closed without a recording (it could not be stored): nothing to wait for any more. */
  recordingFailed(callId: number): Promise<void> {
    return this.recordingSettled(callId, { recordingStatus: "failed" });
  }

  private async recordingSettled(callId: number, data: CallAnnotation) {
    await this.deps.db.prisma.$transaction(async (tx) => {
      if (!(await annotateCall(tx, callId, data))) return;
      const call = await tx.call.findUniqueOrThrow({ where: { id: callId } });
      await this.parts.events.emit(tx, { type: "call.recorded", call });
    });
  }

  /** The last answer of the account's endpoint to the call's call.ended event. */
  private async recordWebhookResponse(callId: number, response: Prisma.InputJsonObject): Promise<void> {
    await annotateCall(this.deps.db.prisma, callId, { webhookResponse: response });
  }

  /**
   * Where the call's evaluation stands (the evaluation module). A result or a final failure is
   * announced to subscribers and to the account's webhooks (call.evaluated).
   */
  async recordEvaluation(callId: number, outcome: EvaluationOutcome): Promise<void> {
    // The model read the redacted transcript, but may still write personal data it inferred.
    const evaluation =
      outcome.status === "done" ? (await this.parts.redaction.ofCall(callId)).json(outcome.evaluation) : null;
    const call = await this.deps.db.prisma.$transaction(async (tx) => {
      const updated = await tx.call.update({
        where: { id: callId },
        data:
          outcome.status === "pending"
            ? { evaluationStatus: "pending", evaluationError: "" }
            : outcome.status === "done"
              ? {
                  evaluationStatus: "done",
                  evaluation: evaluation!,
                  evaluationError: "",
                  evaluatedAt: new Date(),
                }
              : { evaluationStatus: "failed", evaluationError: outcome.error, evaluatedAt: new Date() },
      });
      if (outcome.status !== "pending")
        await this.parts.events.emit(tx, { type: "call.evaluated", call: updated });
      return updated;
    });
    if (outcome.status === "pending") return;
    this.deps.pubsub.publish("call:evaluated", call.accountId, { callId, status: outcome.status });
  }
}
