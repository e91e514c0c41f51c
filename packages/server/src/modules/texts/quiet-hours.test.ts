import { describe, expect, it } from "vitest";
import { parseClockTime, quietUntil } from "./quiet-hours.ts";

const overnight = { start: 21 * 60, end: 8 * 60, timeZone: "America/New_York" };

describe("quiet hours", () => {
  it("reads HH:MM times only", () => {
    expect(parseClockTime("00:00")).toBe(0);
    expect(parseClockTime("21:30")).toBe(1290);
    for (const bad of ["24:00", "9:00", "21:60", "21h", ""]) expect(parseClockTime(bad)).toBeNull();
  });

  it("spans midnight on the account's wall clock: evening until the next morning, early morning until that morning", () => {
    // 23:15 in New York (EDT, UTC-4) on 10 March 2026 → 08:00 on 11 March; 06:00 → 08:00 that day.
    expect(quietUntil(overnight, new Date("2026-03-11T03:15:00Z"))?.toISOString()).toBe(
      "2026-03-11T12:00:00.000Z",
    );
    expect(quietUntil(overnight, new Date("2026-03-11T10:00:00Z"))?.toISOString()).toBe(
      "2026-03-11T12:00:00.000Z",
    );
    // 13:00 local: not quiet; 08:00 itself, the end, is not quiet either.
    expect(quietUntil(overnight, new Date("2026-03-11T17:00:00Z"))).toBeNull();
    expect(quietUntil(overnight, new Date("2026-03-11T12:00:00Z"))).toBeNull();
  });

  it("ends at 08:00 local across a daylight-saving change", () => {
    // 23:00 EST on Saturday 7 March 2026; clocks go forward that night: 08:00 on Sunday is EDT (UTC-4).
    expect(quietUntil(overnight, new Date("2026-03-08T04:00:00Z"))?.toISOString()).toBe(
      "2026-03-08T12:00:00.000Z",
    );
  });

  it("takes a window within one day", () => {
    const lunch = { start: 12 * 60, end: 13 * 60 + 30, timeZone: "UTC" };
    expect(quietUntil(lunch, new Date("2026-03-11T12:45:00Z"))?.toISOString()).toBe(
      "2026-03-11T13:30:00.000Z",
    );
    expect(quietUntil(lunch, new Date("2026-03-11T11:59:00Z"))).toBeNull();
  });
});
