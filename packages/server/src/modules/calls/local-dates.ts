import { fromLocal } from "../../zoned-time.ts";

/** The instant a calendar day (`YYYY-MM-DD`) begins in `timeZone`, on either side of a daylight-saving change. */
export function startOfLocalDay(day: string, timeZone: string): Date {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(fromLocal({ year, month, day: date, hour: 0, minute: 0, second: 0 }, timeZone));
}

/** The day after `day`, as `YYYY-MM-DD`. */
export function nextDay(day: string): string {
  const [year, month, date] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, date + 1)).toISOString().slice(0, 10);
}
