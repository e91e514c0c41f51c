import { GraphQLError } from "graphql";
import type { ZodError } from "zod";

/**
 * Stable codes of expected failures. GraphQL clients read them from `errors[].extensions.code`;
 * the REST layer maps them to HTTP statuses in one table (rest-compat/src/errors.ts).
 */
export type ErrorCode =
  | "UNAUTHENTICATED"
  | "INVALID_CREDENTIALS"
  | "ACCOUNT_SUSPENDED"
  | "FORBIDDEN"
  | "NOT_FOUND"
  | "VALIDATION_FAILED"
  | "CONFLICT"
  | "BAD_REQUEST"
  | "PAYLOAD_TOO_LARGE"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "INSUFFICIENT_BALANCE"
  | "RATE_LIMITED"
  | "ASSISTANT_NOT_FOUND"
  | "CONVERSATION_NOT_FOUND"
  | "UPSTREAM_FAILED"
  | "SIMULATED_CARRIER_REQUIRED"
  | "AT_CAPACITY"
  | "PHONE_NUMBER_UNAVAILABLE"
  | "SERVICE_UNAVAILABLE"
  | "CALENDAR_CONNECTION_FAILED"
  // Texts (docs/sms.md).
  | "RECIPIENT_OPTED_OUT"
  | "NUMBER_NOT_SMS_CAPABLE"
  // Bookings (docs/calendars.md#bookings).
  | "SLOT_UNAVAILABLE"
  // Operation limits (src/operation-limits.ts).
  | "QUERY_TOO_LARGE"
  | "QUERY_TOO_DEEP"
  | "TOO_MANY_ALIASES"
  | "QUERY_TOO_COMPLEX"
  | "TOO_MANY_DIRECTIVES"
  | "QUERY_TOO_NESTED"
  // Customer data (docs/data-governance.md#erasure-and-export).
  | "CUSTOMER_ERASED"
  // Account members (docs/console.md#team).
  | "ROLE_NOT_ALLOWED"
  | "LAST_OWNER"
  | "INVITATION_INVALID"
  | "MAIL_NOT_CONFIGURED";

/** An expected failure: passes through error masking with its code and message intact. */
export class AppError extends GraphQLError {
  constructor(
    readonly code: ErrorCode,
    message: string,
    extensions: Record<string, unknown> = {},
  ) {
    super(message, { extensions: { ...extensions, code } });
    this.name = "AppError";
  }
}

/** `reason` says why a presented credential was refused; null when none was presented. */
export class UnauthenticatedError extends AppError {
  constructor(reason: "malformed" | "invalid" | "revoked" | "expired" | "suspended" | null = null) {
    super("UNAUTHENTICATED", "Unauthenticated.", { reason: reason ?? "missing" });
  }
}

export class NotFoundError extends AppError {
  /** @param resource what was looked for, e.g. "API key"; the message never says whose it is. */
  constructor(resource: string, code: ErrorCode = "NOT_FOUND") {
    super(code, `${resource} not found.`, { resource });
  }
}

/** Field-level messages, keyed by dotted input path (`secondaryContacts.0.phoneNumber`). */
export type FieldErrors = Record<string, string[]>;

export class ValidationError extends AppError {
  constructor(readonly fields: FieldErrors) {
    const first = Object.values(fields)[0]?.[0] ?? "The given data was invalid.";
    const others = Object.values(fields).reduce((count, messages) => count + messages.length, 0) - 1;
    const message = others > 0 ? `${first} (and ${others} more error${others > 1 ? "s" : ""})` : first;
    super("VALIDATION_FAILED", message, { fields });
  }

  static single(field: string, message: string): ValidationError {
    return new ValidationError({ [field]: [message] });
  }

  static fromZod(error: ZodError): ValidationError {
    const fields: FieldErrors = {};
    for (const issue of error.issues) {
      const key = issue.path.length > 0 ? issue.path.join(".") : "input";
      const messages = fields[key] ?? [];
      messages.push(issue.message);
      fields[key] = messages;
    }
    return new ValidationError(fields);
  }
}

/** The model (or a function it relied on) failed; nothing is stored or charged. */
export class UpstreamFailedError extends AppError {
  constructor(detail: string) {
    super("UPSTREAM_FAILED", `Failed to process message: ${detail}`);
  }
}

