import { describe, expect, it } from "vitest";
import { CALL_STATUS, LEAD_STATUS } from "./enums.ts";
import { restErrorOf } from "./errors.ts";

describe("REST enum spellings", () => {
  it("map hyphenated REST values to GraphQL names and back", () => {
    expect(CALL_STATUS.variable("in-progress")).toBe("in_progress");
    expect(CALL_STATUS.variable("ended_by_customer")).toBe("ended_by_customer");
    expect(CALL_STATUS.variable("")).toBeUndefined();
    expect(CALL_STATUS.rest("no_answer")).toBe("no-answer");
    expect(LEAD_STATUS.rest("reached_max_retries")).toBe("reached-max-retries");
  });

  it("pass unknown values on in a form no GraphQL name has, so in_progress is not a REST value", () => {
    expect(CALL_STATUS.variable("in_progress")).toBe("in-progress");
    expect(CALL_STATUS.variable("hung-up")).toBe("hung-up");
  });

  it("word GraphQL's refusal of an unknown value as the legacy API does", () => {
    const refusal = (variable: string, at: string, value: string, type: string) =>
      restErrorOf({
        message: `Variable "$${variable}" got invalid value "${value}"${at ? ` at "${at}"` : ""}; Value "${value}" does not exist in "${type}" enum.`,
      });
    expect(refusal("filter", "filter.status", "hung-up", "CallStatus")).toMatchObject({
      status: 422,
      fields: { "filter.status": ["The selected status is invalid."] },
    });
    expect(refusal("status", "", "lost", "LeadStatus")).toMatchObject({
      fields: {
        status: [
          "The status field must be one of created, scheduled, processing, completed, rescheduled, reached-max-retries, blacklisted.",
        ],
      },
    });
    expect(refusal("mood", "", "sad", "Mood")).toMatchObject({
      fields: { mood: ["The selected mood is invalid."] },
    });
  });
});
