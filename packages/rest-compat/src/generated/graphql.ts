/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
/** Background sound mixed into the assistant's voice. */
export type AmbientSound =
  | 'cafe'
  | 'call_center'
  | 'none'
  | 'office'
  | 'street';

export type AppointmentFilter = {
  assistantId?: number | null | undefined;
  /** Appointments starting at or after this instant. */
  from?: string | null | undefined;
  status?: AppointmentStatus | null | undefined;
  /** Appointments starting before this instant. */
  to?: string | null | undefined;
};

export type AppointmentStatus =
  /** The event is in the calendar. */
  | 'booked'
  /** Cancelled: the event was removed from the calendar. */
  | 'cancelled';

/** pipeline: speech-to-text, LLM, text-to-speech; multimodal and dualplex: realtime speech models. */
export type AssistantMode =
  | 'dualplex'
  | 'multimodal'
  | 'pipeline';

export type AssistantStatus =
  | 'active'
  | 'inactive';

/** Which calls an assistant handles: inbound, outbound, or web (browser) calls. */
export type AssistantType =
  | 'inbound'
  | 'outbound'
  | 'web';

export type BookAppointmentInput = {
  appointmentTypeId: number;
  customerEmail?: string | null | undefined;
  customerName: string;
  /** E.164. */
  customerPhone?: string | null | undefined;
  /** Up to 200 characters: the same key books once, and a retry with it returns that booking (never a second event). */
  idempotencyKey?: string | null | undefined;
  notes?: string | null | undefined;
  /** A slot start from availableSlots. */
  startsAt: string;
};

/** Where a connection's calendars live (docs/calendars.md). */
export type CalendarProviderKind =
  /** A Cal.com event type, with an API key (Cal.com API v2). */
  | 'calcom'
  /** A CalDAV server (RFC 4791) with a username and password. */
  | 'caldav'
  /** Google Calendar, connected by signing in (startCalendarOAuth). */
  | 'google'
  /** Microsoft 365 (Outlook) through Microsoft Graph, connected by signing in (startCalendarOAuth). */
  | 'microsoft';

export type CallFilter = {
  assistantId?: number | null | undefined;
  campaignId?: number | null | undefined;
  /** YYYY-MM-DD, included, in the account's time zone. */
  dateFrom?: string | null | undefined;
  /** YYYY-MM-DD, included, in the account's time zone. */
  dateTo?: string | null | undefined;
  /** Include agent tests' simulated phone calls (test: true), left out by default (docs/testing-assistants.md). */
  includeTests?: boolean | null | undefined;
  /** The client's number, E.164 (exact match). */
  phoneNumber?: string | null | undefined;
  status?: CallStatus | null | undefined;
  type?: CallType | null | undefined;
};

/** Where a call is. Final: busy, no_answer, failed, and for an answered call ended, completed, ended_by_customer or ended_by_assistant. REST spells in_progress and no_answer with a hyphen. */
export type CallStatus =
  | 'busy'
  | 'completed'
  | 'ended'
  | 'ended_by_assistant'
  | 'ended_by_customer'
  | 'failed'
  | 'in_progress'
  | 'initiated'
  | 'no_answer'
  | 'ringing';

export type CallType =
  | 'inbound'
  | 'outbound'
  | 'web';

export type CreateApiKeyInput = {
  /** A label, at most 255 characters. */
  name: string;
};

export type CreateDocumentInput = {
  /** At most 255 characters. */
  description?: string | null | undefined;
  /** pdf, txt, docx: the file, at most 20 MB. */
  file?: File | null | undefined;
  /** Websites: exactly these pages (or give url). */
  links?: Array<DocumentLinkInput> | null | undefined;
  /** At most 255 characters. */
  name?: string | null | undefined;
  /** Websites with url: same-site links to follow, 1 to 50 (default 10). */
  relativeLinksLimit?: number | null | undefined;
  /** website, pdf, txt or docx. */
  type?: string | null | undefined;
  /** Websites: the main URL to read (or give links). */
  url?: string | null | undefined;
};

export type CreateLeadInput = {
  /** Allow a number already in the campaign (REST: allow_dupplicate). Default false. */
  allowDuplicate?: boolean | null | undefined;
  campaignId: number;
  /** E.164, e.g. +14155550123. */
  phoneNumber: string;
  secondaryContacts?: Array<SecondaryContactInput> | null | undefined;
  /** Object of strings, numbers or booleans. */
  variables?: unknown;
};

/** One customer, named by exactly one of phoneNumber, email or customerId (docs/data-governance.md#erasure-and-export). */
export type CustomerDataInput = {
  /** ISO 3166 two-letter code for a national phone number. */
  country?: string | null | undefined;
  /** The customer identifier of generate-reply conversations, or a widget conversation's id. */
  customerId?: string | null | undefined;
  /** Compared without case. */
  email?: string | null | undefined;
  /** Any usual writing: E.164, with spaces or dashes, a 00 prefix, or national (read in `country`, else the country of the account's first number, else US). */
  phoneNumber?: string | null | undefined;
};

export type DocumentLinkInput = {
  link: string;
};

export type DocumentStatus =
  /** Processed and searchable. */
  | 'ACTIVE'
  /** Processing failed; failureReason says why. */
  | 'FAILED'
  /** Being read, split and embedded in the background. */
  | 'PROCESSING';

export type DocumentType =
  | 'DOCX'
  | 'PDF'
  | 'TXT'
  | 'WEBSITE';

/** How the end of a caller's turn is detected: voice activity by energy (vad) or by the Silero model (silero), or meaning (semantic). */
export type EndpointType =
  | 'semantic'
  | 'silero'
  | 'vad';

/** Why an erasure left a calendar event (docs/data-governance.md#calendar-events). */
export type ErasedEventLeftReason =
  /** The calendar connection was deleted: erase the event in that calendar by hand. */
  | 'CONNECTION_DELETED'
  /** The calendar refused the connection (`failure` says how): fix the connection, then run the erasure again. */
  | 'CONNECTION_REFUSED'
  /** A booking system's event (Cal.com): its API cannot edit the attendee. Erase it in Cal.com. */
  | 'PROVIDER_CANNOT_EDIT'
  /** The calendar kept failing (`failure` says how) through the job's attempts: run the erasure again. */
  | 'PROVIDER_FAILED';

