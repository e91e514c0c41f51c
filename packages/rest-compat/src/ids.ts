/** The largest id: ids are PostgreSQL `integer` columns, and GraphQL `Int`s. */
export const MAX_ID = 2_147_483_647;

/**
 * An id written in a URL: its number, "out-of-range" for digits past MAX_ID (the database would
 * refuse the comparison), or null for anything but digits (which names no resource at all).
 */
export function parseId(text: string): number | "out-of-range" | null {
  if (!/^\d+$/.test(text)) return null;
  const id = Number(text);
  return id > MAX_ID ? "out-of-range" : id;
}

/** The message of an id past MAX_ID, for the field `label` (e.g. "knowledgebase id"). */
export function idOutOfRangeMessage(label: string): string {
  return `The ${label} field must not be greater than ${MAX_ID}.`;
}
