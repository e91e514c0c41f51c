/**
 * The part of iCalendar (RFC 5545) that busy time needs: VEVENTs with their times, transparency,
 * status, recurrence (RRULE, EXDATE, RECURRENCE-ID) and the event text Voxgate writes.
 */
import {
  addDays,
  fromLocal,
  isKnownTimeZone,
  type LocalDateTime,
  wallClockMs,
  weekdayOf,
} from "../../zoned-time.ts";

export interface Interval {
  start: number;
  end: number;
}

/** When an event starts: a wall clock in a zone ("UTC" for …Z times), or a whole (floating) day. */
interface EventTime {
  local: LocalDateTime;
  timeZone: string;
  allDay: boolean;
}

interface ParsedEvent {
  uid: string;
  start: EventTime;
  /** Exact length of a timed event; whole days of an all-day one. */
  durationMs: number;
  durationDays: number;
  rrule: Map<string, string> | null;
  exdates: Set<number>;
  recurrenceId: number | null;
  /** TRANSP:TRANSPARENT or STATUS:CANCELLED: shown in the calendar, but not busy. */
  free: boolean;
}

interface Property {
  name: string;
  params: Map<string, string>;
  value: string;
}

/** Lines of a content stream with folding undone (RFC 5545 3.1: CRLF followed by a space or tab). */
function unfold(text: string): string[] {
  return text
    .replace(/\r?\n[ \t]/g, "")
    .split(/\r?\n/)
    .filter((line) => line.length > 0);
}

/** NAME;PARAM=VALUE;PARAM="quoted:value":VALUE — the first colon outside quotes ends the parameters. */
function parseLine(line: string): Property | null {
  let quoted = false;
  let colon = -1;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (char === '"') quoted = !quoted;
    else if (char === ":" && !quoted) {
      colon = index;
      break;
    }
  }
  if (colon < 0) return null;
  const [name = "", ...rawParams] = splitOutsideQuotes(line.slice(0, colon), ";");
  const params = new Map<string, string>();
  for (const param of rawParams) {
    const equals = param.indexOf("=");
    if (equals > 0) {
      params.set(param.slice(0, equals).toUpperCase(), param.slice(equals + 1).replace(/^"|"$/g, ""));
    }
  }
  return { name: name.toUpperCase(), params, value: line.slice(colon + 1) };
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const parts: string[] = [];
  let quoted = false;
  let current = "";
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    if (char === separator && !quoted) {
      parts.push(current);
      current = "";
    } else current += char;
  }
  parts.push(current);
  return parts;
}

/**
 * A TZID as Intl knows it. Clients often prefix IANA names (`/mozilla.org/20050126_1/Europe/Berlin`);
 * a name Intl does not know (a Windows zone name with only a VTIMEZONE to define it) falls back to
 * the calendar's zone, the best guess without interpreting VTIMEZONE rules.
 */
function resolveZone(tzid: string | undefined, fallback: string): string {
  if (!tzid) return fallback;
  if (isKnownTimeZone(tzid)) return tzid;
  const iana = tzid.match(/[A-Za-z_]+\/[A-Za-z_+-]+(?:\/[A-Za-z_+-]+)?$/)?.[0];
  return iana && isKnownTimeZone(iana) ? iana : fallback;
}

/** DTSTART-like values: 20261108T093000Z (UTC), 20261108T093000 with TZID or floating, 20261108 (a day). */
function parseTime(property: Property, floatingZone: string): EventTime | null {
  const match = property.value.trim().match(/^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/);
  if (!match) return null;
  const [, year, month, day, hour, minute, second, utc] = match;
  const local = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour ?? 0),
    minute: Number(minute ?? 0),
    second: Number(second ?? 0),
  };
  if (hour === undefined || property.params.get("VALUE") === "DATE") {
    return { local, timeZone: floatingZone, allDay: true };
  }
  const timeZone = utc ? "UTC" : resolveZone(property.params.get("TZID"), floatingZone);
  return { local, timeZone, allDay: false };
}

function instant(time: EventTime): number {
  return fromLocal(time.local, time.timeZone);
}

/** An iCalendar DURATION (P1DT2H, PT30M, P2W) in ms; null when malformed. */
function parseDuration(value: string): { ms: number; days: number } | null {
  const match = value.trim().match(/^([+-])?P(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$/);
  if (!match) return null;
  const [, sign, weeks, days, hours, minutes, seconds] = match;
  const wholeDays = Number(weeks ?? 0) * 7 + Number(days ?? 0);
  const ms =
    (wholeDays * 86_400 + Number(hours ?? 0) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0)) *
    1000;
  return sign === "-" ? null : { ms, days: wholeDays };
}

/** Each VEVENT's UID and start instant (a floating time read as UTC). */
export function eventStarts(text: string): { uid: string; start: number }[] {
  return parseEvents(text, "UTC").map((event) => ({ uid: event.uid, start: instant(event.start) }));
}

