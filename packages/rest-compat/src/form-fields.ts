import type { RestError } from "./errors.ts";

/** PHP's own `max_input_vars`, which the legacy API's clients already live within. */
export const MAX_FORM_FIELDS = 1000;
/** Brackets after the field name; legacy bodies use two (`secondary_contacts[0][phone_number]`). */
export const MAX_FORM_DEPTH = 8;
/** A list index beyond this would make a huge sparse array from one short field name. */
export const MAX_FORM_INDEX = 999;

/** `name[a][0][]`: a name, then bracketed keys; anything else is a plain field name. */
const BRACKETED = /^([^[\]]+)((?:\[[^[\]]*\])+)$/;
/** Keys that would reach or replace an object's prototype instead of adding a field. */
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
const INDEX = /^\d+$/;

type Container = Record<string, unknown> | unknown[];
export type NestedFields = { value: Record<string, unknown> } | { error: RestError };

/**
 * Nests form fields as Laravel does, for urlencoded and multipart bodies alike:
 * `links[0][link]=x` -> `{ links: [{ link: "x" }] }`, `tags[]=a&tags[]=b` -> `{ tags: ["a", "b"] }`.
 * A repeated name keeps its last value. A field flood is refused as a bad request; a name that
 * would touch a prototype, nest too deeply, use an absurd index or mix a value with nested fields
 * is refused under that name rather than silently dropped or reshaped.
 */
export function nestFields(entries: Iterable<[string, unknown]>): NestedFields {
  const value: Record<string, unknown> = {};
  let count = 0;
  for (const [name, entry] of entries) {
    count++;
    if (count > MAX_FORM_FIELDS) {
      return {
        error: {
          status: 400,
          code: "BAD_REQUEST",
          message: `The form has too many fields (limit ${MAX_FORM_FIELDS}).`,
        },
      };
    }
    const problem = place(value, keysOf(name), entry);
    if (problem) {
      const message = `The ${name} field ${problem}.`;
      return { error: { status: 422, code: "VALIDATION_FAILED", message, fields: { [name]: [message] } } };
    }
  }
  return { value };
}

function keysOf(name: string): string[] {
  const match = BRACKETED.exec(name);
  if (!match) return [name];
  return [match[1]!, ...match[2]!.slice(1, -1).split("][")];
}

/** Stores `entry` under `keys`; returns what is wrong with the name, or null. */
function place(target: Record<string, unknown>, keys: string[], entry: unknown): string | null {
  if (keys.length - 1 > MAX_FORM_DEPTH) return `is nested too deeply (at most ${MAX_FORM_DEPTH} levels)`;
  if (keys.some((key) => FORBIDDEN_KEYS.has(key))) return "has a name that is not allowed";
  let cursor: Container = target;
  for (const [position, key] of keys.entries()) {
    let slot: string | number = key;
    if (Array.isArray(cursor)) {
      if (key !== "" && !INDEX.test(key)) return "mixes a list with named fields";
      slot = key === "" ? cursor.length : Number(key);
      if (slot > MAX_FORM_INDEX) return `has an index over ${MAX_FORM_INDEX}`;
    } else if (key === "") {
      return "mixes a list with named fields";
    }
    const slots = cursor as Record<string | number, unknown>;
    if (position === keys.length - 1) {
      slots[slot] = entry;
      return null;
    }
    const existing: unknown = Object.hasOwn(slots, slot) ? slots[slot] : undefined;
    if (existing === undefined) {
      const next = keys[position + 1]!;
      const child: Container = next === "" || INDEX.test(next) ? [] : {};
      slots[slot] = child;
      cursor = child;
    } else if (isContainer(existing)) {
      cursor = existing;
    } else {
      return "is given both a value and nested fields";
    }
  }
  return null;
}

function isContainer(value: unknown): value is Container {
  return (
    Array.isArray(value) ||
    (typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype)
  );
}
