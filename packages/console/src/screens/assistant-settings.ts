import type { ConsoleAssistantDefaultsQuery, ConsoleAssistantQuery } from "../generated/graphql.ts";
import { type FormErrors, noErrors } from "../screen.ts";

type Kind =
  | "text"
  | "textarea"
  | "int"
  | "float"
  | "decimal"
  | "bool"
  | "json"
  | "lines"
  | "color"
  | { options: string[] }
  /** Several of these may be ticked: the value is the list of those ticked. */
  | { choices: { value: string; label: string }[] };

export interface Field {
  key: string;
  label: string;
  kind: Kind;
  hint?: string;
}

export type Values = Record<string, unknown>;

/** Settings grouped the way a person thinks about an assistant, not the way the API lists them. */
export const GROUPS: { title: string; fields: Field[] }[] = [
  {
    title: "Prompt and greeting",
    fields: [
      { key: "name", label: "Name", kind: "text" },
      { key: "type", label: "Handles", kind: { options: ["inbound", "outbound", "web"] } },
      { key: "status", label: "Status", kind: { options: ["active", "inactive"] } },
      { key: "systemPrompt", label: "System prompt", kind: "textarea" },
      {
        key: "initialMessage",
        label: "Greeting",
        kind: "text",
        hint: "The first message of every chat and call.",
      },
      { key: "language", label: "Language code", kind: "text", hint: "e.g. en-US" },
      { key: "timezone", label: "Time zone", kind: "text", hint: "IANA, e.g. Europe/Paris" },
      { key: "llmTemperature", label: "Temperature", kind: "decimal" },
    ],
  },
  {
    title: "Voice and speech",
    fields: [
      { key: "mode", label: "Engine", kind: { options: ["pipeline", "multimodal", "dualplex"] } },
      { key: "voiceId", label: "Voice", kind: "int" },
      { key: "speechSpeed", label: "Speech speed", kind: "decimal" },
      { key: "voiceStability", label: "Voice stability", kind: "decimal" },
      { key: "voiceSimilarity", label: "Voice similarity", kind: "decimal" },
      {
        key: "ambientSound",
        label: "Ambient sound",
        kind: { options: ["none", "office", "cafe", "street", "call_center"] },
      },
      { key: "ambientSoundVolume", label: "Ambient volume", kind: "decimal" },
      { key: "enableNoiseCancellation", label: "Noise cancellation", kind: "bool" },
    ],
  },
  {
    title: "Call behaviour",
    fields: [
      { key: "maxDuration", label: "Maximum duration (seconds)", kind: "int" },
      { key: "maxSilenceDuration", label: "Maximum silence (seconds)", kind: "int" },
      { key: "waitForCustomer", label: "Wait for the customer to speak first", kind: "bool" },
      { key: "allowInterruptions", label: "Allow interruptions", kind: "bool" },
      { key: "interruptSensitivity", label: "Interruption sensitivity", kind: "float" },
      { key: "minInterruptWords", label: "Words before an interruption", kind: "int" },
      {
        key: "endpointType",
        label: "End of turn detection",
        kind: { options: ["vad", "silero", "semantic"] },
      },
      { key: "endpointSensitivity", label: "End of turn sensitivity", kind: "float" },
      { key: "reengagementInterval", label: "Re-engage after (seconds)", kind: "int" },
      { key: "endCallOnVoicemail", label: "Hang up on voicemail", kind: "bool" },
      { key: "record", label: "Record calls", kind: "bool" },
      { key: "phoneNumberId", label: "Phone number", kind: "int" },
    ],
  },
  {
    title: "Knowledge and tools",
    fields: [
      { key: "knowledgebaseId", label: "Knowledge base", kind: "int" },
      {
        key: "knowledgebaseMode",
        label: "Knowledge mode",
        kind: { options: ["hybrid", "semantic", "keyword", "tool"] },
      },
      { key: "tools", label: "Tools (JSON)", kind: "json" },
      { key: "variables", label: "Variables (JSON)", kind: "json" },
    ],
  },
  {
    title: "Post-call evaluation",
    fields: [
      { key: "postCallEvaluation", label: "Evaluate calls", kind: "bool" },
      { key: "postCallSchema", label: "Evaluation schema (JSON)", kind: "json" },
    ],
  },
  {
    title: "Webhooks",
    fields: [
      { key: "webhookUrl", label: "Call webhook URL", kind: "text" },
      { key: "isWebhookActive", label: "Send the call webhook", kind: "bool" },
      { key: "sendWebhookOnlyOnCompleted", label: "Only for completed calls", kind: "bool" },
      { key: "includeRecordingInWebhook", label: "Include the recording", kind: "bool" },
      { key: "inboundWebhookUrl", label: "Inbound webhook URL", kind: "text" },
    ],
  },
  {
    title: "Widget",
    fields: [
      { key: "widgetSettings.theme", label: "Theme", kind: { options: ["light", "dark"] } },
      { key: "widgetSettings.color", label: "Colour", kind: "color" },
      {
        key: "widgetSettings.position",
        label: "Position",
        kind: { options: ["bottom-right", "bottom-left"] },
      },
      { key: "widgetSettings.voice", label: "Calls from the widget (voice)", kind: "bool" },
      {
        key: "allowedOrigins",
        label: "Allowed websites",
        kind: "lines",
        hint: "One origin a line, e.g. https://shop.example; empty allows any.",
      },
    ],
  },
  {
    title: "Privacy",
    fields: [
      {
        key: "redactPii",
        label: "Redact from transcripts, messages and webhooks",
        kind: {
          choices: [
            { value: "card_number", label: "Card numbers" },
            { value: "bank_account", label: "Bank accounts and IBANs" },
            { value: "national_id", label: "National identifiers" },
            { value: "email", label: "Email addresses" },
            { value: "phone_number", label: "Phone numbers" },
            { value: "date_of_birth", label: "Dates of birth" },
            { value: "street_address", label: "Street addresses" },
          ],
        },
        hint: "The assistant still hears them during the conversation; what is stored and sent on shows [card number], [email], ...",
      },
      { key: "redactRecordings", label: "Silence redacted turns in recordings", kind: "bool" },
    ],
  },
];

