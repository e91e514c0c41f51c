import type { InputFieldBuilder } from "@pothos/core";
import { builder } from "../../builder.ts";
import { actorOf } from "../../events.ts";
import { spelledEnum } from "../common/enums.schema.ts";
import { pageOf } from "../common/pagination.schema.ts";
import { PII_CATEGORIES } from "../redaction/index.ts";
import { AssistantModeRef } from "../voices/voices.schema.ts";
import {
  AMBIENT_SOUNDS,
  ASSISTANT_DEFAULTS,
  ASSISTANT_STATUSES,
  ASSISTANT_TYPES,
  ENDPOINT_TYPES,
  KNOWLEDGEBASE_MODES,
} from "./assistant-rules.ts";

const AssistantTypeRef = spelledEnum("AssistantType", ASSISTANT_TYPES, {
  description: "Which calls an assistant handles: inbound, outbound, or web (browser) calls.",
});
const AssistantStatusRef = spelledEnum("AssistantStatus", ASSISTANT_STATUSES);
const KnowledgebaseModeRef = spelledEnum("KnowledgebaseMode", KNOWLEDGEBASE_MODES, {
  description:
    "How an assistant uses its knowledge base: passages in the prompt by both rankings, embeddings or full text, or a search function the model calls (tool).",
});
const EndpointTypeRef = spelledEnum("EndpointType", ENDPOINT_TYPES, {
  description:
    "How the end of a caller's turn is detected: voice activity by energy (vad) or by the Silero model (silero), or meaning (semantic).",
});
const AmbientSoundRef = spelledEnum("AmbientSound", AMBIENT_SOUNDS, {
  description: "Background sound mixed into the assistant's voice.",
});
const PiiCategoryRef = spelledEnum("PiiCategory", PII_CATEGORIES, {
  description:
    "A kind of personal data redacted from stored and sent-on conversation content (docs/data-governance.md#pii-redaction).",
});

