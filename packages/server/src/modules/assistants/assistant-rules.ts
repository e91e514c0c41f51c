import { z } from "zod";
import { ianaTimezone, requiredString } from "../../validation.ts";
import { PII_CATEGORIES } from "../redaction/index.ts";
import { ASSISTANT_MODES } from "../voices/voices.service.ts";

/**
 * Allowed values and ranges of assistant settings, where the spec leaves them open. Durations
 * are whole seconds. docs/assistants-and-telephony.md lists the same table.
 */
export const ASSISTANT_TYPES = ["inbound", "outbound", "web"] as const;
export const ASSISTANT_STATUSES = ["active", "inactive"] as const;
export const ENDPOINT_TYPES = ["vad", "semantic", "silero"] as const;
export const AMBIENT_SOUNDS = ["none", "office", "cafe", "call_center", "street"] as const;
/**
 * How an assistant uses its knowledge base: the best passages for each message in the prompt, found
 * by both rankings (`hybrid`), embeddings (`semantic`) or full text (`keyword`); or (`tool`) a search
 * function the model calls when it decides to.
 */
export const KNOWLEDGEBASE_MODES = ["hybrid", "semantic", "keyword", "tool"] as const;
export const POST_CALL_FIELD_TYPES = ["string", "bool", "number", "integer"] as const;
export const WIDGET_THEMES = ["light", "dark"] as const;
export const WIDGET_POSITIONS = ["bottom-right", "bottom-left"] as const;

const words = (field: string) =>
  field.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`).replaceAll(".", " ");

function oneOf<const Values extends readonly [string, ...string[]]>(field: string, values: Values) {
  return z.enum(values, { error: `The ${words(field)} field must be one of ${values.join(", ")}.` });
}

function wholeNumber(field: string, min: number, max: number) {
  return z
    .number({ error: `The ${words(field)} field must be an integer.` })
    .int(`The ${words(field)} field must be an integer.`)
    .min(min, `The ${words(field)} field must be between ${min} and ${max}.`)
    .max(max, `The ${words(field)} field must be between ${min} and ${max}.`);
}

/** A decimal with at most two places, within a range; kept as a string on its way to the database. */
function decimal(field: string, min: number, max: number) {
  const message = `The ${words(field)} field must be a number between ${min} and ${max} with at most 2 decimals.`;
  return z
    .union([z.string(), z.number()], { error: message })
    .transform((value) => String(value).trim())
    .refine(
      (value) => /^\d+(\.\d{1,2})?$/.test(value) && Number(value) >= min && Number(value) <= max,
      message,
    );
}

function fraction(field: string) {
  return z
    .number({ error: `The ${words(field)} field must be a number.` })
    .min(0, `The ${words(field)} field must be between 0 and 1.`)
    .max(1, `The ${words(field)} field must be between 0 and 1.`);
}

function text(field: string, max: number) {
  return z
    .string({ error: `The ${words(field)} field must be a string.` })
    .max(max, `The ${words(field)} field must not be greater than ${max} characters.`);
}

function optionalId(field: string) {
  return z
    .number({ error: `The ${words(field)} field must be an integer.` })
    .int(`The ${words(field)} field must be an integer.`)
    .positive(`The ${words(field)} field must be a positive integer.`)
    .nullable();
}

function webhookUrl(field: string) {
  return z
    .string({ error: `The ${words(field)} field must be a string.` })
    .max(2048, `The ${words(field)} field must not be greater than 2048 characters.`)
    .refine(
      (value) => /^https?:\/\//.test(value) && URL.canParse(value),
      `The ${words(field)} field must be an http or https URL.`,
    )
    .nullable();
}

const stringList = (field: string) =>
  z
    .array(text(field, 500), { error: `The ${words(field)} field must be an array of strings.` })
    .max(50, `The ${words(field)} field must not have more than 50 items.`);

export const FillerConfig = z
  .object(
    {
      neutral: stringList("fillerConfig.neutral").default([]),
      negative: stringList("fillerConfig.negative").default([]),
      positive: stringList("fillerConfig.positive").default([]),
      question: stringList("fillerConfig.question").default([]),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? "The filler config field accepts only the keys neutral, negative, positive and question."
          : "The filler config field must be an object.",
    },
  )
  .strict();

export const WidgetSettings = z
  .object(
    {
      theme: oneOf("widgetSettings.theme", WIDGET_THEMES).default("light"),
      color: z
        .string({ error: "The widget settings color field must be a string." })
        .regex(
          /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/,
          "The widget settings color field must be a hex colour such as #4f46e5.",
        )
        .default("#4f46e5"),
      position: oneOf("widgetSettings.position", WIDGET_POSITIONS).default("bottom-right"),
      voice: z.boolean({ error: "The widget settings voice field must be true or false." }).default(false),
    },
    {
      error: (issue) =>
        issue.code === "unrecognized_keys"
          ? "The widget settings field accepts only the keys theme, color, position and voice."
          : "The widget settings field must be an object.",
    },
  )
  .strict();

/** Origins a site can have: http or https, a host and an optional port; nothing after it. */
const ORIGIN_MESSAGE =
  "Each allowed origin must be a scheme, host and optional port without a path, such as https://shop.example.";

/** `https://Shop.example:443/` is stored as `https://shop.example`: the form browsers send in Origin. */
const allowedOrigin = z
  .string({ error: ORIGIN_MESSAGE })
  .trim()
  .max(255, "Each allowed origin must not be greater than 255 characters.")
  .transform((value, context) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    const bare =
      url !== null &&
      (url.protocol === "https:" || url.protocol === "http:") &&
      url.username === "" &&
      url.password === "" &&
      url.pathname === "/" &&
      url.search === "" &&
      url.hash === "" &&
      // A URL with an empty query or fragment ("?", "#") parses as if they were absent.
      !/[?#]/.test(value);
    if (!bare) {
      context.addIssue({ code: "custom", message: ORIGIN_MESSAGE });
      return z.NEVER;
    }
    return url.origin;
  });