export type GenerateReplyInput = {
  /** An assistant of the caller's account. */
  assistantId: number;
  /** Any external id of the customer (phone, e-mail, CRM id), at most 255 characters. */
  customerIdentifier: string;
  /** The customer's message, at most 4000 characters. */
  message: string;
  /** Merged into the conversation's variables, and kept for later calls. */
  variables?: unknown;
};

/** How an assistant uses its knowledge base: passages in the prompt by both rankings, embeddings or full text, or a search function the model calls (tool). */
export type KnowledgebaseMode =
  | 'hybrid'
  | 'keyword'
  | 'semantic'
  | 'tool';

export type KnowledgebaseStatus =
  /** Every document is processed and ready. */
  | 'ACTIVE'
  /** No documents. */
  | 'EMPTY'
  /** Nothing is processing and at least one document failed. */
  | 'FAILED'
  /** At least one document is being processed. */
  | 'PROCESSING';

/** Where a lead is in its campaign. REST spells reached_max_retries with hyphens. */
export type LeadStatus =
  | 'blacklisted'
  | 'completed'
  | 'created'
  | 'processing'
  | 'reached_max_retries'
  | 'rescheduled'
  | 'scheduled';

export type LoginInput = {
  email: string;
  password: string;
};

/** Who wrote a message: the customer (user), the AI (assistant) or a person of the business (operator). */
export type MessageRole =
  | 'assistant'
  | 'operator'
  | 'system'
  | 'user';

/** normal is a dedicated number bought through Voxgate; sip routes to a SIP URI; caller_id is a verified outbound caller ID. */
export type PhoneNumberKind =
  | 'caller_id'
  | 'normal'
  | 'sip';

export type SecondaryContactInput = {
  /** E.164. */
  phoneNumber: string;
  variables?: unknown;
};

export type SendWidgetMessageInput = {
  conversationId: string | number;
  /** At most 2000 characters. */
  message: string;
  /** The page the widget is on (location.href), shown to the business; kept only when it is a page of the request's Origin. */
  pageUrl?: string | null | undefined;
};

export type StartCallInput = {
  assistantId: number;
  /** The account's number to call from; default: the assistant's number. */
  phoneNumberId?: number | null | undefined;
  /** The number to call, E.164 (e.g. +14155550123). */
  to: string;
  /** Object of context values for this call. */
  variables?: unknown;
};

export type StartWidgetConversationInput = {
  assistantUuid: string;
  /** The page the widget is on (location.href), shown to the business; kept only when it is a page of the request's Origin. */
  pageUrl?: string | null | undefined;
  variables?: unknown;
};

export type StartWidgetWebCallInput = {
  assistantUuid: string;
};

/** Only name and description can change. The other fields are accepted only to be refused with a clear message: to change content, delete the document and create a new one. */
export type UpdateDocumentInput = {
  description?: string | null | undefined;
  links?: Array<DocumentLinkInput> | null | undefined;
  name?: string | null | undefined;
  relativeLinksLimit?: number | null | undefined;
  type?: string | null | undefined;
  url?: string | null | undefined;
};

export type WidgetPosition =
  | 'bottom_left'
  | 'bottom_right';

export type WidgetTheme =
  | 'dark'
  | 'light';

export type RestGenerateReplyMutationVariables = Exact<{
  input: GenerateReplyInput;
}>;


export type RestGenerateReplyMutation = { generateReply: { conversationId: string, customerIdentifier: string, reply: string, aiDisabled: boolean, functionCalls: Array<{ name: string, arguments: unknown, result: unknown, error: string | null, durationMs: number }> } };

export type RestCreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;


export type RestCreateApiKeyMutation = { createApiKey: { token: string, apiKey: { name: string, createdAt: string } } };

export type RestApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type RestApiKeysQuery = { apiKeys: Array<{ id: number, name: string, lastUsedAt: string | null, createdAt: string }> };

export type RestDeleteApiKeyMutationVariables = Exact<{
  id: number;
}>;


export type RestDeleteApiKeyMutation = { deleteApiKey: { deletedId: number } };

export type RestAppointmentFragment = { id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null };

export type RestBookAppointmentMutationVariables = Exact<{
  input: BookAppointmentInput;
}>;


export type RestBookAppointmentMutation = { bookAppointment: { id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null } };

export type RestAppointmentsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  filter?: AppointmentFilter | null | undefined;
}>;


export type RestAppointmentsQuery = { appointments: { items: Array<{ id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null }>, pageInfo: { total: number, currentPage: number, perPage: number, lastPage: number } } };

export type RestAppointmentQueryVariables = Exact<{
  id: number;
}>;


export type RestAppointmentQuery = { appointment: { id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null } | null };

export type RestRescheduleAppointmentMutationVariables = Exact<{
  id: number;
  startsAt: string;
}>;


export type RestRescheduleAppointmentMutation = { rescheduleAppointment: { id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null } };

export type RestCancelAppointmentMutationVariables = Exact<{
  id: number;
}>;


export type RestCancelAppointmentMutation = { cancelAppointment: { id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null } };

export type RestAssistantFragment = { id: number, userId: number, phoneNumberId: number | null, engineId: number | null, synthesizerId: number | null, transcriberId: number | null, voiceId: number | null, instanceId: number | null, name: string, variables: unknown, postCallEvaluation: boolean, fillers: number, postCallSchema: unknown, tools: unknown, isWebhookActive: boolean, webhookUrl: string | null, inboundWebhookUrl: string | null, language: string | null, type: AssistantType, status: AssistantStatus, maxDuration: number, record: boolean, initialMessage: string, systemPrompt: string, flowsPlatformId: number | null, timezone: string, createdAt: string, updatedAt: string, deletedAt: string | null, maxSilenceDuration: number, reengagementInterval: number, endCallOnVoicemail: boolean, llmTemperature: string, voiceStability: string, voiceSimilarity: string, speechSpeed: string, ambientSoundVolume: string, allowInterruptions: boolean, enableNoiseCancellation: boolean, waitForCustomer: boolean, endpointSensitivity: number, interruptSensitivity: number, endpointType: EndpointType, mode: AssistantMode, languageId: number | null, transcriberProviderId: number | null, synthesizerProviderId: number | null, llmModelId: number | null, multimodalModelId: number | null, ambientSound: AmbientSound, uuid: string, sendWebhookOnlyOnCompleted: boolean, includeRecordingInWebhook: boolean, fillerConfig: unknown, knowledgebaseId: number | null, knowledgebaseMode: KnowledgebaseMode, minInterruptWords: number, widgetSettings: unknown };

