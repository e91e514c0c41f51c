// Who gets in and how often: sessions, the credential cache, the login throttle, per-minute rate limits.
import { z } from "zod";
import { cacheSeconds, positiveInt } from "./validators.ts";

export const accessEnv = z.object({
  SESSION_TTL_HOURS: positiveInt.default(24 * 7),
  VOXGATE_CREDENTIAL_CACHE_SECONDS: cacheSeconds,
  VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE: positiveInt.default(5),
  VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: positiveInt.default(30),
  VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: positiveInt.default(10),
  VOXGATE_LOGIN_FAILURES_PER_EMAIL: positiveInt.default(10),
  VOXGATE_LOGIN_FAILURES_PER_ADDRESS: positiveInt.default(100),
  VOXGATE_LOGIN_WINDOW_SECONDS: positiveInt.max(86_400, "must be at most 86400 (one day)").default(900),
  VOXGATE_TEST_WEBHOOK_RATE_LIMIT_PER_MINUTE: positiveInt.default(10),
  VOXGATE_EVALUATION_RATE_LIMIT_PER_MINUTE: positiveInt.default(10),
});

export interface AccessSettings {
  sessionTtlHours: number;
  /**
   * How long a successful authentication is reused without asking the database; 0 turns the cache
   * off. Revocations reach every instance's cache at once, so this only bounds staleness for changes
   * that announce nothing.
   */
  credentialCacheSeconds: number;
  /**
   * Requests per minute: generate-reply per API token; widget requests per client IP; widget
   * messages per conversation.
   */
  rateLimits: {
    replyPerMinute: number;
    widgetPerMinute: number;
    conversationPerMinute: number;
    /** sendTestWebhook and evaluateConversation, per account. */
    testWebhookPerMinute: number;
    evaluationPerMinute: number;
  };
  /**
   * Failed logins allowed per email and per client address within a fixed window; beyond either,
   * logins answer RATE_LIMITED until the window ends. A successful login clears its email's count.
   */
  loginThrottle: { failuresPerEmail: number; failuresPerAddress: number; windowSeconds: number };
}

export function accessSettings(env: z.output<typeof accessEnv>): AccessSettings {
  return {
    sessionTtlHours: env.SESSION_TTL_HOURS,
    credentialCacheSeconds: env.VOXGATE_CREDENTIAL_CACHE_SECONDS,
    rateLimits: {
      replyPerMinute: env.VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE,
      widgetPerMinute: env.VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE,
      conversationPerMinute: env.VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE,
      testWebhookPerMinute: env.VOXGATE_TEST_WEBHOOK_RATE_LIMIT_PER_MINUTE,
      evaluationPerMinute: env.VOXGATE_EVALUATION_RATE_LIMIT_PER_MINUTE,
    },
    loginThrottle: {
      failuresPerEmail: env.VOXGATE_LOGIN_FAILURES_PER_EMAIL,
      failuresPerAddress: env.VOXGATE_LOGIN_FAILURES_PER_ADDRESS,
      windowSeconds: env.VOXGATE_LOGIN_WINDOW_SECONDS,
    },
  };
}
