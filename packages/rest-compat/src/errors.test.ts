import { describe, expect, it } from "vitest";
import { restErrorOf, STATUS_BY_CODE } from "./errors.ts";

describe("restErrorOf", () => {
  it("maps codes to statuses and field paths to snake_case", () => {
    expect(
      restErrorOf({
        message: "The phone number field is required.",
        extensions: { code: "VALIDATION_FAILED", fields: { "secondaryContacts.0.phoneNumber": ["x"] } },
      }),
    ).toEqual({
      status: 422,
      code: "VALIDATION_FAILED",
      message: "The phone number field is required.",
      fields: { "secondary_contacts.0.phone_number": ["x"] },
    });
    expect(
      restErrorOf({ message: "Slow down.", extensions: { code: "RATE_LIMITED", retryAfter: 12 } }),
    ).toMatchObject({
      status: 429,
      retryAfter: 12,
    });
    expect(STATUS_BY_CODE.UNAUTHENTICATED).toBe(401);
  });

  it("hides unexpected errors behind a 500", () => {
    expect(
      restErrorOf({ message: "Unexpected error.", extensions: { code: "INTERNAL_SERVER_ERROR" } }),
    ).toEqual({
      status: 500,
      code: "INTERNAL_SERVER_ERROR",
      message: "Server Error",
    });
  });

  it("turns GraphQL variable coercion errors into field validation errors", () => {
    expect(
      restErrorOf({
        message:
          'Variable "$input" got invalid value 42 at "input.name"; String cannot represent a non string value: 42',
      }),
    ).toMatchObject({ status: 422, fields: { name: ["The name field must be a string."] } });
    expect(
      restErrorOf({
        message:
          'Variable "$input" got invalid value {}; Field "campaignId" of required type "Int!" was not provided.',
      }),
    ).toMatchObject({ status: 422, fields: { campaign_id: ["The campaign id field is required."] } });
    expect(
      restErrorOf({
        message: 'Variable "$perPage" got invalid value "abc"; Int cannot represent non-integer value: "abc"',
      }),
    ).toMatchObject({ status: 422, fields: { per_page: ["The per page field must be an integer."] } });
  });
});