export type RestAssistantsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
}>;


export type RestAssistantsQuery = { assistants: { items: Array<{ id: number, userId: number, phoneNumberId: number | null, engineId: number | null, synthesizerId: number | null, transcriberId: number | null, voiceId: number | null, instanceId: number | null, name: string, variables: unknown, postCallEvaluation: boolean, fillers: number, postCallSchema: unknown, tools: unknown, isWebhookActive: boolean, webhookUrl: string | null, inboundWebhookUrl: string | null, language: string | null, type: AssistantType, status: AssistantStatus, maxDuration: number, record: boolean, initialMessage: string, systemPrompt: string, flowsPlatformId: number | null, timezone: string, createdAt: string, updatedAt: string, deletedAt: string | null, maxSilenceDuration: number, reengagementInterval: number, endCallOnVoicemail: boolean, llmTemperature: string, voiceStability: string, voiceSimilarity: string, speechSpeed: string, ambientSoundVolume: string, allowInterruptions: boolean, enableNoiseCancellation: boolean, waitForCustomer: boolean, endpointSensitivity: number, interruptSensitivity: number, endpointType: EndpointType, mode: AssistantMode, languageId: number | null, transcriberProviderId: number | null, synthesizerProviderId: number | null, llmModelId: number | null, multimodalModelId: number | null, ambientSound: AmbientSound, uuid: string, sendWebhookOnlyOnCompleted: boolean, includeRecordingInWebhook: boolean, fillerConfig: unknown, knowledgebaseId: number | null, knowledgebaseMode: KnowledgebaseMode, minInterruptWords: number, widgetSettings: unknown }>, pageInfo: { total: number, currentPage: number, perPage: number, lastPage: number } } };

export type RestLoginMutationVariables = Exact<{
  input: LoginInput;
}>;


export type RestLoginMutation = { login: { token: string, tokenType: string, expiresAt: string, viewer: { id: number, name: string, email: string } } };

export type RestLogoutMutationVariables = Exact<{ [key: string]: never; }>;


export type RestLogoutMutation = { logout: { revoked: boolean } };

export type RestCallFieldsFragment = { id: number, assistantName: string, campaignName: string, type: CallType, duration: number, assistantPhoneNumber: string, clientPhoneNumber: string, status: CallStatus, transcript: string, variables: unknown, evaluation: unknown, webhookResponse: unknown, carrierCost: string, totalCost: string, answeredBy: string, recordingUrl: string, createdAt: string, updatedAt: string };

export type RestCallsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  filter?: CallFilter | null | undefined;
}>;


export type RestCallsQuery = { calls: { items: Array<{ id: number, assistantName: string, campaignName: string, type: CallType, duration: number, assistantPhoneNumber: string, clientPhoneNumber: string, status: CallStatus, transcript: string, variables: unknown, evaluation: unknown, webhookResponse: unknown, carrierCost: string, totalCost: string, answeredBy: string, recordingUrl: string, createdAt: string, updatedAt: string }>, pageInfo: { total: number, currentPage: number, perPage: number, lastPage: number } } };

export type RestMakeCallMutationVariables = Exact<{
  input: StartCallInput;
}>;


export type RestMakeCallMutation = { startCall: { id: number, assistantName: string, campaignName: string, type: CallType, duration: number, assistantPhoneNumber: string, clientPhoneNumber: string, status: CallStatus, transcript: string, variables: unknown, evaluation: unknown, webhookResponse: unknown, carrierCost: string, totalCost: string, answeredBy: string, recordingUrl: string, createdAt: string, updatedAt: string } };

export type RestFunctionCallFragment = { name: string, arguments: unknown, result: unknown, error: string | null, durationMs: number };

export type RestWidgetFunctionCallFragment = { name: string, succeeded: boolean };

export type RestConversationMessagesQueryVariables = Exact<{
  id: string | number;
}>;


export type RestConversationMessagesQuery = { widgetConversation: { id: string, messages: Array<{ id: number, role: MessageRole, content: string, createdAt: string, functionCalls: Array<{ name: string, succeeded: boolean }> }> } };

export type RestSendConversationMessageMutationVariables = Exact<{
  input: SendWidgetMessageInput;
}>;


export type RestSendConversationMessageMutation = { sendWidgetMessage: { reply: string, functionCalls: Array<{ name: string, succeeded: boolean }> } };

export type RestErasedEventLeftFragment = { id: number, appointmentId: number, connectionId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null };

export type RestCustomerDataJobFragment = { id: number, kind: string, state: string, identifierKind: string, identifierHash: string, requestedBy: string, stepsDone: number, stepsTotal: number, progress: number, counts: unknown, error: string | null, archiveBytes: number | null, downloadUrl: string | null, expiresAt: string | null, createdAt: string, finishedAt: string | null, externalEventsLeftDetails: Array<{ id: number, appointmentId: number, connectionId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null }> | null };

export type RestExportCustomerDataMutationVariables = Exact<{
  input: CustomerDataInput;
}>;


export type RestExportCustomerDataMutation = { exportCustomerData: { id: number, kind: string, state: string, identifierKind: string, identifierHash: string, requestedBy: string, stepsDone: number, stepsTotal: number, progress: number, counts: unknown, error: string | null, archiveBytes: number | null, downloadUrl: string | null, expiresAt: string | null, createdAt: string, finishedAt: string | null, externalEventsLeftDetails: Array<{ id: number, appointmentId: number, connectionId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null }> | null } };

export type RestEraseCustomerDataMutationVariables = Exact<{
  input: CustomerDataInput;
}>;


