import type { Call } from "../../generated/prisma/client.ts";
import { toApiStatus } from "../calls/index.ts";

/** The assistant settings that decide whether and how its events are sent. */
export interface WebhookSettings {
  isWebhookActive: boolean;
  webhookUrl: string | null;
  sendWebhookOnlyOnCompleted: boolean;
  includeRecordingInWebhook: boolean;
}

/** Ends of a call whose conversation took place: what send_webhook_only_on_completed lets through. */
const COMPLETED_ENDINGS = new Set(["ended", "completed", "ended_by_customer", "ended_by_assistant"]);

export function isCompletedCall(call: Call): boolean {
  return COMPLETED_ENDINGS.has(toApiStatus(call.status));
}

/** A call as events carry it (the REST spelling); the transcript and evaluation once the call ended. */
export function callData(call: Call, settings: WebhookSettings, kind: "started" | "ended" | "evaluated") {
  const ended = kind !== "started";
  return {
    id: call.id,
    type: call.type,
    status: toApiStatus(call.status),
    assistant_id: call.assistantId,
    campaign_id: call.campaignId,
    lead_id: call.leadId,
    assistant_phone_number: call.assistantPhoneNumber,
    client_phone_number: call.clientPhoneNumber,
    variables: call.variables,
    ...(ended
      ? {
          duration: call.duration,
          transcript: call.transcript,
          end_reason: call.endReason,
          answered_by: call.answeredBy,
          carrier_cost: call.carrierCost.toFixed(4),
          total_cost: call.totalCost.toFixed(4),
          evaluation_status: call.evaluationStatus,
          evaluation: call.evaluationStatus === "done" ? call.evaluation : null,
          evaluation_error: call.evaluationStatus === "failed" ? call.evaluationError : null,
          ...(settings.includeRecordingInWebhook ? { recording_url: call.recordingUrl || null } : {}),
        }
      : {}),
    started_at: call.startedAt?.toISOString() ?? null,
    ended_at: call.endedAt?.toISOString() ?? null,
    created_at: call.createdAt.toISOString(),
  };
}

/** The envelope the Standard Webhooks specification suggests: type, timestamp, data. */
export function envelope(type: string, data: unknown, at = new Date()) {
  return { type, timestamp: at.toISOString(), data };
}