/** Optional settings that an empty control clears (null); other empty controls keep the current value. */
const CLEARABLE = new Set([
  "voiceId",
  "knowledgebaseId",
  "phoneNumberId",
  "webhookUrl",
  "inboundWebhookUrl",
  "language",
]);

export function flatten(
  assistant: ConsoleAssistantQuery["assistant"] | ConsoleAssistantDefaultsQuery["assistantDefaults"],
): Values {
  const values: Values = { ...assistant };
  const widget = (assistant.widgetSettings ?? {}) as Record<string, unknown>;
  for (const key of ["theme", "color", "position", "voice"]) values[`widgetSettings.${key}`] = widget[key];
  return values;
}

/**
 * The settings form's values as the API's input: numbers, booleans and JSON parsed, empty optional text
 * null (on an `existing` assistant; a new one leaves it out). `local` holds what the form refuses itself.
 */
export function settingsInput(
  form: HTMLFormElement,
  existing: boolean,
): { input: Values; local: FormErrors } {
  const input: Values = {};
  const local: Record<string, string[]> = {};
  const widget: Record<string, unknown> = {};
  for (const group of GROUPS) {
    for (const field of group.fields) {
      if (typeof field.kind === "object" && "choices" in field.kind) {
        input[field.key] = new FormData(form).getAll(field.key);
        continue;
      }
      const control = form.elements.namedItem(field.key) as HTMLInputElement | null;
      if (!control) continue;
      const raw = control.value;
      let value: unknown = raw;
      if (field.kind === "bool") value = control.checked;
      else if (field.kind === "int" || field.kind === "float") {
        value = raw.trim() === "" ? (existing && CLEARABLE.has(field.key) ? null : undefined) : Number(raw);
        if (typeof value === "number" && Number.isNaN(value))
          local[field.key] = [`The ${field.label.toLowerCase()} must be a number.`];
      } else if (field.kind === "decimal") value = raw.trim() === "" ? undefined : raw.trim();
      else if (field.kind === "json") {
        try {
          value = raw.trim() === "" ? undefined : JSON.parse(raw);
        } catch {
          local[field.key] = [`The ${field.label.replace(" (JSON)", "").toLowerCase()} must be valid JSON.`];
        }
      } else if (field.kind === "lines")
        value = raw
          .split("\n")
          .map((line) => line.trim())
          .filter(Boolean);
      // An emptied optional link is cleared on an existing assistant, and simply left out of a new one.
      else if (raw === "" && !["name", "systemPrompt", "initialMessage"].includes(field.key))
        value = existing && CLEARABLE.has(field.key) ? null : undefined;
      if (field.key.startsWith("widgetSettings.")) widget[field.key.slice("widgetSettings.".length)] = value;
      else if (value !== undefined) input[field.key] = value;
    }
  }
  input.widgetSettings = widget;
  return {
    input,
    local: Object.keys(local).length ? { fields: local, message: "Some fields need attention." } : noErrors,
  };
}

/** What a save sent, in the form's flat keys, to show as the assistant's values. */
export function flattenInput(input: Values): Values {
  const values: Values = { ...input };
  for (const [key, value] of Object.entries((input.widgetSettings ?? {}) as Values))
    values[`widgetSettings.${key}`] = value;
  return values;
}
