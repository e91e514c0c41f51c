/**
 * Times of appointments and slots as the business sees them: on the wall clock of the appointment
 * type's (or appointment's) zone, never the browser's, with the zone named so nobody misreads them.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

function format(timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${timeZone}|${JSON.stringify(options)}`;
  let result = formats.get(key);
  if (!result) {
    result = new Intl.DateTimeFormat(undefined, { ...options, timeZone });
    formats.set(key, result);
  }
  return result;
}

/** "Mon, 30 Nov 2026, 09:30 CET" in `timeZone`. */
export function formatInZone(iso: string, timeZone: string): string {
  return format(timeZone, {
    weekday: "short",
    day: "numeric",
    month: "short",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    timeZoneName: "short",
  }).format(new Date(iso));
}

/** "09:30" in `timeZone`. */
export function formatTime(iso: string, timeZone: string): string {
  return format(timeZone, { hour: "2-digit", minute: "2-digit" }).format(new Date(iso));
}

/** "Mon, 30 Nov" in `timeZone`. */
export function formatDay(iso: string, timeZone: string): string {
  return format(timeZone, { weekday: "short", day: "numeric", month: "short" }).format(new Date(iso));
}

/** Slots grouped by their local day in `timeZone`, in order. */
export function slotsByDay<T extends { start: string }>(slots: T[], timeZone: string): [day: string, T[]][] {
  const days = new Map<string, T[]>();
  for (const slot of slots) {
    const day = formatDay(slot.start, timeZone);
    days.set(day, [...(days.get(day) ?? []), slot]);
  }
  return [...days];
}

/** The browser's zone, the default for a new appointment type. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** Every IANA zone the browser knows, for a datalist. */
export function timeZones(): string[] {
  return Intl.supportedValuesOf("timeZone");
}
