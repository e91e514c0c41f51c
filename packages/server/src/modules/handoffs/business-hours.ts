import { addDays, fromLocal, type LocalDateTime, toLocal, weekdayOf } from "../../zoned-time.ts";
import { type BusinessHours, WEEKDAY_KEYS } from "../calendars/index.ts";

/**
 * Weekly hours in a zone (the appointment types' shape: per weekday, local "HH:MM" ranges; a day
 * without ranges is closed). `hours` null means always open.
 */
export interface WeeklySchedule {
  timezone: string;
  hours: BusinessHours | null;
}

/** How far ahead `nextOpening` looks: a week and a day covers any weekly schedule. */
const LOOKAHEAD_DAYS = 8;

function instant(day: LocalDateTime, time: string, timeZone: string): number {
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  const date = hour === 24 ? addDays(day, 1) : day;
  return fromLocal({ ...date, hour: hour % 24, minute, second: 0 }, timeZone);
}

/**
 * The schedule's open intervals overlapping [from - 1 day, from + days], read day by day on the
 * zone's wall clock (09:00 stays 09:00 across a daylight-saving change), in time order.
 */
function intervals(schedule: WeeklySchedule & { hours: BusinessHours }, from: number, days: number) {
  const found: { start: number; end: number }[] = [];
  const first = addDays(toLocal(from, schedule.timezone), -1);
  for (let offset = 0; offset <= days + 1; offset++) {
    const day = addDays(first, offset);
    for (const range of schedule.hours[WEEKDAY_KEYS[weekdayOf(day)]!] ?? []) {
      found.push({
        start: instant(day, range.start, schedule.timezone),
        end: instant(day, range.end, schedule.timezone),
      });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Whether the schedule is open at `at`. */
export function isOpen(schedule: WeeklySchedule, at: Date): boolean {
  if (schedule.hours === null) return true;
  const now = at.getTime();
  return intervals({ ...schedule, hours: schedule.hours }, now, 1).some(
    (interval) => interval.start <= now && now < interval.end,
  );
}

/**
 * When the schedule next opens after `at` (`at` itself when open then), or null when it never
 * opens (no ranges at all).
 */
export function nextOpening(schedule: WeeklySchedule, at: Date): Date | null {
  if (schedule.hours === null) return at;
  const now = at.getTime();
  for (const interval of intervals({ ...schedule, hours: schedule.hours }, now, LOOKAHEAD_DAYS)) {
    if (interval.end <= now) continue;
    return new Date(Math.max(interval.start, now));
  }
  return null;
}

/** "Monday 09:00 (Europe/Berlin)": an instant as a person of the schedule's zone reads it. */
export function describeLocal(at: Date, timeZone: string): string {
  const weekday = new Intl.DateTimeFormat("en-US", { timeZone, weekday: "long" }).format(at);
  const local = toLocal(at.getTime(), timeZone);
  const time = `${String(local.hour).padStart(2, "0")}:${String(local.minute).padStart(2, "0")}`;
  return `${weekday} ${time} (${timeZone})`;
}
