import { describe, expect, it } from "vitest";
import { restAssistant } from "./assistants.ts";
import { leadRoutes } from "./leads.ts";

describe("lead routes", () => {
  const create = leadRoutes.find((route) => route.method === "POST")!;

  it("words validation errors of allow_dupplicate with the legacy spelling, in keys and messages", () => {
    const body = create.errorBody!({
      status: 422,
      code: "VALIDATION_FAILED",
      message: "The allow duplicate field must be true or false.",
      fields: {
        allow_duplicate: ["The allow duplicate field must be true or false."],
        "secondary_contacts.0.phone_number": ["The phone number field is required."],
      },
    });
    expect(body).toEqual({
      message: "The allow dupplicate field must be true or false.",
      errors: {
        allow_dupplicate: ["The allow dupplicate field must be true or false."],
        "secondary_contacts.0.phone_number": ["The phone number field is required."],
      },
    });
  });

  it("maps the REST body to GraphQL input, secondary contacts and form booleans included", () => {
    const variables = create.variables!({
      method: "POST",
      params: {},
      query: new URLSearchParams(),
      body: {
        phone_number: "+14155550123",
        campaign_id: "7",
        allow_dupplicate: "1",
        secondary_contacts: [{ phone_number: "+14155550124", variables: { a: "b" } }, "oops"],
      },
      endpointUrl: "https://voxgate.test/api/user/lead",
      request: new Request("https://voxgate.test/api/user/lead"),
    });
    expect(variables).toEqual({
      input: {
        phoneNumber: "+14155550123",
        campaignId: 7,
        variables: undefined,
        allowDuplicate: true,
        secondaryContacts: [{ phoneNumber: "+14155550124", variables: { a: "b" } }, "oops"],
      },
    });
  });
});

describe("restAssistant", () => {
  it("shows the voicemail flag as 1/0, snake_case names and format A timestamps", () => {
    const shown = restAssistant({
      id: 1,
      phoneNumberId: null,
      llmTemperature: "0.70",
      endCallOnVoicemail: false,
      createdAt: "2026-01-31T09:30:00.123Z",
      updatedAt: "2026-01-31T09:30:00.123Z",
      deletedAt: null,
    });
    expect(shown).toEqual({
      id: 1,
      phone_number_id: null,
      llm_temperature: "0.70",
      end_call_on_voicemail: 0,
      created_at: "2026-01-31T09:30:00.123000Z",
      updated_at: "2026-01-31T09:30:00.123000Z",
      deleted_at: null,
    });
  });
});
