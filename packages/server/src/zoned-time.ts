/**
 * Wall-clock time in IANA zones with Intl only (no Temporal on Node 20): what availability and
 * iCalendar's TZID times need, correct on both sides of a daylight-saving change.
 */

/** A wall-clock date and time, with no zone. Months are 1-12. */
export interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Whether Intl knows the zone (an IANA name such as Europe/Berlin, or UTC). */
export function isKnownTimeZone(timeZone: string): boolean {
  try {
    formatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock in `timeZone` at the instant `at` (ms since the epoch). */
export function toLocal(at: number, timeZone: string): LocalDateTime {
  const parts = formatter(timeZone).formatToParts(at);
  const value = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  return {
    year: value("year"),
    month: value("month"),
    day: value("day"),
    hour: value("hour"),
    minute: value("minute"),
    second: value("second"),
  };
}

/** The wall clock read as if it were UTC: arithmetic on local dates without any zone. */
export function wallClockMs(local: LocalDateTime): number {
  return Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
}

/** The zone's offset from UTC at `at`, in ms (positive east of Greenwich). */
function offsetAt(at: number, timeZone: string): number {
  return wallClockMs(toLocal(at, timeZone)) - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a wall-clock time happens in `timeZone`. A time that happens twice (the hour repeated
 * when clocks go back) is its first occurrence; a time that never happens (skipped when clocks go
 * forward) is read with the offset before the change, so 02:30 on a spring-forward night is 03:30,
 * as RFC 5545 (3.3.5) prescribes.
 */
export function fromLocal(local: LocalDateTime, timeZone: string): number {
  const wall = wallClockMs(local);
  // A day either side covers one change, and zones change at most once a day.
  const before = offsetAt(wall - DAY_MS, timeZone);
  const after = offsetAt(wall + DAY_MS, timeZone);
  const candidates = [...new Set([before, after])]
    .map((offset) => wall - offset)
    .filter((at) => wallClockMs(toLocal(at, timeZone)) === wall)
    .sort((a, b) => a - b);
  return candidates[0] ?? wall - before;
}

/** `YYYY-MM-DD` of a local date. */
export function dateKey(local: Pick<LocalDateTime, "year" | "month" | "day">): string {
  return `${local.year}-${String(local.month).padStart(2, "0")}-${String(local.day).padStart(2, "0")}`;
}

/** The local date `days` after (or before) the given one; the time of day is kept. */
export function addDays(local: LocalDateTime, days: number): LocalDateTime {
  const moved = new Date(wallClockMs(local) + days * DAY_MS);
  return {
    year: moved.getUTCFullYear(),
    month: moved.getUTCMonth() + 1,
    day: moved.getUTCDate(),
    hour: local.hour,
    minute: local.minute,
    second: local.second,
  };
}

/** 0 = Sunday … 6 = Saturday, as Date.getDay. */
export function weekdayOf(local: Pick<LocalDateTime, "year" | "month" | "day">): number {
  return new Date(Date.UTC(local.year, local.month - 1, local.day)).getUTCDay();
}
