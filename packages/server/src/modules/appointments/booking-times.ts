/**
 * Times as the booking functions read them from the model (a day, a range of days, a chosen start)
 * and give them back (ISO 8601 with the zone's offset, and spoken in the assistant's language).
 */
import { addDays, fromLocal, type LocalDateTime, toLocal, wallClockMs } from "../../zoned-time.ts";

/** The longest range one check_availability looks at. */
export const MAX_RANGE_DAYS = 14;
export const DAY_MS = 86_400_000;

export type Range = { kind: "window"; from: number; to: number } | { kind: "earliest" };

/** The days asked about, as instants: local midnights in the assistant's zone. */
export function rangeOf(args: Record<string, unknown>, zone: string): Range | string {
  const date = stringArgument(args.date);
  const fromDate = stringArgument(args.from_date) ?? date;
  const toDate = stringArgument(args.to_date) ?? date ?? fromDate;
  if (!fromDate) return { kind: "earliest" };
  const first = parseDay(fromDate);
  const last = toDate ? parseDay(toDate) : first;
  if (!first || !last) return "Dates must be YYYY-MM-DD.";
  const from = fromLocal(first, zone);
  const to = fromLocal(addDays(last, 1), zone);
  if (to <= from) return "to_date must not be before from_date.";
  if (to - from > (MAX_RANGE_DAYS + 1) * DAY_MS) return `Ask for at most ${MAX_RANGE_DAYS} days at once.`;
  return { kind: "window", from, to };
}

function parseDay(value: string): LocalDateTime | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const check = new Date(Date.UTC(year, month - 1, day));
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { year, month, day, hour: 0, minute: 0, second: 0 };
}

/** A time as check_availability gives it (with its offset); one without an offset is the assistant's local time. */
export function parseStart(value: unknown, zone: string): Date | null {
  if (typeof value !== "string") return null;
  const text = value.trim();
  const local = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text);
  if (local) {
    const [year, month, day, hour, minute, second] = local
      .slice(1)
      .map((part) => Number(part ?? 0)) as number[];
    return new Date(
      fromLocal(
        { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second! },
        zone,
      ),
    );
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : new Date(at);
}

/** ISO 8601 with the zone's offset at that instant, e.g. 2027-01-04T09:00:00+01:00. */
export function isoIn(at: number, zone: string): string {
  const local = toLocal(at, zone);
  const offset = Math.round((wallClockMs(local) - Math.floor(at / 1000) * 1000) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${local.year}-${pad(local.month)}-${pad(local.day)}T${pad(local.hour)}:${pad(local.minute)}:${pad(local.second)}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

export function speak(at: Date | number, zone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone: zone,
    weekday: "long",
    year: "numeric",
    month: "long",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
  }).format(at);
}

/** The assistant's language as a locale Intl knows (its `language` field, e.g. en-US or de). */
export function localeOf(language: string | null): string {
  if (!language) return "en";
  try {
    return Intl.DateTimeFormat.supportedLocalesOf([language])[0] ?? "en";
  } catch {
    return "en";
  }
}

/** A string the model gave, trimmed; null for anything else or a blank one. */
export function stringArgument(value: unknown): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : null;
}
