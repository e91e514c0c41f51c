import { addDays, dateKey, fromLocal, type LocalDateTime, toLocal, weekdayOf } from "../../zoned-time.ts";
import type { Interval } from "./busy-time.ts";

export const WEEKDAY_KEYS = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"] as const;
export type WeekdayKey = (typeof WEEKDAY_KEYS)[number];

/** Local "HH:MM" ranges per weekday; a day without ranges is closed. "24:00" ends a day. */
export type BusinessHours = Partial<Record<WeekdayKey, { start: string; end: string }[]>>;

export interface AvailabilityRules {
  durationMinutes: number;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  minimumNoticeMinutes: number;
  horizonDays: number;
  timezone: string;
  businessHours: BusinessHours;
  slotGranularityMinutes: number;
}

const MINUTE = 60_000;

function clock(value: string): { hour: number; minute: number } {
  const [hour, minute] = value.split(":").map(Number) as [number, number];
  return { hour, minute };
}

/**
 * The slots that can be booked within [from, to): business hours (read on the wall clock of the
 * rules' zone, day by day, so 09:00 is 09:00 on both sides of a daylight-saving change) minus busy
 * time, where a slot with its buffers (before and after) must not touch any busy interval; no slot
 * starts before `now` plus the minimum notice or after the booking horizon. Slots start on the
 * granularity's steps from the start of each business-hours range. Pure: the caller fetches `busy`.
 */
export function availableSlots(input: {
  rules: AvailabilityRules;
  busy: readonly Interval[];
  from: Date;
  to: Date;
  now: Date;
}): Interval[] {
  const { rules } = input;
  const earliest = Math.max(input.from.getTime(), input.now.getTime() + rules.minimumNoticeMinutes * MINUTE);
  const latest = Math.min(input.to.getTime(), input.now.getTime() + rules.horizonDays * 86_400_000);
  if (earliest >= latest) return [];
  const duration = rules.durationMinutes * MINUTE;
  const before = rules.bufferBeforeMinutes * MINUTE;
  const after = rules.bufferAfterMinutes * MINUTE;
  const step = rules.slotGranularityMinutes * MINUTE;
  const busy = [...input.busy].sort((a, b) => a.start - b.start);
  const isFree = (start: number, end: number) =>
    !busy.some((interval) => interval.start < end + after && interval.end > start - before);

  const slots: Interval[] = [];
  // From the local day before `earliest` (a range may run past midnight UTC) to the day after `latest`.
  const lastDay = dateKey(addDays(toLocal(latest, rules.timezone), 1));
  for (let day = addDays(toLocal(earliest, rules.timezone), -1); ; day = addDays(day, 1)) {
    for (const range of rules.businessHours[WEEKDAY_KEYS[weekdayOf(day)]!] ?? []) {
      const rangeStart = at(day, range.start, rules.timezone);
      const rangeEnd = at(day, range.end, rules.timezone);
      for (let start = rangeStart; start + duration <= rangeEnd; start += step) {
        if (start < earliest || start >= latest) continue;
        if (isFree(start, start + duration)) slots.push({ start, end: start + duration });
      }
    }
    if (dateKey(day) === lastDay) break;
  }
  return slots;
}

/** The instant of a local "HH:MM" on a local day; "24:00" is the next day's midnight. */
function at(day: LocalDateTime, time: string, timeZone: string): number {
  const { hour, minute } = clock(time);
  const date = hour === 24 ? addDays(day, 1) : day;
  return fromLocal({ ...date, hour: hour % 24, minute, second: 0 }, timeZone);
}
