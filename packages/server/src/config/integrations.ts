// The outside services accounts connect: webhooks they are sent, and the calendars they link.
import { z } from "zod";
import { emptyAsUndefined, httpUrl, positiveInt, withoutTrailingSlash } from "./validators.ts";

export const integrationsEnv = z.object({
  VOXGATE_WEBHOOK_TIMEOUT_MS: positiveInt.max(60_000, "must be at most 60000").default(10_000),
  VOXGATE_WEBHOOK_RETRY_BASE_MS: positiveInt.max(3_600_000, "must be at most 3600000").default(10_000),
  VOXGATE_WEBHOOK_RETRY_MAX_DELAY_MS: positiveInt
    .max(86_400_000, "must be at most 86400000")
    .default(14_400_000),
  VOXGATE_WEBHOOK_MAX_ATTEMPTS: positiveInt.max(50, "must be at most 50").default(17),
  VOXGATE_WEBHOOK_CONCURRENCY: positiveInt.max(256, "must be at most 256").default(16),
  VOXGATE_WEBHOOK_ACCOUNT_CONCURRENCY: positiveInt.max(64, "must be at most 64").default(4),
  VOXGATE_INBOUND_WEBHOOK_TIMEOUT_MS: positiveInt.max(10_000, "must be at most 10000").default(3_000),
  VOXGATE_WEBHOOK_LOG_RETENTION_DAYS: positiveInt.max(3650, "must be at most 3650").default(30),
  VOXGATE_CALENDAR_TIMEOUT_MS: positiveInt.max(60_000, "must be at most 60000").default(10_000),
  VOXGATE_GOOGLE_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  VOXGATE_GOOGLE_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  VOXGATE_GOOGLE_AUTH_URL: z.preprocess(
    emptyAsUndefined,
    httpUrl.default("https://accounts.google.com/o/oauth2/v2/auth"),
  ),
  VOXGATE_GOOGLE_TOKEN_URL: z.preprocess(
    emptyAsUndefined,
    httpUrl.default("https://oauth2.googleapis.com/token"),
  ),
  VOXGATE_GOOGLE_API_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.default("https://www.googleapis.com")),
  VOXGATE_MICROSOFT_CLIENT_ID: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  VOXGATE_MICROSOFT_CLIENT_SECRET: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  VOXGATE_MICROSOFT_AUTHORITY_URL: z.preprocess(
    emptyAsUndefined,
    httpUrl.default("https://login.microsoftonline.com/common/oauth2/v2.0"),
  ),
  VOXGATE_MICROSOFT_GRAPH_BASE_URL: z.preprocess(
    emptyAsUndefined,
    httpUrl.default("https://graph.microsoft.com/v1.0"),
  ),
  VOXGATE_CALCOM_API_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.default("https://api.cal.com")),
});

/** OAuth client secrets never reach a log, not even a malformed one. */
export const integrationsSecretVariables = [
  "VOXGATE_GOOGLE_CLIENT_SECRET",
  "VOXGATE_MICROSOFT_CLIENT_SECRET",
];

export interface IntegrationsSettings {
  /**
   * Delivery of webhooks (docs/webhooks.md): the time one attempt may take, the retry schedule
   * (exponential from `retryBaseMs`, each delay at most `retryMaxDelayMs`, with jitter; about a day
   * with the defaults), how many deliveries run at once in this instance and per account, and the
   * time the inbound webhook has to answer before a call is answered with the assistant's defaults.
   */
  webhooks: {
    timeoutMs: number;
    retryBaseMs: number;
    retryMaxDelayMs: number;
    maxAttempts: number;
    concurrency: number;
    accountConcurrency: number;
    inboundTimeoutMs: number;
    /** Delivered and failed events (and their attempts) older than this are deleted from the log. */
    logRetentionDays: number;
  };
  /**
   * Calendar providers (docs/calendars.md): one request may take `timeoutMs`; Google and Microsoft
   * connect through the server's OAuth client (null without its id and secret); base URLs point
   * tests at local stand-ins.
   */
  calendars: {
    timeoutMs: number;
    google: {
      client: { id: string; secret: string } | null;
      authUrl: string;
      tokenUrl: string;
      apiBaseUrl: string;
    };
    microsoft: { client: { id: string; secret: string } | null; authorityUrl: string; graphBaseUrl: string };
    calcomApiBaseUrl: string;
  };
}

/** An OAuth client is configured by both its id and its secret, or not at all. */
function oauthClient(
  id: string | undefined,
  secret: string | undefined,
): { id: string; secret: string } | null {
  return id && secret ? { id, secret } : null;
}

export function integrationsSettings(env: z.output<typeof integrationsEnv>): IntegrationsSettings {
  return {
    webhooks: {
      timeoutMs: env.VOXGATE_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: env.VOXGATE_WEBHOOK_RETRY_BASE_MS,
      retryMaxDelayMs: env.VOXGATE_WEBHOOK_RETRY_MAX_DELAY_MS,
      maxAttempts: env.VOXGATE_WEBHOOK_MAX_ATTEMPTS,
      concurrency: env.VOXGATE_WEBHOOK_CONCURRENCY,
      accountConcurrency: env.VOXGATE_WEBHOOK_ACCOUNT_CONCURRENCY,
      inboundTimeoutMs: env.VOXGATE_INBOUND_WEBHOOK_TIMEOUT_MS,
      logRetentionDays: env.VOXGATE_WEBHOOK_LOG_RETENTION_DAYS,
    },
    calendars: {
      timeoutMs: env.VOXGATE_CALENDAR_TIMEOUT_MS,
      google: {
        client: oauthClient(env.VOXGATE_GOOGLE_CLIENT_ID, env.VOXGATE_GOOGLE_CLIENT_SECRET),
        authUrl: env.VOXGATE_GOOGLE_AUTH_URL,
        tokenUrl: env.VOXGATE_GOOGLE_TOKEN_URL,
        apiBaseUrl: withoutTrailingSlash(env.VOXGATE_GOOGLE_API_BASE_URL),
      },
      microsoft: {
        client: oauthClient(env.VOXGATE_MICROSOFT_CLIENT_ID, env.VOXGATE_MICROSOFT_CLIENT_SECRET),
        authorityUrl: withoutTrailingSlash(env.VOXGATE_MICROSOFT_AUTHORITY_URL),
        graphBaseUrl: withoutTrailingSlash(env.VOXGATE_MICROSOFT_GRAPH_BASE_URL),
      },
      calcomApiBaseUrl: withoutTrailingSlash(env.VOXGATE_CALCOM_API_BASE_URL),
    },
  };
}