export class ConversationNotFoundError extends AppError {
  constructor() {
    super("CONVERSATION_NOT_FOUND", "Conversation not found");
  }
}

/** `allowed` lists the statuses `from` may move to: none once the call has ended. */
export class InvalidCallTransitionError extends AppError {
  constructor(from: string, to: string, allowed: readonly string[]) {
    super(
      "CONFLICT",
      allowed.length === 0
        ? `The call has already ended with status ${from}; it cannot become ${to}.`
        : `A call cannot go from ${from} to ${to} (allowed: ${allowed.join(", ")}).`,
      { reason: "INVALID_CALL_TRANSITION", from, to, allowed },
    );
  }
}

/** Lead statuses in the database spelling; the message uses the API's. */
export class InvalidLeadTransitionError extends AppError {
  constructor(from: string, to: string, allowed: readonly string[]) {
    const spell = (status: string) => status.replaceAll("_", "-");
    super("CONFLICT", `A lead cannot go from ${spell(from)} to ${spell(to)}.`, {
      reason: "INVALID_LEAD_TRANSITION",
      from: spell(from),
      to: spell(to),
      allowed: allowed.map(spell),
    });
  }
}

/**
 * The number cannot be added: another account holds it, or the carrier does not offer it. One message
 * for both, so that it never tells who holds a number.
 */
export class NumberUnavailableError extends AppError {
  constructor() {
    super("PHONE_NUMBER_UNAVAILABLE", "The phone number is not available.");
  }
}

/** A simulation asked of a server whose carrier is a real one (VOXGATE_TELEPHONY is not simulated). */
export class SimulatedCarrierRequiredError extends AppError {
  constructor(carrier: string) {
    super(
      "SIMULATED_CARRIER_REQUIRED",
      `Calls can only be simulated on the simulated carrier; this server uses ${carrier}.`,
      { carrier },
    );
  }
}

export class RateLimitedError extends AppError {
  constructor(message: string, retryAfter: number) {
    super("RATE_LIMITED", message, { retryAfter });
  }
}

/** The platform operator suspended the account: it may not sign in nor place calls until reinstated. */
export class AccountSuspendedError extends AppError {
  constructor() {
    super("ACCOUNT_SUSPENDED", "This account is suspended. Please contact the platform operator.");
  }
}

export class InsufficientBalanceError extends AppError {
  constructor() {
    super("INSUFFICIENT_BALANCE", "Insufficient balance. Please top up your account.");
  }
}

/** The account already has as many phone calls running as it may; `limit` says how many. */
export class ConcurrentCallsLimitError extends AppError {
  constructor(limit: number) {
    super(
      "RATE_LIMITED",
      `The account already has ${limit} call${limit === 1 ? "" : "s"} running, the most it may have at once.`,
      { reason: "CONCURRENT_CALLS", limit },
    );
  }
}

export class PayloadTooLargeError extends AppError {
  constructor(message: string) {
    super("PAYLOAD_TOO_LARGE", message);
  }
}

/** A limit an operation went past; `extensions.limit` carries the number. */
export class OperationLimitError extends AppError {
  constructor(code: ErrorCode, message: string, limit: number) {
    super(code, message, { limit });
  }
}

/**
 * This instance already relays as many live calls as it may (VOXGATE_MAX_LIVE_MEDIA_SESSIONS):
 * a new call is refused cleanly instead of degrading every running one. REST answers 503 with
 * Retry-After.
 */
export class AtCapacityError extends AppError {
  constructor(retryAfter: number) {
    super("AT_CAPACITY", "The voice service is busy. Please try again shortly.", { retryAfter });
  }
}

/**
 * A reply outlasted the hold on the money reserved for it (VOXGATE_RESERVATION_HOLD_SECONDS), which
 * was given back meanwhile: the exchange is not stored, since it would be unpaid. REST answers 502.
 */
export class ReservationExpiredError extends AppError {
  constructor() {
    super(
      "UPSTREAM_FAILED",
      "Failed to process message: the reply took longer than the balance is held for it; nothing was stored or charged.",
      { reason: "RESERVATION_EXPIRED" },
    );
  }
}

/**
 * A dependency the request needs (the database) cannot be reached right now: an outage, not a bug.
 * GraphQL over HTTP answers 503 with Retry-After (Yoga reads `extensions.http`, and leaves it out of
 * the body); REST answers 503 in its own shape with the same header (from `retryAfter`).
 */