export type RestEraseCustomerDataMutation = { eraseCustomerData: { id: number, kind: string, state: string, identifierKind: string, identifierHash: string, requestedBy: string, stepsDone: number, stepsTotal: number, progress: number, counts: unknown, error: string | null, archiveBytes: number | null, downloadUrl: string | null, expiresAt: string | null, createdAt: string, finishedAt: string | null, externalEventsLeftDetails: Array<{ id: number, appointmentId: number, connectionId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null }> | null } };

export type RestCustomerDataJobQueryVariables = Exact<{
  id: number;
}>;


export type RestCustomerDataJobQuery = { customerDataJob: { id: number, kind: string, state: string, identifierKind: string, identifierHash: string, requestedBy: string, stepsDone: number, stepsTotal: number, progress: number, counts: unknown, error: string | null, archiveBytes: number | null, downloadUrl: string | null, expiresAt: string | null, createdAt: string, finishedAt: string | null, externalEventsLeftDetails: Array<{ id: number, appointmentId: number, connectionId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null }> | null } };

export type RestMarkErasedEventLeftHandledMutationVariables = Exact<{
  id: number;
}>;


export type RestMarkErasedEventLeftHandledMutation = { markErasedEventLeftHandled: { id: number, appointmentId: number, connectionId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null } };

export type RestDocumentFragment = { id: number, name: string, description: string, type: DocumentType, typeLabel: string, status: DocumentStatus, statusLabel: string, failureReason: string | null, createdAt: string, updatedAt: string };

export type RestKnowledgebasesQueryVariables = Exact<{ [key: string]: never; }>;


export type RestKnowledgebasesQuery = { knowledgebases: Array<{ id: number, name: string, description: string, status: KnowledgebaseStatus, statusLabel: string, documentsCount: number, assistantsCount: number, createdAt: string, updatedAt: string }> };

export type RestDocumentsQueryVariables = Exact<{
  knowledgebaseId: number;
}>;


export type RestDocumentsQuery = { documents: Array<{ id: number, name: string, description: string, type: DocumentType, typeLabel: string, status: DocumentStatus, statusLabel: string, failureReason: string | null, createdAt: string, updatedAt: string }> };

export type RestCreateDocumentMutationVariables = Exact<{
  knowledgebaseId: number;
  input: CreateDocumentInput;
}>;


export type RestCreateDocumentMutation = { createDocument: { id: number, name: string, description: string, type: DocumentType, typeLabel: string, status: DocumentStatus, statusLabel: string, failureReason: string | null, createdAt: string, updatedAt: string } };

export type RestDocumentQueryVariables = Exact<{
  id: number;
  knowledgebaseId: number;
}>;


export type RestDocumentQuery = { document: { id: number, name: string, description: string, type: DocumentType, typeLabel: string, status: DocumentStatus, statusLabel: string, failureReason: string | null, createdAt: string, updatedAt: string } };

export type RestUpdateDocumentMutationVariables = Exact<{
  id: number;
  knowledgebaseId: number;
  input: UpdateDocumentInput;
}>;


export type RestUpdateDocumentMutation = { updateDocument: { id: number, name: string, description: string, type: DocumentType, typeLabel: string, status: DocumentStatus, statusLabel: string, failureReason: string | null, createdAt: string, updatedAt: string } };

export type RestDeleteDocumentMutationVariables = Exact<{
  id: number;
  knowledgebaseId: number;
}>;


export type RestDeleteDocumentMutation = { deleteDocument: { deletedId: number } };

export type RestLeadFragment = { id: number, campaignId: number, phoneNumber: string, variables: unknown, status: LeadStatus, createdAt: string, updatedAt: string, campaign: { id: number, name: string }, secondaryContacts: Array<{ id: number, phoneNumber: string, variables: unknown, status: LeadStatus, createdAt: string, updatedAt: string }> };

export type RestCreateLeadMutationVariables = Exact<{
  input: CreateLeadInput;
}>;


export type RestCreateLeadMutation = { createLead: { id: number, campaignId: number, phoneNumber: string, variables: unknown, status: LeadStatus, createdAt: string, updatedAt: string, campaign: { id: number, name: string }, secondaryContacts: Array<{ id: number, phoneNumber: string, variables: unknown, status: LeadStatus, createdAt: string, updatedAt: string }> } };

export type RestLeadsQueryVariables = Exact<{
  page?: number | null | undefined;
  perPage?: number | null | undefined;
  campaignId?: number | null | undefined;
  status?: LeadStatus | null | undefined;
}>;


export type RestLeadsQuery = { leads: { items: Array<{ id: number, campaignId: number, phoneNumber: string, variables: unknown, status: LeadStatus, createdAt: string, updatedAt: string, campaign: { id: number, name: string }, secondaryContacts: Array<{ id: number, phoneNumber: string, variables: unknown, status: LeadStatus, createdAt: string, updatedAt: string }> }>, pageInfo: { total: number, currentPage: number, perPage: number, lastPage: number } } };

export type RestDeleteLeadMutationVariables = Exact<{
  id: number;
}>;


export type RestDeleteLeadMutation = { deleteLead: { deletedId: number } };

export type RestPhoneNumbersQueryVariables = Exact<{
  smsReadyOnly?: boolean | null | undefined;
}>;


export type RestPhoneNumbersQuery = { phoneNumbers: Array<{ id: number, phoneNumber: string, countryCode: string, kind: PhoneNumberKind, typeLabel: string, smsCapable: boolean, region: string, hasActiveSubscription: boolean, createdAt: string }> };

export type RestReleasePhoneNumberMutationVariables = Exact<{
  id: number;
}>;


export type RestReleasePhoneNumberMutation = { releasePhoneNumber: { releasedNow: boolean, releasesAt: string | null } };

export type RestVoicesQueryVariables = Exact<{
  mode?: AssistantMode | null | undefined;
  languageId?: number | null | undefined;
}>;


export type RestVoicesQuery = { voices: Array<{ id: number, name: string, languageId: number | null, gender: string }> };

export type RestWidgetAssistantQueryVariables = Exact<{
  uuid: string;
}>;


