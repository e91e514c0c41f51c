import type { AuditedEvent, DomainEvent } from "../../events.ts";
import type { Appointment, Call, Prisma } from "../../generated/prisma/client.ts";
import { callData, envelope, isCompletedCall, type WebhookSettings } from "./payloads.ts";

/** What a held call.ended waits for, each released by its own domain event. */
export type Hold = "settlement" | "recording";

/** One webhook_events row to write: an event for one endpoint. */
export interface NewEvent {
  accountId: number;
  assistantId: number | null;
  callId: number | null;
  type: string;
  url: string;
  streamKey: string;
  payload: unknown;
  heldFor?: Hold[];
}

/** An event of a call for its assistant's endpoint, on the call's own stream (delivered in order). */
function onCallStream(
  call: Call,
  settings: WebhookSettings,
  type: string,
  data: unknown,
  at: Date,
): NewEvent {
  return {
    accountId: call.accountId,
    assistantId: call.assistantId,
    callId: call.id,
    type,
    url: settings.webhookUrl!,
    streamKey: `call:${call.id}`,
    payload: envelope(type, data, at),
  };
}

const settingsColumns = {
  isWebhookActive: true,
  webhookUrl: true,
  sendWebhookOnlyOnCompleted: true,
  includeRecordingInWebhook: true,
} as const;

/** The event's rows: one per endpoint that wants it (none when webhooks are off). */
export async function eventRows(
  tx: Prisma.TransactionClient,
  event: Exclude<DomainEvent, { type: "call.settled" | "call.recorded" } | AuditedEvent>,
): Promise<NewEvent[]> {
  const at = new Date();
  switch (event.type) {
    case "call.started":
    case "call.ended":
    case "call.evaluated": {
      const { call } = event;
      const settings = await settingsOf(tx, call.assistantId);
      if (!settings) return [];
      if (settings.sendWebhookOnlyOnCompleted && (event.type === "call.started" || !isCompletedCall(call)))
        return [];
      const kind = event.type.slice("call.".length) as "started" | "ended" | "evaluated";
      return [
        {
          ...onCallStream(call, settings, event.type, callData(call, settings, kind), at),
          ...(event.type === "call.ended" ? { heldFor: callEndedHolds(call, settings) } : {}),
        },
      ];
    }
    case "lead.updated": {
      const lead = await tx.lead.findFirst({
        where: { id: event.leadId, accountId: event.accountId },
        include: { campaign: { select: { id: true, name: true, status: true, assistantId: true } } },
      });
      const settings = lead && (await settingsOf(tx, lead.campaign.assistantId));
      if (!lead || !settings) return [];
      const data = {
        id: lead.id,
        campaign: { id: lead.campaign.id, name: lead.campaign.name, status: lead.campaign.status },
        phone_number: lead.phoneNumber,
        status: lead.status.replaceAll("_", "-"),
        attempts: lead.attempts,
        next_attempt_at: lead.nextAttemptAt?.toISOString() ?? null,
        call_id: event.callId,
        variables: lead.variables,
      };
      return [
        {
          accountId: lead.accountId,
          assistantId: lead.campaign.assistantId,
          callId: null,
          type: event.type,
          url: settings.webhookUrl!,
          streamKey: `lead:${lead.id}`,
          payload: envelope(event.type, data, at),
        },
      ];
    }
    case "document.status":
      // A document belongs to a knowledge base, not an assistant: every assistant using the base
      // with webhooks on hears of it.
      return toAssistantEndpoints(tx, {
        accountId: event.accountId,
        assistants: { knowledgebaseId: event.knowledgebaseId },
        type: event.type,
        streamKey: `document:${event.documentId}`,
        payload: envelope(
          event.type,
          {
            document_id: event.documentId,
            knowledgebase_id: event.knowledgebaseId,
            status: event.status,
            failure_reason: event.failureReason,
            chunk_count: event.chunkCount,
          },
          at,
        ),
      });
    case "calendar.connection_broken":
    case "calendar.connection_restored": {
      // A connection belongs to the account, not an assistant: every assistant of the account
      // with webhooks on hears of it.
      const { connection } = event;
      return toAssistantEndpoints(tx, {
        accountId: connection.accountId,
        assistants: {},
        type: event.type,
        streamKey: `calendar-connection:${connection.id}`,
        payload: envelope(
          event.type,
          {
            connection_id: connection.id,
            name: connection.name,
            provider: connection.provider,
            account: connection.username,
            status: connection.status,
            last_error: connection.lastError,
            checked_at: connection.checkedAt.toISOString(),
          },
          at,
        ),
      });
    }
    case "appointment.booked":
    case "appointment.rescheduled":
    case "appointment.cancelled": {
      // The assistant that booked it hears of it; one booked through the API, every assistant
      // offering its appointment type.
      const { appointment } = event;
      return toAssistantEndpoints(tx, {
        accountId: appointment.accountId,
        assistants:
          appointment.assistantId !== null
            ? { id: appointment.assistantId }
            : { appointmentTypeLinks: { some: { appointmentTypeId: appointment.appointmentTypeId } } },
        type: event.type,
        streamKey: `appointment:${appointment.id}`,
        payload: envelope(
          event.type,
          {
            ...appointmentData(appointment),
            ...(event.previousStartsAt ? { previous_starts_at: event.previousStartsAt.toISOString() } : {}),
          },
          at,
        ),
      });
    }
    case "conversation.human_requested":
    case "conversation.handed_off": {
      // The conversation's own assistant and whichever answer(s) it hear of it, on the stream of
      // its messages so a receiver gets them in order.
      const { conversation } = event;
      const assistantIds =
        event.type === "conversation.handed_off"
          ? [conversation.assistantId, event.fromAssistantId, event.toAssistantId]
          : [conversation.assistantId, event.assistantId];
      const common = {
        conversation_id: conversation.id,
        channel: conversation.channel,
        customer_identifier: conversation.customerIdentifier,
        reason: event.reason,
      };
      const data =
        event.type === "conversation.handed_off"
          ? {
              ...common,
              from_assistant_id: event.fromAssistantId,
              to_assistant_id: event.toAssistantId,
              handoff_count: conversation.handoffTrail.length,
            }
          : {
              ...common,
              assistant_id: event.assistantId,
              requested_at: (conversation.humanRequestedAt ?? at).toISOString(),
              next_open_at: event.nextOpenAt?.toISOString() ?? null,
            };
      return toAssistantEndpoints(tx, {
        accountId: conversation.accountId,
        assistants: { id: { in: [...new Set(assistantIds)] } },
        type: event.type,
        streamKey: `conversation:${conversation.id}`,
        payload: envelope(event.type, data, at),
      });
    }
    case "call.handed_off": {
      // The chat hand-off's webhook, for a call: on the call's stream (in order with call.started
      // and call.ended), to the call's assistant and both assistants of the hand-off.
      const { call } = event;
      const type = "conversation.handed_off";
      const rows = await toAssistantEndpoints(tx, {
        accountId: call.accountId,
        assistants: {
          id: {
            in: [
              ...new Set([
                call.assistantId ?? event.fromAssistantId,
                event.fromAssistantId,
                event.toAssistantId,
              ]),
            ],
          },
        },
        type,
        streamKey: `call:${call.id}`,
        payload: envelope(
          type,
          {
            conversation_id: null,
            call_id: call.id,
            channel: call.type === "web" ? "web" : "phone",
            customer_identifier: call.type === "web" ? null : call.clientPhoneNumber || null,
            reason: event.reason,
            from_assistant_id: event.fromAssistantId,
            to_assistant_id: event.toAssistantId,
            handoff_count: call.handoffTrail.length,
          },
          at,
        ),
      });
      return rows.map((row) => ({ ...row, callId: call.id }));
    }
    case "call.transferred":
    case "call.transfer_failed": {
      // On the call's own stream, so a receiver gets it between the call's started and ended.
      const { call, leg } = event;
      const settings = await settingsOf(tx, call.assistantId);
      if (!settings) return [];
      return [
        onCallStream(
          call,
          settings,
          event.type,
          {
            call_id: call.id,
            assistant_id: call.assistantId,
            transfer_call_id: leg.id,
            destination: leg.transferDestinationName,
            to: leg.clientPhoneNumber,
            ...(event.type === "call.transfer_failed" ? { outcome: event.outcome } : {}),
          },
          at,
        ),
      ];
    }
  }
}

