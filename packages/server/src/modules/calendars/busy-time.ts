/**
 * Busy time from iCalendar events: recurring events expanded (RRULE with EXDATE and RECURRENCE-ID
 * overrides), free events left out, clipped to a window. Parsing is in `ical.ts`.
 */
import { addDays, fromLocal, type LocalDateTime, wallClockMs, weekdayOf } from "../../zoned-time.ts";
import { instant, type ParsedEvent, parseEvents, parseTime } from "./ical.ts";

export interface Interval {
  start: number;
  end: number;
}

const WEEKDAYS = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"];
/** The rule parts expanded here; a rule with any other part is not expanded (see `busyIntervals`). */
const SUPPORTED_PARTS = new Set(["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "BYMONTHDAY", "WKST"]);
/** Occurrences looked at per event, at most: a rule cannot make one query loop for long. */
const MAX_OCCURRENCES = 5_000;

function isSupported(rule: Map<string, string>): boolean {
  const freq = rule.get("FREQ");
  if (![...rule.keys()].every((key) => SUPPORTED_PARTS.has(key))) return false;
  if (!["DAILY", "WEEKLY", "MONTHLY", "YEARLY"].includes(freq ?? "")) return false;
  const byday = rule.get("BYDAY");
  if (byday && (freq !== "WEEKLY" || !byday.split(",").every((day) => WEEKDAYS.includes(day)))) return false;
  const bymonthday = rule.get("BYMONTHDAY");
  if (bymonthday && (freq !== "MONTHLY" || !/^-?\d{1,2}(,-?\d{1,2})*$/.test(bymonthday))) return false;
  return true;
}

/**
 * The local start dates of a rule's occurrences, in order, from DTSTART on. DAILY, WEEKLY (with
 * BYDAY), MONTHLY (on DTSTART's day or BYMONTHDAY) and YEARLY rules with INTERVAL, COUNT and UNTIL.
 * Occurrences keep DTSTART's wall-clock time in its zone, so a 09:00 meeting stays at 09:00 across
 * a daylight-saving change.
 */
function* occurrences(
  event: ParsedEvent,
  rule: Map<string, string>,
  firstPeriod: number,
): Generator<LocalDateTime> {
  const freq = rule.get("FREQ");
  const interval = ruleInterval(rule);
  const first = event.start.local;
  for (let period = firstPeriod; period < firstPeriod + MAX_OCCURRENCES; period++) {
    const candidates: LocalDateTime[] = [];
    if (freq === "DAILY") candidates.push(addDays(first, period * interval));
    else if (freq === "WEEKLY") {
      const wkst = WEEKDAYS.indexOf(rule.get("WKST") ?? "MO");
      const weekStart = addDays(first, -((weekdayOf(first) - wkst + 7) % 7) + period * interval * 7);
      const days = (rule.get("BYDAY") ?? WEEKDAYS[weekdayOf(first)]!).split(",");
      for (let offset = 0; offset < 7; offset++) {
        const day = addDays(weekStart, offset);
        if (days.includes(WEEKDAYS[weekdayOf(day)]!)) candidates.push(day);
      }
    } else if (freq === "MONTHLY") {
      const monthIndex = first.month - 1 + period * interval;
      const year = first.year + Math.floor(monthIndex / 12);
      const month = (monthIndex % 12) + 1;
      const length = new Date(Date.UTC(year, month, 0)).getUTCDate();
      const days = (rule.get("BYMONTHDAY") ?? String(first.day))
        .split(",")
        .map(Number)
        .map((day) => (day < 0 ? length + 1 + day : day))
        .filter((day) => day >= 1 && day <= length)
        .sort((a, b) => a - b);
      for (const day of days) candidates.push({ ...first, year, month, day });
    } else {
      const year = first.year + period * interval;
      // 29 February happens only in leap years (RFC 5545: invalid dates are skipped).
      if (new Date(Date.UTC(year, first.month - 1, first.day)).getUTCDate() === first.day) {
        candidates.push({ ...first, year });
      }
    }
    for (const candidate of candidates) {
      if (wallClockMs(candidate) >= wallClockMs(first)) yield candidate;
    }
  }
}

function ruleInterval(rule: Map<string, string>): number {
  return Math.max(1, Number(rule.get("INTERVAL") ?? 1) || 1);
}

/**
 * The period (day, week, month or year, times INTERVAL) to start expanding from, a little before
 * `from`: a rule without COUNT that began years ago is not walked from its start. With COUNT every
 * occurrence counts, so expansion starts at the first (COUNT bounds the walk).
 */
function periodBefore(event: ParsedEvent, rule: Map<string, string>, from: number): number {
  const first = event.start.local;
  const days = (from - wallClockMs(first)) / 86_400_000;
  const months =
    (new Date(from).getUTCFullYear() - first.year) * 12 + new Date(from).getUTCMonth() + 1 - first.month;
  const periods: Record<string, number> = {
    DAILY: days,
    WEEKLY: days / 7,
    MONTHLY: months,
    YEARLY: months / 12,
  };
  return Math.max(0, Math.floor((periods[rule.get("FREQ") ?? ""] ?? 0) / ruleInterval(rule)) - 1);
}

/**
 * Busy intervals that overlap `window`, from the VEVENTs of one or more calendar objects. Recurring
 * events are expanded (see `occurrences`); a rule using parts not expanded here (BYSETPOS, BYDAY in
 * monthly rules, BYHOUR, …) counts its first occurrence only and is reported in `unexpandedRules`,
 * so that the caller can say so.
 */
export function busyIntervals(
  texts: readonly string[],
  window: Interval,
  floatingZone: string,
): { intervals: Interval[]; unexpandedRules: number } {
  const events = texts.flatMap((text) => parseEvents(text, floatingZone));
  // A RECURRENCE-ID event replaces the occurrence it names.
  const overridden = new Set(
    events
      .filter((event) => event.recurrenceId !== null)
      .map((event) => `${event.uid} ${event.recurrenceId}`),
  );
  const intervals: Interval[] = [];
  let unexpandedRules = 0;
  const add = (event: ParsedEvent, local: LocalDateTime) => {
    const start = fromLocal(local, event.start.timeZone);
    const end = event.start.allDay
      ? fromLocal(addDays(local, event.durationDays), event.start.timeZone)
      : start + event.durationMs;
    if (end > start && start < window.end && end > window.start) intervals.push({ start, end });
    return start;
  };
  for (const event of events) {
    if (event.free) continue;
    if (!event.rrule || event.recurrenceId !== null) {
      add(event, event.start.local);
      continue;
    }
    if (!isSupported(event.rrule)) {
      unexpandedRules++;
      add(event, event.start.local);
      continue;
    }
    const count = event.rrule.has("COUNT") ? Number(event.rrule.get("COUNT")) : Number.POSITIVE_INFINITY;
    const untilValue = event.rrule.get("UNTIL");
    const untilTime = untilValue
      ? parseTime({ name: "UNTIL", params: new Map(), value: untilValue }, event.start.timeZone)
      : null;
    const until = untilTime
      ? untilTime.allDay
        ? fromLocal(addDays(untilTime.local, 1), event.start.timeZone) - 1
        : instant(untilTime)
      : Number.POSITIVE_INFINITY;
    // Two days of margin cover any zone offset between the wall clock and UTC.
    const firstPeriod = Number.isFinite(count)
      ? 0
      : periodBefore(
          event,
          event.rrule,
          window.start - event.durationMs - event.durationDays * 86_400_000 - 2 * 86_400_000,
        );
    let seen = 0;
    for (const local of occurrences(event, event.rrule, firstPeriod)) {
      if (seen >= count) break;
      seen++;
      const start = fromLocal(local, event.start.timeZone);
      if (start > until || start >= window.end) break;
      if (event.exdates.has(start) || overridden.has(`${event.uid} ${start}`)) continue;
      add(event, local);
    }
  }
  return { intervals: intervals.sort((a, b) => a.start - b.start), unexpandedRules };
}
