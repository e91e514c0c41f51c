import { describe, expect, it } from "vitest";
import { nextDay, startOfLocalDay } from "./local-dates.ts";

describe("startOfLocalDay", () => {
  it("finds local midnight on both sides of a daylight-saving change", () => {
    // New York moved to daylight time at 02:00 on 8 March 2026: midnight that day was still EST.
    expect(startOfLocalDay("2026-03-08", "America/New_York").toISOString()).toBe("2026-03-08T05:00:00.000Z");
    expect(startOfLocalDay("2026-03-09", "America/New_York").toISOString()).toBe("2026-03-09T04:00:00.000Z");
    expect(startOfLocalDay("2026-07-01", "Asia/Kolkata").toISOString()).toBe("2026-06-30T18:30:00.000Z");
    expect(startOfLocalDay("2026-01-15", "UTC").toISOString()).toBe("2026-01-15T00:00:00.000Z");
  });

  it("steps over month and year ends", () => {
    expect(nextDay("2026-02-28")).toBe("2026-03-01");
    expect(nextDay("2026-12-31")).toBe("2027-01-01");
  });
});
