/** The UTC offset, in milliseconds, of `timeZone` at the instant `at`. */
function offsetAt(at: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(at);
  const value = (type: string) => Number(parts.find((part) => part.type === type)!.value);
  const asUtc = Date.UTC(
    value("year"),
    value("month") - 1,
    value("day"),
    value("hour"),
    value("minute"),
    value("second"),
  );
  return asUtc - Math.floor(at / 1000) * 1000;
}

/**
 * The instant a calendar day (`YYYY-MM-DD`) begins in `timeZone`. The offset is looked up twice
 * because the first guess may fall on the other side of a daylight-saving change.
 */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  const wallClock = Date.UTC(year, month - 1, date);
  const firstGuess = wallClock - offsetAt(wallClock, timeZone);
  return new Date(wallClock - offsetAt(firstGuess, timeZone));
}

/** The day after `day`, as `YYYY-MM-DD`. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}