export const AssistantRef = builder.prismaObject("Assistant", {
  description:
    "An AI assistant that answers calls and chats. Allowed values and ranges: docs/assistants-and-telephony.md.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    uuid: t.exposeString("uuid"),
    userId: t.exposeInt("userId"),
    name: t.exposeString("name"),
    webhookSigningSecret: t.string({
      nullable: true,
      description:
        "The account's webhook signing secret (whsec_…), only in the answer of the createAssistant or updateAssistant that first turns webhooks on in the account: store it, it is not shown again (rotateWebhookSecret makes a new one).",
      resolve: (assistant) => (assistant as { webhookSigningSecret?: string }).webhookSigningSecret ?? null,
    }),
    type: t.expose("type", { type: AssistantTypeRef }),
    status: t.expose("status", { type: AssistantStatusRef }),
    mode: t.field({ type: AssistantModeRef, resolve: (assistant) => assistant.mode }),
    phoneNumberId: t.exposeInt("phoneNumberId", { nullable: true }),
    phoneNumber: t.relation("phoneNumber", { nullable: true }),
    voiceId: t.exposeInt("voiceId", { nullable: true }),
    voice: t.relation("voice", { nullable: true }),
    knowledgebaseId: t.exposeInt("knowledgebaseId", { nullable: true }),
    appointmentTypeIds: t.field({
      type: ["Int"],
      description: "The appointment types its calendar functions book (docs/calendars.md#functions).",
      select: {
        appointmentTypeLinks: { select: { appointmentTypeId: true }, orderBy: { appointmentTypeId: "asc" } },
      },
      resolve: (assistant) => assistant.appointmentTypeLinks.map((link) => link.appointmentTypeId),
    }),
    knowledgebaseMode: t.expose("knowledgebaseMode", { type: KnowledgebaseModeRef }),
    languageId: t.exposeInt("languageId", { nullable: true }),
    language: t.exposeString("language", { nullable: true }),
    engineId: t.exposeInt("engineId", { nullable: true }),
    synthesizerId: t.exposeInt("synthesizerId", { nullable: true }),
    transcriberId: t.exposeInt("transcriberId", { nullable: true }),
    instanceId: t.exposeInt("instanceId", { nullable: true }),
    flowsPlatformId: t.exposeInt("flowsPlatformId", { nullable: true }),
    transcriberProviderId: t.exposeInt("transcriberProviderId", { nullable: true }),
    synthesizerProviderId: t.exposeInt("synthesizerProviderId", { nullable: true }),
    llmModelId: t.exposeInt("llmModelId", { nullable: true }),
    multimodalModelId: t.exposeInt("multimodalModelId", { nullable: true }),
    variables: t.field({
      type: "JSON",
      description: "Object of string values.",
      resolve: (a) => a.variables,
    }),
    postCallEvaluation: t.exposeBoolean("postCallEvaluation"),
    postCallSchema: t.field({
      type: "JSON",
      description: "Array of {name, type (string, bool, number, integer), description}.",
      resolve: (a) => a.postCallSchema,
    }),
    fillers: t.exposeInt("fillers"),
    fillerConfig: t.field({
      type: "JSON",
      description: "{neutral, negative, positive, question}: arrays of filler phrases.",
      resolve: (a) => a.fillerConfig,
    }),
    tools: t.field({
      type: "JSON",
      description: "Array of tool definitions (objects).",
      resolve: (a) => a.tools,
    }),
    isWebhookActive: t.exposeBoolean("isWebhookActive"),
    webhookUrl: t.exposeString("webhookUrl", { nullable: true }),
    inboundWebhookUrl: t.exposeString("inboundWebhookUrl", { nullable: true }),
    sendWebhookOnlyOnCompleted: t.exposeBoolean("sendWebhookOnlyOnCompleted"),
    includeRecordingInWebhook: t.exposeBoolean("includeRecordingInWebhook"),
    maxDuration: t.exposeInt("maxDuration", { description: "Seconds (30 to 7200)." }),
    maxSilenceDuration: t.exposeInt("maxSilenceDuration", { description: "Seconds (5 to 600)." }),
    reengagementInterval: t.exposeInt("reengagementInterval", { description: "Seconds (5 to 300)." }),
    record: t.exposeBoolean("record"),
    initialMessage: t.exposeString("initialMessage"),
    systemPrompt: t.exposeString("systemPrompt"),
    timezone: t.exposeString("timezone", { description: "IANA time zone name." }),
    endCallOnVoicemail: t.exposeBoolean("endCallOnVoicemail"),
    llmTemperature: t.field({ type: "Decimal", resolve: (a) => a.llmTemperature.toFixed(2) }),
    voiceStability: t.field({ type: "Decimal", resolve: (a) => a.voiceStability.toFixed(2) }),
    voiceSimilarity: t.field({ type: "Decimal", resolve: (a) => a.voiceSimilarity.toFixed(2) }),
    speechSpeed: t.field({ type: "Decimal", resolve: (a) => a.speechSpeed.toFixed(2) }),
    ambientSoundVolume: t.field({ type: "Decimal", resolve: (a) => a.ambientSoundVolume.toFixed(2) }),
    allowInterruptions: t.exposeBoolean("allowInterruptions"),
    enableNoiseCancellation: t.exposeBoolean("enableNoiseCancellation"),
    waitForCustomer: t.exposeBoolean("waitForCustomer"),
    endpointSensitivity: t.exposeFloat("endpointSensitivity"),
    interruptSensitivity: t.exposeFloat("interruptSensitivity"),
    endpointType: t.expose("endpointType", { type: EndpointTypeRef }),
    ambientSound: t.expose("ambientSound", { type: AmbientSoundRef }),
    minInterruptWords: t.exposeInt("minInterruptWords"),
    widgetSettings: t.field({
      type: "JSON",
      description: "{theme (light, dark), color (hex), position (bottom-right, bottom-left)}.",
      resolve: (a) => a.widgetSettings,
    }),
    allowedOrigins: t.exposeStringList("allowedOrigins", {
      description:
        "Websites (origins such as https://shop.example) allowed to use the public widget API; empty allows any.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    deletedAt: t.expose("deletedAt", { type: "DateTime", nullable: true }),
    redactPii: t.field({
      type: [PiiCategoryRef],
      description:
        "Personal data replaced by typed placeholders in what is stored and sent onwards (transcripts, messages, evaluations, texts, webhooks); the live model still hears it.",
      resolve: (a) => a.redactPii,
    }),
    redactRecordings: t.exposeBoolean("redactRecordings", {
      description: "Also silence, in stored recordings, the caller's turns whose words were redacted.",
    }),
  }),
});

const AssistantPage = pageOf("AssistantPage", AssistantRef);

