import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/**
 * Bearer tokens: a recognisable prefix (so leaked keys are easy to spot and scan for), a public
 * lookup id that finds the row, and a secret. Only the SHA-256 of the whole token is stored;
 * tokens carry ~190 bits of entropy, so a fast hash is the right tool (a slow one would only add
 * latency to every request).
 */
export const TOKEN_PREFIX = { apiKey: "vgk_", session: "vgs_" } as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const LOOKUP_LENGTH = 12;
const SECRET_LENGTH = 32;
const TOKEN_PATTERN = new RegExp(
  `^(vgk_|vgs_)([0-9A-Za-z]{${LOOKUP_LENGTH}})([0-9A-Za-z]{${SECRET_LENGTH}})$`,
);

export interface MintedToken {
  token: string;
  lookupId: string;
  tokenHash: string;
}

export function mintToken(kind: TokenKind): MintedToken {
  const lookupId = randomBase62(LOOKUP_LENGTH);
  const token = `${TOKEN_PREFIX[kind]}${lookupId}${randomBase62(SECRET_LENGTH)}`;
  return { token, lookupId, tokenHash: hashToken(token) };
}

/** Splits a presented token into its kind and lookup id, or null when it is not one of ours. */
export function parseToken(token: string): { kind: TokenKind; lookupId: string } | null {
  const match = TOKEN_PATTERN.exec(token);
  if (!match) return null;
  return { kind: match[1] === TOKEN_PREFIX.apiKey ? "apiKey" : "session", lookupId: match[2]! };
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Constant-time comparison of a presented token against a stored hash. */
export function tokenMatches(token: string, storedHash: string): boolean {
  const presented = Buffer.from(hashToken(token), "hex");
  const stored = Buffer.from(storedHash, "hex");
  return presented.length === stored.length && timingSafeEqual(presented, stored);
}

function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 * 62: rejecting larger bytes keeps every character equally likely.
      if (byte < 248 && out.length < length) out += ALPHABET[byte % 62];
    }
  }
  return out;
}
