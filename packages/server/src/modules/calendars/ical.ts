/**
 * Reading the part of iCalendar (RFC 5545) that busy time needs: VEVENTs with their times,
 * transparency, status and recurrence properties (RRULE, EXDATE, RECURRENCE-ID). `busy-time.ts`
 * expands them into busy intervals; `ical-writer.ts` writes the events Voxgate makes.
 */
import { fromLocal, isKnownTimeZone, type LocalDateTime, wallClockMs } from "../../zoned-time.ts";

/** When an event starts: a wall clock in a zone ("UTC" for …Z times), or a whole (floating) day. */
export interface EventTime {
  local: LocalDateTime;
  timeZone: string;
  allDay: boolean;
}

export interface ParsedEvent {
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
export function parseTime(property: Property, floatingZone: string): EventTime | null {
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

export function instant(time: EventTime): number {
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
