import { addDays, fromLocal, toLocal } from "../../zoned-time.ts";

/** An account's quiet hours for outbound texts: minutes after local midnight, `end` excluded. */
export interface QuietHours {
  start: number;
  end: number;
  timeZone: string;
}

/** "21:30" → 1290; null for anything but a 24-hour HH:MM time. */
export function parseClockTime(value: string): number | null {
  const match = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

export function formatClockTime(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/**
 * When the quiet hours around `at` end, or null when `at` is outside them. A window whose start is
 * after its end spans midnight (21:00 to 08:00). Read on the account's wall clock, so a window keeps
 * its local times across daylight-saving changes.
 */
export function quietUntil(hours: QuietHours, at: Date): Date | null {
  const local = toLocal(at.getTime(), hours.timeZone);
  const minute = local.hour * 60 + local.minute;
  const overnight = hours.start > hours.end;
  const quiet = overnight
    ? minute >= hours.start || minute < hours.end
    : minute >= hours.start && minute < hours.end;
  if (!quiet) return null;
  const endDay = overnight && minute >= hours.start ? addDays(local, 1) : local;
  return new Date(
    fromLocal(
      { ...endDay, hour: Math.floor(hours.end / 60), minute: hours.end % 60, second: 0 },
      hours.timeZone,
    ),
  );
}
