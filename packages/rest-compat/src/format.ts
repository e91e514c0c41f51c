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

/**
 * Names already converted. Rows are mapped field by field (an assistant has about 60), always with the
 * same few hundred names, so converting each once saves a regular expression per field of every row.
 * Bounded, since error paths can hold names the client chose.
 */
const snakeNames = new Map<string, string>();
const SNAKE_NAMES_MAX = 2_000;

/** `phoneNumber` -> `phone_number`. */
export function snakeCase(name: string): string {
  let converted = snakeNames.get(name);
  if (converted === undefined) {
    converted = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    if (snakeNames.size >= SNAKE_NAMES_MAX) snakeNames.clear();
    snakeNames.set(name, converted);
  }
  return converted;
}

/** `secondaryContacts.0.phoneNumber` -> `secondary_contacts.0.phone_number`. */
export function snakeCasePath(path: string): string {
  return path.split(".").map(snakeCase).join(".");
}
