/**
 * An empty allow-list admits every origin. Otherwise the request's Origin must be listed (compared
 * as scheme://host:port, so a trailing slash or letter case does not matter); a request without an
 * Origin (not from a browser page) is refused too, as it cannot prove where it comes from.
 */
export function originAllowed(allowed: readonly string[], origin: string | null): boolean {
  if (allowed.length === 0) return true;
  const normalised = normaliseOrigin(origin);
  return normalised !== null && allowed.some((entry) => normaliseOrigin(entry) === normalised);
}

function normaliseOrigin(value: string | null): string | null {
  if (!value) return null;
  try {
    return new URL(value).origin.toLowerCase();
  } catch {
    return null;
  }
}
