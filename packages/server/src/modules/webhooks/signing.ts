import { createHmac, randomBytes } from "node:crypto";

/** Standard Webhooks secrets: `whsec_` and the base64 of the HMAC key (32 random bytes). */
export const SECRET_PREFIX = "whsec_";

export function newSecret(): string {
  return `${SECRET_PREFIX}${randomBytes(32).toString("base64")}`;
}

/** A webhook-id: unique per event, kept across retries and redeliveries. */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

/**
 * The webhook-signature header of the Standard Webhooks specification: `v1,<base64 HMAC-SHA256 of
 * "<id>.<timestamp>.<body>">` for each secret, separated by spaces (during a rotation both the new
 * and the retiring secret sign, so receivers holding either one verify).
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string) {
  const content = `${id}.${timestamp}.${body}`;
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
      return `v1,${createHmac("sha256", key).update(content).digest("base64")}`;
    })
    .join(" ");
}

/** The three headers of a signed request, timestamped now (every attempt is signed anew). */
export function signedHeaders(secrets: readonly string[], id: string, body: string, now = Date.now()) {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "user-agent": "Voxgate-Webhooks/1",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, id, timestamp, body),
  };
}

/**
 * When the next attempt may start after `attempt` failed ones: exponential from `baseMs`, capped,
 * with ±25 % jitter so that endpoints coming back are not hit by every retry at the same instant.
 * A Retry-After the receiver sent (429, 503) is honoured when it asks for longer, within the cap.
 */
export function retryDelayMs(
  attempt: number,
  options: { baseMs: number; maxDelayMs: number; retryAfterMs?: number | null },
  random = Math.random,
): number {
  const exponential = Math.min(options.baseMs * 2 ** (attempt - 1), options.maxDelayMs);
  const jittered = Math.round(exponential * (0.75 + random() * 0.5));
  const asked = options.retryAfterMs ?? 0;
  return Math.min(Math.max(jittered, asked), options.maxDelayMs);
}

/** Which outcomes are worth trying again: no answer, a timeout, 408, 429 and 5xx. */
export function isRetryable(statusCode: number | null): boolean {
  if (statusCode === null) return true;
  return statusCode === 408 || statusCode === 429 || statusCode >= 500;
}
