import { parse } from "csv-parse/browser/esm/sync";
import { type CountryCode, getCountries, parsePhoneNumberFromString } from "libphonenumber-js/min";

/** E.164's shape: `+`, a country code that does not start with 0, at most 15 digits in all. */
const E164_SHAPE = /^\+[1-9]\d{6,14}$/;

export interface ParsedCsv {
  header: string[];
  rows: string[][];
}

/** Parses CSV text with a header row; quoted fields, BOMs and ragged rows are handled by csv-parse. */
export function parseCsv(text: string): ParsedCsv {
  const records = parse(text, {
    bom: true,
    skip_empty_lines: true,
    relax_column_count: true,
    trim: true,
  }) as string[][];
  const [header = [], ...rows] = records;
  return { header, rows };
}

/** A column guess for the phone number: a header that names a phone, else the first column. */
export function guessPhoneColumn(header: string[]): number {
  const index = header.findIndex((name) => /phone|number|mobile|tel/i.test(name));
  return index === -1 ? 0 : index;
}

export interface LeadRow {
  /** 1-based line in the file, counting the header as line 1. */
  line: number;
  phoneNumber: string;
  variables: Record<string, string>;
}

export interface RefusedRow {
  line: number;
  value: string;
  reason: string;
}

/** The countries a national number may belong to, by name in the browser's language. */
export function countryChoices(locale?: string): { code: CountryCode; name: string }[] {
  const names = new Intl.DisplayNames(locale ? [locale] : undefined, { type: "region" });
  return getCountries()
    .map((code) => ({ code, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The number in E.164: as written when it starts with `+`, else read as a national number of
 * `defaultCountry` ("020 7946 0958" in GB → +442079460958, "00 33 …" as dialled from there). Only the
 * shape is checked here; the server checks the number against the full numbering plan.
 */
export function toE164(value: string, defaultCountry: CountryCode | null): string | null {
  const raw = value.replace(/[\s().-]/g, "");
  if (E164_SHAPE.test(raw)) return raw;
  if (!defaultCountry || raw.startsWith("+") || raw === "") return null;
  const parsed = parsePhoneNumberFromString(raw, defaultCountry);
  return parsed?.isPossible() && E164_SHAPE.test(parsed.number) ? parsed.number : null;
}

/**
 * Splits rows into leads to create and rows refused before sending: a number neither in E.164 nor a
 * national number of `defaultCountry`, or a repeat within the file when duplicates are not allowed.
 * The server checks each number again against the numbering plan and the campaign's existing leads.
 */
export function planImport(
  csv: ParsedCsv,
  mapping: { phone: number; variables: Record<string, number> },
  allowDuplicates: boolean,
  defaultCountry: CountryCode | null = null,
): { leads: LeadRow[]; refused: RefusedRow[] } {
  const countryName = defaultCountry
    ? (new Intl.DisplayNames(undefined, { type: "region" }).of(defaultCountry) ?? defaultCountry)
    : null;
  const leads: LeadRow[] = [];
  const refused: RefusedRow[] = [];
  const seen = new Set<string>();
  csv.rows.forEach((row, index) => {
    const line = index + 2;
    const raw = toE164(row[mapping.phone] ?? "", defaultCountry);
    if (raw === null) {
      refused.push({
        line,
        value: row[mapping.phone] ?? "",
        reason: countryName
          ? `Not a phone number in E.164 format (e.g. +14155550123), nor a national number of ${countryName}.`
          : "Not a phone number in E.164 format (e.g. +14155550123).",
      });
      return;
    }
    if (!allowDuplicates && seen.has(raw)) {
      refused.push({ line, value: raw, reason: "The same number appears earlier in the file." });
      return;
    }
    seen.add(raw);
    const variables: Record<string, string> = {};
    for (const [name, column] of Object.entries(mapping.variables)) {
      const value = row[column];
      if (value !== undefined && value !== "") variables[name] = value;
    }
    leads.push({ line, phoneNumber: raw, variables });
  });
  return { leads, refused };
}
