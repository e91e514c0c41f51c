import { randomBytes } from "node:crypto";

/** An invitation is good for a week: long enough to reach someone on leave, short enough to go stale. */
export const INVITATION_TTL_MS = 7 * 24 * 3_600_000;
/** A reset link stands in for a password the admin just voided: it is good for a day. */
export const RESET_TTL_MS = 24 * 3_600_000;

export const INVITE_PREFIX = "vgi_";

/** Where the console's accept page is, relative to the server's origin. */
export function linkPath(token: string): string {
  return `/console/#/invite/${token}`;
}

/** ~256 bits from the CSPRNG, URL-safe: it travels in a link's fragment. */
export function mintLinkToken(): string {
  return `${INVITE_PREFIX}${randomBytes(32).toString("base64url")}`;
}