builder.queryField("assistants", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: AssistantPage,
    description: "The account's assistants (deleted ones left out), oldest first, 10 per page by default.",
    args: {
      page: t.arg.int(),
      perPage: t.arg.int(),
      type: t.arg({ type: AssistantTypeRef }),
      status: t.arg({ type: AssistantStatusRef }),
      search: t.arg.string({ description: "Part of the name, case-insensitive." }),
    },
    resolve: (_root, args, context) =>
      context.services.assistants.list(
        context.viewer.accountId,
        { page: args.page, perPage: args.perPage },
        { type: args.type, status: args.status, search: args.search },
      ),
  }),
);

builder.queryField("assistant", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: AssistantRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.assistants.get(context.viewer.accountId, id),
  }),
);

const AssistantDefaultsRef = builder.objectRef<typeof ASSISTANT_DEFAULTS>("AssistantDefaults").implement({
  description:
    "The settings createAssistant gives a new assistant for each one it is not given (the same fields as Assistant's).",
  fields: (t) => ({
    type: t.expose("type", { type: AssistantTypeRef }),
    status: t.expose("status", { type: AssistantStatusRef }),
    mode: t.expose("mode", { type: AssistantModeRef }),
    knowledgebaseMode: t.expose("knowledgebaseMode", { type: KnowledgebaseModeRef }),
    variables: t.field({ type: "JSON", resolve: (d) => d.variables }),
    postCallEvaluation: t.exposeBoolean("postCallEvaluation"),
    postCallSchema: t.field({ type: "JSON", resolve: (d) => d.postCallSchema }),
    fillers: t.exposeInt("fillers"),
    fillerConfig: t.field({ type: "JSON", resolve: (d) => d.fillerConfig }),
    tools: t.field({ type: "JSON", resolve: (d) => d.tools }),
    isWebhookActive: t.exposeBoolean("isWebhookActive"),
    sendWebhookOnlyOnCompleted: t.exposeBoolean("sendWebhookOnlyOnCompleted"),
    includeRecordingInWebhook: t.exposeBoolean("includeRecordingInWebhook"),
    maxDuration: t.exposeInt("maxDuration"),
    maxSilenceDuration: t.exposeInt("maxSilenceDuration"),
    reengagementInterval: t.exposeInt("reengagementInterval"),
    record: t.exposeBoolean("record"),
    initialMessage: t.exposeString("initialMessage"),
    systemPrompt: t.exposeString("systemPrompt"),
    timezone: t.exposeString("timezone"),
    endCallOnVoicemail: t.exposeBoolean("endCallOnVoicemail"),
    llmTemperature: t.field({ type: "Decimal", resolve: (d) => d.llmTemperature }),
    voiceStability: t.field({ type: "Decimal", resolve: (d) => d.voiceStability }),
    voiceSimilarity: t.field({ type: "Decimal", resolve: (d) => d.voiceSimilarity }),
    speechSpeed: t.field({ type: "Decimal", resolve: (d) => d.speechSpeed }),
    ambientSoundVolume: t.field({ type: "Decimal", resolve: (d) => d.ambientSoundVolume }),
    allowInterruptions: t.exposeBoolean("allowInterruptions"),
    enableNoiseCancellation: t.exposeBoolean("enableNoiseCancellation"),
    waitForCustomer: t.exposeBoolean("waitForCustomer"),
    endpointSensitivity: t.exposeFloat("endpointSensitivity"),
    interruptSensitivity: t.exposeFloat("interruptSensitivity"),
    endpointType: t.expose("endpointType", { type: EndpointTypeRef }),
    ambientSound: t.expose("ambientSound", { type: AmbientSoundRef }),
    minInterruptWords: t.exposeInt("minInterruptWords"),
    widgetSettings: t.field({ type: "JSON", resolve: (d) => d.widgetSettings }),
    allowedOrigins: t.stringList({ resolve: (d) => [...d.allowedOrigins] }),
  }),
});