/**
 * An account-level event's rows: one per distinct webhook URL among the account's assistants that
 * `assistants` selects and that have webhooks on, named by the first (lowest id) assistant with it.
 */
async function toAssistantEndpoints(
  tx: Prisma.TransactionClient,
  event: {
    accountId: number;
    assistants: Prisma.AssistantWhereInput;
    type: string;
    streamKey: string;
    payload: unknown;
  },
): Promise<NewEvent[]> {
  const assistants = await tx.assistant.findMany({
    where: {
      ...event.assistants,
      accountId: event.accountId,
      deletedAt: null,
      isWebhookActive: true,
      webhookUrl: { not: null },
    },
    select: { id: true, webhookUrl: true },
    orderBy: { id: "asc" },
  });
  const urls = new Map<string, number>();
  for (const assistant of assistants) {
    if (!urls.has(assistant.webhookUrl!)) urls.set(assistant.webhookUrl!, assistant.id);
  }
  return [...urls].map(([url, assistantId]) => ({
    accountId: event.accountId,
    assistantId,
    callId: null,
    type: event.type,
    url,
    streamKey: event.streamKey,
    payload: event.payload,
  }));
}

/** The assistant's webhook settings when it has webhooks on; null otherwise. */
export async function settingsOf(
  tx: Prisma.TransactionClient,
  assistantId: number | null,
): Promise<WebhookSettings | null> {
  if (assistantId === null) return null;
  const settings = await tx.assistant.findFirst({
    where: { id: assistantId, deletedAt: null },
    select: settingsColumns,
  });
  return settings?.isWebhookActive && settings.webhookUrl ? settings : null;
}

/**
 * What a call.ended waits for: the call's charges, always; its recording when the event carries it
 * and the media stream is still being recorded (a carrier may report the end before the stream closes).
 */
function callEndedHolds(call: Call, settings: WebhookSettings): Hold[] {
  return settings.includeRecordingInWebhook && call.recordingStatus === "recording"
    ? ["settlement", "recording"]
    : ["settlement"];
}

/** An appointment as webhooks carry it (docs/webhooks.md#appointment-events). */
function appointmentData(appointment: Appointment) {
  return {
    id: appointment.id,
    status: appointment.status,
    starts_at: appointment.startsAt.toISOString(),
    ends_at: appointment.endsAt.toISOString(),
    timezone: appointment.timezone,
    appointment_type_id: appointment.appointmentTypeId,
    appointment_type_name: appointment.appointmentTypeName,
    customer_name: appointment.customerName,
    customer_phone: appointment.customerPhone,
    customer_email: appointment.customerEmail,
    notes: appointment.notes,
    assistant_id: appointment.assistantId,
    call_id: appointment.callId,
    conversation_id: appointment.conversationId,
    provider: appointment.provider,
    cancelled_at: appointment.cancelledAt?.toISOString() ?? null,
  };
}
