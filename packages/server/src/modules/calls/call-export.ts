import type { Call } from "../../generated/prisma/client.ts";
import { toApiStatus } from "./call-status.ts";

/** The columns of a calls export, in order; docs/console.md#calls lists them. */
export const CALL_EXPORT_COLUMNS = [
  "id",
  "created_at",
  "type",
  "status",
  "assistant_id",
  "assistant_name",
  "campaign_id",
  "campaign_name",
  "from_number",
  "customer_number",
  "started_at",
  "ended_at",
  "duration_seconds",
  "total_cost",
  "end_reason",
  "answered_by",
] as const;

/**
 * Exports an account may stream at once (across instances with REDIS_URL): each reads up to 100,000
 * rows, so a second one waits for the first instead of doubling the load; the console only ever starts
 * one. `GET /exports/calls.csv` (src/http/call-exports.ts) holds a place of this gate while it streams.
 */
export const CALL_EXPORT_CONCURRENCY = 1;

/** A plain number (E.164 numbers included): a spreadsheet reads it as a number, never as a formula. */
const NUMERAL = /^[+-]?\d+(\.\d+)?$/;
/** What a spreadsheet starts a formula with (OWASP "CSV injection"), tab and carriage return included. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break, quotes doubled. Text a
 * spreadsheet would run as a formula (a caller's name "=HYPERLINK(...)") is prefixed with a single
 * quote, so it is shown as the text it is.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  let text = String(value);
  if (FORMULA_START.test(text) && !NUMERAL.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(cells: readonly (string | number | null | undefined)[]): string {
  return `${cells.map(csvCell).join(",")}\r\n`;
}

/** A call as a line of the export, its cells in the order of `CALL_EXPORT_COLUMNS`. */
export function callCsvLine(call: Call): string {
  const date = (value: Date | null) => value?.toISOString() ?? "";
  return csvLine([
    call.id,
    date(call.createdAt),
    call.type,
    toApiStatus(call.status),
    call.assistantId,
    call.assistantName,
    call.campaignId,
    call.campaignName,
    call.assistantPhoneNumber,
    call.clientPhoneNumber,
    date(call.startedAt),
    date(call.endedAt),
    call.duration,
    call.totalCost.toFixed(4),
    call.endReason,
    call.answeredBy,
  ]);
}