/** The VEVENTs of a VCALENDAR text; events without a usable DTSTART are skipped. */
export function parseEvents(text: string, floatingZone: string): ParsedEvent[] {
  const events: ParsedEvent[] = [];
  let current: Property[] | null = null;
  // Nested components (VALARM) belong to the event but carry none of the properties read here.
  let nested = 0;
  for (const line of unfold(text)) {
    const property = parseLine(line);
    if (!property) continue;
    if (property.name === "BEGIN") {
      if (property.value.toUpperCase() === "VEVENT" && current === null) current = [];
      else if (current) nested++;
    } else if (property.name === "END") {
      if (current && nested > 0) nested--;
      else if (current && property.value.toUpperCase() === "VEVENT") {
        const event = toEvent(current, floatingZone);
        if (event) events.push(event);
        current = null;
      }
    } else if (current && nested === 0) current.push(property);
  }
  return events;
}

function toEvent(properties: Property[], floatingZone: string): ParsedEvent | null {
  const find = (name: string) => properties.find((property) => property.name === name);
  const dtstart = find("DTSTART");
  const start = dtstart ? parseTime(dtstart, floatingZone) : null;
  if (!start) return null;
  const startMs = instant(start);
  let durationMs = 0;
  let durationDays = start.allDay ? 1 : 0;
  const dtend = find("DTEND");
  const end = dtend ? parseTime(dtend, floatingZone) : null;
  const duration = find("DURATION");
  if (end) {
    durationMs = Math.max(0, instant(end) - startMs);
    durationDays = Math.max(0, Math.round((wallClockMs(end.local) - wallClockMs(start.local)) / 86_400_000));
  } else if (duration) {
    const parsed = parseDuration(duration.value);
    if (parsed) {
      durationMs = parsed.ms;
      durationDays = parsed.days;
    }
  } else if (start.allDay) durationMs = 86_400_000;

  const exdates = new Set<number>();
  for (const property of properties.filter((candidate) => candidate.name === "EXDATE")) {
    for (const value of property.value.split(",")) {
      const time = parseTime({ ...property, value }, start.timeZone);
      if (time) exdates.add(instant(time));
    }
  }
  const recurrence = find("RECURRENCE-ID");
  const recurrenceTime = recurrence ? parseTime(recurrence, start.timeZone) : null;
  const rrule = find("RRULE");
  return {
    uid: find("UID")?.value ?? "",
    start,
    durationMs,
    durationDays,
    rrule: rrule ? parseRule(rrule.value) : null,
    exdates,
    recurrenceId: recurrenceTime ? instant(recurrenceTime) : null,
    free:
      find("TRANSP")?.value.trim().toUpperCase() === "TRANSPARENT" ||
      find("STATUS")?.value.trim().toUpperCase() === "CANCELLED",
  };
}

function parseRule(value: string): Map<string, string> {
  const rule = new Map<string, string>();
  for (const part of value.split(";")) {
    const [key, ruleValue] = part.split("=");
    if (key && ruleValue !== undefined) rule.set(key.trim().toUpperCase(), ruleValue.trim().toUpperCase());
  }
  return rule;
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

/** What Voxgate writes to a calendar. */
export interface CalendarEvent {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  description?: string;
  /**
   * Who the event is with. Booking systems (Cal.com, `booksAttendees`) need it: a name and an email
   * or phone number; calendars keep the event as summary and description say.
   */
  attendee?: { name: string; email?: string; phone?: string; timeZone: string; language?: string };
}

/** A VCALENDAR with one VEVENT, times in UTC, text escaped and lines folded at 75 octets. */
export function eventToICalendar(event: CalendarEvent, now: Date): string {
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Voxgate//Calendars//EN",
    "CALSCALE:GREGORIAN",
    "BEGIN:VEVENT",
    `UID:${escapeText(event.uid)}`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART:${utcStamp(event.start)}`,
    `DTEND:${utcStamp(event.end)}`,
    `SUMMARY:${escapeText(event.summary)}`,
    ...(event.description ? [`DESCRIPTION:${escapeText(event.description)}`] : []),
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}

function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}/, "")
    .replace(/[-:]/g, "");
}

function escapeText(text: string): string {
  return text.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");
}

/** Lines longer than 75 octets continue on lines starting with a space, never inside a character. */
function fold(line: string): string {
  const parts: string[] = [];
  let current = "";
  let currentBytes = 0;
  for (const char of line) {
    const bytes = Buffer.byteLength(char);
    const limit = parts.length === 0 ? 75 : 74;
    if (currentBytes + bytes > limit) {
      parts.push(current);
      current = "";
      currentBytes = 0;
    }
    current += char;
    currentBytes += bytes;
  }
  parts.push(current);
  return parts.join("\r\n ");
}
