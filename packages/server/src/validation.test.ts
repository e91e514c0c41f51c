import { describe, expect, it } from "vitest";
import { ianaTimezone } from "./validation.ts";

describe("ianaTimezone", () => {
  const zone = ianaTimezone();

  it("takes the names people pick, current ones included where the runtime lists an older alias", () => {
    for (const name of [
      "Europe/Paris",
      "UTC",
      "Etc/UTC",
      "Asia/Kolkata",
      "Asia/Calcutta",
      "Asia/Kathmandu",
      "Europe/Kyiv",
      "America/Nuuk",
      "America/Argentina/Buenos_Aires",
    ])
      expect(zone.safeParse(name), name).toMatchObject({ success: true, data: name });
  });

  it("refuses what is not a zone's IANA name", () => {
    for (const name of ["Mars/Olympus", "europe/paris", "+05:30", "GMT+5", "Paris", "", "Europe/Paris "])
      expect(zone.safeParse(name).success, name).toBe(false);
  });
});
