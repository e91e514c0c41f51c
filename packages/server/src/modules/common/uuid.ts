const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID; checked before a lookup, since PostgreSQL refuses a malformed uuid. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