export class ServiceUnavailableError extends AppError {
  constructor(retryAfter = 5) {
    super("SERVICE_UNAVAILABLE", "The service is temporarily unavailable. Please try again shortly.", {
      retryAfter,
      http: { status: 503, headers: { "Retry-After": String(retryAfter) } },
    });
  }
}

/**
 * A calendar provider refused or could not serve a connection (docs/calendars.md): `reason` is the
 * stable part (unauthorized, forbidden, not_found, not_a_calendar, blocked_address, timeout, …), the
 * message names what was refused and where. REST answers 422.
 */
export class CalendarConnectionError extends AppError {
  constructor(reason: string, message: string, details: { url: string; status?: number | undefined }) {
    super("CALENDAR_CONNECTION_FAILED", message, {
      reason,
      url: details.url,
      ...(details.status ? { status: details.status } : {}),
    });
  }
}

/** The customer replied STOP (or the like) to this number and has not opted back in: never texted. */
export class RecipientOptedOutError extends AppError {
  constructor(to: string) {
    super("RECIPIENT_OPTED_OUT", `${to} has opted out of texts from this number.`, { to });
  }
}

/** Texts leave only from the account's own active, SMS-capable dedicated numbers. */
export class NumberNotSmsCapableError extends AppError {
  constructor(from: string) {
    super(
      "NUMBER_NOT_SMS_CAPABLE",
      `${from} cannot send texts: it is not an active SMS-capable number of the account.`,
      {
        from,
      },
    );
  }
}

/**
 * The asked-for appointment slot cannot be booked (docs/calendars.md#bookings): `reason` is taken
 * (the calendar or another booking holds it), closed (outside business hours, notice or horizon, or
 * not on a slot boundary) or day_full (the type's maxPerDay). REST answers 409.
 */
export class SlotUnavailableError extends AppError {
  constructor(reason: "taken" | "closed" | "day_full", message: string) {
    super("SLOT_UNAVAILABLE", message, { reason });
  }
}

/** An account has as many agent test runs queued or running as it may (docs/testing-assistants.md#limits). */
export class TestRunsBusyError extends AppError {
  constructor(limit: number) {
    super(
      "CONFLICT",
      `At most ${limit} test runs may be queued or running at once; wait for one to finish.`,
      {
        limit,
      },
    );
  }
}

/**
 * The number belongs to a customer the account erased (a tombstone holds its hash): it is not
 * added again silently (docs/data-governance.md#erasure-and-export). REST answers 409.
 */
export class CustomerErasedError extends AppError {
  constructor(field: string) {
    super(
      "CUSTOMER_ERASED",
      "This phone number belongs to a customer whose data was erased: it cannot be added again.",
      {
        field,
      },
    );
  }
}

/**
 * The caller's role in its account does not allow the operation (docs/console.md#team): agents work
 * conversations and calls, owners and admins manage the account. REST answers 403.
 */
export class RoleNotAllowedError extends AppError {
  constructor(role: string, required: string) {
    super("ROLE_NOT_ALLOWED", `Your role (${role}) does not allow this: it needs ${required}.`, {
      role,
      required,
    });
  }
}

/** An account always keeps an owner: its last one cannot leave or be demoted. REST answers 409. */
export class LastOwnerError extends AppError {
  constructor() {
    super("LAST_OWNER", "An account needs an owner: make another member owner first.");
  }
}

/** An invitation or reset link that is unknown, used, revoked or expired (`reason` says which). */
export class InvitationInvalidError extends AppError {
  constructor(reason: "unknown" | "used" | "revoked" | "expired") {
    const messages = {
      unknown: "This link is not valid. Ask for a new one.",
      used: "This link was already used. Sign in, or ask for a new one.",
      revoked: "This link was withdrawn. Ask for a new one.",
      expired: "This link has expired. Ask for a new one.",
    };
    super("INVITATION_INVALID", messages[reason], { reason });
  }
}

/** Email was asked for but the server has no mail server (VOXGATE_SMTP_URL). REST answers 409. */
export class MailNotConfiguredError extends AppError {
  constructor() {
    super(
      "MAIL_NOT_CONFIGURED",
      "This server sends no email (VOXGATE_SMTP_URL is not set): copy the link and send it yourself.",
    );
  }
}
