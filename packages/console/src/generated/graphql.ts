/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type AcceptInvitationInput = {
  /** Required for an invitation; a reset link keeps the member's name when absent. */
  name?: string | null | undefined;
  /** At least 8 characters. */
  password: string;
  token: string;
};

export type AddPhoneNumberInput = {
  kind: PhoneNumberKind;
  label?: string | null | undefined;
  /** E.164. */
  phoneNumber: string;
  /** Defaults to the country's name. */
  region?: string | null | undefined;
  /** Required for SIP numbers: where calls are routed. */
  sipUri?: string | null | undefined;
  /** Dedicated numbers only; defaults to true for them. */
  smsCapable?: boolean | null | undefined;
};

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

export type BusinessHoursInput = {
  fri?: Array<HoursRangeInput> | null | undefined;
  mon?: Array<HoursRangeInput> | null | undefined;
  sat?: Array<HoursRangeInput> | null | undefined;
  sun?: Array<HoursRangeInput> | null | undefined;
  thu?: Array<HoursRangeInput> | null | undefined;
  tue?: Array<HoursRangeInput> | null | undefined;
  wed?: Array<HoursRangeInput> | null | undefined;
};

export type CalendarConnectionStatus =
  /** The provider accepted the credentials when last used. */
  | 'active'
  /** The provider refused them (or the calendar is gone) when last used: see lastError. */
  | 'broken';

/** Providers connected by signing in. */
export type CalendarOAuthProvider =
  | 'google'
  | 'microsoft';

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

/** Only an active campaign places calls. */
export type CampaignStatus =
  | 'active'
  | 'completed'
  | 'draft'
  | 'paused';

export type ChangeMemberRoleInput = {
  role: MemberRole;
  userId: number;
};

/** What moved: a message stored, the conversation itself (take-over, hand-back, request for a person, hand-off), its status, its assignee, a note added, or the caller read it. */
export type ConversationActivityKind =
  | 'assignment'
  | 'conversation'
  | 'message'
  | 'note'
  | 'read'
  | 'status';

/** Where a conversation comes from: generate-reply (api), the website widget, the owner testing, or text messages to one of the account's numbers (sms; the customer identifier is the customer's number). */
export type ConversationChannel =
  | 'api'
  | 'sms'
  | 'test'
  | 'widget';

/** open until a person resolves it (resolveConversation); a new customer message reopens a resolved conversation. */
export type ConversationStatus =
  | 'open'
  | 'resolved';

export type CreateAppointmentTypeInput = {
  /** Default 0. */
  bufferAfterMinutes?: number | null | undefined;
  /** Default 0. */
  bufferBeforeMinutes?: number | null | undefined;
  businessHours: BusinessHoursInput;
  connectionId: number;
  durationMinutes: number;
  /** How far ahead slots are offered; default 60. */
  horizonDays?: number | null | undefined;
  maxPerDay?: number | null | undefined;
  /** Default 0. */
  minimumNoticeMinutes?: number | null | undefined;
  name: string;
  /** Slots start every this many minutes; default 30. */
  slotGranularityMinutes?: number | null | undefined;
  /** IANA zone of the business hours, e.g. Europe/Berlin. */
  timezone: string;
};

export type CreateAssistantInput = {
  allowInterruptions?: boolean | null | undefined;
  /** Origins (scheme, host, optional port; no path) allowed to use the public widget API; empty or null allows any. */
  allowedOrigins?: Array<string> | null | undefined;
  ambientSound?: AmbientSound | null | undefined;
  ambientSoundVolume?: string | null | undefined;
  /** Appointment types the assistant books (it is offered calendar functions); null or [] none. */
  appointmentTypeIds?: Array<number> | null | undefined;
  enableNoiseCancellation?: boolean | null | undefined;
  endCallOnVoicemail?: boolean | null | undefined;
  endpointSensitivity?: number | null | undefined;
  endpointType?: EndpointType | null | undefined;
  engineId?: number | null | undefined;
  fillerConfig?: unknown;
  fillers?: number | null | undefined;
  flowsPlatformId?: number | null | undefined;
  inboundWebhookUrl?: string | null | undefined;
  includeRecordingInWebhook?: boolean | null | undefined;
  initialMessage?: string | null | undefined;
  instanceId?: number | null | undefined;
  interruptSensitivity?: number | null | undefined;
  isWebhookActive?: boolean | null | undefined;
  knowledgebaseId?: number | null | undefined;
  knowledgebaseMode?: KnowledgebaseMode | null | undefined;
  language?: string | null | undefined;
  languageId?: number | null | undefined;
  llmModelId?: number | null | undefined;
  llmTemperature?: string | null | undefined;
  maxDuration?: number | null | undefined;
  maxSilenceDuration?: number | null | undefined;
  minInterruptWords?: number | null | undefined;
  mode?: AssistantMode | null | undefined;
  multimodalModelId?: number | null | undefined;
  name: string;
  phoneNumberId?: number | null | undefined;
  postCallEvaluation?: boolean | null | undefined;
  postCallSchema?: unknown;
  record?: boolean | null | undefined;
  /** Kinds of personal data to redact from stored and sent-on content; empty or null: none. */
  redactPii?: Array<PiiCategory> | null | undefined;
  redactRecordings?: boolean | null | undefined;
  reengagementInterval?: number | null | undefined;
  sendWebhookOnlyOnCompleted?: boolean | null | undefined;
  speechSpeed?: string | null | undefined;
  status?: AssistantStatus | null | undefined;
  synthesizerId?: number | null | undefined;
  synthesizerProviderId?: number | null | undefined;
  systemPrompt?: string | null | undefined;
  timezone?: string | null | undefined;
  tools?: unknown;
  transcriberId?: number | null | undefined;
  transcriberProviderId?: number | null | undefined;
  type?: AssistantType | null | undefined;
  variables?: unknown;
  voiceId?: number | null | undefined;
  voiceSimilarity?: string | null | undefined;
  voiceStability?: string | null | undefined;
  waitForCustomer?: boolean | null | undefined;
  webhookUrl?: string | null | undefined;
  widgetSettings?: unknown;
};

/** CalDAV: url, username, password (readUrls optional). Cal.com: apiKey and eventTypeId. Google and Microsoft are connected with startCalendarOAuth instead. */
export type CreateCalendarConnectionInput = {
  /** Cal.com: an API key (cal_live_…); checked before saving, stored encrypted, never returned. */
  apiKey?: string | null | undefined;
  /** Cal.com: the id of the event type to book. */
  eventTypeId?: number | null | undefined;
  name: string;
  /** CalDAV: checked with the server before saving, then stored encrypted; never returned. */
  password?: string | null | undefined;
  provider: CalendarProviderKind;
  /** CalDAV: further calendars to read for busy time (at most 10). */
  readUrls?: Array<string> | null | undefined;
  /** CalDAV: the calendar collection's URL. */
  url?: string | null | undefined;
  /** CalDAV: the login. */
  username?: string | null | undefined;
};

