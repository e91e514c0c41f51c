import { createTransport } from "nodemailer";
import type { MailConfig } from "../../env.ts";

/** One email: plain text and the same in simple HTML, to one recipient. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Where email goes. The SMTP server of VOXGATE_SMTP_URL in a deployment; another implementation (an
 * HTTP mail API) is one class. `send` settles within the configured timeout and, on failure, rejects
 * with a MailDeliveryError whose message is safe to store and show (no credentials).
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export class MailDeliveryError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MailDeliveryError";
  }
}

/**
 * SMTP through nodemailer, one connection per message (invitations are few). Every stage, from DNS to
 * the server's last answer, is bounded by the timeout, and so is the whole send.
 */
export class SmtpMailer implements Mailer {
  private readonly transport;
  private readonly secrets: string[];

  constructor(private readonly config: MailConfig) {
    const url = new URL(config.smtpUrl);
    this.secrets = [url.password, decodeURIComponent(url.password)].filter((secret) => secret.length >= 3);
    const timeout = config.timeoutMs;
    this.transport = createTransport(
      {
        url: config.smtpUrl,
        connectionTimeout: timeout,
        greetingTimeout: timeout,
        socketTimeout: timeout,
        dnsTimeout: timeout,
        // Never into a log: the transport's own logger would write the exchange, credentials included.
        logger: false,
        debug: false,
      },
      { from: config.from },
    );
  }

  async send(message: MailMessage): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(
        () => reject(new MailDeliveryError(this.timedOut())),
        // The stages' own timeouts usually fire first; this bounds a server that answers slowly at each.
        this.config.timeoutMs * 2,
      );
    });
    try {
      await Promise.race([
        this.transport.sendMail({
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          // The contents are ours: nothing is read from a file or fetched from a URL into the message.
          disableUrlAccess: true,
          disableFileAccess: true,
        }),
        deadline,
      ]);
    } catch (error) {
      if (error instanceof MailDeliveryError) throw error;
      throw new MailDeliveryError(this.describe(error));
    } finally {
      clearTimeout(timer);
    }
  }

  private timedOut(): string {
    return `The mail server did not answer within ${Math.round(this.config.timeoutMs / 1000)} s.`;
  }

  /** A sentence about nodemailer's failure without the URL's password (servers sometimes echo input). */
  private describe(error: unknown): string {
    const { code, responseCode, response } = (error ?? {}) as {
      code?: string;
      responseCode?: number;
      response?: string;
    };
    const reply = typeof response === "string" ? ` (${this.clean(response)})` : "";
    switch (code) {
      case "EAUTH":
        return `The mail server refused the sign-in${reply}: check the user and password of VOXGATE_SMTP_URL.`;
      case "EENVELOPE":
        return `The mail server refused the sender or the recipient${reply}.`;
      case "EMESSAGE":
        return `The mail server refused the message${reply}.`;
      case "ETIMEDOUT":
        return this.timedOut();
      case "ETLS":
        return "The TLS connection to the mail server failed (its certificate, or STARTTLS).";
      case "EDNS":
      case "ECONNECTION":
      case "ESOCKET":
        return `The mail server could not be reached (${code}).`;
      default:
        return `The email could not be sent${responseCode ? ` (${responseCode})` : code ? ` (${code})` : ""}.`;
    }
  }

  private clean(text: string): string {
    let cleaned = text.replace(/[^\x20-\x7e]+/g, " ").trim();
    for (const secret of this.secrets) cleaned = cleaned.split(secret).join("…");
    return cleaned.length > 200 ? `${cleaned.slice(0, 199)}…` : cleaned;
  }
}
