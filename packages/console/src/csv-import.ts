import { parse } from "csv-parse/browser/esm/sync";

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

/**
 * Splits rows into leads to create and rows refused before sending: a number not written in E.164,
 * or a repeat within the file when duplicates are not allowed. The server checks each number again
 * against the numbering plan and against the campaign's existing leads.
 */
export function planImport(
  csv: ParsedCsv,
  mapping: { phone: number; variables: Record<string, number> },
  allowDuplicates: boolean,
): { leads: LeadRow[]; refused: RefusedRow[] } {
  const leads: LeadRow[] = [];
  const refused: RefusedRow[] = [];
  const seen = new Set<string>();
  csv.rows.forEach((row, index) => {
    const line = index + 2;
    const raw = (row[mapping.phone] ?? "").replace(/[\s().-]/g, "");
    if (!E164_SHAPE.test(raw)) {
      refused.push({
        line,
        value: row[mapping.phone] ?? "",
        reason: "Not a phone number in E.164 format (e.g. +14155550123).",
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
