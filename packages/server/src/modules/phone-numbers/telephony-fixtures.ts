import { randomInt } from "node:crypto";
import type { TestAccount, TestApp } from "../../../test/support/test-app.ts";
import type { StartCallRequest } from "../calls/calls.service.ts";
import { parseE164 } from "./e164.ts";
import type { AddPhoneNumberRequest } from "./phone-numbers.service.ts";

/** A valid US number nobody else in the test run uses. */
export function uniqueUsNumber(): string {
  for (;;) {
    const candidate = `+1415${randomInt(2_000_000, 9_999_999)}`;
    if (parseE164(candidate)) return candidate;
  }
}

/**
 * Seeds the resources of this issue through the same services the API uses, so tests of one
 * resource can stand on the others without repeating their requests.
 */
export function telephonyFixtures(t: TestApp) {
  const services = t.app.services;
  return {
    addNumber: (account: TestAccount, overrides: Partial<AddPhoneNumberRequest> = {}) =>
      services.phoneNumbers.add(account.accountId, {
        kind: "normal",
        phoneNumber: uniqueUsNumber(),
        label: "Main line",
        ...overrides,
      }),
    createAssistant: (account: TestAccount, input: Record<string, unknown> = {}) =>
      services.assistants.create(account, { name: "Front desk", ...input }),
    createCampaign: (account: TestAccount, input: Record<string, unknown> = {}) =>
      services.campaigns.create(account.accountId, { name: "Spring outreach", ...input }),
    startCall: (account: TestAccount, request: StartCallRequest) =>
      services.calls.start(account.accountId, request),
  };
}
