// The only reader of process.env. It composes config/*.ts, one file per area: its variables, the checks
// across them and its slice of Config (config/, not env/: those files are given values, they read none).
import { z } from "zod";
import { type AccessSettings, accessEnv, accessSettings } from "./config/access.ts";
import { type BillingSettings, billingEnv, billingSettings, checkBillingEnv } from "./config/billing.ts";
import {
  type IntegrationsSettings,
  integrationsEnv,
  integrationsSecretVariables,
  integrationsSettings,
} from "./config/integrations.ts";
import {
  checkMailEnv,
  type MailSettings,
  mailEnv,
  mailSecretVariables,
  mailSettings,
} from "./config/mail.ts";
import { type ModelsSettings, modelsEnv, modelsSettings } from "./config/models.ts";
import { checkServerEnv, type ServerSettings, serverEnv, serverSettings } from "./config/server.ts";
import {
  type StorageSettings,
  storageEnv,
  storageSecretVariables,
  storageSettings,
} from "./config/storage.ts";
import {
  checkTelephonyEnv,
  type TelephonySettings,
  telephonyEnv,
  telephonySettings,
} from "./config/telephony.ts";
import { checkVoiceEnv, type VoiceSettings, voiceEnv, voiceSettings } from "./config/voice.ts";

export type { MailConfig } from "./config/mail.ts";
export type { ConnectionLimits } from "./config/server.ts";
export {
  DEFAULT_PGLITE_RECYCLE_MB,
  DEFAULT_PGLITE_SHARED_BUFFERS,
  type PgliteTuning,
} from "./config/storage.ts";
export type { TelephonyConfig } from "./config/telephony.ts";
export type { VoiceConfig } from "./config/voice.ts";

/**
 * Every variable, area by area: a configuration's problems are listed in this order, those of single
 * variables first, then those across variables (checked only once each variable is valid).
 */
const EnvSchema = z
  .object({
    ...serverEnv.shape,
    ...storageEnv.shape,
    ...modelsEnv.shape,
    ...accessEnv.shape,
    ...voiceEnv.shape,
    ...billingEnv.shape,
    ...telephonyEnv.shape,
    ...integrationsEnv.shape,
    ...mailEnv.shape,
  })
  .superRefine((env, context) => {
    checkServerEnv(env, context);
    checkBillingEnv(env, context);
    checkMailEnv(env, context);
    checkVoiceEnv(env, context);
    checkTelephonyEnv(env, context);
  });

export type EnvInput = Partial<Record<keyof z.input<typeof EnvSchema>, string>>;

/** Validated configuration. Only this module reads `process.env`. */
export interface Config
  extends ServerSettings,
    StorageSettings,
    ModelsSettings,
    AccessSettings,
    VoiceSettings,
    BillingSettings,
    TelephonySettings,
    IntegrationsSettings,
    MailSettings {}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/** Parses a set of variables (defaults to `process.env`) into a typed config, naming every bad variable. */
export function loadConfig(source: EnvInput | NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (issue) =>
          `${issue.path.join(".")}: ${issue.message} (got ${describeValue(
            String(issue.path[0]),
            (source as Record<string, unknown>)[String(issue.path[0])],
          )})`,
      ),
    );
  }
  const env = parsed.data;
  return {
    ...serverSettings(env),
    ...storageSettings(env),
    ...modelsSettings(env),
    ...accessSettings(env),
    ...voiceSettings(env),
    ...billingSettings(env),
    ...telephonySettings(env),
    ...integrationsSettings(env),
    ...mailSettings(env),
  };
}

/** Keys never reach a log, not even a malformed one (it may be a real key cut short). */
const SECRET_VARIABLES = new Set([
  ...storageSecretVariables,
  ...integrationsSecretVariables,
  ...mailSecretVariables,
]);

function describeValue(name: string, value: unknown): string {
  if (SECRET_VARIABLES.has(name) && typeof value === "string") return `${value.length} characters, not shown`;
  return JSON.stringify(value);
}

/**
 * What `voxgate test` (a client of a running server, e.g. in an owner's CI) reads of its environment:
 * the server's base URL and an API key. The key is never a command-line argument: those show in
 * process lists and CI logs.
 */
export function testClientEnv(source: Record<string, string | undefined> = process.env): {
  url: string | null;
  apiKey: string | null;
} {
  const read = (name: string) => {
    const value = source[name]?.trim();
    return value ? value : null;
  };
  return { url: read("VOXGATE_URL"), apiKey: read("VOXGATE_API_KEY") };
}
