import { lazyRequire } from "../../lazy-require.ts";
import { requiredString } from "../../validation.ts";

/** The full numbering-plan metadata is loaded by the first number checked, not at start. */
const libphonenumber = lazyRequire<typeof import("libphonenumber-js/max")>("libphonenumber-js/max");

/** What the maintained numbering plan (libphonenumber, full metadata) says about a number. */
export interface ParsedPhoneNumber {
  e164: string;
  /** ISO 3166 two-letter code; "ZZ" for non-geographic numbers such as +800. */
  countryCode: string;
}

/**
 * Parses a phone number that must already be written in E.164 (`+14155550123`): it must be a
 * valid number of its numbering plan, and written exactly as E.164 writes it (no spaces or
 * punctuation), so that equal numbers are always equal strings.
 */
export function parseE164(value: string): ParsedPhoneNumber | null {
  const parsed = libphonenumber().parsePhoneNumberFromString(value);
  if (!parsed?.isValid() || parsed.number !== value) return null;
  return { e164: parsed.number, countryCode: parsed.country ?? "ZZ" };
}

/** A required E.164 phone number field with field-level messages. */
export function e164PhoneNumber(label = "phone number") {
  return requiredString(label, 32).refine(
    (value) => parseE164(value) !== null,
    `The ${label} field must be a valid phone number in E.164 format (e.g. +14155550123).`,
  );
}
