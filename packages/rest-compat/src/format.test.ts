import { describe, expect, it } from "vitest";
import { snakeCase, snakeCasePath, timestampA, timestampB } from "./format.ts";

describe("timestamps", () => {
  it("writes format A with six fractional digits in UTC", () => {
    expect(timestampA("2026-03-04T05:06:07.089Z")).toBe("2026-03-04T05:06:07.089000Z");
    expect(timestampA(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)))).toBe("2026-01-02T03:04:05.000000Z");
    expect(timestampA(null)).toBeNull();
  });

  it("writes format B in UTC whatever the offset of the input", () => {
    expect(timestampB("2026-03-04T05:06:07.089Z")).toBe("2026-03-04 05:06:07");
    expect(timestampB("2026-03-04T23:30:00+02:00")).toBe("2026-03-04 21:30:00");
    expect(timestampB(undefined)).toBeNull();
  });

  it("refuses values that are not timestamps", () => {
    expect(() => timestampA("yesterday")).toThrow(TypeError);
  });
});

it("turns input paths into the REST field names", () => {
  expect(snakeCasePath("secondaryContacts.0.phoneNumber")).toBe("secondary_contacts.0.phone_number");
  expect(snakeCasePath("name")).toBe("name");
});

it("converts a name the same way every time it is asked (the conversion is remembered)", () => {
  for (let round = 0; round < 3; round++) {
    expect(snakeCase("endCallOnVoicemail")).toBe("end_call_on_voicemail");
    expect(snakeCase("id")).toBe("id");
  }
});
