// Phone calls and texts: the carrier (simulated or Twilio), their prices and clocks, and the campaign dialer.
import { z } from "zod";
import { emptyAsUndefined, httpUrl, moneyString, positiveInt, withoutTrailingSlash } from "./validators.ts";

export const telephonyEnv = z.object({
  VOXGATE_DIALER_SWEEP_MS: positiveInt
    .min(10, "must be at least 10")
    .max(3_600_000, "must be at most 3600000 (one hour)")
    .default(5_000),
  VOXGATE_TELEPHONY: z
    .enum(["simulated", "twilio"], { error: "must be simulated or twilio" })
    .default("simulated"),
  VOXGATE_CALL_PRICE_PER_MINUTE: moneyString.default("0.10"),
  VOXGATE_SMS_PRICE_PER_SEGMENT: moneyString.default("0.01"),
  VOXGATE_TEXT_SWEEP_MS: positiveInt
    .min(10, "must be at least 10")
    .max(3_600_000, "must be at most 3600000 (one hour)")
    .default(30_000),
  VOXGATE_MAX_CONCURRENT_CALLS: positiveInt.max(10_000, "must be at most 10000").default(10),
  VOXGATE_CALL_CLOCK_SPEED: z.coerce
    .number({ error: "must be a number" })
    .min(1, "must be at least 1")
    .max(1000, "must be at most 1000")
    .default(1),
  TWILIO_ACCOUNT_SID: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^AC[0-9a-fA-F]{32}$/, "must be AC followed by 32 hex digits")
      .optional(),
  ),
  TWILIO_AUTH_TOKEN: z.preprocess(emptyAsUndefined, z.string().min(1).optional()),
  TWILIO_API_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
});

type TelephonyEnv = z.output<typeof telephonyEnv>;

export function checkTelephonyEnv(env: TelephonyEnv, context: z.RefinementCtx): void {
  if (env.VOXGATE_TELEPHONY !== "twilio") return;
  for (const name of ["TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN"] as const) {
    if (!env[name])
      context.addIssue({
        code: "custom",
        path: [name],
        message: "is required when VOXGATE_TELEPHONY=twilio",
      });
  }
  if (env.VOXGATE_CALL_CLOCK_SPEED !== 1) {
    context.addIssue({
      code: "custom",
      path: ["VOXGATE_CALL_CLOCK_SPEED"],
      message: "must be 1 with a real carrier (it speeds up simulated calls only)",
    });
  }
}

export interface TelephonyConfig {
  /** The carrier of phone calls and numbers: the built-in simulation, or Twilio. */
  provider: "simulated" | "twilio";
  /** Charged per started minute of an answered call; one minute is reserved when a call starts. */
  pricePerMinute: string;
  /** Charged per segment of an outbound text (docs/sms.md). */
  smsPricePerSegment: string;
  /** How often the sweep sends texts that came due or were left queued (docs/sms.md). */
  textSweepIntervalMs: number;
  /** Phone calls an account may have running (not yet ended) at once. */
  maxConcurrentCalls: number;
  /**
   * How much faster than real time call clocks run (ringing, conversation, billing minutes,
   * max duration): tests and demos of the simulated carrier use more than 1; a real carrier needs 1.
   */
  clockSpeed: number;
  /** Set when the provider is Twilio. `apiBaseUrl` replaces https://api.twilio.com (a local fake in tests). */
  twilio: { accountSid: string; authToken: string; apiBaseUrl: string | undefined } | null;
}

export interface TelephonySettings {
  telephony: TelephonyConfig;
  /**
   * The campaign dialer: how often each instance looks for leads that came due (retry times, a
   * calling window that opened) and repairs leads a crash left behind. A finished call triggers
   * the next dial at once; this bounds the wait for everything else.
   */
  dialer: { sweepIntervalMs: number };
}

export function telephonySettings(env: TelephonyEnv): TelephonySettings {
  return {
    telephony: {
      provider: env.VOXGATE_TELEPHONY,
      pricePerMinute: env.VOXGATE_CALL_PRICE_PER_MINUTE,
      smsPricePerSegment: env.VOXGATE_SMS_PRICE_PER_SEGMENT,
      textSweepIntervalMs: env.VOXGATE_TEXT_SWEEP_MS,
      maxConcurrentCalls: env.VOXGATE_MAX_CONCURRENT_CALLS,
      clockSpeed: env.VOXGATE_CALL_CLOCK_SPEED,
      twilio:
        env.VOXGATE_TELEPHONY === "twilio" && env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN
          ? {
              accountSid: env.TWILIO_ACCOUNT_SID,
              authToken: env.TWILIO_AUTH_TOKEN,
              apiBaseUrl: env.TWILIO_API_BASE_URL && withoutTrailingSlash(env.TWILIO_API_BASE_URL),
            }
          : null,
    },
    dialer: { sweepIntervalMs: env.VOXGATE_DIALER_SWEEP_MS },
  };
}
