import { describe, expect, it } from "vitest";
import { busyIntervals } from "./busy-time.ts";
import { parseEvents } from "./ical.ts";
import { eventToICalendar } from "./ical-writer.ts";

const calendar = (...events: string[][]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    ...events.flatMap((lines) => ["BEGIN:VEVENT", ...lines, "END:VEVENT"]),
    "END:VCALENDAR",
  ].join("\r\n");
const window = (from: string, to: string) => ({ start: Date.parse(from), end: Date.parse(to) });
const iso = (intervals: { start: number; end: number }[]) =>
  intervals.map(
    (interval) => `${new Date(interval.start).toISOString()}/${new Date(interval.end).toISOString()}`,
  );

describe("iCalendar busy time", () => {
  it("reads UTC, TZID, floating and all-day times, with folded lines and quoted parameters", () => {
    const text = calendar(
      ["UID:a", "DTSTART:20261109T140000Z", "DTEND:20261109T150000Z"],
      ["UID:b", 'DTSTART;TZID="/mozilla.org/20050126_1/Europe/Berlin":20261110T090000', "DURATION:PT1H30M"],
      ["UID:c", "DTSTART:20261111T090000", "DTEND:20261111T100000"],
      ["UID:d", "DTSTART;VALUE=DATE:20261112", "DTEND;VALUE=DATE:20261113"],
      [
        "UID:e",
        "DTSTART;TZID=America/New_Yo",
        " rk:20261113T090000",
        "DTEND;TZID=America/New_York:20261113T093000",
      ],
    );
    const { intervals } = busyIntervals(
      [text],
      window("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"),
      "Asia/Tokyo",
    );
    expect(iso(intervals)).toEqual([
      "2026-11-09T14:00:00.000Z/2026-11-09T15:00:00.000Z",
      "2026-11-10T08:00:00.000Z/2026-11-10T09:30:00.000Z",
      // Floating and all-day times are read in the calendar's zone (Tokyo, UTC+9).
      "2026-11-11T00:00:00.000Z/2026-11-11T01:00:00.000Z",
      "2026-11-11T15:00:00.000Z/2026-11-12T15:00:00.000Z",
      "2026-11-13T14:00:00.000Z/2026-11-13T14:30:00.000Z",
    ]);
  });

  it("ignores transparent and cancelled events, and components inside events (alarms)", () => {
    const text = calendar(
      ["UID:free", "DTSTART:20261109T140000Z", "DTEND:20261109T150000Z", "TRANSP:TRANSPARENT"],
      ["UID:off", "DTSTART:20261109T160000Z", "DTEND:20261109T170000Z", "STATUS:CANCELLED"],
      [
        "UID:busy",
        "DTSTART:20261109T180000Z",
        "DTEND:20261109T190000Z",
        "BEGIN:VALARM",
        "TRIGGER:-PT15M",
        "DTSTART:20000101T000000Z",
        "END:VALARM",
      ],
    );
    const { intervals } = busyIntervals(
      [text],
      window("2026-11-09T00:00:00Z", "2026-11-10T00:00:00Z"),
      "UTC",
    );
    expect(iso(intervals)).toEqual(["2026-11-09T18:00:00.000Z/2026-11-09T19:00:00.000Z"]);
  });

  it("expands a weekly rule on the wall clock of its zone across a daylight-saving change, with EXDATE and an override", () => {
    const text = calendar(
      [
        "UID:standup",
        "DTSTART;TZID=America/New_York:20261026T090000",
        "DTEND;TZID=America/New_York:20261026T093000",
        "RRULE:FREQ=WEEKLY;BYDAY=MO,WE;COUNT=6",
        "EXDATE;TZID=America/New_York:20261028T090000",
      ],
      [
        "UID:standup",
        "RECURRENCE-ID;TZID=America/New_York:20261102T090000",
        "DTSTART;TZID=America/New_York:20261102T110000",
        "DTEND;TZID=America/New_York:20261102T113000",
      ],
    );
    const { intervals, unexpandedRules } = busyIntervals(
      [text],
      window("2026-10-01T00:00:00Z", "2026-12-31T00:00:00Z"),
      "UTC",
    );
    expect(unexpandedRules).toBe(0);
    expect(iso(intervals)).toEqual([
      "2026-10-26T13:00:00.000Z/2026-10-26T13:30:00.000Z",
      // 28 Oct is excluded; 2 Nov moved to 11:00 (EST now, UTC-5).
      "2026-11-02T16:00:00.000Z/2026-11-02T16:30:00.000Z",
      "2026-11-04T14:00:00.000Z/2026-11-04T14:30:00.000Z",
      "2026-11-09T14:00:00.000Z/2026-11-09T14:30:00.000Z",
      "2026-11-11T14:00:00.000Z/2026-11-11T14:30:00.000Z",
    ]);
  });

  it("finds a daily rule that began years ago, stops at UNTIL, and skips days a monthly rule lacks", () => {
    const text = calendar(
      ["UID:old", "DTSTART:20100101T120000Z", "DTEND:20100101T130000Z", "RRULE:FREQ=DAILY"],
      [
        "UID:ended",
        "DTSTART:20261101T080000Z",
        "DTEND:20261101T090000Z",
        "RRULE:FREQ=DAILY;UNTIL=20261110T080000Z",
      ],
      ["UID:monthly", "DTSTART:20260131T100000Z", "DTEND:20260131T110000Z", "RRULE:FREQ=MONTHLY"],
    );
    const { intervals } = busyIntervals(
      [text],
      window("2026-11-10T00:00:00Z", "2026-12-02T00:00:00Z"),
      "UTC",
    );
    const days = iso(intervals);
    expect(days).toContain("2026-11-10T12:00:00.000Z/2026-11-10T13:00:00.000Z");
    expect(days).toContain("2026-12-01T12:00:00.000Z/2026-12-01T13:00:00.000Z");
    expect(days).toContain("2026-11-10T08:00:00.000Z/2026-11-10T09:00:00.000Z");
    expect(days).not.toContain("2026-11-11T08:00:00.000Z/2026-11-11T09:00:00.000Z");
    // 31 November does not exist: the monthly rule has no occurrence in this window.
    expect(days.filter((day) => day.includes("T10:00"))).toEqual([]);
    expect(intervals).toHaveLength(22 + 1);
  });

  it("counts only the first occurrence of a rule it does not expand, and says so", () => {
    const text = calendar([
      "UID:x",
      "DTSTART:20261102T100000Z",
      "DTEND:20261102T110000Z",
      "RRULE:FREQ=MONTHLY;BYDAY=1MO",
    ]);
    const { intervals, unexpandedRules } = busyIntervals(
      [text],
      window("2026-11-01T00:00:00Z", "2027-01-01T00:00:00Z"),
      "UTC",
    );
    expect(unexpandedRules).toBe(1);
    expect(iso(intervals)).toEqual(["2026-11-02T10:00:00.000Z/2026-11-02T11:00:00.000Z"]);
  });
});

describe("eventToICalendar", () => {
  it("writes UTC times, escapes text and folds long lines so that a parser reads it back", () => {
    const text = eventToICalendar(
      {
        uid: "vg-1",
        start: new Date("2026-11-09T14:00:00Z"),
        end: new Date("2026-11-09T14:30:00Z"),
        summary: "Consultation; Jürgen, ünïcödé",
        description: `${"long text ".repeat(20)}\nsecond line`,
      },
      new Date("2026-11-01T00:00:00Z"),
    );
    expect(text).toContain("DTSTART:20261109T140000Z\r\n");
    expect(text).toContain("SUMMARY:Consultation\\; Jürgen\\, ünïcödé\r\n");
    for (const line of text.split("\r\n")) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    const [event] = parseEvents(text, "UTC");
    expect(event?.uid).toBe("vg-1");
    expect(event?.durationMs).toBe(30 * 60_000);
  });
});
