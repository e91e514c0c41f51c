import { z } from "zod";
import { CALL_STATUS, CALL_TYPE } from "../enums.ts";
import { paginationEnvelope } from "../envelope.ts";
import { timestampB } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import type { RestCallFieldsFragment } from "../generated/graphql.ts";
import { formatB, freeObject, pageQuery, paginated } from "../openapi/schemas.ts";
import { intParam, type RouteDefinition, route } from "../route.ts";
import { defaultErrorBody } from "../router.ts";

const text = (value: string | null) => (value === null || value === "" ? undefined : value);

/**
 * An E.164 number sent unencoded (`?phone_number=+1415...`) arrives with its `+` decoded as a
 * space; no number starts with a space, so a leading one is that `+`.
 */
const phoneNumberFilter = (value: string | null) => text(value?.replace(/^ /, "+") ?? null);

graphql(`
  fragment RestCallFields on Call {
    id assistantName campaignName type duration assistantPhoneNumber clientPhoneNumber status
    transcript variables evaluation webhookResponse carrierCost totalCost answeredBy recordingUrl
    createdAt updatedAt
  }
`);

/** A call as the legacy API shows it. */ /** The reference's shape of `restCall`. */
const callSchema = z.object({
  id: z.int(),
  assistant_name: z.string().nullable(),
  campaign_name: z.string().nullable(),
  type: z.enum(CALL_TYPE.values),
  duration: z.int().nullable(),
  assistant_phone_number: z.string(),
  client_phone_number: z.string().nullable(),
  status: z.enum(CALL_STATUS.values),
  transcript: z.string().nullable(),
  variables: freeObject,
  evaluation: freeObject,
  webhook_response: freeObject,
  carrier_cost: z.number(),
  total_cost: z.number(),
  answered_by: z.string().nullable(),
  recording_url: z.string().nullable(),
  created_at: formatB,
  updated_at: formatB,
});

function restCall(call: RestCallFieldsFragment) {
  return {
    id: call.id,
    assistant_name: call.assistantName,
    campaign_name: call.campaignName,
    type: CALL_TYPE.rest(call.type),
    duration: call.duration,
    assistant_phone_number: call.assistantPhoneNumber,
    client_phone_number: call.clientPhoneNumber,
    status: CALL_STATUS.rest(call.status),
    transcript: call.transcript,
    variables: call.variables,
    evaluation: call.evaluation,
    webhook_response: call.webhookResponse,
    carrier_cost: Number(call.carrierCost),
    total_cost: Number(call.totalCost),
    answered_by: call.answeredBy,
    recording_url: call.recordingUrl,
    created_at: timestampB(call.createdAt),
    updated_at: timestampB(call.updatedAt),
  };
}

const numericField = (value: unknown) => (typeof value === "string" ? intParam(value) : value);

export const callRoutes: RouteDefinition[] = [
  route({
    method: "GET",
    path: "/user/calls",
    doc: {
      tag: "Calls",
      summary: "List the account's calls, newest first, with filters",
      query: {
        ...pageQuery,
        status: z.enum(CALL_STATUS.values).optional(),
        type: z.enum(CALL_TYPE.values).optional(),
        phone_number: z.string().optional().meta({ description: "The client's number, E.164, exact match" }),
        assistant_id: z.int().optional(),
        campaign_id: z.int().optional(),
        date_from: z.iso.date().optional().meta({ description: "First day, in the account's time zone" }),
        date_to: z.iso
          .date()
          .optional()
          .meta({ description: "Last day (inclusive), in the account's time zone" }),
      },
      response: { description: "A page of calls", schema: paginated(callSchema) },
      errors: { 404: "`assistant_id` or `campaign_id` of another account" },
      example: { query: { status: "completed", per_page: "5" } },
    },
    operation: graphql(`
      query RestCalls($page: Int, $perPage: Int, $filter: CallFilter) {
        calls(page: $page, perPage: $perPage, filter: $filter) {
          items { ...RestCallFields }
          pageInfo { total currentPage perPage lastPage }
        }
      }
    `),
    variables: ({ query }) => ({
      page: intParam(query.get("page")),
      perPage: intParam(query.get("per_page")),
      filter: {
        status: CALL_STATUS.variable(query.get("status")),
        type: CALL_TYPE.variable(query.get("type")),
        phoneNumber: phoneNumberFilter(query.get("phone_number")),
        assistantId: intParam(query.get("assistant_id")),
        campaignId: intParam(query.get("campaign_id")),
        dateFrom: text(query.get("date_from")),
        dateTo: text(query.get("date_to")),
        // Agent tests' calls (docs/testing-assistants.md) are no part of the REST API's list.
        includeTests: false,
      },
    }),
    respond: ({ calls: page }, request) => {
      return {
        body: paginationEnvelope({
          data: page.items.map(restCall),
          pageInfo: page.pageInfo,
          path: request.endpointUrl,
          query: request.query,
        }),
      };
    },
    // The filter travels as one GraphQL argument; its fields are the REST query names.
    errorBody: (error) =>
      error.fields
        ? {
            message: error.message,
            errors: Object.fromEntries(
              Object.entries(error.fields).map(([field, messages]) => [
                field.replace(/^filter\./, ""),
                messages,
              ]),
            ),
          }
        : { message: error.message },
  }),
  // An extension of the spec (the path of the vendor's wider API): places an outbound phone call.
  route({
    method: "POST",
    path: "/user/make_call",
    doc: {
      tag: "Calls",
      summary: "Place an outbound phone call with an assistant (an extension of the specification)",
      body: {
        schema: z.object({
          assistant_id: z.int(),
          phone_number: z.string().meta({ description: "The number to call, E.164" }),
          phone_number_id: z.int().optional().meta({ description: "The account's number to call from" }),
          variables: freeObject.optional(),
        }),
      },
      response: {
        status: 201,
        description: "Started (status `initiated`)",
        schema: z.object({ message: z.string(), data: callSchema }),
      },
      errors: {
        402: "Not enough balance for a minute",
        404: "Unknown assistant or phone number",
        409: "The assistant has no phone number to call from",
        429: "The account's concurrent-call limit is reached",
      },
      example: { body: { assistant_id: 1, phone_number: "+14155550123" } },
    },
    operation: graphql(`
      mutation RestMakeCall($input: StartCallInput!) { startCall(input: $input) { ...RestCallFields } }
    `),
    variables: ({ body }) => ({
      input: {
        assistantId: numericField(body.assistant_id),
        to: body.phone_number,
        phoneNumberId: numericField(body.phone_number_id),
        variables: body.variables,
      },
    }),
    respond: (data) => ({
      status: 201,
      body: { message: "Call started successfully.", data: restCall(data.startCall) },
    }),
    // The number to call is `to` in GraphQL and `phone_number` here.
    errorBody: (error) =>
      defaultErrorBody(
        error.fields
          ? {
              ...error,
              fields: Object.fromEntries(
                Object.entries(error.fields).map(([field, messages]) => [
                  field === "to" ? "phone_number" : field,
                  messages,
                ]),
              ),
            }
          : error,
      ),
  }),
];
