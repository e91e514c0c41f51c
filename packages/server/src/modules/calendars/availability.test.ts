import { describe, expect, it } from "vitest";
import { fromLocal } from "../../zoned-time.ts";
import { type AvailabilityRules, availableSlots } from "./availability.ts";

const weekdays = { start: "09:00", end: "17:00" };
const rules = (overrides: Partial<AvailabilityRules> = {}): AvailabilityRules => ({
  durationMinutes: 60,
  bufferBeforeMinutes: 0,
  bufferAfterMinutes: 0,
  minimumNoticeMinutes: 0,
  horizonDays: 365,
  timezone: "UTC",
  businessHours: { mon: [weekdays], tue: [weekdays], wed: [weekdays], thu: [weekdays], fri: [weekdays] },
  slotGranularityMinutes: 60,
  ...overrides,
});
const iso = (slots: { start: number; end: number }[]) =>
  slots.map((slot) => new Date(slot.start).toISOString());
const at = (text: string) => new Date(text);
const long_ago = at("2026-01-01T00:00:00Z");

describe("availableSlots across daylight-saving changes", () => {
  it("keeps 09:00-17:00 on the wall clock in New York through the week clocks go back (1 Nov 2026)", () => {
    const slots = availableSlots({
      rules: rules({ timezone: "America/New_York" }),
      busy: [],
      from: at("2026-10-29T00:00:00Z"),
      to: at("2026-11-05T00:00:00Z"),
      now: long_ago,
    });
    const starts = iso(slots);
    // Thursday and Friday in EDT (UTC-4), Monday to Wednesday in EST (UTC-5); no weekend slots.
    expect(starts.filter((start) => start.startsWith("2026-10-30"))).toEqual(
      [13, 14, 15, 16, 17, 18, 19, 20].map((hour) => `2026-10-30T${hour}:00:00.000Z`),
    );
    expect(starts.filter((start) => start.startsWith("2026-11-02"))).toEqual(
      [14, 15, 16, 17, 18, 19, 20, 21].map((hour) => `2026-11-02T${hour}:00:00.000Z`),
    );
    expect(starts.some((start) => start.startsWith("2026-10-31") || start.startsWith("2026-11-01"))).toBe(
      false,
    );
    expect(slots).toHaveLength(5 * 8);
  });

  it("keeps 09:00-17:00 on the wall clock in Berlin through the week clocks go forward (29 Mar 2026)", () => {
    const slots = availableSlots({
      rules: rules({ timezone: "Europe/Berlin", durationMinutes: 30, slotGranularityMinutes: 30 }),
      busy: [],
      from: at("2026-03-26T00:00:00Z"),
      to: at("2026-04-02T00:00:00Z"),
      now: long_ago,
    });
    const starts = iso(slots);
    expect(starts.filter((start) => start.startsWith("2026-03-27"))[0]).toBe("2026-03-27T08:00:00.000Z");
    expect(starts.filter((start) => start.startsWith("2026-03-27")).at(-1)).toBe("2026-03-27T15:30:00.000Z");
    expect(starts.filter((start) => start.startsWith("2026-03-30"))[0]).toBe("2026-03-30T07:00:00.000Z");
    expect(starts.filter((start) => start.startsWith("2026-03-30")).at(-1)).toBe("2026-03-30T14:30:00.000Z");
    expect(slots).toHaveLength(5 * 16);
  });

  it("offers the real hours of a night whose clock skips an hour (Berlin) or repeats one (New York)", () => {
    const night = { sun: [{ start: "01:00", end: "04:00" }] };
    const spring = availableSlots({
      rules: rules({ timezone: "Europe/Berlin", businessHours: night }),
      busy: [],
      from: at("2026-03-28T00:00:00Z"),
      to: at("2026-03-30T00:00:00Z"),
      now: long_ago,
    });
    // 01:00 CET to 04:00 CEST is two real hours: 01:00 and 03:00 local.
    expect(iso(spring)).toEqual(["2026-03-29T00:00:00.000Z", "2026-03-29T01:00:00.000Z"]);

    const autumn = availableSlots({
      rules: rules({
        timezone: "America/New_York",
        businessHours: { sun: [{ start: "00:00", end: "03:00" }] },
      }),
      busy: [],
      from: at("2026-10-31T00:00:00Z"),
      to: at("2026-11-03T00:00:00Z"),
      now: long_ago,
    });
    // 00:00 EDT to 03:00 EST is four real hours (01:00 happens twice).
    expect(iso(autumn)).toEqual([
      "2026-11-01T04:00:00.000Z",
      "2026-11-01T05:00:00.000Z",
      "2026-11-01T06:00:00.000Z",
      "2026-11-01T07:00:00.000Z",
    ]);
  });

  it("reads a wall-clock time that never happens with the offset before the change", () => {
    const local = { year: 2026, month: 3, day: 8, hour: 2, minute: 30, second: 0 };
    expect(new Date(fromLocal(local, "America/New_York")).toISOString()).toBe("2026-03-08T07:30:00.000Z");
    const repeated = { year: 2026, month: 11, day: 1, hour: 1, minute: 30, second: 0 };
    expect(new Date(fromLocal(repeated, "America/New_York")).toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });
});

describe("availableSlots rules", () => {
  const monday = { from: at("2026-11-09T00:00:00Z"), to: at("2026-11-10T00:00:00Z"), now: long_ago };

  it("removes slots that overlap busy time, with the buffers around each slot", () => {
    const busy = [{ start: at("2026-11-09T12:00:00Z").getTime(), end: at("2026-11-09T13:00:00Z").getTime() }];
    const plain = availableSlots({ rules: rules(), busy, ...monday });
    expect(iso(plain)).not.toContain("2026-11-09T12:00:00.000Z");
    expect(iso(plain)).toContain("2026-11-09T11:00:00.000Z");
    expect(iso(plain)).toContain("2026-11-09T13:00:00.000Z");

    const buffered = availableSlots({
      rules: rules({ bufferBeforeMinutes: 15, bufferAfterMinutes: 15 }),
      busy,
      ...monday,
    });
    // 11:00-12:00 needs 12:00-12:15 free after it; 13:00-14:00 needs 12:45-13:00 free before it.
    expect(iso(buffered)).not.toContain("2026-11-09T11:00:00.000Z");
    expect(iso(buffered)).not.toContain("2026-11-09T13:00:00.000Z");
    expect(iso(buffered)).toContain("2026-11-09T10:00:00.000Z");
    expect(iso(buffered)).toContain("2026-11-09T14:00:00.000Z");
  });

  it("honours the minimum notice, the booking horizon and the slot granularity", () => {
    const now = at("2026-11-09T10:20:00Z");
    const noticed = availableSlots({
      rules: rules({ minimumNoticeMinutes: 120, slotGranularityMinutes: 30 }),
      busy: [],
      ...monday,
      now,
    });
    expect(iso(noticed)[0]).toBe("2026-11-09T12:30:00.000Z");
    expect(iso(noticed).at(-1)).toBe("2026-11-09T16:00:00.000Z");

    const horizon = availableSlots({
      rules: rules({ horizonDays: 1 }),
      busy: [],
      from: at("2026-11-09T00:00:00Z"),
      to: at("2026-11-12T00:00:00Z"),
      now: at("2026-11-09T12:00:00Z"),
    });
    expect(iso(horizon)[0]).toBe("2026-11-09T12:00:00.000Z");
    expect(iso(horizon).at(-1)).toBe("2026-11-10T11:00:00.000Z");
  });

  it("offers nothing on closed days and never a slot that runs past the end of business hours", () => {
    const slots = availableSlots({
      rules: rules({ durationMinutes: 45, slotGranularityMinutes: 30 }),
      busy: [],
      from: at("2026-11-07T00:00:00Z"),
      to: at("2026-11-10T00:00:00Z"),
      now: long_ago,
    });
    expect(iso(slots)[0]).toBe("2026-11-09T09:00:00.000Z");
    expect(iso(slots).at(-1)).toBe("2026-11-09T16:00:00.000Z");
  });
});