const PostCallField = z.object(
  {
    name: text("postCallSchema.name", 100).min(1, "The post call schema name field is required."),
    type: oneOf("postCallSchema.type", POST_CALL_FIELD_TYPES),
    description: text("postCallSchema.description", 500).default(""),
  },
  { error: "Each post call schema item must be an object with name, type and description." },
);

/** Every settable field but the name; create and update make them optional and add the name. */
export const AssistantFields = z.object({
  type: oneOf("type", ASSISTANT_TYPES),
  status: oneOf("status", ASSISTANT_STATUSES),
  mode: oneOf("mode", ASSISTANT_MODES),
  phoneNumberId: optionalId("phoneNumberId"),
  voiceId: optionalId("voiceId"),
  knowledgebaseId: optionalId("knowledgebaseId"),
  languageId: optionalId("languageId"),
  engineId: optionalId("engineId"),
  synthesizerId: optionalId("synthesizerId"),
  transcriberId: optionalId("transcriberId"),
  instanceId: optionalId("instanceId"),
  flowsPlatformId: optionalId("flowsPlatformId"),
  transcriberProviderId: optionalId("transcriberProviderId"),
  synthesizerProviderId: optionalId("synthesizerProviderId"),
  llmModelId: optionalId("llmModelId"),
  multimodalModelId: optionalId("multimodalModelId"),
  knowledgebaseMode: oneOf("knowledgebaseMode", KNOWLEDGEBASE_MODES),
  language: text("language", 35).nullable(),
  variables: z
    .record(z.string(), text("variables", 5000), {
      error: "The variables field must be an object of string values.",
    })
    .refine(
      (value) => Object.keys(value).length <= 100,
      "The variables field must not have more than 100 keys.",
    ),
  postCallEvaluation: z.boolean({ error: "The post call evaluation field must be true or false." }),
  postCallSchema: z
    .array(PostCallField, { error: "The post call schema field must be an array." })
    .max(50, "The post call schema field must not have more than 50 items.")
    .superRefine((fields, context) => {
      // The names become the keys of the evaluation and of the JSON schema given to the model.
      const seen = new Set<string>();
      for (const [index, field] of fields.entries()) {
        if (!/^[A-Za-z0-9_-]{1,64}$/.test(field.name)) {
          context.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `The post call schema entry "${field.name}" must be named with at most 64 letters, digits, _ or -.`,
          });
        } else if (seen.has(field.name)) {
          context.addIssue({
            code: "custom",
            path: [index, "name"],
            message: `The post call schema entry "${field.name}" appears more than once.`,
          });
        }
        seen.add(field.name);
      }
    }),
  fillers: wholeNumber("fillers", 0, 10),
  fillerConfig: FillerConfig,
  tools: z
    .array(z.record(z.string(), z.unknown(), { error: "Each tool must be an object." }), {
      error: "The tools field must be an array.",
    })
    .max(50, "The tools field must not have more than 50 items."),
  isWebhookActive: z.boolean({ error: "The is webhook active field must be true or false." }),
  webhookUrl: webhookUrl("webhookUrl"),
  inboundWebhookUrl: webhookUrl("inboundWebhookUrl"),
  sendWebhookOnlyOnCompleted: z.boolean({
    error: "The send webhook only on completed field must be true or false.",
  }),
  includeRecordingInWebhook: z.boolean({
    error: "The include recording in webhook field must be true or false.",
  }),
  maxDuration: wholeNumber("maxDuration", 30, 7200),
  maxSilenceDuration: wholeNumber("maxSilenceDuration", 5, 600),
  reengagementInterval: wholeNumber("reengagementInterval", 5, 300),
  record: z.boolean({ error: "The record field must be true or false." }),
  initialMessage: text("initialMessage", 2000),
  systemPrompt: text("systemPrompt", 20000),
  timezone: ianaTimezone(),
  endCallOnVoicemail: z.boolean({ error: "The end call on voicemail field must be true or false." }),
  llmTemperature: decimal("llmTemperature", 0, 2),
  voiceStability: decimal("voiceStability", 0, 1),
  voiceSimilarity: decimal("voiceSimilarity", 0, 1),
  speechSpeed: decimal("speechSpeed", 0.5, 2),
  ambientSoundVolume: decimal("ambientSoundVolume", 0, 1),
  allowInterruptions: z.boolean({ error: "The allow interruptions field must be true or false." }),
  enableNoiseCancellation: z.boolean({ error: "The enable noise cancellation field must be true or false." }),
  waitForCustomer: z.boolean({ error: "The wait for customer field must be true or false." }),
  endpointSensitivity: fraction("endpointSensitivity"),
  interruptSensitivity: fraction("interruptSensitivity"),
  endpointType: oneOf("endpointType", ENDPOINT_TYPES),
  ambientSound: oneOf("ambientSound", AMBIENT_SOUNDS),
  minInterruptWords: wholeNumber("minInterruptWords", 1, 10),
  widgetSettings: WidgetSettings,
  /** Empty (or null) lets every website use the assistant's public widget API. */
  allowedOrigins: z
    .array(allowedOrigin, { error: "The allowed origins field must be an array of strings." })
    .max(50, "The allowed origins field must not have more than 50 items.")
    .nullable()
    .transform((origins) => [...new Set(origins ?? [])]),
  /** The appointment types its calendar functions book (docs/calendars.md#functions); null clears. */
  appointmentTypeIds: z
    .array(z.number().int(), { error: "The appointment type ids field must be an array of integers." })
    .max(20, "The appointment type ids field must not have more than 20 items.")
    .nullable()
    .transform((ids) => [...new Set(ids ?? [])]),
  /** What is redacted from stored and sent-on content (docs/data-governance.md#pii-redaction); null clears. */
  redactPii: z
    .array(z.enum(PII_CATEGORIES), {
      error: `The redact pii field must be an array of: ${PII_CATEGORIES.join(", ")}.`,
    })
    .nullable()
    .transform((categories) => [...new Set(categories ?? [])]),
  redactRecordings: z.boolean({ error: "The redact recordings field must be true or false." }),
});

