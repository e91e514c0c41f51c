import { createHash, randomBytes } from "node:crypto";
import { WEB_CALL_LIMITS } from "../../limits.ts";

/**
 * A web call's connect token: `callId.expires.secret`, where the secret is 32 random bytes. The
 * call row keeps only the SHA-256 digest of the whole token, so the token is bound to its call and
 * its expiry (changing either changes the digest), is checked the same way on every instance
 * without a shared key, and a leak of the database does not let anyone connect. It is spent by
 * clearing the digest in one conditional write, so a replay (on any instance) finds nothing.
 */
export function newWebCallToken(now: number): {
  /** Completes the token once the call's id is known. */
  forCall(callId: number): { token: string; digest: string };
  expiresAt: Date;
} {
  const expires = Math.floor(now / 1000) + WEB_CALL_LIMITS.tokenSeconds;
  const secret = randomBytes(32).toString("base64url");
  return {
    expiresAt: new Date(expires * 1000),
    forCall(callId) {
      const token = `${callId}.${expires}.${secret}`;
      return { token, digest: tokenDigest(token) };
    },
  };
}

/** The call a well-formed, unexpired token names, with the digest to look for; null otherwise. */
export function readWebCallToken(token: string, now: number): { callId: number; digest: string } | null {
  const match = /^(\d{1,9})\.(\d{1,12})\.[\w-]{43}$/.exec(token);
  if (!match) return null;
  if (Number(match[2]) * 1000 < now) return null;
  return { callId: Number(match[1]), digest: tokenDigest(token) };
}

function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("base64url");
}
