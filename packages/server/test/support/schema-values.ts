// biome-ignore-all lint/suspicious/noExplicitAny: JSON Schema documents are walked by keyword
type Schema = Record<string, any>;

/** Picks from a seeded generator (`seededRandom`), so that a failing case comes back on every run. */
export class Picker {
  constructor(private readonly random: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.random() < probability;
  }

  one<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }

  /** Text with the characters that trip parsers: quotes, brackets, control and non-Latin characters. */
  text(maxLength = 24): string {
    const alphabet = [
      "a",
      "Z",
      "7",
      " ",
      '"',
      "'",
      "\\",
      "[",
      "{",
      "%",
      "&",
      "=",
      "\n",
      "\u0000",
      "é",
      "中",
      "😀",
    ];
    return Array.from({ length: this.int(0, maxLength) }, () => this.one(alphabet)).join("");
  }
}

/**
 * A value the JSON Schema (2020-12, as the OpenAPI document writes it) accepts: objects get their
 * required properties and some optional ones, strings their format, enum or a short text.
 */
export function validValue(schema: Schema, pick: Picker, depth = 0): unknown {
  if ("const" in schema) return schema.const;
  if (schema.enum) return pick.one(schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return validValue(pick.one(alternatives), pick, depth);
  const type = Array.isArray(schema.type) ? pick.one(schema.type) : schema.type;
  switch (type) {
    case "object": {
      const value: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [name, property] of Object.entries<Schema>(schema.properties ?? {})) {
        if (required.has(name) || (depth < 3 && pick.chance(0.5)))
          value[name] = validValue(property, pick, depth + 1);
      }
      return value;
    }
    case "array": {
      const length = pick.int(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3));
      return Array.from({ length }, () => validValue(schema.items ?? {}, pick, depth + 1));
    }
    case "integer":
      return pick.int(schema.minimum ?? 0, Math.min(schema.maximum ?? 1000, (schema.minimum ?? 0) + 1000));
    case "number":
      return (schema.minimum ?? 0) + pick.int(0, 100) / 10;
    case "boolean":
      return pick.chance(0.5);
    case "null":
      return null;
    case "string":
      return validString(schema, pick);
    default:
      return pick.text();
  }
}

function validString(schema: Schema, pick: Picker): string {
  switch (schema.format) {
    case "uuid":
      return "7c9e6679-7425-40de-944b-e07fc1f99a4b";
    case "email":
      return `fuzz${pick.int(0, 9999)}@example.com`;
    case "uri":
      return "https://example.com/page";
    case "date-time":
      return "2026-01-31T09:30:00.000Z";
    default: {
      const text = pick.text(Math.min(schema.maxLength ?? 24, 24));
      return text.padEnd(schema.minLength ?? 0, "a");
    }
  }
}

/** What a property of the wrong kind may be: each is wrong for some schema. */
export const WRONG_VALUES: readonly unknown[] = [
  "not a number",
  "12abc",
  "",
  -1,
  0,
  1.5,
  2_147_483_648,
  1e20,
  1e308,
  true,
  null,
  [],
  [1, "a", null],
  {},
  { nested: { deeper: [1] } },
  "a".repeat(5000),
  "\ud800",
  "+1555",
];

/** An array nested `depth` levels deep, written as JSON text (JSON.stringify would recurse). */
export function deepJsonText(depth: number): string {
  return `${"[".repeat(depth)}1${"]".repeat(depth)}`;
}
