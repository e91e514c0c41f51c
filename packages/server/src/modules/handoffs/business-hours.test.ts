import { describe, expect, it } from "vitest";
import { describeLocal, isOpen, nextOpening, type WeeklySchedule } from "./business-hours.ts";

const weekdays = (start: string, end: string) =>
  Object.fromEntries(["mon", "tue", "wed", "thu", "fri"].map((day) => [day, [{ start, end }]]));

const berlin: WeeklySchedule = { timezone: "Europe/Berlin", hours: weekdays("09:00", "17:00") };

describe("business hours", () => {
  it("is open inside a range on the zone's wall clock, closed at its end and on closed days", () => {
    // Wednesday 2026-03-04: Berlin is UTC+1.
    expect(isOpen(berlin, new Date("2026-03-04T08:00:00Z"))).toBe(true); // 09:00 local
    expect(isOpen(berlin, new Date("2026-03-04T07:59:59Z"))).toBe(false);
    expect(isOpen(berlin, new Date("2026-03-04T16:00:00Z"))).toBe(false); // 17:00 local: end excluded
    expect(isOpen(berlin, new Date("2026-03-07T10:00:00Z"))).toBe(false); // Saturday
  });

  it("keeps local times across a daylight-saving change", () => {
    // Monday 2026-03-30, after the change: Berlin is UTC+2, so 09:00 local is 07:00Z.
    expect(isOpen(berlin, new Date("2026-03-30T07:00:00Z"))).toBe(true);
    expect(isOpen(berlin, new Date("2026-03-30T06:59:00Z"))).toBe(false);
  });

  it("reads 24:00 as the end of the day and ranges past midnight UTC in their own day", () => {
    const late: WeeklySchedule = {
      timezone: "America/Los_Angeles",
      hours: { fri: [{ start: "18:00", end: "24:00" }] },
    };
    // Friday 2026-03-06 23:30 in Los Angeles (UTC-8) is Saturday 07:30Z.
    expect(isOpen(late, new Date("2026-03-07T07:30:00Z"))).toBe(true);
    expect(isOpen(late, new Date("2026-03-07T08:00:00Z"))).toBe(false);
  });

  it("says when it next opens: now when open, the next range otherwise, null when it never opens", () => {
    const friday = new Date("2026-03-06T17:00:00Z"); // Friday 18:00 in Berlin
    const monday = nextOpening(berlin, friday);
    expect(monday?.toISOString()).toBe("2026-03-09T08:00:00.000Z");
    expect(describeLocal(monday!, "Europe/Berlin")).toBe("Monday 09:00 (Europe/Berlin)");
    const open = new Date("2026-03-04T10:00:00Z");
    expect(nextOpening(berlin, open)).toEqual(open);
    expect(nextOpening({ timezone: "UTC", hours: {} }, open)).toBeNull();
    expect(isOpen({ timezone: "UTC", hours: null }, open)).toBe(true);
  });
});
