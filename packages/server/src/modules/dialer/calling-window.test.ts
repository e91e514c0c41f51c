import { describe, expect, it } from "vitest";
import { isWithinCallingWindow, localMinuteOfDay } from "./calling-window.ts";

const window = (timezone: string) => ({ callingWindowStart: "09:00", callingWindowEnd: "17:00", timezone });

describe("calling window", () => {
  it("reads the time on the campaign's wall clock", () => {
    // 14:30 UTC is 09:30 in New York (EST, UTC-5) and 23:30 in Tokyo.
    const at = new Date("2026-01-15T14:30:00Z");
    expect(localMinuteOfDay(at, "America/New_York")).toBe(9 * 60 + 30);
    expect(isWithinCallingWindow(at, window("America/New_York"))).toBe(true);
    expect(isWithinCallingWindow(at, window("Asia/Tokyo"))).toBe(false);
  });

  it("includes the start minute and excludes the end minute", () => {
    expect(isWithinCallingWindow(new Date("2026-01-15T09:00:00Z"), window("UTC"))).toBe(true);
    expect(isWithinCallingWindow(new Date("2026-01-15T08:59:59Z"), window("UTC"))).toBe(false);
    expect(isWithinCallingWindow(new Date("2026-01-15T16:59:59Z"), window("UTC"))).toBe(true);
    expect(isWithinCallingWindow(new Date("2026-01-15T17:00:00Z"), window("UTC"))).toBe(false);
  });

  it("follows daylight saving time", () => {
    // 13:30 UTC is 08:30 in New York in winter (closed) and 09:30 in summer (EDT, open).
    expect(isWithinCallingWindow(new Date("2026-01-15T13:30:00Z"), window("America/New_York"))).toBe(false);
    expect(isWithinCallingWindow(new Date("2026-07-15T13:30:00Z"), window("America/New_York"))).toBe(true);
  });
});
