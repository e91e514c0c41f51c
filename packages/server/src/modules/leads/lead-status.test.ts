import { describe, expect, it } from "vitest";
import { afterAttempt, LEAD_TRANSITIONS, leadStatusesBefore } from "./lead-status.ts";

const now = new Date("2026-03-02T10:00:00Z");
const plan = {
  contactIndex: 0,
  contactAttempts: 0,
  secondaryContactCount: 0,
  maxRetries: 2,
  retryIntervalMinutes: 30,
};

describe("lead transitions", () => {
  it("never dials a blacklisted lead: only lifting the blacklist leaves it", () => {
    expect(LEAD_TRANSITIONS.blacklisted).not.toContain("scheduled");
    expect(leadStatusesBefore("scheduled").sort()).toEqual(["created", "rescheduled"]);
    for (const [from, to] of Object.entries(LEAD_TRANSITIONS)) {
      if (from !== "blacklisted") expect(to).toContain("blacklisted");
    }
  });

  it("ends reached leads and those out of numbers for good", () => {
    expect(LEAD_TRANSITIONS.completed).toEqual(["blacklisted"]);
    expect(LEAD_TRANSITIONS.reached_max_retries).toEqual(["blacklisted"]);
  });
});

describe("after an attempt", () => {
  it("completes a reached lead", () => {
    expect(afterAttempt(plan, true, now)).toMatchObject({ status: "completed", nextAttemptAt: null });
  });

  it("retries the same number after the interval, maxRetries times", () => {
    const first = afterAttempt(plan, false, now);
    expect(first).toMatchObject({ status: "rescheduled", contactIndex: 0, contactAttempts: 1 });
    expect(first.nextAttemptAt).toEqual(new Date("2026-03-02T10:30:00Z"));
    expect(afterAttempt({ ...plan, contactAttempts: 1 }, false, now).status).toBe("rescheduled");
    expect(afterAttempt({ ...plan, contactAttempts: 2 }, false, now)).toMatchObject({
      status: "reached_max_retries",
      contactStatus: "reached_max_retries",
      nextAttemptAt: null,
    });
  });

  it("moves to the secondary contacts in order once a number used its retries, then gives up", () => {
    const withTwo = { ...plan, maxRetries: 0, secondaryContactCount: 2 };
    expect(afterAttempt(withTwo, false, now)).toEqual({
      status: "rescheduled",
      contactStatus: "reached_max_retries",
      contactIndex: 1,
      contactAttempts: 0,
      nextAttemptAt: now,
    });
    expect(afterAttempt({ ...withTwo, contactIndex: 1 }, false, now).contactIndex).toBe(2);
    expect(afterAttempt({ ...withTwo, contactIndex: 2 }, false, now).status).toBe("reached_max_retries");
    expect(afterAttempt({ ...withTwo, contactIndex: 2 }, true, now)).toMatchObject({
      status: "completed",
      contactStatus: "completed",
      contactIndex: 2,
    });
  });
});