builder.queryField("assistantDefaults", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: AssistantDefaultsRef,
    description:
      "What a new assistant gets for the settings createAssistant is not given, e.g. to fill a form before creating.",
    resolve: () => ASSISTANT_DEFAULTS,
  }),
);

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The settable fields, shared by create and update; the service validates values and references. */
function settingFields(t: InputFieldBuilder<Types, "InputObject">) {
  return {
    type: t.field({ type: AssistantTypeRef }),
    status: t.field({ type: AssistantStatusRef }),
    mode: t.field({ type: AssistantModeRef }),
    phoneNumberId: t.int(),
    voiceId: t.int(),
    knowledgebaseId: t.int(),
    appointmentTypeIds: t.intList({
      description:
        "Appointment types the assistant books (it is offered calendar functions); null or [] none.",
    }),
    knowledgebaseMode: t.field({ type: KnowledgebaseModeRef }),
    languageId: t.int(),
    language: t.string(),
    engineId: t.int(),
    synthesizerId: t.int(),
    transcriberId: t.int(),
    instanceId: t.int(),
    flowsPlatformId: t.int(),
    transcriberProviderId: t.int(),
    synthesizerProviderId: t.int(),
    llmModelId: t.int(),
    multimodalModelId: t.int(),
    variables: t.field({ type: "JSON" }),
    postCallEvaluation: t.boolean(),
    postCallSchema: t.field({ type: "JSON" }),
    fillers: t.int(),
    fillerConfig: t.field({ type: "JSON" }),
    tools: t.field({ type: "JSON" }),
    isWebhookActive: t.boolean(),
    webhookUrl: t.string(),
    inboundWebhookUrl: t.string(),
    sendWebhookOnlyOnCompleted: t.boolean(),
    includeRecordingInWebhook: t.boolean(),
    maxDuration: t.int(),
    maxSilenceDuration: t.int(),
    reengagementInterval: t.int(),
    record: t.boolean(),
    initialMessage: t.string(),
    systemPrompt: t.string(),
    timezone: t.string(),
    endCallOnVoicemail: t.boolean(),
    llmTemperature: t.field({ type: "Decimal" }),
    voiceStability: t.field({ type: "Decimal" }),
    voiceSimilarity: t.field({ type: "Decimal" }),
    speechSpeed: t.field({ type: "Decimal" }),
    ambientSoundVolume: t.field({ type: "Decimal" }),
    allowInterruptions: t.boolean(),
    enableNoiseCancellation: t.boolean(),
    waitForCustomer: t.boolean(),
    endpointSensitivity: t.float(),
    interruptSensitivity: t.float(),
    endpointType: t.field({ type: EndpointTypeRef }),
    ambientSound: t.field({ type: AmbientSoundRef }),
    minInterruptWords: t.int(),
    widgetSettings: t.field({ type: "JSON" }),
    allowedOrigins: t.stringList({
      description:
        "Origins (scheme, host, optional port; no path) allowed to use the public widget API; empty or null allows any.",
    }),
    redactPii: t.field({
      type: [PiiCategoryRef],
      description: "Kinds of personal data to redact from stored and sent-on content; empty or null: none.",
    }),
    redactRecordings: t.boolean(),
  };
}

const CreateAssistantInput = builder.inputType("CreateAssistantInput", {
  fields: (t) => ({ name: t.string({ required: true }), ...settingFields(t) }),
});

const UpdateAssistantInput = builder.inputType("UpdateAssistantInput", {
  description: "Only the fields given change; null clears a nullable field.",
  fields: (t) => ({ name: t.string(), ...settingFields(t) }),
});

builder.mutationField("createAssistant", (t) =>
  t.withAuth({ manager: true }).field({
    type: AssistantRef,
    args: { input: t.arg({ type: CreateAssistantInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.assistants.create(context.viewer, input),
  }),
);

builder.mutationField("updateAssistant", (t) =>
  t.withAuth({ manager: true }).field({
    type: AssistantRef,
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: UpdateAssistantInput, required: true }) },
    resolve: (_root, { id, input }, context) =>
      context.services.assistants.update(
        context.viewer.accountId,
        id,
        input,
        actorOf(context.viewer, context.clientAddress),
      ),
  }),
);

const DeleteAssistantPayload = builder.objectRef<{ deletedId: number }>("DeleteAssistantPayload").implement({
  fields: (t) => ({ deletedId: t.exposeInt("deletedId") }),
});

builder.mutationField("deleteAssistant", (t) =>
  t.withAuth({ manager: true }).field({
    type: DeleteAssistantPayload,
    description: "Soft delete: the assistant leaves lists and gives up its phone number; its calls stay.",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.assistants.delete(context.viewer.accountId, id);
      return { deletedId: id };
    },
  }),
);