export type RestWidgetAssistantQuery = { widgetAssistant: { uuid: string, name: string, initialMessage: string, widgetSettings: { theme: WidgetTheme, color: string, position: WidgetPosition, voice: boolean } } };

export type RestStartWidgetConversationMutationVariables = Exact<{
  input: StartWidgetConversationInput;
}>;


export type RestStartWidgetConversationMutation = { startWidgetConversation: { conversationId: string, initialMessage: string, createdAt: string } };

export type RestStartWidgetWebCallMutationVariables = Exact<{
  input: StartWidgetWebCallInput;
}>;


export type RestStartWidgetWebCallMutation = { startWidgetWebCall: { callId: number, token: string, expiresAt: string, socketPath: string, sampleRate: number } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const RestAppointmentFragmentDoc = new TypedDocumentString(`
    fragment RestAppointment on Appointment {
  id
  status
  startsAt
  endsAt
  timezone
  customerName
  customerPhone
  customerEmail
  notes
  appointmentTypeId
  appointmentTypeName
  connectionId
  provider
  assistantId
  callId
  conversationId
  createdAt
  updatedAt
  cancelledAt
}
    `, {"fragmentName":"RestAppointment"}) as unknown as TypedDocumentString<RestAppointmentFragment, unknown>;
export const RestAssistantFragmentDoc = new TypedDocumentString(`
    fragment RestAssistant on Assistant {
  id
  userId
  phoneNumberId
  engineId
  synthesizerId
  transcriberId
  voiceId
  instanceId
  name
  variables
  postCallEvaluation
  fillers
  postCallSchema
  tools
  isWebhookActive
  webhookUrl
  inboundWebhookUrl
  language
  type
  status
  maxDuration
  record
  initialMessage
  systemPrompt
  flowsPlatformId
  timezone
  createdAt
  updatedAt
  deletedAt
  maxSilenceDuration
  reengagementInterval
  endCallOnVoicemail
  llmTemperature
  voiceStability
  voiceSimilarity
  speechSpeed
  ambientSoundVolume
  allowInterruptions
  enableNoiseCancellation
  waitForCustomer
  endpointSensitivity
  interruptSensitivity
  endpointType
  mode
  languageId
  transcriberProviderId
  synthesizerProviderId
  llmModelId
  multimodalModelId
  ambientSound
  uuid
  sendWebhookOnlyOnCompleted
  includeRecordingInWebhook
  fillerConfig
  knowledgebaseId
  knowledgebaseMode
  minInterruptWords
  widgetSettings
}
    `, {"fragmentName":"RestAssistant"}) as unknown as TypedDocumentString<RestAssistantFragment, unknown>;
export const RestCallFieldsFragmentDoc = new TypedDocumentString(`
    fragment RestCallFields on Call {
  id
  assistantName
  campaignName
  type
  duration
  assistantPhoneNumber
  clientPhoneNumber
  status
  transcript
  variables
  evaluation
  webhookResponse
  carrierCost
  totalCost
  answeredBy
  recordingUrl
  createdAt
  updatedAt
}
    `, {"fragmentName":"RestCallFields"}) as unknown as TypedDocumentString<RestCallFieldsFragment, unknown>;
export const RestFunctionCallFragmentDoc = new TypedDocumentString(`
    fragment RestFunctionCall on FunctionCall {
  name
  arguments
  result
  error
  durationMs
}
    `, {"fragmentName":"RestFunctionCall"}) as unknown as TypedDocumentString<RestFunctionCallFragment, unknown>;
export const RestWidgetFunctionCallFragmentDoc = new TypedDocumentString(`
    fragment RestWidgetFunctionCall on WidgetFunctionCall {
  name
  succeeded
}
    `, {"fragmentName":"RestWidgetFunctionCall"}) as unknown as TypedDocumentString<RestWidgetFunctionCallFragment, unknown>;
export const RestErasedEventLeftFragmentDoc = new TypedDocumentString(`
    fragment RestErasedEventLeft on ErasedEventLeft {
  id
  appointmentId
  connectionId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}
    `, {"fragmentName":"RestErasedEventLeft"}) as unknown as TypedDocumentString<RestErasedEventLeftFragment, unknown>;
export const RestCustomerDataJobFragmentDoc = new TypedDocumentString(`
    fragment RestCustomerDataJob on CustomerDataJob {
  id
  kind
  state
  identifierKind
  identifierHash
  requestedBy
  stepsDone
  stepsTotal
  progress
  counts
  error
  archiveBytes
  downloadUrl
  expiresAt
  createdAt
  finishedAt
  externalEventsLeftDetails {
    ...RestErasedEventLeft
  }
}
    fragment RestErasedEventLeft on ErasedEventLeft {
  id
  appointmentId
  connectionId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}`, {"fragmentName":"RestCustomerDataJob"}) as unknown as TypedDocumentString<RestCustomerDataJobFragment, unknown>;
export const RestDocumentFragmentDoc = new TypedDocumentString(`
    fragment RestDocument on Document {
  id
  name
  description
  type
  typeLabel
  status
  statusLabel
  failureReason
  createdAt
  updatedAt
}
    `, {"fragmentName":"RestDocument"}) as unknown as TypedDocumentString<RestDocumentFragment, unknown>;
export const RestLeadFragmentDoc = new TypedDocumentString(`
    fragment RestLead on Lead {
  id
  campaignId
  phoneNumber
  variables
  status
  createdAt
  updatedAt
  campaign {
    id
    name
  }
  secondaryContacts {
    id
    phoneNumber
    variables
    status
    createdAt
    updatedAt
  }
}
    `, {"fragmentName":"RestLead"}) as unknown as TypedDocumentString<RestLeadFragment, unknown>;
export const RestGenerateReplyDocument = new TypedDocumentString(`
    mutation RestGenerateReply($input: GenerateReplyInput!) {
  generateReply(input: $input) {
    conversationId
    customerIdentifier
    reply
    functionCalls {
      ...RestFunctionCall
    }
    aiDisabled
  }
}
    fragment RestFunctionCall on FunctionCall {
  name
  arguments
  result
  error
  durationMs
}`) as unknown as TypedDocumentString<RestGenerateReplyMutation, RestGenerateReplyMutationVariables>;
export const RestCreateApiKeyDocument = new TypedDocumentString(`
    mutation RestCreateApiKey($input: CreateApiKeyInput!) {
  createApiKey(input: $input) {
    token
    apiKey {
      name
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<RestCreateApiKeyMutation, RestCreateApiKeyMutationVariables>;
export const RestApiKeysDocument = new TypedDocumentString(`
    query RestApiKeys {
  apiKeys {
    id
    name
    lastUsedAt
    createdAt
  }
}
    `) as unknown as TypedDocumentString<RestApiKeysQuery, RestApiKeysQueryVariables>;
export const RestDeleteApiKeyDocument = new TypedDocumentString(`
    mutation RestDeleteApiKey($id: Int!) {
  deleteApiKey(id: $id) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<RestDeleteApiKeyMutation, RestDeleteApiKeyMutationVariables>;
export const RestBookAppointmentDocument = new TypedDocumentString(`
    mutation RestBookAppointment($input: BookAppointmentInput!) {
  bookAppointment(input: $input) {
    ...RestAppointment
  }
}
    fragment RestAppointment on Appointment {
  id
  status
  startsAt
  endsAt
  timezone
  customerName
  customerPhone
  customerEmail
  notes
  appointmentTypeId
  appointmentTypeName
  connectionId
  provider
  assistantId
  callId
  conversationId
  createdAt
  updatedAt
  cancelledAt
}`) as unknown as TypedDocumentString<RestBookAppointmentMutation, RestBookAppointmentMutationVariables>;
export const RestAppointmentsDocument = new TypedDocumentString(`
    query RestAppointments($page: Int, $perPage: Int, $filter: AppointmentFilter) {
  appointments(page: $page, perPage: $perPage, filter: $filter) {
    items {
      ...RestAppointment
    }
    pageInfo {
      total
      currentPage
      perPage
      lastPage
    }
  }
}
    fragment RestAppointment on Appointment {
  id
  status
  startsAt
  endsAt
  timezone
  customerName
  customerPhone
  customerEmail
  notes
  appointmentTypeId
  appointmentTypeName
  connectionId
  provider
  assistantId
  callId
  conversationId
  createdAt
  updatedAt
  cancelledAt
}`) as unknown as TypedDocumentString<RestAppointmentsQuery, RestAppointmentsQueryVariables>;
export const RestAppointmentDocument = new TypedDocumentString(`
    query RestAppointment($id: Int!) {
  appointment(id: $id) {
    ...RestAppointment
  }
}
    fragment RestAppointment on Appointment {
  id
  status
  startsAt
  endsAt
  timezone
  customerName
  customerPhone
  customerEmail
  notes
  appointmentTypeId
  appointmentTypeName
  connectionId
  provider
  assistantId
  callId
  conversationId
  createdAt
  updatedAt
  cancelledAt
}`) as unknown as TypedDocumentString<RestAppointmentQuery, RestAppointmentQueryVariables>;
export const RestRescheduleAppointmentDocument = new TypedDocumentString(`
    mutation RestRescheduleAppointment($id: Int!, $startsAt: DateTime!) {
  rescheduleAppointment(id: $id, startsAt: $startsAt) {
    ...RestAppointment
  }
}
    fragment RestAppointment on Appointment {
  id
  status
  startsAt
  endsAt
  timezone
  customerName
  customerPhone
  customerEmail
  notes
  appointmentTypeId
  appointmentTypeName
  connectionId
  provider
  assistantId
  callId
  conversationId
  createdAt
  updatedAt
  cancelledAt
}`) as unknown as TypedDocumentString<RestRescheduleAppointmentMutation, RestRescheduleAppointmentMutationVariables>;
export const RestCancelAppointmentDocument = new TypedDocumentString(`
    mutation RestCancelAppointment($id: Int!) {
  cancelAppointment(id: $id) {
    ...RestAppointment
  }
}
    fragment RestAppointment on Appointment {
  id
  status
  startsAt
  endsAt
  timezone
  customerName
  customerPhone
  customerEmail
  notes
  appointmentTypeId
  appointmentTypeName
  connectionId
  provider
  assistantId
  callId
  conversationId
  createdAt
  updatedAt
  cancelledAt
}`) as unknown as TypedDocumentString<RestCancelAppointmentMutation, RestCancelAppointmentMutationVariables>;
export const RestAssistantsDocument = new TypedDocumentString(`
    query RestAssistants($page: Int, $perPage: Int) {
  assistants(page: $page, perPage: $perPage) {
    items {
      ...RestAssistant
    }
    pageInfo {
      total
      currentPage
      perPage
      lastPage
    }
  }
}
    fragment RestAssistant on Assistant {
  id
  userId
  phoneNumberId
  engineId
  synthesizerId
  transcriberId
  voiceId
  instanceId
  name
  variables
  postCallEvaluation
  fillers
  postCallSchema
  tools
  isWebhookActive
  webhookUrl
  inboundWebhookUrl
  language
  type
  status
  maxDuration
  record
  initialMessage
  systemPrompt
  flowsPlatformId
  timezone
  createdAt
  updatedAt
  deletedAt
  maxSilenceDuration
  reengagementInterval
  endCallOnVoicemail
  llmTemperature
  voiceStability
  voiceSimilarity
  speechSpeed
  ambientSoundVolume
  allowInterruptions
  enableNoiseCancellation
  waitForCustomer
  endpointSensitivity
  interruptSensitivity
  endpointType
  mode
  languageId
  transcriberProviderId
  synthesizerProviderId
  llmModelId
  multimodalModelId
  ambientSound
  uuid
  sendWebhookOnlyOnCompleted
  includeRecordingInWebhook
  fillerConfig
  knowledgebaseId
  knowledgebaseMode
  minInterruptWords
  widgetSettings
}`) as unknown as TypedDocumentString<RestAssistantsQuery, RestAssistantsQueryVariables>;
export const RestLoginDocument = new TypedDocumentString(`
    mutation RestLogin($input: LoginInput!) {
  login(input: $input) {
    token
    tokenType
    expiresAt
    viewer {
      id
      name
      email
    }
  }
}
    `) as unknown as TypedDocumentString<RestLoginMutation, RestLoginMutationVariables>;
export const RestLogoutDocument = new TypedDocumentString(`
    mutation RestLogout {
  logout {
    revoked
  }
}
    `) as unknown as TypedDocumentString<RestLogoutMutation, RestLogoutMutationVariables>;
export const RestCallsDocument = new TypedDocumentString(`
    query RestCalls($page: Int, $perPage: Int, $filter: CallFilter) {
  calls(page: $page, perPage: $perPage, filter: $filter) {
    items {
      ...RestCallFields
    }
    pageInfo {
      total
      currentPage
      perPage
      lastPage
    }
  }
}
    fragment RestCallFields on Call {
  id
  assistantName
  campaignName
  type
  duration
  assistantPhoneNumber
  clientPhoneNumber
  status
  transcript
  variables
  evaluation
  webhookResponse
  carrierCost
  totalCost
  answeredBy
  recordingUrl
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<RestCallsQuery, RestCallsQueryVariables>;
export const RestMakeCallDocument = new TypedDocumentString(`
    mutation RestMakeCall($input: StartCallInput!) {
  startCall(input: $input) {
    ...RestCallFields
  }
}
    fragment RestCallFields on Call {
  id
  assistantName
  campaignName
  type
  duration
  assistantPhoneNumber
  clientPhoneNumber
  status
  transcript
  variables
  evaluation
  webhookResponse
  carrierCost
  totalCost
  answeredBy
  recordingUrl
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<RestMakeCallMutation, RestMakeCallMutationVariables>;
export const RestConversationMessagesDocument = new TypedDocumentString(`
    query RestConversationMessages($id: ID!) {
  widgetConversation(id: $id) {
    id
    messages {
      id
      role
      content
      functionCalls {
        ...RestWidgetFunctionCall
      }
      createdAt
    }
  }
}
    fragment RestWidgetFunctionCall on WidgetFunctionCall {
  name
  succeeded
}`) as unknown as TypedDocumentString<RestConversationMessagesQuery, RestConversationMessagesQueryVariables>;
export const RestSendConversationMessageDocument = new TypedDocumentString(`
    mutation RestSendConversationMessage($input: SendWidgetMessageInput!) {
  sendWidgetMessage(input: $input) {
    reply
    functionCalls {
      ...RestWidgetFunctionCall
    }
  }
}
    fragment RestWidgetFunctionCall on WidgetFunctionCall {
  name
  succeeded
}`) as unknown as TypedDocumentString<RestSendConversationMessageMutation, RestSendConversationMessageMutationVariables>;
export const RestExportCustomerDataDocument = new TypedDocumentString(`
    mutation RestExportCustomerData($input: CustomerDataInput!) {
  exportCustomerData(input: $input) {
    ...RestCustomerDataJob
  }
}
    fragment RestErasedEventLeft on ErasedEventLeft {
  id
  appointmentId
  connectionId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}
fragment RestCustomerDataJob on CustomerDataJob {
  id
  kind
  state
  identifierKind
  identifierHash
  requestedBy
  stepsDone
  stepsTotal
  progress
  counts
  error
  archiveBytes
  downloadUrl
  expiresAt
  createdAt
  finishedAt
  externalEventsLeftDetails {
    ...RestErasedEventLeft
  }
}`) as unknown as TypedDocumentString<RestExportCustomerDataMutation, RestExportCustomerDataMutationVariables>;
export const RestEraseCustomerDataDocument = new TypedDocumentString(`
    mutation RestEraseCustomerData($input: CustomerDataInput!) {
  eraseCustomerData(input: $input) {
    ...RestCustomerDataJob
  }
}
    fragment RestErasedEventLeft on ErasedEventLeft {
  id
  appointmentId
  connectionId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}
fragment RestCustomerDataJob on CustomerDataJob {
  id
  kind
  state
  identifierKind
  identifierHash
  requestedBy
  stepsDone
  stepsTotal
  progress
  counts
  error
  archiveBytes
  downloadUrl
  expiresAt
  createdAt
  finishedAt
  externalEventsLeftDetails {
    ...RestErasedEventLeft
  }
}`) as unknown as TypedDocumentString<RestEraseCustomerDataMutation, RestEraseCustomerDataMutationVariables>;
export const RestCustomerDataJobDocument = new TypedDocumentString(`
    query RestCustomerDataJob($id: Int!) {
  customerDataJob(id: $id) {
    ...RestCustomerDataJob
  }
}
    fragment RestErasedEventLeft on ErasedEventLeft {
  id
  appointmentId
  connectionId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}
fragment RestCustomerDataJob on CustomerDataJob {
  id
  kind
  state
  identifierKind
  identifierHash
  requestedBy
  stepsDone
  stepsTotal
  progress
  counts
  error
  archiveBytes
  downloadUrl
  expiresAt
  createdAt
  finishedAt
  externalEventsLeftDetails {
    ...RestErasedEventLeft
  }
}`) as unknown as TypedDocumentString<RestCustomerDataJobQuery, RestCustomerDataJobQueryVariables>;
export const RestMarkErasedEventLeftHandledDocument = new TypedDocumentString(`
    mutation RestMarkErasedEventLeftHandled($id: Int!) {
  markErasedEventLeftHandled(id: $id) {
    ...RestErasedEventLeft
  }
}
    fragment RestErasedEventLeft on ErasedEventLeft {
  id
  appointmentId
  connectionId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}`) as unknown as TypedDocumentString<RestMarkErasedEventLeftHandledMutation, RestMarkErasedEventLeftHandledMutationVariables>;
export const RestKnowledgebasesDocument = new TypedDocumentString(`
    query RestKnowledgebases {
  knowledgebases {
    id
    name
    description
    status
    statusLabel
    documentsCount
    assistantsCount
    createdAt
    updatedAt
  }
}
    `) as unknown as TypedDocumentString<RestKnowledgebasesQuery, RestKnowledgebasesQueryVariables>;
export const RestDocumentsDocument = new TypedDocumentString(`
    query RestDocuments($knowledgebaseId: Int!) {
  documents(knowledgebaseId: $knowledgebaseId) {
    ...RestDocument
  }
}
    fragment RestDocument on Document {
  id
  name
  description
  type
  typeLabel
  status
  statusLabel
  failureReason
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<RestDocumentsQuery, RestDocumentsQueryVariables>;
export const RestCreateDocumentDocument = new TypedDocumentString(`
    mutation RestCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {
  createDocument(knowledgebaseId: $knowledgebaseId, input: $input) {
    ...RestDocument
  }
}
    fragment RestDocument on Document {
  id
  name
  description
  type
  typeLabel
  status
  statusLabel
  failureReason
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<RestCreateDocumentMutation, RestCreateDocumentMutationVariables>;
export const RestDocumentDocument = new TypedDocumentString(`
    query RestDocument($id: Int!, $knowledgebaseId: Int!) {
  document(id: $id, knowledgebaseId: $knowledgebaseId) {
    ...RestDocument
  }
}
    fragment RestDocument on Document {
  id
  name
  description
  type
  typeLabel
  status
  statusLabel
  failureReason
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<RestDocumentQuery, RestDocumentQueryVariables>;
export const RestUpdateDocumentDocument = new TypedDocumentString(`
    mutation RestUpdateDocument($id: Int!, $knowledgebaseId: Int!, $input: UpdateDocumentInput!) {
  updateDocument(id: $id, knowledgebaseId: $knowledgebaseId, input: $input) {
    ...RestDocument
  }
}
    fragment RestDocument on Document {
  id
  name
  description
  type
  typeLabel
  status
  statusLabel
  failureReason
  createdAt
  updatedAt
}`) as unknown as TypedDocumentString<RestUpdateDocumentMutation, RestUpdateDocumentMutationVariables>;
export const RestDeleteDocumentDocument = new TypedDocumentString(`
    mutation RestDeleteDocument($id: Int!, $knowledgebaseId: Int!) {
  deleteDocument(id: $id, knowledgebaseId: $knowledgebaseId) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<RestDeleteDocumentMutation, RestDeleteDocumentMutationVariables>;
export const RestCreateLeadDocument = new TypedDocumentString(`
    mutation RestCreateLead($input: CreateLeadInput!) {
  createLead(input: $input) {
    ...RestLead
  }
}
    fragment RestLead on Lead {
  id
  campaignId
  phoneNumber
  variables
  status
  createdAt
  updatedAt
  campaign {
    id
    name
  }
  secondaryContacts {
    id
    phoneNumber
    variables
    status
    createdAt
    updatedAt
  }
}`) as unknown as TypedDocumentString<RestCreateLeadMutation, RestCreateLeadMutationVariables>;
export const RestLeadsDocument = new TypedDocumentString(`
    query RestLeads($page: Int, $perPage: Int, $campaignId: Int, $status: LeadStatus) {
  leads(page: $page, perPage: $perPage, campaignId: $campaignId, status: $status) {
    items {
      ...RestLead
    }
    pageInfo {
      total
      currentPage
      perPage
      lastPage
    }
  }
}
    fragment RestLead on Lead {
  id
  campaignId
  phoneNumber
  variables
  status
  createdAt
  updatedAt
  campaign {
    id
    name
  }
  secondaryContacts {
    id
    phoneNumber
    variables
    status
    createdAt
    updatedAt
  }
}`) as unknown as TypedDocumentString<RestLeadsQuery, RestLeadsQueryVariables>;
export const RestDeleteLeadDocument = new TypedDocumentString(`
    mutation RestDeleteLead($id: Int!) {
  deleteLead(id: $id) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<RestDeleteLeadMutation, RestDeleteLeadMutationVariables>;
export const RestPhoneNumbersDocument = new TypedDocumentString(`
    query RestPhoneNumbers($smsReadyOnly: Boolean) {
  phoneNumbers(smsReadyOnly: $smsReadyOnly) {
    id
    phoneNumber
    countryCode
    kind
    typeLabel
    smsCapable
    region
    hasActiveSubscription
    createdAt
  }
}
    `) as unknown as TypedDocumentString<RestPhoneNumbersQuery, RestPhoneNumbersQueryVariables>;
export const RestReleasePhoneNumberDocument = new TypedDocumentString(`
    mutation RestReleasePhoneNumber($id: Int!) {
  releasePhoneNumber(id: $id) {
    releasedNow
    releasesAt
  }
}
    `) as unknown as TypedDocumentString<RestReleasePhoneNumberMutation, RestReleasePhoneNumberMutationVariables>;
export const RestVoicesDocument = new TypedDocumentString(`
    query RestVoices($mode: AssistantMode, $languageId: Int) {
  voices(mode: $mode, languageId: $languageId) {
    id
    name
    languageId
    gender
  }
}
    `) as unknown as TypedDocumentString<RestVoicesQuery, RestVoicesQueryVariables>;
export const RestWidgetAssistantDocument = new TypedDocumentString(`
    query RestWidgetAssistant($uuid: String!) {
  widgetAssistant(uuid: $uuid) {
    uuid
    name
    initialMessage
    widgetSettings {
      theme
      color
      position
      voice
    }
  }
}
    `) as unknown as TypedDocumentString<RestWidgetAssistantQuery, RestWidgetAssistantQueryVariables>;
export const RestStartWidgetConversationDocument = new TypedDocumentString(`
    mutation RestStartWidgetConversation($input: StartWidgetConversationInput!) {
  startWidgetConversation(input: $input) {
    conversationId
    initialMessage
    createdAt
  }
}
    `) as unknown as TypedDocumentString<RestStartWidgetConversationMutation, RestStartWidgetConversationMutationVariables>;
export const RestStartWidgetWebCallDocument = new TypedDocumentString(`
    mutation RestStartWidgetWebCall($input: StartWidgetWebCallInput!) {
  startWidgetWebCall(input: $input) {
    callId
    token
    expiresAt
    socketPath
    sampleRate
  }
}
    `) as unknown as TypedDocumentString<RestStartWidgetWebCallMutation, RestStartWidgetWebCallMutationVariables>;