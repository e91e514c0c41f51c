import { z } from "zod";
import { ValidationError } from "./errors.ts";

/**
 * Parses a service input, turning every problem into a field-level message. Messages name the
 * field in plain words ("The customer identifier field ...") so they read well over GraphQL and
 * REST alike; the key of each message is the input path.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const result = schema.safeParse(input);
  if (!result.success) throw ValidationError.fromZod(result.error);
  return result.data;
}

const isMissing = (input: unknown) => input === undefined || input === null;

/** A required, trimmed, non-empty string of at most `max` characters. */
export function requiredString(label: string, max = 255) {
  return z
    .string({
      error: (issue) =>
        isMissing(issue.input) ? `The ${label} field is required.` : `The ${label} field must be a string.`,
    })
    .trim()
    .min(1, `The ${label} field is required.`)
    .max(max, `The ${label} field must not be greater than ${max} characters.`);
}

/** An optional string of at most `max` characters (null and absent both mean "not given"). */
export function optionalString(label: string, max = 255) {
  return z
    .string({ error: `The ${label} field must be a string.` })
    .trim()
    .max(max, `The ${label} field must not be greater than ${max} characters.`)
    .nullish()
    .transform((value) => value ?? undefined);
}

export function emailAddress(label = "email") {
  return requiredString(label)
    .pipe(z.email(`The ${label} field must be a valid email address.`))
    .transform((value) => value.toLowerCase());
}

const timezones = new Set([...Intl.supportedValuesOf("timeZone"), "UTC", "Etc/UTC"]);
const ZONE_NAME = /^[A-Z][A-Za-z_]*(\/[A-Z][A-Za-z0-9_+-]*)+$/;

/**
 * Node's list holds one name per zone, and for some the older one: Asia/Calcutta, not Asia/Kolkata;
 * Europe/Kiev, not Europe/Kyiv. The current names are what people pick, so a name written as IANA
 * writes them (Area/Location) that the runtime resolves to a listed zone is one too. PostgreSQL, which
 * reads local days in it, knows both.
 */
function isTimezone(value: string): boolean {
  if (timezones.has(value)) return true;
  if (!ZONE_NAME.test(value)) return false;
  try {
    return timezones.has(new Intl.DateTimeFormat("en-US", { timeZone: value }).resolvedOptions().timeZone);
  } catch {
    return false;
  }
}

/** An IANA time zone name such as Europe/Paris (current names and their older aliases). */
export function ianaTimezone(label = "timezone") {
  return z
    .string({ error: `The ${label} field must be a string.` })
    .refine(isTimezone, `The ${label} field must be a valid IANA time zone (e.g. Europe/Paris).`);
}

/**
 * A non-negative amount of money as a decimal string or number with at most 4 decimals, kept as a
 * string so that it reaches the database without ever passing through a float.
 */
export function moneyAmount(label = "amount") {
  return z
    .union([z.string(), z.number()], { error: `The ${label} field must be a number.` })
    .transform((value) => String(value).trim())
    .refine((value) => /^\d{1,10}(\.\d{1,4})?$/.test(value), {
      message: `The ${label} field must be a non-negative amount with at most 4 decimals.`,
    });
}
