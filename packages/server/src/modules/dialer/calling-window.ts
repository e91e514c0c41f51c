/** A campaign's daily calling window: local "HH:MM" times in an IANA time zone, start before end. */
export interface CallingWindow {
  callingWindowStart: string;
  callingWindowEnd: string;
  timezone: string;
}

const minutesOf = (clock: string) => {
  const [hours, minutes] = clock.split(":").map(Number) as [number, number];
  return hours * 60 + minutes;
};

/** Minutes since local midnight in `timeZone` at the instant `at`. */
export function localMinuteOfDay(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    hour: "2-digit",
    minute: "2-digit",
  }).formatToParts(at);
  const value = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  return value("hour") * 60 + value("minute");
}

/**
 * Whether a call may start at `at`: from the start minute up to, not including, the end minute,
 * read on the wall clock of the campaign's zone (so a window follows daylight-saving changes).
 */
export function isWithinCallingWindow(at: Date, window: CallingWindow): boolean {
  const minute = localMinuteOfDay(at, window.timezone);
  return minute >= minutesOf(window.callingWindowStart) && minute < minutesOf(window.callingWindowEnd);
}
