/**
 * The two timestamp formats of the legacy API.
 * Format A: ISO 8601 in UTC with microseconds, `2026-01-31T09:30:00.123000Z` (keys, documents,
 * knowledge bases, phone numbers, assistants). Format B: `2026-01-31 09:30:00` in UTC (calls, leads).
 * Both accept what the GraphQL `DateTime` scalar emits (an ISO string) and pass null through.
 */
export function timestampA(value: string | Date | null | undefined): string | null {
  const iso = toIso(value);
  return iso === null ? null : `${iso.slice(0, 23)}000Z`;
}

export function timestampB(value: string | Date | null | undefined): string | null {
  const iso = toIso(value);
  return iso === null ? null : `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

function toIso(value: string | Date | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) throw new TypeError(`Not a timestamp: ${String(value)}`);
  return date.toISOString();
}

/** `secondaryContacts.0.phoneNumber` -> `secondary_contacts.0.phone_number`. */
export function snakeCasePath(path: string): string {
  return path
    .split(".")
    .map((segment) => segment.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`))
    .join(".");
}
