// Email of invitation and reset links through an SMTP server (docs/operations.md#email).
import { z } from "zod";
import { emptyAsUndefined, positiveInt } from "./validators.ts";

/** A mail server, its credentials (if any) in the URL: smtps:// is TLS from the start, smtp:// upgrades by STARTTLS. */
const smtpUrl = z.string().refine((value) => /^smtps?:\/\/[^/?#]/.test(value) && URL.canParse(value), {
  message: "must be an smtp:// or smtps:// URL, e.g. smtps://user:password@mail.example.com",
});

/** `address` or `Name <address>` on one line (it becomes the From header). */
const mailFrom = z
  .string()
  .trim()
  .regex(
    /^(?:[^\r\n<>@]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
    "must be an address or Name <address> on one line, e.g. Voxgate <voxgate@example.com>",
  );

export const mailEnv = z.object({
  VOXGATE_SMTP_URL: z.preprocess(emptyAsUndefined, smtpUrl.optional()),
  VOXGATE_MAIL_FROM: z.preprocess(emptyAsUndefined, mailFrom.optional()),
  VOXGATE_SMTP_TIMEOUT_SECONDS: positiveInt.max(300, "must be at most 300").default(20),
  VOXGATE_MAIL_RATE_LIMIT_PER_HOUR: positiveInt.max(10_000, "must be at most 10000").default(30),
});

/** The SMTP URL carries the server's password. */
export const mailSecretVariables = ["VOXGATE_SMTP_URL"];

type MailEnv = z.output<typeof mailEnv>;

export function checkMailEnv(env: MailEnv, context: z.RefinementCtx): void {
  if (env.VOXGATE_SMTP_URL && !env.VOXGATE_MAIL_FROM) {
    context.addIssue({
      code: "custom",
      path: ["VOXGATE_MAIL_FROM"],
      message: "is required when VOXGATE_SMTP_URL is set",
    });
  }
}

export interface MailConfig {
  /** smtp:// or smtps:// with credentials: a secret, never logged. */
  smtpUrl: string;
  from: string;
  /** Connecting, the server's greeting and each exchange with it must take no longer than this. */
  timeoutMs: number;
  /** Emails one account may have sent per hour (invitations, resends and reset links together). */
  perAccountPerHour: number;
}

export interface MailSettings {
  /**
   * Email of invitation and reset links through an SMTP server (docs/operations.md#email); null: links
   * are only shown in the console, as without any mail server.
   */
  mail: MailConfig | null;
}

export function mailSettings(env: MailEnv): MailSettings {
  return {
    mail:
      env.VOXGATE_SMTP_URL && env.VOXGATE_MAIL_FROM
        ? {
            smtpUrl: env.VOXGATE_SMTP_URL,
            from: env.VOXGATE_MAIL_FROM,
            timeoutMs: env.VOXGATE_SMTP_TIMEOUT_SECONDS * 1000,
            perAccountPerHour: env.VOXGATE_MAIL_RATE_LIMIT_PER_HOUR,
          }
        : null,
  };
}