export const CreateAssistantInput = AssistantFields.partial().extend({ name: requiredString("name") });
export const UpdateAssistantInput = AssistantFields.partial().extend({
  name: requiredString("name").optional(),
});

export type AssistantSettings = z.output<typeof UpdateAssistantInput>;

/**
 * What a new assistant gets for each setting createAssistant leaves out: the one source of these
 * defaults, used by create and shown before creating by the `assistantDefaults` query (the console's
 * new-assistant form). The database's column defaults say the same (assistants.test.ts compares).
 */
export const ASSISTANT_DEFAULTS = {
  type: "inbound",
  status: "active",
  mode: "pipeline",
  knowledgebaseMode: "hybrid",
  variables: {},
  postCallEvaluation: false,
  postCallSchema: [],
  fillers: 0,
  fillerConfig: { neutral: [], negative: [], positive: [], question: [] },
  tools: [],
  isWebhookActive: false,
  sendWebhookOnlyOnCompleted: false,
  includeRecordingInWebhook: false,
  maxDuration: 600,
  maxSilenceDuration: 30,
  reengagementInterval: 10,
  record: false,
  initialMessage: "",
  systemPrompt: "",
  timezone: "UTC",
  endCallOnVoicemail: false,
  llmTemperature: "0.70",
  voiceStability: "0.50",
  voiceSimilarity: "0.75",
  speechSpeed: "1.00",
  ambientSoundVolume: "0.50",
  allowInterruptions: true,
  enableNoiseCancellation: false,
  waitForCustomer: false,
  endpointSensitivity: 0.5,
  interruptSensitivity: 0.5,
  endpointType: "vad",
  ambientSound: "none",
  minInterruptWords: 1,
  widgetSettings: { theme: "light", color: "#4f46e5", position: "bottom-right", voice: false },
  allowedOrigins: [],
} as const satisfies Partial<z.infer<typeof AssistantFields>>;
