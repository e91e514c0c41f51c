/** Outgoing email: the Mailer interface and its SMTP implementation (docs/operations.md#email). */
export { MailDeliveryError, type Mailer, type MailMessage, SmtpMailer } from "./mailer.ts";