export type CreateCampaignInput = {
  /** An assistant of the account. */
  assistantId?: number | null | undefined;
  /** HH:MM, after the start (default 17:00). */
  callingWindowEnd?: string | null | undefined;
  /** HH:MM (default 09:00). */
  callingWindowStart?: string | null | undefined;
  /** 1 to 50 (default 1): calls of the campaign running at once. */
  maxConcurrentCalls?: number | null | undefined;
  /** 0 to 10 (default 2). */
  maxRetries?: number | null | undefined;
  name: string;
  /** The rotation in calling order; replaces the whole rotation on update. */
  phoneNumberIds?: Array<number> | null | undefined;
  /** 5 to 10080 (default 60). */
  retryIntervalMinutes?: number | null | undefined;
  /** Default draft. */
  status?: CampaignStatus | null | undefined;
  /** IANA zone of the calling window (default UTC). */
  timezone?: string | null | undefined;
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

export type CreatePlatformAccountInput = {
  email: string;
  /** The owner's and the account's name; the email's local part if absent. */
  name?: string | null | undefined;
  /** Make the new account a platform operator (default false). */
  operator?: boolean | null | undefined;
  /** At least 8 characters. */
  password: string;
};

/** The customer is either a script or a persona (with a goal). */
export type CreateTestScenarioInput = {
  assistantId: number;
  /** chat (default) or phone: a simulated test call through the voice engine, never charged. */
  channel?: string | null | undefined;
  /** Checks without a model (docs/testing-assistants.md#checks). */
  checks?: unknown;
  /** Plain-words criteria for the judge (at most 20). */
  criteria?: Array<string> | null | undefined;
  /** What the persona customer wants. */
  goal?: string | null | undefined;
  name: string;
  /** Who the customer is; the model plays them. */
  persona?: string | null | undefined;
  /** The customer's lines, said in order (at most 30). */
  script?: Array<string> | null | undefined;
  /** What stubbed functions answer, by function name. */
  toolResults?: unknown;
  /** Customer messages at most, 1-30 (default 10, or the script's length). */
  turnLimit?: number | null | undefined;
  /** Run bookings and webhook tools for real (default false). */
  useRealTools?: boolean | null | undefined;
  /** Prompt variables of the scenario ({{name}}). */
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

/** Only the fields given change. Each: 1 to 3650 days, or null to keep forever. */
export type DataRetentionInput = {
  /** 1-3650 days; null: forever. */
  auditLogDays?: number | null | undefined;
  /** Call turn details (each turn's timings and words). 1-3650 days; null: forever. */
  callTurnDays?: number | null | undefined;
  /** Conversation messages (widget, API, SMS and test chats). 1-3650 days; null: forever. */
  messageDays?: number | null | undefined;
  /** Call recordings (the audio, wherever it is stored). 1-3650 days; null: forever. */
  recordingDays?: number | null | undefined;
  /** Text message (SMS) bodies. 1-3650 days; null: forever. */
  textDays?: number | null | undefined;
  /** Call transcripts, the words of call turns and call evaluations. 1-3650 days; null: forever. */
  transcriptDays?: number | null | undefined;
  /** Webhook deliveries and their attempts, once delivered or failed. 1-3650 days; null: forever. */
  webhookLogDays?: number | null | undefined;
};

export type DocumentEventStatus =
  | 'ACTIVE'
  /** The document was deleted. */
  | 'DELETED'
  | 'FAILED'
  | 'PROCESSING';

export type DocumentLinkInput = {
  link: string;
};

/** Where a processing document is. */
export type DocumentStage =
  /** Splitting the text into passages. */
  | 'CHUNKING'
  /** Embedding and storing the passages. */
  | 'EMBEDDING'
  /** Websites: reading the pages. */
  | 'FETCHING'
  /** Files: extracting the text. */
  | 'PARSING'
  /** Waiting for a worker. */
  | 'QUEUED';

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

export type HoursRangeInput = {
  end: string;
  start: string;
};

export type InsightsPeriod = {
  /** Start of the period (included). */
  from: string;
  /** End of the period (excluded); at most 366 days after from. */
  to: string;
};

/** Whether a link also went out by email. The email is sent after the link is made and never holds it up. */
export type InvitationEmailStatus =
  /** It could not be sent: emailError says why. The link still works. */
  | 'failed'
  /** No email: the server has no mail server (VOXGATE_SMTP_URL). */
  | 'not_configured'
  /** Being sent (within the mail server's timeout). */
  | 'sending'
  /** The mail server accepted it. */
  | 'sent';

export type InvitationLinkKind =
  | 'invitation'
  | 'reset';

export type InviteMemberInput = {
  email: string;
  /** Only an owner may invite an owner. */
  role: MemberRole;
};

export type KnowledgebaseInput = {
  /** Passages are cut at most this many tokens long, 50 to 2000 (default 300). Applies to documents processed afterwards. */
  chunkMaxTokens?: number | null | undefined;
  /** Consecutive passages share about this many tokens, 0 to less than half of chunkMaxTokens (default 50). */
  chunkOverlapTokens?: number | null | undefined;
  /** At most 255 characters. */
  description?: string | null | undefined;
  /** At most 255 characters; required on create. */
  name?: string | null | undefined;
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

/** credit: a top-up, the opening balance or a refund of a charge whose work failed; message_debit, reply_debit: a message or generated reply; call_debit: one minute of a call; adjustment: a correction (or the refund of a text the carrier did not send); sms_debit: a text message's segments. */
export type LedgerEntryKind =
  | 'adjustment'
  | 'call_debit'
  | 'credit'
  | 'message_debit'
  | 'reply_debit'
  | 'sms_debit';

export type LoginInput = {
  email: string;
  password: string;
};

/** A member's role in their account: owners and admins manage it (keys, billing, webhooks, settings, numbers, calendars, team); agents work conversations and calls. */
export type MemberRole =
  /** Manages the account and its admins and agents, not its owners. */
  | 'admin'
  /** Works conversations and calls; sees assistants read-only. */
  | 'agent'
  /** Manages everything, including other owners. */
  | 'owner';

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

/** A kind of personal data redacted from stored and sent-on conversation content (docs/data-governance.md#pii-redaction). */
export type PiiCategory =
  | 'bank_account'
  | 'card_number'
  | 'date_of_birth'
  | 'email'
  | 'national_id'
  | 'phone_number'
  | 'street_address';

export type SecondaryContactInput = {
  /** E.164. */
  phoneNumber: string;
  variables?: unknown;
};

export type SimulateInboundCallInput = {
  /** The caller's number, E.164 (e.g. +14155550123). */
  from: string;
  /** The account's number that rings. */
  phoneNumberId: number;
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

/** active, cancelled (release scheduled) or none (SIP and caller ID, which have no subscription). */
export type SubscriptionStatus =
  | 'active'
  | 'cancelled'
  | 'none';

export type TestSuiteInput = {
  name?: string | null | undefined;
  /** In run order; 1 to 50 of the account's scenarios. */
  scenarioIds?: Array<number> | null | undefined;
};

/** Only the fields given change; null clears a nullable field. */
export type UpdateAssistantInput = {
  allowInterruptions?: boolean | null | undefined;
  /** Origins (scheme, host, optional port; no path) allowed to use the public widget API; empty or null allows any. */
  allowedOrigins?: Array<string> | null | undefined;
  ambientSound?: AmbientSound | null | undefined;
  ambientSoundVolume?: string | null | undefined;
  /** Appointment types the assistant books (it is offered calendar functions); null or [] none. */
  appointmentTypeIds?: Array<number> | null | undefined;
  enableNoiseCancellation?: boolean | null | undefined;
  endCallOnVoicemail?: boolean | null | undefined;
  endpointSensitivity?: number | null | undefined;
  endpointType?: EndpointType | null | undefined;
  engineId?: number | null | undefined;
  fillerConfig?: unknown;
  fillers?: number | null | undefined;
  flowsPlatformId?: number | null | undefined;
  inboundWebhookUrl?: string | null | undefined;
  includeRecordingInWebhook?: boolean | null | undefined;
  initialMessage?: string | null | undefined;
  instanceId?: number | null | undefined;
  interruptSensitivity?: number | null | undefined;
  isWebhookActive?: boolean | null | undefined;
  knowledgebaseId?: number | null | undefined;
  knowledgebaseMode?: KnowledgebaseMode | null | undefined;
  language?: string | null | undefined;
  languageId?: number | null | undefined;
  llmModelId?: number | null | undefined;
  llmTemperature?: string | null | undefined;
  maxDuration?: number | null | undefined;
  maxSilenceDuration?: number | null | undefined;
  minInterruptWords?: number | null | undefined;
  mode?: AssistantMode | null | undefined;
  multimodalModelId?: number | null | undefined;
  name?: string | null | undefined;
  phoneNumberId?: number | null | undefined;
  postCallEvaluation?: boolean | null | undefined;
  postCallSchema?: unknown;
  record?: boolean | null | undefined;
  /** Kinds of personal data to redact from stored and sent-on content; empty or null: none. */
  redactPii?: Array<PiiCategory> | null | undefined;
  redactRecordings?: boolean | null | undefined;
  reengagementInterval?: number | null | undefined;
  sendWebhookOnlyOnCompleted?: boolean | null | undefined;
  speechSpeed?: string | null | undefined;
  status?: AssistantStatus | null | undefined;
  synthesizerId?: number | null | undefined;
  synthesizerProviderId?: number | null | undefined;
  systemPrompt?: string | null | undefined;
  timezone?: string | null | undefined;
  tools?: unknown;
  transcriberId?: number | null | undefined;
  transcriberProviderId?: number | null | undefined;
  type?: AssistantType | null | undefined;
  variables?: unknown;
  voiceId?: number | null | undefined;
  voiceSimilarity?: string | null | undefined;
  voiceStability?: string | null | undefined;
  waitForCustomer?: boolean | null | undefined;
  webhookUrl?: string | null | undefined;
  widgetSettings?: unknown;
};

/** Omitted fields keep their values. CalDAV: url, readUrls, username, password; Cal.com: apiKey, eventTypeId; Google and Microsoft: url (calendar id, "primary" by default) and readUrls. */
export type UpdateCalendarConnectionInput = {
  /** Cal.com: checked, then stored encrypted; never returned. */
  apiKey?: string | null | undefined;
  eventTypeId?: number | null | undefined;
  name?: string | null | undefined;
  /** Checked with the provider, then stored encrypted; never returned. */
  password?: string | null | undefined;
  readUrls?: Array<string> | null | undefined;
  url?: string | null | undefined;
  username?: string | null | undefined;
};

/** Only the fields given change. */
export type UpdateCampaignInput = {
  /** An assistant of the account. */
  assistantId?: number | null | undefined;
  /** HH:MM, after the start (default 17:00). */
  callingWindowEnd?: string | null | undefined;
  /** HH:MM (default 09:00). */
  callingWindowStart?: string | null | undefined;
  /** 1 to 50 (default 1): calls of the campaign running at once. */
  maxConcurrentCalls?: number | null | undefined;
  /** 0 to 10 (default 2). */
  maxRetries?: number | null | undefined;
  name?: string | null | undefined;
  /** The rotation in calling order; replaces the whole rotation on update. */
  phoneNumberIds?: Array<number> | null | undefined;
  /** 5 to 10080 (default 60). */
  retryIntervalMinutes?: number | null | undefined;
  /** Default draft. */
  status?: CampaignStatus | null | undefined;
  /** IANA zone of the calling window (default UTC). */
  timezone?: string | null | undefined;
};

/** Only the given fields change. */
export type UpdateTestScenarioInput = {
  /** chat or phone. */
  channel?: string | null | undefined;
  checks?: unknown;
  criteria?: Array<string> | null | undefined;
  goal?: string | null | undefined;
  name?: string | null | undefined;
  persona?: string | null | undefined;
  script?: Array<string> | null | undefined;
  toolResults?: unknown;
  turnLimit?: number | null | undefined;
  useRealTools?: boolean | null | undefined;
  variables?: unknown;
};

export type WebhookDeliveryFilter = {
  callId?: number | null | undefined;
  /** pending, delivered or failed. */
  status?: string | null | undefined;
  /** An event type, e.g. call.ended. */
  type?: string | null | undefined;
};

export type ConsoleLoginMutationVariables = Exact<{
  input: LoginInput;
}>;


export type ConsoleLoginMutation = { login: { token: string, expiresAt: string, viewer: { id: number, email: string, name: string, account: { id: number, name: string, balance: string, timezone: string, isOperator: boolean } } } };

export type ConsoleLogoutMutationVariables = Exact<{ [key: string]: never; }>;


export type ConsoleLogoutMutation = { logout: { revoked: boolean } };

export type ConsoleViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleViewerQuery = { viewer: { id: number, email: string, name: string, account: { id: number, name: string, balance: string, timezone: string, isOperator: boolean } } };

export type ConsoleViewerRoleQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleViewerRoleQuery = { viewer: { id: number, role: MemberRole } };

export type ConsoleChatModelsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleChatModelsQuery = { aiModels: Array<{ id: number, available: boolean }> };

export type ConsoleCalendarConnectionsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleCalendarConnectionsQuery = { calendarConnections: Array<{ id: number, name: string, provider: CalendarProviderKind, url: string, readUrls: Array<string>, username: string, eventTypeId: number | null, status: CalendarConnectionStatus, lastError: string | null, checkedAt: string, createdAt: string }> };

export type ConsoleUnreadConversationCountQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleUnreadConversationCountQuery = { unreadConversationCount: number };

export type ConsoleConversationActivitySubscriptionVariables = Exact<{ [key: string]: never; }>;


export type ConsoleConversationActivitySubscription = { conversationActivity: { kind: ConversationActivityKind, conversation: { id: string, assistantId: number, channel: ConversationChannel, aiDisabled: boolean, waitingForHuman: boolean, customerIdentifier: string | null, origin: string | null, updatedAt: string, unread: boolean, lastMessageAt: string | null, status: ConversationStatus, assignee: { id: number, name: string } | null, lastMessage: { id: number, role: MessageRole, content: string } | null, visitor: { pageUrl: string | null, browser: string | null, country: string | null } | null }, message: { id: number, role: MessageRole, content: string, createdAt: string } | null, note: { id: number, conversationId: string, content: string, createdAt: string, author: { id: number, name: string } | null } | null } };

export type ConsoleAvailableSlotsQueryVariables = Exact<{
  appointmentTypeId: number;
  from: string;
  to: string;
}>;


export type ConsoleAvailableSlotsQuery = { availableSlots: Array<{ start: string, end: string }> };

export type ConsoleAssistantNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAssistantNamesQuery = { assistants: { items: Array<{ id: number, name: string }> } };

export type ConsoleCreateTestScenarioFromCallMutationVariables = Exact<{
  callId: number;
}>;


export type ConsoleCreateTestScenarioFromCallMutation = { createTestScenarioFromCall: { id: number, assistantId: number } };

export type ConsoleCreateTestScenarioFromConversationMutationVariables = Exact<{
  conversationId: string;
}>;


export type ConsoleCreateTestScenarioFromConversationMutation = { createTestScenarioFromConversation: { id: number, assistantId: number } };

export type ConsolePhoneNumbersQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsolePhoneNumbersQuery = { phoneNumbers: Array<{ id: number, phoneNumber: string, label: string, kind: PhoneNumberKind, typeLabel: string, region: string, smsCapable: boolean, subscriptionStatus: SubscriptionStatus, releaseRequestedAt: string | null }> };

export type ConsoleAddPhoneNumberMutationVariables = Exact<{
  input: AddPhoneNumberInput;
}>;


export type ConsoleAddPhoneNumberMutation = { addPhoneNumber: { id: number } };

export type ConsoleReleasePhoneNumberMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleReleasePhoneNumberMutation = { releasePhoneNumber: { phoneNumber: { id: number } } };

export type ConsoleApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleApiKeysQuery = { apiKeys: Array<{ id: number, name: string, createdAt: string, lastUsedAt: string | null }> };

export type ConsoleCreateApiKeyMutationVariables = Exact<{
  name: string;
}>;


export type ConsoleCreateApiKeyMutation = { createApiKey: { token: string, apiKey: { id: number } } };

export type ConsoleDeleteApiKeyMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteApiKeyMutation = { deleteApiKey: { deletedId: number } };

export type ConsolePlatformAccountsQueryVariables = Exact<{
  page?: number | null | undefined;
  search?: string | null | undefined;
}>;


export type ConsolePlatformAccountsQuery = { platformAccounts: { items: Array<{ id: number, name: string, ownerEmail: string | null, balance: string, suspended: boolean, isOperator: boolean, createdAt: string }>, pageInfo: { currentPage: number, lastPage: number, total: number } } };

export type ConsoleCreatePlatformAccountMutationVariables = Exact<{
  input: CreatePlatformAccountInput;
}>;


export type ConsoleCreatePlatformAccountMutation = { createPlatformAccount: { id: number } };

export type ConsoleCreditAccountMutationVariables = Exact<{
  accountId: number;
  amount: string;
  note?: string | null | undefined;
}>;


export type ConsoleCreditAccountMutation = { creditAccount: { id: number, balance: string } };

export type ConsoleSuspendAccountMutationVariables = Exact<{
  accountId: number;
  suspended: boolean;
}>;


export type ConsoleSuspendAccountMutation = { suspendAccount: { id: number, suspended: boolean } };

export type ConsoleAppointmentFieldsFragment = { id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null };

export type ConsoleAppointmentsQueryVariables = Exact<{
  page?: number | null | undefined;
  filter?: AppointmentFilter | null | undefined;
}>;


export type ConsoleAppointmentsQuery = { appointments: { items: Array<{ id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null }>, pageInfo: { currentPage: number, lastPage: number, total: number } } };

export type ConsoleCancelAppointmentMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleCancelAppointmentMutation = { cancelAppointment: { id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null } };

export type ConsoleRescheduleAppointmentMutationVariables = Exact<{
  id: number;
  startsAt: string;
}>;


export type ConsoleRescheduleAppointmentMutation = { rescheduleAppointment: { id: number, status: AppointmentStatus, startsAt: string, endsAt: string, timezone: string, customerName: string, customerPhone: string | null, customerEmail: string | null, notes: string | null, appointmentTypeId: number, appointmentTypeName: string, connectionId: number, provider: CalendarProviderKind, assistantId: number | null, callId: number | null, conversationId: string | null, createdAt: string, updatedAt: string, cancelledAt: string | null } };

export type ConsoleAssistantQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleAssistantQuery = { assistant: { id: number, uuid: string, name: string, type: AssistantType, mode: AssistantMode, status: AssistantStatus, language: string | null, timezone: string, systemPrompt: string, initialMessage: string, llmTemperature: string, voiceId: number | null, speechSpeed: string, voiceStability: string, voiceSimilarity: string, ambientSound: AmbientSound, ambientSoundVolume: string, enableNoiseCancellation: boolean, maxDuration: number, maxSilenceDuration: number, waitForCustomer: boolean, allowInterruptions: boolean, interruptSensitivity: number, minInterruptWords: number, endpointType: EndpointType, endpointSensitivity: number, reengagementInterval: number, endCallOnVoicemail: boolean, record: boolean, phoneNumberId: number | null, knowledgebaseId: number | null, knowledgebaseMode: KnowledgebaseMode, tools: unknown, variables: unknown, postCallEvaluation: boolean, postCallSchema: unknown, webhookUrl: string | null, isWebhookActive: boolean, sendWebhookOnlyOnCompleted: boolean, includeRecordingInWebhook: boolean, inboundWebhookUrl: string | null, widgetSettings: unknown, allowedOrigins: Array<string>, redactPii: Array<PiiCategory>, redactRecordings: boolean } };

export type ConsoleAssistantChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAssistantChoicesQuery = { voices: Array<{ id: number, name: string, gender: string, supportedModes: Array<AssistantMode> }>, knowledgebases: Array<{ id: number, name: string }>, phoneNumbers: Array<{ id: number, phoneNumber: string, label: string }> };

export type ConsoleCreateAssistantMutationVariables = Exact<{
  input: CreateAssistantInput;
}>;


export type ConsoleCreateAssistantMutation = { createAssistant: { id: number, webhookSigningSecret: string | null } };

export type ConsoleUpdateAssistantMutationVariables = Exact<{
  id: number;
  input: UpdateAssistantInput;
}>;


export type ConsoleUpdateAssistantMutation = { updateAssistant: { id: number, updatedAt: string, webhookSigningSecret: string | null } };

export type ConsoleDeleteAssistantMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteAssistantMutation = { deleteAssistant: { deletedId: number } };

export type ConsoleStartTestMutationVariables = Exact<{
  assistantId: number;
}>;


export type ConsoleStartTestMutation = { startTestConversation: { id: string, messages: Array<{ id: number, role: MessageRole, content: string }> } };

export type ConsoleSendTestMutationVariables = Exact<{
  conversationId: string | number;
  message: string;
}>;


export type ConsoleSendTestMutation = { sendTestMessage: { reply: string } };

export type ConsoleAppointmentTypesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAppointmentTypesQuery = { appointmentTypes: Array<{ id: number, connectionId: number, name: string, durationMinutes: number, timezone: string }> };

export type ConsoleAssistantCalendarQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleAssistantCalendarQuery = { assistant: { id: number, appointmentTypeIds: Array<number> } };

export type ConsoleAssistantDefaultsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAssistantDefaultsQuery = { assistantDefaults: { type: AssistantType, mode: AssistantMode, status: AssistantStatus, timezone: string, systemPrompt: string, initialMessage: string, llmTemperature: string, speechSpeed: string, voiceStability: string, voiceSimilarity: string, ambientSound: AmbientSound, ambientSoundVolume: string, enableNoiseCancellation: boolean, maxDuration: number, maxSilenceDuration: number, waitForCustomer: boolean, allowInterruptions: boolean, interruptSensitivity: number, minInterruptWords: number, endpointType: EndpointType, endpointSensitivity: number, reengagementInterval: number, endCallOnVoicemail: boolean, record: boolean, knowledgebaseMode: KnowledgebaseMode, tools: unknown, variables: unknown, postCallEvaluation: boolean, postCallSchema: unknown, isWebhookActive: boolean, sendWebhookOnlyOnCompleted: boolean, includeRecordingInWebhook: boolean, widgetSettings: unknown, allowedOrigins: Array<string> } };

export type ConsoleAssistantsQueryVariables = Exact<{
  page?: number | null | undefined;
  search?: string | null | undefined;
}>;


export type ConsoleAssistantsQuery = { assistants: { items: Array<{ id: number, uuid: string, name: string, type: AssistantType, mode: AssistantMode, status: AssistantStatus, updatedAt: string, phoneNumber: { phoneNumber: string } | null }>, pageInfo: { currentPage: number, lastPage: number, total: number } } };

export type ConsoleCalendarsScreenQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleCalendarsScreenQuery = { calendarConnections: Array<{ id: number, name: string, provider: CalendarProviderKind, url: string, readUrls: Array<string>, username: string, eventTypeId: number | null, status: CalendarConnectionStatus, lastError: string | null, checkedAt: string, createdAt: string }>, appointmentTypes: Array<{ id: number, connectionId: number, name: string, durationMinutes: number, bufferBeforeMinutes: number, bufferAfterMinutes: number, minimumNoticeMinutes: number, horizonDays: number, timezone: string, slotGranularityMinutes: number, maxPerDay: number | null, createdAt: string, businessHours: { mon: Array<{ start: string, end: string }>, tue: Array<{ start: string, end: string }>, wed: Array<{ start: string, end: string }>, thu: Array<{ start: string, end: string }>, fri: Array<{ start: string, end: string }>, sat: Array<{ start: string, end: string }>, sun: Array<{ start: string, end: string }> } }> };

export type ConsoleCreateCalendarConnectionMutationVariables = Exact<{
  input: CreateCalendarConnectionInput;
}>;


export type ConsoleCreateCalendarConnectionMutation = { createCalendarConnection: { id: number, status: CalendarConnectionStatus } };

export type ConsoleUpdateCalendarConnectionMutationVariables = Exact<{
  id: number;
  input: UpdateCalendarConnectionInput;
}>;


export type ConsoleUpdateCalendarConnectionMutation = { updateCalendarConnection: { id: number, status: CalendarConnectionStatus, lastError: string | null } };

export type ConsoleDeleteCalendarConnectionMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteCalendarConnectionMutation = { deleteCalendarConnection: number };

export type ConsoleCreateAppointmentTypeMutationVariables = Exact<{
  input: CreateAppointmentTypeInput;
}>;


export type ConsoleCreateAppointmentTypeMutation = { createAppointmentType: { id: number } };

export type ConsoleDeleteAppointmentTypeMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteAppointmentTypeMutation = { deleteAppointmentType: number };

export type ConsoleStartCalendarOAuthMutationVariables = Exact<{
  provider: CalendarOAuthProvider;
  name: string;
  connectionId?: number | null | undefined;
}>;


export type ConsoleStartCalendarOAuthMutation = { startCalendarOAuth: { authorizationUrl: string } };

export type ConsoleCallsQueryVariables = Exact<{
  page?: number | null | undefined;
  filter?: CallFilter | null | undefined;
}>;


export type ConsoleCallsQuery = { calls: { items: Array<{ id: number, type: CallType, status: CallStatus, assistantName: string, clientPhoneNumber: string, assistantPhoneNumber: string, campaignName: string, duration: number, totalCost: string, createdAt: string }>, pageInfo: { currentPage: number, lastPage: number, total: number } } };

export type ConsoleCallQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleCallQuery = { call: { id: number, type: CallType, status: CallStatus, assistantName: string, clientPhoneNumber: string, assistantPhoneNumber: string, campaignName: string, duration: number, totalCost: string, createdAt: string, startedAt: string | null, endedAt: string | null, endReason: string, answeredBy: string, transcript: string, evaluation: unknown, webhookResponse: unknown, recordingUrl: string, recordingStatus: string, variables: unknown, assistantId: number | null, activeAssistantId: number | null, handoffCount: number, turns: Array<{ id: number, speaker: string, text: string, heardText: string, interrupted: boolean, startMs: number, endMs: number, speechEndedAt: string | null, transcriptAt: string | null, firstTokenAt: string | null, firstAudioAt: string | null, playedAt: string | null, functionCalls: Array<{ name: string, arguments: unknown, result: unknown, error: string | null, durationMs: number }> }>, latency: { turns: number, firstAudioP50Ms: number | null, firstAudioP95Ms: number | null } } };

export type ConsoleCallsScreenChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleCallsScreenChoicesQuery = { assistants: { items: Array<{ id: number, name: string }> }, campaigns: { items: Array<{ id: number, name: string }> }, phoneNumbers: Array<{ id: number, phoneNumber: string, label: string }> };

export type ConsoleStartTestPhoneCallMutationVariables = Exact<{
  input: StartCallInput;
}>;


export type ConsoleStartTestPhoneCallMutation = { startCall: { id: number } };

export type ConsoleSimulateInboundCallMutationVariables = Exact<{
  input: SimulateInboundCallInput;
}>;


export type ConsoleSimulateInboundCallMutation = { simulateInboundCall: { id: number, status: CallStatus, endReason: string } };

export type ConsoleTakeOverCallMutationVariables = Exact<{
  callId: number;
  phoneNumber: string;
}>;


export type ConsoleTakeOverCallMutation = { takeOverCall: { id: number, clientPhoneNumber: string } };

export type ConsoleCallStatusSubscriptionVariables = Exact<{
  callId?: number | null | undefined;
  includeCurrent?: boolean | null | undefined;
}>;


export type ConsoleCallStatusSubscription = { callStatusChanged: { callId: number, status: CallStatus, call: { id: number, type: CallType, status: CallStatus, assistantName: string, clientPhoneNumber: string, assistantPhoneNumber: string, campaignName: string, duration: number, totalCost: string, createdAt: string } } };

export type ConsoleCallTranscriptSubscriptionVariables = Exact<{
  callId: number;
}>;


export type ConsoleCallTranscriptSubscription = { callTranscript: { id: number, speaker: string, text: string } };

export type ConsoleCampaignsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleCampaignsQuery = { campaigns: { items: Array<{ id: number, name: string, status: CampaignStatus, maxConcurrentCalls: number, assistantId: number | null, callingWindow: { start: string, end: string, timezone: string }, retry: { maxRetries: number, intervalMinutes: number }, phoneNumbers: Array<{ id: number }>, progress: { callsRunning: number, withinCallingWindow: boolean, leads: { total: number, completed: number, processing: number, scheduled: number, rescheduled: number, reachedMaxRetries: number, blacklisted: number, created: number } } }> } };

export type ConsoleCampaignChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleCampaignChoicesQuery = { assistants: { items: Array<{ id: number, name: string }> }, phoneNumbers: Array<{ id: number, phoneNumber: string, label: string }> };

export type ConsoleCreateCampaignMutationVariables = Exact<{
  input: CreateCampaignInput;
}>;


export type ConsoleCreateCampaignMutation = { createCampaign: { id: number } };

export type ConsoleUpdateCampaignMutationVariables = Exact<{
  id: number;
  input: UpdateCampaignInput;
}>;


export type ConsoleUpdateCampaignMutation = { updateCampaign: { id: number, status: CampaignStatus } };

export type ConsoleDeleteCampaignMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteCampaignMutation = { deleteCampaign: { deletedId: number } };

export type ConsoleDeleteLeadMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteLeadMutation = { deleteLead: { deletedId: number } };

export type ConsoleCampaignProgressSubscriptionVariables = Exact<{
  campaignId: number;
}>;


export type ConsoleCampaignProgressSubscription = { campaignProgress: { campaignId: number, status: CampaignStatus, callsRunning: number, withinCallingWindow: boolean, leads: { total: number, completed: number, processing: number, scheduled: number, rescheduled: number, reachedMaxRetries: number, blacklisted: number, created: number } } };

export type ConsoleLeadsQueryVariables = Exact<{
  campaignId?: number | null | undefined;
  page?: number | null | undefined;
}>;


export type ConsoleLeadsQuery = { leads: { items: Array<{ id: number, phoneNumber: string, status: LeadStatus, attempts: number, nextAttemptAt: string | null, variables: unknown }>, pageInfo: { currentPage: number, lastPage: number, total: number } } };

export type ConsoleCreateLeadMutationVariables = Exact<{
  input: CreateLeadInput;
}>;


export type ConsoleCreateLeadMutation = { createLead: { id: number } };

export type ConsoleExportCustomerDataMutationVariables = Exact<{
  input: CustomerDataInput;
}>;


export type ConsoleExportCustomerDataMutation = { exportCustomerData: { id: number, kind: string, state: string, identifierKind: string, stepsDone: number, stepsTotal: number, counts: unknown, error: string | null, downloadUrl: string | null, expiresAt: string | null } };

export type ConsoleEraseCustomerDataMutationVariables = Exact<{
  input: CustomerDataInput;
}>;


export type ConsoleEraseCustomerDataMutation = { eraseCustomerData: { id: number, kind: string, state: string, identifierKind: string, stepsDone: number, stepsTotal: number, counts: unknown, error: string | null, downloadUrl: string | null, expiresAt: string | null } };

export type ConsoleCustomerDataJobQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleCustomerDataJobQuery = { customerDataJob: { id: number, kind: string, state: string, identifierKind: string, stepsDone: number, stepsTotal: number, counts: unknown, error: string | null, downloadUrl: string | null, expiresAt: string | null } };

export type ConsoleErasedEventLeftFieldsFragment = { id: number, appointmentId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null };

export type ConsoleCustomerDataEventsLeftQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleCustomerDataEventsLeftQuery = { customerDataJob: { id: number, externalEventsLeftDetails: Array<{ id: number, appointmentId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null }> | null } };

export type ConsoleMarkErasedEventLeftHandledMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleMarkErasedEventLeftHandledMutation = { markErasedEventLeftHandled: { id: number, appointmentId: number, provider: CalendarProviderKind, externalId: string, startsAt: string, reason: ErasedEventLeftReason, failure: string | null, retriedByJobId: number | null, handledAt: string | null, handledBy: string | null } };

export type ConsoleDataRetentionQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleDataRetentionQuery = { dataRetention: { transcriptDays: number | null, recordingDays: number | null, messageDays: number | null, callTurnDays: number | null, webhookLogDays: number | null, textDays: number | null, auditLogDays: number | null } };

export type ConsoleSetDataRetentionMutationVariables = Exact<{
  input: DataRetentionInput;
}>;


export type ConsoleSetDataRetentionMutation = { setDataRetention: { transcriptDays: number | null, recordingDays: number | null, messageDays: number | null, callTurnDays: number | null, webhookLogDays: number | null, textDays: number | null, auditLogDays: number | null } };

export type ConsoleAuditLogQueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type ConsoleAuditLogQuery = { auditLog: { nextCursor: string | null, entries: Array<{ id: number, action: string, actorKind: string, actorId: number | null, targetType: string, targetId: string, details: unknown, ip: string | null, at: string }> } };

export type ConsoleAuditLogExportQueryVariables = Exact<{
  after?: string | null | undefined;
}>;


export type ConsoleAuditLogExportQuery = { auditLog: { nextCursor: string | null, entries: Array<{ id: number, action: string, actorKind: string, actorId: number | null, userId: number | null, targetType: string, targetId: string, details: unknown, ip: string | null, at: string }> } };

export type ConsoleConversationsQueryVariables = Exact<{
  page?: number | null | undefined;
  channels?: Array<ConversationChannel> | ConversationChannel | null | undefined;
  unreadOnly?: boolean | null | undefined;
  status?: ConversationStatus | null | undefined;
  waitingForHuman?: boolean | null | undefined;
  assignedToMe?: boolean | null | undefined;
  unassigned?: boolean | null | undefined;
  assistantId?: number | null | undefined;
  search?: string | null | undefined;
}>;


export type ConsoleConversationsQuery = { conversations: { items: Array<{ id: string, assistantId: number, channel: ConversationChannel, aiDisabled: boolean, waitingForHuman: boolean, customerIdentifier: string | null, origin: string | null, updatedAt: string, unread: boolean, lastMessageAt: string | null, status: ConversationStatus, assignee: { id: number, name: string } | null, lastMessage: { id: number, role: MessageRole, content: string } | null }>, pageInfo: { currentPage: number, lastPage: number, total: number } } };

export type ConsoleWaitingForHumanQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleWaitingForHumanQuery = { conversations: { pageInfo: { total: number } } };

export type ConsoleConversationQueryVariables = Exact<{
  id: string | number;
}>;


export type ConsoleConversationQuery = { conversation: { id: string, assistantId: number, channel: ConversationChannel, aiDisabled: boolean, waitingForHuman: boolean, customerIdentifier: string | null, origin: string | null, updatedAt: string, status: ConversationStatus, resolvedAt: string | null, assignee: { id: number, name: string } | null, visitor: { pageUrl: string | null, browser: string | null, country: string | null } | null, messages: Array<{ id: number, role: MessageRole, content: string, createdAt: string, visitor: { pageUrl: string | null, browser: string | null, country: string | null } | null }>, notes: Array<{ id: number, content: string, createdAt: string, author: { id: number, name: string } | null }> } };

export type ConsoleConversationMessageSubscriptionVariables = Exact<{
  conversationId: string | number;
}>;


export type ConsoleConversationMessageSubscription = { conversationMessageAdded: { id: number, role: MessageRole, content: string, createdAt: string, visitor: { pageUrl: string | null, browser: string | null, country: string | null } | null } };

export type ConsoleTakeOverMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleTakeOverMutation = { takeOverConversation: { id: string, aiDisabled: boolean, waitingForHuman: boolean } };

export type ConsoleHandBackMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleHandBackMutation = { handBackConversation: { id: string, aiDisabled: boolean, waitingForHuman: boolean } };

export type ConsoleSendOperatorMessageMutationVariables = Exact<{
  conversationId: string | number;
  content: string;
}>;


export type ConsoleSendOperatorMessageMutation = { sendOperatorMessage: { id: number, role: MessageRole, content: string, createdAt: string } };

export type ConsoleMarkReadMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleMarkReadMutation = { markConversationRead: { id: string, unread: boolean } };

export type ConsoleInboxViewerQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleInboxViewerQuery = { viewer: { id: number, name: string }, members: Array<{ id: number, name: string }>, assistants: { items: Array<{ id: number, name: string }> } };

export type ConsoleResolveConversationMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleResolveConversationMutation = { resolveConversation: { id: string, status: ConversationStatus, resolvedAt: string | null } };

export type ConsoleReopenConversationMutationVariables = Exact<{
  id: string | number;
}>;


export type ConsoleReopenConversationMutation = { reopenConversation: { id: string, status: ConversationStatus, resolvedAt: string | null } };

export type ConsoleAssignConversationMutationVariables = Exact<{
  id: string | number;
  userId?: number | null | undefined;
}>;


export type ConsoleAssignConversationMutation = { assignConversation: { id: string, assignee: { id: number, name: string } | null } };

export type ConsoleAddConversationNoteMutationVariables = Exact<{
  conversationId: string | number;
  content: string;
}>;


export type ConsoleAddConversationNoteMutation = { addConversationNote: { id: number, conversationId: string, content: string, createdAt: string, author: { id: number, name: string } | null } };

export type ConsoleInsightsSetupQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleInsightsSetupQuery = { viewer: { id: number, account: { id: number, timezone: string } }, assistants: { items: Array<{ id: number, name: string }> } };

export type ConsoleInsightsQueryVariables = Exact<{
  period: InsightsPeriod;
  assistantId?: number | null | undefined;
}>;


export type ConsoleInsightsQuery = { insights: { from: string, to: string, timezone: string, bucket: string, calls: number, finishedCalls: number, answeredCalls: number, answerRate: number | null, conversations: number, minutes: number, cost: string, evaluatedCalls: number, judgedCalls: number, successfulCalls: number, successRate: number | null, measuredTurns: number, averageTurnLatencyMs: number | null, p95TurnLatencyMs: number | null, transfers: number, bookings: number, endedReasons: Array<{ status: string, reason: string, calls: number }>, series: Array<{ start: string, calls: number, answeredCalls: number, conversations: number, minutes: number, cost: string, bookings: number }> } };

export type ConsoleKnowledgebasesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleKnowledgebasesQuery = { knowledgebases: Array<{ id: number, name: string, description: string, status: KnowledgebaseStatus, documentsCount: number, assistantsCount: number }> };

export type ConsoleCreateKnowledgebaseMutationVariables = Exact<{
  input: KnowledgebaseInput;
}>;


export type ConsoleCreateKnowledgebaseMutation = { createKnowledgebase: { id: number } };

export type ConsoleDeleteKnowledgebaseMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteKnowledgebaseMutation = { deleteKnowledgebase: { deletedId: number } };

export type ConsoleUpdateKnowledgebaseMutationVariables = Exact<{
  id: number;
  input: KnowledgebaseInput;
}>;


export type ConsoleUpdateKnowledgebaseMutation = { updateKnowledgebase: { id: number, name: string, description: string, chunkMaxTokens: number, chunkOverlapTokens: number } };

export type ConsoleKnowledgebaseQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleKnowledgebaseQuery = { knowledgebase: { id: number, name: string, description: string, status: KnowledgebaseStatus, assistantsCount: number, chunkMaxTokens: number, chunkOverlapTokens: number, documents: Array<{ id: number, name: string, type: DocumentType, status: DocumentStatus, stage: DocumentStage | null, pagesDone: number, pagesTotal: number | null, chunkCount: number, failureReason: string | null, fileName: string | null, url: string | null, sizeBytes: number | null, createdAt: string }> } };

export type ConsoleCreateDocumentMutationVariables = Exact<{
  knowledgebaseId: number;
  input: CreateDocumentInput;
}>;


export type ConsoleCreateDocumentMutation = { createDocument: { id: number } };

export type ConsoleDeleteDocumentMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteDocumentMutation = { deleteDocument: { deletedId: number } };

export type ConsoleKnowledgebaseStatusSubscriptionVariables = Exact<{
  id: number;
}>;


export type ConsoleKnowledgebaseStatusSubscription = { knowledgebaseStatus: { status: KnowledgebaseStatus, document: { documentId: number, status: DocumentEventStatus, stage: DocumentStage | null, pagesDone: number, pagesTotal: number | null, chunkCount: number, failureReason: string | null } | null } };

export type ConsoleSearchKnowledgebaseQueryVariables = Exact<{
  id: number;
  query: string;
}>;


export type ConsoleSearchKnowledgebaseQuery = { searchKnowledgebase: Array<{ chunkId: number, content: string, documentName: string, relevance: number, source: string | null }> };

export type ConsoleReprocessDocumentMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleReprocessDocumentMutation = { reprocessDocument: { id: number, status: DocumentStatus, stage: DocumentStage | null, failureReason: string | null } };

export type ConsoleDocumentPassagesQueryVariables = Exact<{
  id: number;
  offset: number;
  limit: number;
}>;


export type ConsoleDocumentPassagesQuery = { document: { id: number, name: string, chunkCount: number, passages: Array<{ id: number, ordinal: number, content: string, tokenCount: number, source: string | null }> } };

export type ConsoleBalanceSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type ConsoleBalanceSubscription = { balanceChanged: { id: number, balance: string } };

export type ConsoleLedgerQueryVariables = Exact<{
  accountId?: number | null | undefined;
  page?: number | null | undefined;
}>;


export type ConsoleLedgerQuery = { ledgerEntries: { items: Array<{ id: number, kind: LedgerEntryKind, amount: string, balanceAfter: string, description: string, pending: boolean, callId: number | null, createdAt: string }>, pageInfo: { currentPage: number, lastPage: number, total: number } } };

export type ConsoleTeamQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleTeamQuery = { invitationEmailEnabled: boolean, viewer: { id: number, role: MemberRole }, members: Array<{ id: number, name: string, email: string, role: MemberRole, createdAt: string }>, invitations: Array<{ id: number, email: string, role: MemberRole, expiresAt: string, createdAt: string, emailStatus: InvitationEmailStatus, emailError: string | null, emailSentAt: string | null }> };

export type ConsoleInviteMemberMutationVariables = Exact<{
  input: InviteMemberInput;
}>;


export type ConsoleInviteMemberMutation = { inviteMember: { token: string, path: string, invitation: { id: number, emailStatus: InvitationEmailStatus } } };

export type ConsoleResendInvitationEmailMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleResendInvitationEmailMutation = { resendInvitationEmail: { path: string, invitation: { id: number, emailStatus: InvitationEmailStatus } } };

export type ConsoleRevokeInvitationMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleRevokeInvitationMutation = { revokeInvitation: number };

export type ConsoleChangeMemberRoleMutationVariables = Exact<{
  input: ChangeMemberRoleInput;
}>;


export type ConsoleChangeMemberRoleMutation = { changeMemberRole: { id: number, role: MemberRole } };

export type ConsoleRemoveMemberMutationVariables = Exact<{
  userId: number;
}>;


export type ConsoleRemoveMemberMutation = { removeMember: number };

export type ConsoleResetMemberPasswordMutationVariables = Exact<{
  userId: number;
}>;


export type ConsoleResetMemberPasswordMutation = { resetMemberPassword: { path: string, expiresAt: string, emailStatus: InvitationEmailStatus } };

export type ConsoleInvitationLinkQueryVariables = Exact<{
  token: string;
}>;


export type ConsoleInvitationLinkQuery = { invitationLink: { kind: InvitationLinkKind, email: string, role: MemberRole, accountName: string, expiresAt: string } };

export type ConsoleAcceptInvitationMutationVariables = Exact<{
  input: AcceptInvitationInput;
}>;


export type ConsoleAcceptInvitationMutation = { acceptInvitation: { token: string, expiresAt: string, viewer: { id: number, email: string, role: MemberRole, account: { id: number, isOperator: boolean } } } };

export type ConsoleTestScenarioFieldsFragment = { id: number, assistantId: number, name: string, channel: string, script: Array<string> | null, persona: string | null, goal: string | null, variables: unknown, turnLimit: number, criteria: Array<string>, checks: unknown, toolResults: unknown, useRealTools: boolean, expectedReplies: Array<string>, sourceCallId: number | null, sourceConversationId: string | null, updatedAt: string };

export type ConsoleTestResultFieldsFragment = { id: number, scenarioId: number, scenarioName: string, position: number, status: string, endedBy: string, turnLatencies: Array<number>, cost: string, error: string, functionCalls: unknown, callId: number | null, transcript: Array<{ role: string, content: string, latencyMs: number | null }>, checks: Array<{ kind: string, description: string, passed: boolean, detail: string }>, judge: Array<{ criterion: string, passed: boolean, reasoning: string }>, divergences: Array<{ turn: number, expected: string, actual: string }> };

export type ConsoleTestRunFieldsFragment = { id: number, suiteId: number, status: string, concurrency: number, total: number, done: number, passed: number, failed: number, errored: number, cost: string, error: string, createdAt: string, startedAt: string | null, finishedAt: string | null, results: Array<{ id: number, scenarioId: number, scenarioName: string, position: number, status: string, endedBy: string, turnLatencies: Array<number>, cost: string, error: string, functionCalls: unknown, callId: number | null, transcript: Array<{ role: string, content: string, latencyMs: number | null }>, checks: Array<{ kind: string, description: string, passed: boolean, detail: string }>, judge: Array<{ criterion: string, passed: boolean, reasoning: string }>, divergences: Array<{ turn: number, expected: string, actual: string }> }> };

export type ConsoleTestsScreenQueryVariables = Exact<{
  assistantId: number;
}>;


export type ConsoleTestsScreenQuery = { assistant: { id: number, name: string }, testScenarios: Array<{ id: number, assistantId: number, name: string, channel: string, script: Array<string> | null, persona: string | null, goal: string | null, variables: unknown, turnLimit: number, criteria: Array<string>, checks: unknown, toolResults: unknown, useRealTools: boolean, expectedReplies: Array<string>, sourceCallId: number | null, sourceConversationId: string | null, updatedAt: string }>, testSuites: Array<{ id: number, name: string, scenarioIds: Array<number>, updatedAt: string }> };

export type ConsoleTestScenarioQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleTestScenarioQuery = { testScenario: { id: number, assistantId: number, name: string, channel: string, script: Array<string> | null, persona: string | null, goal: string | null, variables: unknown, turnLimit: number, criteria: Array<string>, checks: unknown, toolResults: unknown, useRealTools: boolean, expectedReplies: Array<string>, sourceCallId: number | null, sourceConversationId: string | null, updatedAt: string } };

export type ConsoleCreateTestScenarioMutationVariables = Exact<{
  input: CreateTestScenarioInput;
}>;


export type ConsoleCreateTestScenarioMutation = { createTestScenario: { id: number } };

export type ConsoleUpdateTestScenarioMutationVariables = Exact<{
  id: number;
  input: UpdateTestScenarioInput;
}>;


export type ConsoleUpdateTestScenarioMutation = { updateTestScenario: { id: number } };

export type ConsoleDeleteTestScenarioMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteTestScenarioMutation = { deleteTestScenario: boolean };

export type ConsoleCreateTestSuiteMutationVariables = Exact<{
  input: TestSuiteInput;
}>;


export type ConsoleCreateTestSuiteMutation = { createTestSuite: { id: number } };

export type ConsoleUpdateTestSuiteMutationVariables = Exact<{
  id: number;
  input: TestSuiteInput;
}>;


export type ConsoleUpdateTestSuiteMutation = { updateTestSuite: { id: number } };

export type ConsoleDeleteTestSuiteMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteTestSuiteMutation = { deleteTestSuite: boolean };

export type ConsoleTestSuiteEstimateQueryVariables = Exact<{
  suiteId: number;
}>;


export type ConsoleTestSuiteEstimateQuery = { testSuiteEstimate: { scenarios: number, replies: number, modelRequests: number, price: string } };

export type ConsoleTestRunsQueryVariables = Exact<{
  suiteId: number;
}>;


export type ConsoleTestRunsQuery = { testRuns: Array<{ id: number, status: string, total: number, done: number, passed: number, failed: number, errored: number, cost: string, createdAt: string }> };

export type ConsoleRunTestSuiteMutationVariables = Exact<{
  suiteId: number;
  concurrency?: number | null | undefined;
}>;


export type ConsoleRunTestSuiteMutation = { runTestSuite: { id: number } };

export type ConsoleTestRunUpdatedSubscriptionVariables = Exact<{
  id: number;
}>;


export type ConsoleTestRunUpdatedSubscription = { testRunUpdated: { id: number, suiteId: number, status: string, concurrency: number, total: number, done: number, passed: number, failed: number, errored: number, cost: string, error: string, createdAt: string, startedAt: string | null, finishedAt: string | null, results: Array<{ id: number, scenarioId: number, scenarioName: string, position: number, status: string, endedBy: string, turnLatencies: Array<number>, cost: string, error: string, functionCalls: unknown, callId: number | null, transcript: Array<{ role: string, content: string, latencyMs: number | null }>, checks: Array<{ kind: string, description: string, passed: boolean, detail: string }>, judge: Array<{ criterion: string, passed: boolean, reasoning: string }>, divergences: Array<{ turn: number, expected: string, actual: string }> }> } };

export type ConsoleCompareTestRunsQueryVariables = Exact<{
  a: number;
  b: number;
}>;


export type ConsoleCompareTestRunsQuery = { compareTestRuns: { unchanged: number, before: { id: number, status: string, passed: number, failed: number, errored: number, total: number, createdAt: string }, after: { id: number, status: string, passed: number, failed: number, errored: number, total: number, createdAt: string }, changed: Array<{ scenarioId: number, scenarioName: string, before: { id: number, scenarioId: number, scenarioName: string, position: number, status: string, endedBy: string, turnLatencies: Array<number>, cost: string, error: string, functionCalls: unknown, callId: number | null, transcript: Array<{ role: string, content: string, latencyMs: number | null }>, checks: Array<{ kind: string, description: string, passed: boolean, detail: string }>, judge: Array<{ criterion: string, passed: boolean, reasoning: string }>, divergences: Array<{ turn: number, expected: string, actual: string }> } | null, after: { id: number, scenarioId: number, scenarioName: string, position: number, status: string, endedBy: string, turnLatencies: Array<number>, cost: string, error: string, functionCalls: unknown, callId: number | null, transcript: Array<{ role: string, content: string, latencyMs: number | null }>, checks: Array<{ kind: string, description: string, passed: boolean, detail: string }>, judge: Array<{ criterion: string, passed: boolean, reasoning: string }>, divergences: Array<{ turn: number, expected: string, actual: string }> } | null }> } };

export type ConsoleWebhookDeliveriesQueryVariables = Exact<{
  page?: number | null | undefined;
  filter?: WebhookDeliveryFilter | null | undefined;
}>;


export type ConsoleWebhookDeliveriesQuery = { webhookDeliveries: { items: Array<{ id: number, webhookId: string, type: string, url: string, status: string, attempts: number, nextAttemptAt: string | null, lastStatusCode: number | null, lastError: string | null, deliveredAt: string | null, createdAt: string }>, pageInfo: { currentPage: number, lastPage: number, total: number } } };

export type ConsoleRedeliverWebhookMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleRedeliverWebhookMutation = { redeliverWebhook: { id: number, status: string, attempts: number } };

export type ConsoleSendTestWebhookMutationVariables = Exact<{
  url?: string | null | undefined;
}>;


export type ConsoleSendTestWebhookMutation = { sendTestWebhook: { id: number, status: string } };

export type ConsoleWebhookSigningSecretsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleWebhookSigningSecretsQuery = { webhookSigningSecrets: Array<{ id: number, createdAt: string, expiresAt: string | null }> };

export type ConsoleRotateWebhookSecretMutationVariables = Exact<{
  overlapSeconds?: number | null | undefined;
}>;


export type ConsoleRotateWebhookSecretMutation = { rotateWebhookSecret: { secret: string, createdAt: string, previousExpiresAt: string | null } };

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
export const ConsoleAppointmentFieldsFragmentDoc = new TypedDocumentString(`
    fragment ConsoleAppointmentFields on Appointment {
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
    `, {"fragmentName":"ConsoleAppointmentFields"}) as unknown as TypedDocumentString<ConsoleAppointmentFieldsFragment, unknown>;
export const ConsoleErasedEventLeftFieldsFragmentDoc = new TypedDocumentString(`
    fragment ConsoleErasedEventLeftFields on ErasedEventLeft {
  id
  appointmentId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}
    `, {"fragmentName":"ConsoleErasedEventLeftFields"}) as unknown as TypedDocumentString<ConsoleErasedEventLeftFieldsFragment, unknown>;
export const ConsoleTestScenarioFieldsFragmentDoc = new TypedDocumentString(`
    fragment ConsoleTestScenarioFields on TestScenario {
  id
  assistantId
  name
  channel
  script
  persona
  goal
  variables
  turnLimit
  criteria
  checks
  toolResults
  useRealTools
  expectedReplies
  sourceCallId
  sourceConversationId
  updatedAt
}
    `, {"fragmentName":"ConsoleTestScenarioFields"}) as unknown as TypedDocumentString<ConsoleTestScenarioFieldsFragment, unknown>;
export const ConsoleTestResultFieldsFragmentDoc = new TypedDocumentString(`
    fragment ConsoleTestResultFields on TestScenarioResult {
  id
  scenarioId
  scenarioName
  position
  status
  endedBy
  turnLatencies
  cost
  error
  functionCalls
  callId
  transcript {
    role
    content
    latencyMs
  }
  checks {
    kind
    description
    passed
    detail
  }
  judge {
    criterion
    passed
    reasoning
  }
  divergences {
    turn
    expected
    actual
  }
}
    `, {"fragmentName":"ConsoleTestResultFields"}) as unknown as TypedDocumentString<ConsoleTestResultFieldsFragment, unknown>;
export const ConsoleTestRunFieldsFragmentDoc = new TypedDocumentString(`
    fragment ConsoleTestRunFields on TestRun {
  id
  suiteId
  status
  concurrency
  total
  done
  passed
  failed
  errored
  cost
  error
  createdAt
  startedAt
  finishedAt
  results {
    ...ConsoleTestResultFields
  }
}
    fragment ConsoleTestResultFields on TestScenarioResult {
  id
  scenarioId
  scenarioName
  position
  status
  endedBy
  turnLatencies
  cost
  error
  functionCalls
  callId
  transcript {
    role
    content
    latencyMs
  }
  checks {
    kind
    description
    passed
    detail
  }
  judge {
    criterion
    passed
    reasoning
  }
  divergences {
    turn
    expected
    actual
  }
}`, {"fragmentName":"ConsoleTestRunFields"}) as unknown as TypedDocumentString<ConsoleTestRunFieldsFragment, unknown>;
export const ConsoleLoginDocument = new TypedDocumentString(`
    mutation ConsoleLogin($input: LoginInput!) {
  login(input: $input) {
    token
    expiresAt
    viewer {
      id
      email
      name
      account {
        id
        name
        balance
        timezone
        isOperator
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleLoginMutation, ConsoleLoginMutationVariables>;
export const ConsoleLogoutDocument = new TypedDocumentString(`
    mutation ConsoleLogout {
  logout {
    revoked
  }
}
    `) as unknown as TypedDocumentString<ConsoleLogoutMutation, ConsoleLogoutMutationVariables>;
export const ConsoleViewerDocument = new TypedDocumentString(`
    query ConsoleViewer {
  viewer {
    id
    email
    name
    account {
      id
      name
      balance
      timezone
      isOperator
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleViewerQuery, ConsoleViewerQueryVariables>;
export const ConsoleViewerRoleDocument = new TypedDocumentString(`
    query ConsoleViewerRole {
  viewer {
    id
    role
  }
}
    `) as unknown as TypedDocumentString<ConsoleViewerRoleQuery, ConsoleViewerRoleQueryVariables>;
export const ConsoleChatModelsDocument = new TypedDocumentString(`
    query ConsoleChatModels {
  aiModels(kind: llm) {
    id
    available
  }
}
    `) as unknown as TypedDocumentString<ConsoleChatModelsQuery, ConsoleChatModelsQueryVariables>;
export const ConsoleCalendarConnectionsDocument = new TypedDocumentString(`
    query ConsoleCalendarConnections {
  calendarConnections {
    id
    name
    provider
    url
    readUrls
    username
    eventTypeId
    status
    lastError
    checkedAt
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleCalendarConnectionsQuery, ConsoleCalendarConnectionsQueryVariables>;
export const ConsoleUnreadConversationCountDocument = new TypedDocumentString(`
    query ConsoleUnreadConversationCount {
  unreadConversationCount
}
    `) as unknown as TypedDocumentString<ConsoleUnreadConversationCountQuery, ConsoleUnreadConversationCountQueryVariables>;
export const ConsoleConversationActivityDocument = new TypedDocumentString(`
    subscription ConsoleConversationActivity {
  conversationActivity {
    kind
    conversation {
      id
      assistantId
      channel
      aiDisabled
      waitingForHuman
      customerIdentifier
      origin
      updatedAt
      unread
      lastMessageAt
      status
      assignee {
        id
        name
      }
      lastMessage {
        id
        role
        content
      }
      visitor {
        pageUrl
        browser
        country
      }
    }
    message {
      id
      role
      content
      createdAt
    }
    note {
      id
      conversationId
      content
      createdAt
      author {
        id
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleConversationActivitySubscription, ConsoleConversationActivitySubscriptionVariables>;
export const ConsoleAvailableSlotsDocument = new TypedDocumentString(`
    query ConsoleAvailableSlots($appointmentTypeId: Int!, $from: DateTime!, $to: DateTime!) {
  availableSlots(appointmentTypeId: $appointmentTypeId, from: $from, to: $to) {
    start
    end
  }
}
    `) as unknown as TypedDocumentString<ConsoleAvailableSlotsQuery, ConsoleAvailableSlotsQueryVariables>;
export const ConsoleAssistantNamesDocument = new TypedDocumentString(`
    query ConsoleAssistantNames {
  assistants(perPage: 100) {
    items {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssistantNamesQuery, ConsoleAssistantNamesQueryVariables>;
export const ConsoleCreateTestScenarioFromCallDocument = new TypedDocumentString(`
    mutation ConsoleCreateTestScenarioFromCall($callId: Int!) {
  createTestScenarioFromCall(callId: $callId) {
    id
    assistantId
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateTestScenarioFromCallMutation, ConsoleCreateTestScenarioFromCallMutationVariables>;
export const ConsoleCreateTestScenarioFromConversationDocument = new TypedDocumentString(`
    mutation ConsoleCreateTestScenarioFromConversation($conversationId: String!) {
  createTestScenarioFromConversation(conversationId: $conversationId) {
    id
    assistantId
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateTestScenarioFromConversationMutation, ConsoleCreateTestScenarioFromConversationMutationVariables>;
export const ConsolePhoneNumbersDocument = new TypedDocumentString(`
    query ConsolePhoneNumbers {
  phoneNumbers {
    id
    phoneNumber
    label
    kind
    typeLabel
    region
    smsCapable
    subscriptionStatus
    releaseRequestedAt
  }
}
    `) as unknown as TypedDocumentString<ConsolePhoneNumbersQuery, ConsolePhoneNumbersQueryVariables>;
export const ConsoleAddPhoneNumberDocument = new TypedDocumentString(`
    mutation ConsoleAddPhoneNumber($input: AddPhoneNumberInput!) {
  addPhoneNumber(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleAddPhoneNumberMutation, ConsoleAddPhoneNumberMutationVariables>;
export const ConsoleReleasePhoneNumberDocument = new TypedDocumentString(`
    mutation ConsoleReleasePhoneNumber($id: Int!) {
  releasePhoneNumber(id: $id) {
    phoneNumber {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleReleasePhoneNumberMutation, ConsoleReleasePhoneNumberMutationVariables>;
export const ConsoleApiKeysDocument = new TypedDocumentString(`
    query ConsoleApiKeys {
  apiKeys {
    id
    name
    createdAt
    lastUsedAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleApiKeysQuery, ConsoleApiKeysQueryVariables>;
export const ConsoleCreateApiKeyDocument = new TypedDocumentString(`
    mutation ConsoleCreateApiKey($name: String!) {
  createApiKey(input: {name: $name}) {
    token
    apiKey {
      id
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateApiKeyMutation, ConsoleCreateApiKeyMutationVariables>;
export const ConsoleDeleteApiKeyDocument = new TypedDocumentString(`
    mutation ConsoleDeleteApiKey($id: Int!) {
  deleteApiKey(id: $id) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteApiKeyMutation, ConsoleDeleteApiKeyMutationVariables>;
export const ConsolePlatformAccountsDocument = new TypedDocumentString(`
    query ConsolePlatformAccounts($page: Int, $search: String) {
  platformAccounts(page: $page, perPage: 25, search: $search) {
    items {
      id
      name
      ownerEmail
      balance
      suspended
      isOperator
      createdAt
    }
    pageInfo {
      currentPage
      lastPage
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ConsolePlatformAccountsQuery, ConsolePlatformAccountsQueryVariables>;
export const ConsoleCreatePlatformAccountDocument = new TypedDocumentString(`
    mutation ConsoleCreatePlatformAccount($input: CreatePlatformAccountInput!) {
  createPlatformAccount(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreatePlatformAccountMutation, ConsoleCreatePlatformAccountMutationVariables>;
export const ConsoleCreditAccountDocument = new TypedDocumentString(`
    mutation ConsoleCreditAccount($accountId: Int!, $amount: Decimal!, $note: String) {
  creditAccount(accountId: $accountId, amount: $amount, note: $note) {
    id
    balance
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreditAccountMutation, ConsoleCreditAccountMutationVariables>;
export const ConsoleSuspendAccountDocument = new TypedDocumentString(`
    mutation ConsoleSuspendAccount($accountId: Int!, $suspended: Boolean!) {
  suspendAccount(accountId: $accountId, suspended: $suspended) {
    id
    suspended
  }
}
    `) as unknown as TypedDocumentString<ConsoleSuspendAccountMutation, ConsoleSuspendAccountMutationVariables>;
export const ConsoleAppointmentsDocument = new TypedDocumentString(`
    query ConsoleAppointments($page: Int, $filter: AppointmentFilter) {
  appointments(page: $page, perPage: 20, filter: $filter) {
    items {
      ...ConsoleAppointmentFields
    }
    pageInfo {
      currentPage
      lastPage
      total
    }
  }
}
    fragment ConsoleAppointmentFields on Appointment {
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
}`) as unknown as TypedDocumentString<ConsoleAppointmentsQuery, ConsoleAppointmentsQueryVariables>;
export const ConsoleCancelAppointmentDocument = new TypedDocumentString(`
    mutation ConsoleCancelAppointment($id: Int!) {
  cancelAppointment(id: $id) {
    ...ConsoleAppointmentFields
  }
}
    fragment ConsoleAppointmentFields on Appointment {
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
}`) as unknown as TypedDocumentString<ConsoleCancelAppointmentMutation, ConsoleCancelAppointmentMutationVariables>;
export const ConsoleRescheduleAppointmentDocument = new TypedDocumentString(`
    mutation ConsoleRescheduleAppointment($id: Int!, $startsAt: DateTime!) {
  rescheduleAppointment(id: $id, startsAt: $startsAt) {
    ...ConsoleAppointmentFields
  }
}
    fragment ConsoleAppointmentFields on Appointment {
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
}`) as unknown as TypedDocumentString<ConsoleRescheduleAppointmentMutation, ConsoleRescheduleAppointmentMutationVariables>;
export const ConsoleAssistantDocument = new TypedDocumentString(`
    query ConsoleAssistant($id: Int!) {
  assistant(id: $id) {
    id
    uuid
    name
    type
    mode
    status
    language
    timezone
    systemPrompt
    initialMessage
    llmTemperature
    voiceId
    speechSpeed
    voiceStability
    voiceSimilarity
    ambientSound
    ambientSoundVolume
    enableNoiseCancellation
    maxDuration
    maxSilenceDuration
    waitForCustomer
    allowInterruptions
    interruptSensitivity
    minInterruptWords
    endpointType
    endpointSensitivity
    reengagementInterval
    endCallOnVoicemail
    record
    phoneNumberId
    knowledgebaseId
    knowledgebaseMode
    tools
    variables
    postCallEvaluation
    postCallSchema
    webhookUrl
    isWebhookActive
    sendWebhookOnlyOnCompleted
    includeRecordingInWebhook
    inboundWebhookUrl
    widgetSettings
    allowedOrigins
    redactPii
    redactRecordings
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssistantQuery, ConsoleAssistantQueryVariables>;
export const ConsoleAssistantChoicesDocument = new TypedDocumentString(`
    query ConsoleAssistantChoices {
  voices {
    id
    name
    gender
    supportedModes
  }
  knowledgebases {
    id
    name
  }
  phoneNumbers {
    id
    phoneNumber
    label
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssistantChoicesQuery, ConsoleAssistantChoicesQueryVariables>;
export const ConsoleCreateAssistantDocument = new TypedDocumentString(`
    mutation ConsoleCreateAssistant($input: CreateAssistantInput!) {
  createAssistant(input: $input) {
    id
    webhookSigningSecret
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateAssistantMutation, ConsoleCreateAssistantMutationVariables>;
export const ConsoleUpdateAssistantDocument = new TypedDocumentString(`
    mutation ConsoleUpdateAssistant($id: Int!, $input: UpdateAssistantInput!) {
  updateAssistant(id: $id, input: $input) {
    id
    updatedAt
    webhookSigningSecret
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateAssistantMutation, ConsoleUpdateAssistantMutationVariables>;
export const ConsoleDeleteAssistantDocument = new TypedDocumentString(`
    mutation ConsoleDeleteAssistant($id: Int!) {
  deleteAssistant(id: $id) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteAssistantMutation, ConsoleDeleteAssistantMutationVariables>;
export const ConsoleStartTestDocument = new TypedDocumentString(`
    mutation ConsoleStartTest($assistantId: Int!) {
  startTestConversation(input: {assistantId: $assistantId}) {
    id
    messages {
      id
      role
      content
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleStartTestMutation, ConsoleStartTestMutationVariables>;
export const ConsoleSendTestDocument = new TypedDocumentString(`
    mutation ConsoleSendTest($conversationId: ID!, $message: String!) {
  sendTestMessage(input: {conversationId: $conversationId, message: $message}) {
    reply
  }
}
    `) as unknown as TypedDocumentString<ConsoleSendTestMutation, ConsoleSendTestMutationVariables>;
export const ConsoleAppointmentTypesDocument = new TypedDocumentString(`
    query ConsoleAppointmentTypes {
  appointmentTypes {
    id
    connectionId
    name
    durationMinutes
    timezone
  }
}
    `) as unknown as TypedDocumentString<ConsoleAppointmentTypesQuery, ConsoleAppointmentTypesQueryVariables>;
export const ConsoleAssistantCalendarDocument = new TypedDocumentString(`
    query ConsoleAssistantCalendar($id: Int!) {
  assistant(id: $id) {
    id
    appointmentTypeIds
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssistantCalendarQuery, ConsoleAssistantCalendarQueryVariables>;
export const ConsoleAssistantDefaultsDocument = new TypedDocumentString(`
    query ConsoleAssistantDefaults {
  assistantDefaults {
    type
    mode
    status
    timezone
    systemPrompt
    initialMessage
    llmTemperature
    speechSpeed
    voiceStability
    voiceSimilarity
    ambientSound
    ambientSoundVolume
    enableNoiseCancellation
    maxDuration
    maxSilenceDuration
    waitForCustomer
    allowInterruptions
    interruptSensitivity
    minInterruptWords
    endpointType
    endpointSensitivity
    reengagementInterval
    endCallOnVoicemail
    record
    knowledgebaseMode
    tools
    variables
    postCallEvaluation
    postCallSchema
    isWebhookActive
    sendWebhookOnlyOnCompleted
    includeRecordingInWebhook
    widgetSettings
    allowedOrigins
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssistantDefaultsQuery, ConsoleAssistantDefaultsQueryVariables>;
export const ConsoleAssistantsDocument = new TypedDocumentString(`
    query ConsoleAssistants($page: Int, $search: String) {
  assistants(page: $page, perPage: 20, search: $search) {
    items {
      id
      uuid
      name
      type
      mode
      status
      updatedAt
      phoneNumber {
        phoneNumber
      }
    }
    pageInfo {
      currentPage
      lastPage
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssistantsQuery, ConsoleAssistantsQueryVariables>;
export const ConsoleCalendarsScreenDocument = new TypedDocumentString(`
    query ConsoleCalendarsScreen {
  calendarConnections {
    id
    name
    provider
    url
    readUrls
    username
    eventTypeId
    status
    lastError
    checkedAt
    createdAt
  }
  appointmentTypes {
    id
    connectionId
    name
    durationMinutes
    bufferBeforeMinutes
    bufferAfterMinutes
    minimumNoticeMinutes
    horizonDays
    timezone
    slotGranularityMinutes
    maxPerDay
    createdAt
    businessHours {
      mon {
        start
        end
      }
      tue {
        start
        end
      }
      wed {
        start
        end
      }
      thu {
        start
        end
      }
      fri {
        start
        end
      }
      sat {
        start
        end
      }
      sun {
        start
        end
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCalendarsScreenQuery, ConsoleCalendarsScreenQueryVariables>;
export const ConsoleCreateCalendarConnectionDocument = new TypedDocumentString(`
    mutation ConsoleCreateCalendarConnection($input: CreateCalendarConnectionInput!) {
  createCalendarConnection(input: $input) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateCalendarConnectionMutation, ConsoleCreateCalendarConnectionMutationVariables>;
export const ConsoleUpdateCalendarConnectionDocument = new TypedDocumentString(`
    mutation ConsoleUpdateCalendarConnection($id: Int!, $input: UpdateCalendarConnectionInput!) {
  updateCalendarConnection(id: $id, input: $input) {
    id
    status
    lastError
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateCalendarConnectionMutation, ConsoleUpdateCalendarConnectionMutationVariables>;
export const ConsoleDeleteCalendarConnectionDocument = new TypedDocumentString(`
    mutation ConsoleDeleteCalendarConnection($id: Int!) {
  deleteCalendarConnection(id: $id)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteCalendarConnectionMutation, ConsoleDeleteCalendarConnectionMutationVariables>;
export const ConsoleCreateAppointmentTypeDocument = new TypedDocumentString(`
    mutation ConsoleCreateAppointmentType($input: CreateAppointmentTypeInput!) {
  createAppointmentType(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateAppointmentTypeMutation, ConsoleCreateAppointmentTypeMutationVariables>;
export const ConsoleDeleteAppointmentTypeDocument = new TypedDocumentString(`
    mutation ConsoleDeleteAppointmentType($id: Int!) {
  deleteAppointmentType(id: $id)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteAppointmentTypeMutation, ConsoleDeleteAppointmentTypeMutationVariables>;
export const ConsoleStartCalendarOAuthDocument = new TypedDocumentString(`
    mutation ConsoleStartCalendarOAuth($provider: CalendarOAuthProvider!, $name: String!, $connectionId: Int) {
  startCalendarOAuth(
    provider: $provider
    name: $name
    connectionId: $connectionId
  ) {
    authorizationUrl
  }
}
    `) as unknown as TypedDocumentString<ConsoleStartCalendarOAuthMutation, ConsoleStartCalendarOAuthMutationVariables>;
export const ConsoleCallsDocument = new TypedDocumentString(`
    query ConsoleCalls($page: Int, $filter: CallFilter) {
  calls(page: $page, perPage: 20, filter: $filter) {
    items {
      id
      type
      status
      assistantName
      clientPhoneNumber
      assistantPhoneNumber
      campaignName
      duration
      totalCost
      createdAt
    }
    pageInfo {
      currentPage
      lastPage
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCallsQuery, ConsoleCallsQueryVariables>;
export const ConsoleCallDocument = new TypedDocumentString(`
    query ConsoleCall($id: Int!) {
  call(id: $id) {
    id
    type
    status
    assistantName
    clientPhoneNumber
    assistantPhoneNumber
    campaignName
    duration
    totalCost
    createdAt
    startedAt
    endedAt
    endReason
    answeredBy
    transcript
    evaluation
    webhookResponse
    recordingUrl
    recordingStatus
    variables
    assistantId
    activeAssistantId
    handoffCount
    turns {
      id
      speaker
      text
      heardText
      interrupted
      startMs
      endMs
      speechEndedAt
      transcriptAt
      firstTokenAt
      firstAudioAt
      playedAt
      functionCalls {
        name
        arguments
        result
        error
        durationMs
      }
    }
    latency {
      turns
      firstAudioP50Ms
      firstAudioP95Ms
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCallQuery, ConsoleCallQueryVariables>;
export const ConsoleCallsScreenChoicesDocument = new TypedDocumentString(`
    query ConsoleCallsScreenChoices {
  assistants(perPage: 100) {
    items {
      id
      name
    }
  }
  campaigns(perPage: 100) {
    items {
      id
      name
    }
  }
  phoneNumbers {
    id
    phoneNumber
    label
  }
}
    `) as unknown as TypedDocumentString<ConsoleCallsScreenChoicesQuery, ConsoleCallsScreenChoicesQueryVariables>;
export const ConsoleStartTestPhoneCallDocument = new TypedDocumentString(`
    mutation ConsoleStartTestPhoneCall($input: StartCallInput!) {
  startCall(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleStartTestPhoneCallMutation, ConsoleStartTestPhoneCallMutationVariables>;
export const ConsoleSimulateInboundCallDocument = new TypedDocumentString(`
    mutation ConsoleSimulateInboundCall($input: SimulateInboundCallInput!) {
  simulateInboundCall(input: $input) {
    id
    status
    endReason
  }
}
    `) as unknown as TypedDocumentString<ConsoleSimulateInboundCallMutation, ConsoleSimulateInboundCallMutationVariables>;
export const ConsoleTakeOverCallDocument = new TypedDocumentString(`
    mutation ConsoleTakeOverCall($callId: Int!, $phoneNumber: String!) {
  takeOverCall(callId: $callId, phoneNumber: $phoneNumber) {
    id
    clientPhoneNumber
  }
}
    `) as unknown as TypedDocumentString<ConsoleTakeOverCallMutation, ConsoleTakeOverCallMutationVariables>;
export const ConsoleCallStatusDocument = new TypedDocumentString(`
    subscription ConsoleCallStatus($callId: Int, $includeCurrent: Boolean) {
  callStatusChanged(callId: $callId, includeCurrent: $includeCurrent) {
    callId
    status
    call {
      id
      type
      status
      assistantName
      clientPhoneNumber
      assistantPhoneNumber
      campaignName
      duration
      totalCost
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCallStatusSubscription, ConsoleCallStatusSubscriptionVariables>;
export const ConsoleCallTranscriptDocument = new TypedDocumentString(`
    subscription ConsoleCallTranscript($callId: Int!) {
  callTranscript(callId: $callId) {
    id
    speaker
    text
  }
}
    `) as unknown as TypedDocumentString<ConsoleCallTranscriptSubscription, ConsoleCallTranscriptSubscriptionVariables>;
export const ConsoleCampaignsDocument = new TypedDocumentString(`
    query ConsoleCampaigns {
  campaigns(perPage: 100) {
    items {
      id
      name
      status
      maxConcurrentCalls
      assistantId
      callingWindow {
        start
        end
        timezone
      }
      retry {
        maxRetries
        intervalMinutes
      }
      phoneNumbers {
        id
      }
      progress {
        callsRunning
        withinCallingWindow
        leads {
          total
          completed
          processing
          scheduled
          rescheduled
          reachedMaxRetries
          blacklisted
          created
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCampaignsQuery, ConsoleCampaignsQueryVariables>;
export const ConsoleCampaignChoicesDocument = new TypedDocumentString(`
    query ConsoleCampaignChoices {
  assistants(perPage: 100, type: outbound) {
    items {
      id
      name
    }
  }
  phoneNumbers {
    id
    phoneNumber
    label
  }
}
    `) as unknown as TypedDocumentString<ConsoleCampaignChoicesQuery, ConsoleCampaignChoicesQueryVariables>;
export const ConsoleCreateCampaignDocument = new TypedDocumentString(`
    mutation ConsoleCreateCampaign($input: CreateCampaignInput!) {
  createCampaign(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateCampaignMutation, ConsoleCreateCampaignMutationVariables>;
export const ConsoleUpdateCampaignDocument = new TypedDocumentString(`
    mutation ConsoleUpdateCampaign($id: Int!, $input: UpdateCampaignInput!) {
  updateCampaign(id: $id, input: $input) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateCampaignMutation, ConsoleUpdateCampaignMutationVariables>;
export const ConsoleDeleteCampaignDocument = new TypedDocumentString(`
    mutation ConsoleDeleteCampaign($id: Int!) {
  deleteCampaign(id: $id) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteCampaignMutation, ConsoleDeleteCampaignMutationVariables>;
export const ConsoleDeleteLeadDocument = new TypedDocumentString(`
    mutation ConsoleDeleteLead($id: Int!) {
  deleteLead(id: $id) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteLeadMutation, ConsoleDeleteLeadMutationVariables>;
export const ConsoleCampaignProgressDocument = new TypedDocumentString(`
    subscription ConsoleCampaignProgress($campaignId: Int!) {
  campaignProgress(campaignId: $campaignId) {
    campaignId
    status
    callsRunning
    withinCallingWindow
    leads {
      total
      completed
      processing
      scheduled
      rescheduled
      reachedMaxRetries
      blacklisted
      created
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleCampaignProgressSubscription, ConsoleCampaignProgressSubscriptionVariables>;
export const ConsoleLeadsDocument = new TypedDocumentString(`
    query ConsoleLeads($campaignId: Int, $page: Int) {
  leads(campaignId: $campaignId, page: $page, perPage: 20) {
    items {
      id
      phoneNumber
      status
      attempts
      nextAttemptAt
      variables
    }
    pageInfo {
      currentPage
      lastPage
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleLeadsQuery, ConsoleLeadsQueryVariables>;
export const ConsoleCreateLeadDocument = new TypedDocumentString(`
    mutation ConsoleCreateLead($input: CreateLeadInput!) {
  createLead(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateLeadMutation, ConsoleCreateLeadMutationVariables>;
export const ConsoleExportCustomerDataDocument = new TypedDocumentString(`
    mutation ConsoleExportCustomerData($input: CustomerDataInput!) {
  exportCustomerData(input: $input) {
    id
    kind
    state
    identifierKind
    stepsDone
    stepsTotal
    counts
    error
    downloadUrl
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleExportCustomerDataMutation, ConsoleExportCustomerDataMutationVariables>;
export const ConsoleEraseCustomerDataDocument = new TypedDocumentString(`
    mutation ConsoleEraseCustomerData($input: CustomerDataInput!) {
  eraseCustomerData(input: $input) {
    id
    kind
    state
    identifierKind
    stepsDone
    stepsTotal
    counts
    error
    downloadUrl
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleEraseCustomerDataMutation, ConsoleEraseCustomerDataMutationVariables>;
export const ConsoleCustomerDataJobDocument = new TypedDocumentString(`
    query ConsoleCustomerDataJob($id: Int!) {
  customerDataJob(id: $id) {
    id
    kind
    state
    identifierKind
    stepsDone
    stepsTotal
    counts
    error
    downloadUrl
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleCustomerDataJobQuery, ConsoleCustomerDataJobQueryVariables>;
export const ConsoleCustomerDataEventsLeftDocument = new TypedDocumentString(`
    query ConsoleCustomerDataEventsLeft($id: Int!) {
  customerDataJob(id: $id) {
    id
    externalEventsLeftDetails {
      ...ConsoleErasedEventLeftFields
    }
  }
}
    fragment ConsoleErasedEventLeftFields on ErasedEventLeft {
  id
  appointmentId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}`) as unknown as TypedDocumentString<ConsoleCustomerDataEventsLeftQuery, ConsoleCustomerDataEventsLeftQueryVariables>;
export const ConsoleMarkErasedEventLeftHandledDocument = new TypedDocumentString(`
    mutation ConsoleMarkErasedEventLeftHandled($id: Int!) {
  markErasedEventLeftHandled(id: $id) {
    ...ConsoleErasedEventLeftFields
  }
}
    fragment ConsoleErasedEventLeftFields on ErasedEventLeft {
  id
  appointmentId
  provider
  externalId
  startsAt
  reason
  failure
  retriedByJobId
  handledAt
  handledBy
}`) as unknown as TypedDocumentString<ConsoleMarkErasedEventLeftHandledMutation, ConsoleMarkErasedEventLeftHandledMutationVariables>;
export const ConsoleDataRetentionDocument = new TypedDocumentString(`
    query ConsoleDataRetention {
  dataRetention {
    transcriptDays
    recordingDays
    messageDays
    callTurnDays
    webhookLogDays
    textDays
    auditLogDays
  }
}
    `) as unknown as TypedDocumentString<ConsoleDataRetentionQuery, ConsoleDataRetentionQueryVariables>;
export const ConsoleSetDataRetentionDocument = new TypedDocumentString(`
    mutation ConsoleSetDataRetention($input: DataRetentionInput!) {
  setDataRetention(input: $input) {
    transcriptDays
    recordingDays
    messageDays
    callTurnDays
    webhookLogDays
    textDays
    auditLogDays
  }
}
    `) as unknown as TypedDocumentString<ConsoleSetDataRetentionMutation, ConsoleSetDataRetentionMutationVariables>;
export const ConsoleAuditLogDocument = new TypedDocumentString(`
    query ConsoleAuditLog($after: String) {
  auditLog(first: 25, after: $after) {
    entries {
      id
      action
      actorKind
      actorId
      targetType
      targetId
      details
      ip
      at
    }
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<ConsoleAuditLogQuery, ConsoleAuditLogQueryVariables>;
export const ConsoleAuditLogExportDocument = new TypedDocumentString(`
    query ConsoleAuditLogExport($after: String) {
  auditLog(first: 100, after: $after) {
    entries {
      id
      action
      actorKind
      actorId
      userId
      targetType
      targetId
      details
      ip
      at
    }
    nextCursor
  }
}
    `) as unknown as TypedDocumentString<ConsoleAuditLogExportQuery, ConsoleAuditLogExportQueryVariables>;
export const ConsoleConversationsDocument = new TypedDocumentString(`
    query ConsoleConversations($page: Int, $channels: [ConversationChannel!], $unreadOnly: Boolean, $status: ConversationStatus, $waitingForHuman: Boolean, $assignedToMe: Boolean, $unassigned: Boolean, $assistantId: Int, $search: String) {
  conversations(
    page: $page
    perPage: 30
    channels: $channels
    unreadOnly: $unreadOnly
    status: $status
    waitingForHuman: $waitingForHuman
    assignedToMe: $assignedToMe
    unassigned: $unassigned
    assistantId: $assistantId
    search: $search
  ) {
    items {
      id
      assistantId
      channel
      aiDisabled
      waitingForHuman
      customerIdentifier
      origin
      updatedAt
      unread
      lastMessageAt
      status
      assignee {
        id
        name
      }
      lastMessage {
        id
        role
        content
      }
    }
    pageInfo {
      currentPage
      lastPage
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleConversationsQuery, ConsoleConversationsQueryVariables>;
export const ConsoleWaitingForHumanDocument = new TypedDocumentString(`
    query ConsoleWaitingForHuman {
  conversations(waitingForHuman: true, perPage: 1) {
    pageInfo {
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleWaitingForHumanQuery, ConsoleWaitingForHumanQueryVariables>;
export const ConsoleConversationDocument = new TypedDocumentString(`
    query ConsoleConversation($id: ID!) {
  conversation(id: $id) {
    id
    assistantId
    channel
    aiDisabled
    waitingForHuman
    customerIdentifier
    origin
    updatedAt
    status
    resolvedAt
    assignee {
      id
      name
    }
    visitor {
      pageUrl
      browser
      country
    }
    messages {
      id
      role
      content
      createdAt
      visitor {
        pageUrl
        browser
        country
      }
    }
    notes {
      id
      content
      createdAt
      author {
        id
        name
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleConversationQuery, ConsoleConversationQueryVariables>;
export const ConsoleConversationMessageDocument = new TypedDocumentString(`
    subscription ConsoleConversationMessage($conversationId: ID!) {
  conversationMessageAdded(conversationId: $conversationId) {
    id
    role
    content
    createdAt
    visitor {
      pageUrl
      browser
      country
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleConversationMessageSubscription, ConsoleConversationMessageSubscriptionVariables>;
export const ConsoleTakeOverDocument = new TypedDocumentString(`
    mutation ConsoleTakeOver($id: ID!) {
  takeOverConversation(id: $id) {
    id
    aiDisabled
    waitingForHuman
  }
}
    `) as unknown as TypedDocumentString<ConsoleTakeOverMutation, ConsoleTakeOverMutationVariables>;
export const ConsoleHandBackDocument = new TypedDocumentString(`
    mutation ConsoleHandBack($id: ID!) {
  handBackConversation(id: $id) {
    id
    aiDisabled
    waitingForHuman
  }
}
    `) as unknown as TypedDocumentString<ConsoleHandBackMutation, ConsoleHandBackMutationVariables>;
export const ConsoleSendOperatorMessageDocument = new TypedDocumentString(`
    mutation ConsoleSendOperatorMessage($conversationId: ID!, $content: String!) {
  sendOperatorMessage(input: {conversationId: $conversationId, content: $content}) {
    id
    role
    content
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleSendOperatorMessageMutation, ConsoleSendOperatorMessageMutationVariables>;
export const ConsoleMarkReadDocument = new TypedDocumentString(`
    mutation ConsoleMarkRead($id: ID!) {
  markConversationRead(id: $id) {
    id
    unread
  }
}
    `) as unknown as TypedDocumentString<ConsoleMarkReadMutation, ConsoleMarkReadMutationVariables>;
export const ConsoleInboxViewerDocument = new TypedDocumentString(`
    query ConsoleInboxViewer {
  viewer {
    id
    name
  }
  members {
    id
    name
  }
  assistants(perPage: 100) {
    items {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleInboxViewerQuery, ConsoleInboxViewerQueryVariables>;
export const ConsoleResolveConversationDocument = new TypedDocumentString(`
    mutation ConsoleResolveConversation($id: ID!) {
  resolveConversation(id: $id) {
    id
    status
    resolvedAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleResolveConversationMutation, ConsoleResolveConversationMutationVariables>;
export const ConsoleReopenConversationDocument = new TypedDocumentString(`
    mutation ConsoleReopenConversation($id: ID!) {
  reopenConversation(id: $id) {
    id
    status
    resolvedAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleReopenConversationMutation, ConsoleReopenConversationMutationVariables>;
export const ConsoleAssignConversationDocument = new TypedDocumentString(`
    mutation ConsoleAssignConversation($id: ID!, $userId: Int) {
  assignConversation(id: $id, userId: $userId) {
    id
    assignee {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleAssignConversationMutation, ConsoleAssignConversationMutationVariables>;
export const ConsoleAddConversationNoteDocument = new TypedDocumentString(`
    mutation ConsoleAddConversationNote($conversationId: ID!, $content: String!) {
  addConversationNote(input: {conversationId: $conversationId, content: $content}) {
    id
    conversationId
    content
    createdAt
    author {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleAddConversationNoteMutation, ConsoleAddConversationNoteMutationVariables>;
export const ConsoleInsightsSetupDocument = new TypedDocumentString(`
    query ConsoleInsightsSetup {
  viewer {
    id
    account {
      id
      timezone
    }
  }
  assistants(perPage: 100) {
    items {
      id
      name
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleInsightsSetupQuery, ConsoleInsightsSetupQueryVariables>;
export const ConsoleInsightsDocument = new TypedDocumentString(`
    query ConsoleInsights($period: InsightsPeriod!, $assistantId: Int) {
  insights(period: $period, assistantId: $assistantId) {
    from
    to
    timezone
    bucket
    calls
    finishedCalls
    answeredCalls
    answerRate
    conversations
    minutes
    cost
    evaluatedCalls
    judgedCalls
    successfulCalls
    successRate
    measuredTurns
    averageTurnLatencyMs
    p95TurnLatencyMs
    transfers
    bookings
    endedReasons {
      status
      reason
      calls
    }
    series {
      start
      calls
      answeredCalls
      conversations
      minutes
      cost
      bookings
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleInsightsQuery, ConsoleInsightsQueryVariables>;
export const ConsoleKnowledgebasesDocument = new TypedDocumentString(`
    query ConsoleKnowledgebases {
  knowledgebases {
    id
    name
    description
    status
    documentsCount
    assistantsCount
  }
}
    `) as unknown as TypedDocumentString<ConsoleKnowledgebasesQuery, ConsoleKnowledgebasesQueryVariables>;
export const ConsoleCreateKnowledgebaseDocument = new TypedDocumentString(`
    mutation ConsoleCreateKnowledgebase($input: KnowledgebaseInput!) {
  createKnowledgebase(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateKnowledgebaseMutation, ConsoleCreateKnowledgebaseMutationVariables>;
export const ConsoleDeleteKnowledgebaseDocument = new TypedDocumentString(`
    mutation ConsoleDeleteKnowledgebase($id: Int!) {
  deleteKnowledgebase(id: $id) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteKnowledgebaseMutation, ConsoleDeleteKnowledgebaseMutationVariables>;
export const ConsoleUpdateKnowledgebaseDocument = new TypedDocumentString(`
    mutation ConsoleUpdateKnowledgebase($id: Int!, $input: KnowledgebaseInput!) {
  updateKnowledgebase(id: $id, input: $input) {
    id
    name
    description
    chunkMaxTokens
    chunkOverlapTokens
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateKnowledgebaseMutation, ConsoleUpdateKnowledgebaseMutationVariables>;
export const ConsoleKnowledgebaseDocument = new TypedDocumentString(`
    query ConsoleKnowledgebase($id: Int!) {
  knowledgebase(id: $id) {
    id
    name
    description
    status
    assistantsCount
    chunkMaxTokens
    chunkOverlapTokens
    documents {
      id
      name
      type
      status
      stage
      pagesDone
      pagesTotal
      chunkCount
      failureReason
      fileName
      url
      sizeBytes
      createdAt
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleKnowledgebaseQuery, ConsoleKnowledgebaseQueryVariables>;
export const ConsoleCreateDocumentDocument = new TypedDocumentString(`
    mutation ConsoleCreateDocument($knowledgebaseId: Int!, $input: CreateDocumentInput!) {
  createDocument(knowledgebaseId: $knowledgebaseId, input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateDocumentMutation, ConsoleCreateDocumentMutationVariables>;
export const ConsoleDeleteDocumentDocument = new TypedDocumentString(`
    mutation ConsoleDeleteDocument($id: Int!) {
  deleteDocument(id: $id) {
    deletedId
  }
}
    `) as unknown as TypedDocumentString<ConsoleDeleteDocumentMutation, ConsoleDeleteDocumentMutationVariables>;
export const ConsoleKnowledgebaseStatusDocument = new TypedDocumentString(`
    subscription ConsoleKnowledgebaseStatus($id: Int!) {
  knowledgebaseStatus(id: $id) {
    status
    document {
      documentId
      status
      stage
      pagesDone
      pagesTotal
      chunkCount
      failureReason
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleKnowledgebaseStatusSubscription, ConsoleKnowledgebaseStatusSubscriptionVariables>;
export const ConsoleSearchKnowledgebaseDocument = new TypedDocumentString(`
    query ConsoleSearchKnowledgebase($id: Int!, $query: String!) {
  searchKnowledgebase(id: $id, query: $query, limit: 8) {
    chunkId
    content
    documentName
    relevance
    source
  }
}
    `) as unknown as TypedDocumentString<ConsoleSearchKnowledgebaseQuery, ConsoleSearchKnowledgebaseQueryVariables>;
export const ConsoleReprocessDocumentDocument = new TypedDocumentString(`
    mutation ConsoleReprocessDocument($id: Int!) {
  reprocessDocument(id: $id) {
    id
    status
    stage
    failureReason
  }
}
    `) as unknown as TypedDocumentString<ConsoleReprocessDocumentMutation, ConsoleReprocessDocumentMutationVariables>;
export const ConsoleDocumentPassagesDocument = new TypedDocumentString(`
    query ConsoleDocumentPassages($id: Int!, $offset: Int!, $limit: Int!) {
  document(id: $id) {
    id
    name
    chunkCount
    passages(offset: $offset, limit: $limit) {
      id
      ordinal
      content
      tokenCount
      source
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleDocumentPassagesQuery, ConsoleDocumentPassagesQueryVariables>;
export const ConsoleBalanceDocument = new TypedDocumentString(`
    subscription ConsoleBalance {
  balanceChanged {
    id
    balance
  }
}
    `) as unknown as TypedDocumentString<ConsoleBalanceSubscription, ConsoleBalanceSubscriptionVariables>;
export const ConsoleLedgerDocument = new TypedDocumentString(`
    query ConsoleLedger($accountId: Int, $page: Int) {
  ledgerEntries(accountId: $accountId, page: $page, perPage: 25) {
    items {
      id
      kind
      amount
      balanceAfter
      description
      pending
      callId
      createdAt
    }
    pageInfo {
      currentPage
      lastPage
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleLedgerQuery, ConsoleLedgerQueryVariables>;
export const ConsoleTeamDocument = new TypedDocumentString(`
    query ConsoleTeam {
  viewer {
    id
    role
  }
  members {
    id
    name
    email
    role
    createdAt
  }
  invitations {
    id
    email
    role
    expiresAt
    createdAt
    emailStatus
    emailError
    emailSentAt
  }
  invitationEmailEnabled
}
    `) as unknown as TypedDocumentString<ConsoleTeamQuery, ConsoleTeamQueryVariables>;
export const ConsoleInviteMemberDocument = new TypedDocumentString(`
    mutation ConsoleInviteMember($input: InviteMemberInput!) {
  inviteMember(input: $input) {
    token
    path
    invitation {
      id
      emailStatus
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleInviteMemberMutation, ConsoleInviteMemberMutationVariables>;
export const ConsoleResendInvitationEmailDocument = new TypedDocumentString(`
    mutation ConsoleResendInvitationEmail($id: Int!) {
  resendInvitationEmail(id: $id) {
    path
    invitation {
      id
      emailStatus
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleResendInvitationEmailMutation, ConsoleResendInvitationEmailMutationVariables>;
export const ConsoleRevokeInvitationDocument = new TypedDocumentString(`
    mutation ConsoleRevokeInvitation($id: Int!) {
  revokeInvitation(id: $id)
}
    `) as unknown as TypedDocumentString<ConsoleRevokeInvitationMutation, ConsoleRevokeInvitationMutationVariables>;
export const ConsoleChangeMemberRoleDocument = new TypedDocumentString(`
    mutation ConsoleChangeMemberRole($input: ChangeMemberRoleInput!) {
  changeMemberRole(input: $input) {
    id
    role
  }
}
    `) as unknown as TypedDocumentString<ConsoleChangeMemberRoleMutation, ConsoleChangeMemberRoleMutationVariables>;
export const ConsoleRemoveMemberDocument = new TypedDocumentString(`
    mutation ConsoleRemoveMember($userId: Int!) {
  removeMember(userId: $userId)
}
    `) as unknown as TypedDocumentString<ConsoleRemoveMemberMutation, ConsoleRemoveMemberMutationVariables>;
export const ConsoleResetMemberPasswordDocument = new TypedDocumentString(`
    mutation ConsoleResetMemberPassword($userId: Int!) {
  resetMemberPassword(userId: $userId) {
    path
    expiresAt
    emailStatus
  }
}
    `) as unknown as TypedDocumentString<ConsoleResetMemberPasswordMutation, ConsoleResetMemberPasswordMutationVariables>;
export const ConsoleInvitationLinkDocument = new TypedDocumentString(`
    query ConsoleInvitationLink($token: String!) {
  invitationLink(token: $token) {
    kind
    email
    role
    accountName
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleInvitationLinkQuery, ConsoleInvitationLinkQueryVariables>;
export const ConsoleAcceptInvitationDocument = new TypedDocumentString(`
    mutation ConsoleAcceptInvitation($input: AcceptInvitationInput!) {
  acceptInvitation(input: $input) {
    token
    expiresAt
    viewer {
      id
      email
      role
      account {
        id
        isOperator
      }
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleAcceptInvitationMutation, ConsoleAcceptInvitationMutationVariables>;
export const ConsoleTestsScreenDocument = new TypedDocumentString(`
    query ConsoleTestsScreen($assistantId: Int!) {
  assistant(id: $assistantId) {
    id
    name
  }
  testScenarios(assistantId: $assistantId) {
    ...ConsoleTestScenarioFields
  }
  testSuites {
    id
    name
    scenarioIds
    updatedAt
  }
}
    fragment ConsoleTestScenarioFields on TestScenario {
  id
  assistantId
  name
  channel
  script
  persona
  goal
  variables
  turnLimit
  criteria
  checks
  toolResults
  useRealTools
  expectedReplies
  sourceCallId
  sourceConversationId
  updatedAt
}`) as unknown as TypedDocumentString<ConsoleTestsScreenQuery, ConsoleTestsScreenQueryVariables>;
export const ConsoleTestScenarioDocument = new TypedDocumentString(`
    query ConsoleTestScenario($id: Int!) {
  testScenario(id: $id) {
    ...ConsoleTestScenarioFields
  }
}
    fragment ConsoleTestScenarioFields on TestScenario {
  id
  assistantId
  name
  channel
  script
  persona
  goal
  variables
  turnLimit
  criteria
  checks
  toolResults
  useRealTools
  expectedReplies
  sourceCallId
  sourceConversationId
  updatedAt
}`) as unknown as TypedDocumentString<ConsoleTestScenarioQuery, ConsoleTestScenarioQueryVariables>;
export const ConsoleCreateTestScenarioDocument = new TypedDocumentString(`
    mutation ConsoleCreateTestScenario($input: CreateTestScenarioInput!) {
  createTestScenario(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateTestScenarioMutation, ConsoleCreateTestScenarioMutationVariables>;
export const ConsoleUpdateTestScenarioDocument = new TypedDocumentString(`
    mutation ConsoleUpdateTestScenario($id: Int!, $input: UpdateTestScenarioInput!) {
  updateTestScenario(id: $id, input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateTestScenarioMutation, ConsoleUpdateTestScenarioMutationVariables>;
export const ConsoleDeleteTestScenarioDocument = new TypedDocumentString(`
    mutation ConsoleDeleteTestScenario($id: Int!) {
  deleteTestScenario(id: $id)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteTestScenarioMutation, ConsoleDeleteTestScenarioMutationVariables>;
export const ConsoleCreateTestSuiteDocument = new TypedDocumentString(`
    mutation ConsoleCreateTestSuite($input: TestSuiteInput!) {
  createTestSuite(input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleCreateTestSuiteMutation, ConsoleCreateTestSuiteMutationVariables>;
export const ConsoleUpdateTestSuiteDocument = new TypedDocumentString(`
    mutation ConsoleUpdateTestSuite($id: Int!, $input: TestSuiteInput!) {
  updateTestSuite(id: $id, input: $input) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleUpdateTestSuiteMutation, ConsoleUpdateTestSuiteMutationVariables>;
export const ConsoleDeleteTestSuiteDocument = new TypedDocumentString(`
    mutation ConsoleDeleteTestSuite($id: Int!) {
  deleteTestSuite(id: $id)
}
    `) as unknown as TypedDocumentString<ConsoleDeleteTestSuiteMutation, ConsoleDeleteTestSuiteMutationVariables>;
export const ConsoleTestSuiteEstimateDocument = new TypedDocumentString(`
    query ConsoleTestSuiteEstimate($suiteId: Int!) {
  testSuiteEstimate(suiteId: $suiteId) {
    scenarios
    replies
    modelRequests
    price
  }
}
    `) as unknown as TypedDocumentString<ConsoleTestSuiteEstimateQuery, ConsoleTestSuiteEstimateQueryVariables>;
export const ConsoleTestRunsDocument = new TypedDocumentString(`
    query ConsoleTestRuns($suiteId: Int!) {
  testRuns(suiteId: $suiteId, limit: 20) {
    id
    status
    total
    done
    passed
    failed
    errored
    cost
    createdAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleTestRunsQuery, ConsoleTestRunsQueryVariables>;
export const ConsoleRunTestSuiteDocument = new TypedDocumentString(`
    mutation ConsoleRunTestSuite($suiteId: Int!, $concurrency: Int) {
  runTestSuite(suiteId: $suiteId, concurrency: $concurrency) {
    id
  }
}
    `) as unknown as TypedDocumentString<ConsoleRunTestSuiteMutation, ConsoleRunTestSuiteMutationVariables>;
export const ConsoleTestRunUpdatedDocument = new TypedDocumentString(`
    subscription ConsoleTestRunUpdated($id: Int!) {
  testRunUpdated(id: $id, includeCurrent: true) {
    ...ConsoleTestRunFields
  }
}
    fragment ConsoleTestResultFields on TestScenarioResult {
  id
  scenarioId
  scenarioName
  position
  status
  endedBy
  turnLatencies
  cost
  error
  functionCalls
  callId
  transcript {
    role
    content
    latencyMs
  }
  checks {
    kind
    description
    passed
    detail
  }
  judge {
    criterion
    passed
    reasoning
  }
  divergences {
    turn
    expected
    actual
  }
}
fragment ConsoleTestRunFields on TestRun {
  id
  suiteId
  status
  concurrency
  total
  done
  passed
  failed
  errored
  cost
  error
  createdAt
  startedAt
  finishedAt
  results {
    ...ConsoleTestResultFields
  }
}`) as unknown as TypedDocumentString<ConsoleTestRunUpdatedSubscription, ConsoleTestRunUpdatedSubscriptionVariables>;
export const ConsoleCompareTestRunsDocument = new TypedDocumentString(`
    query ConsoleCompareTestRuns($a: Int!, $b: Int!) {
  compareTestRuns(a: $a, b: $b) {
    unchanged
    before {
      id
      status
      passed
      failed
      errored
      total
      createdAt
    }
    after {
      id
      status
      passed
      failed
      errored
      total
      createdAt
    }
    changed {
      scenarioId
      scenarioName
      before {
        ...ConsoleTestResultFields
      }
      after {
        ...ConsoleTestResultFields
      }
    }
  }
}
    fragment ConsoleTestResultFields on TestScenarioResult {
  id
  scenarioId
  scenarioName
  position
  status
  endedBy
  turnLatencies
  cost
  error
  functionCalls
  callId
  transcript {
    role
    content
    latencyMs
  }
  checks {
    kind
    description
    passed
    detail
  }
  judge {
    criterion
    passed
    reasoning
  }
  divergences {
    turn
    expected
    actual
  }
}`) as unknown as TypedDocumentString<ConsoleCompareTestRunsQuery, ConsoleCompareTestRunsQueryVariables>;
export const ConsoleWebhookDeliveriesDocument = new TypedDocumentString(`
    query ConsoleWebhookDeliveries($page: Int, $filter: WebhookDeliveryFilter) {
  webhookDeliveries(page: $page, perPage: 20, filter: $filter) {
    items {
      id
      webhookId
      type
      url
      status
      attempts
      nextAttemptAt
      lastStatusCode
      lastError
      deliveredAt
      createdAt
    }
    pageInfo {
      currentPage
      lastPage
      total
    }
  }
}
    `) as unknown as TypedDocumentString<ConsoleWebhookDeliveriesQuery, ConsoleWebhookDeliveriesQueryVariables>;
export const ConsoleRedeliverWebhookDocument = new TypedDocumentString(`
    mutation ConsoleRedeliverWebhook($id: Int!) {
  redeliverWebhook(id: $id) {
    id
    status
    attempts
  }
}
    `) as unknown as TypedDocumentString<ConsoleRedeliverWebhookMutation, ConsoleRedeliverWebhookMutationVariables>;
export const ConsoleSendTestWebhookDocument = new TypedDocumentString(`
    mutation ConsoleSendTestWebhook($url: String) {
  sendTestWebhook(url: $url) {
    id
    status
  }
}
    `) as unknown as TypedDocumentString<ConsoleSendTestWebhookMutation, ConsoleSendTestWebhookMutationVariables>;
export const ConsoleWebhookSigningSecretsDocument = new TypedDocumentString(`
    query ConsoleWebhookSigningSecrets {
  webhookSigningSecrets {
    id
    createdAt
    expiresAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleWebhookSigningSecretsQuery, ConsoleWebhookSigningSecretsQueryVariables>;
export const ConsoleRotateWebhookSecretDocument = new TypedDocumentString(`
    mutation ConsoleRotateWebhookSecret($overlapSeconds: Int) {
  rotateWebhookSecret(overlapSeconds: $overlapSeconds) {
    secret
    createdAt
    previousExpiresAt
  }
}
    `) as unknown as TypedDocumentString<ConsoleRotateWebhookSecretMutation, ConsoleRotateWebhookSecretMutationVariables>;