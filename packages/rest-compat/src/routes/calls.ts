import { CALL_STATUS, CALL_TYPE } from "../enums.ts";
import { paginationEnvelope } from "../envelope.ts";
import { timestampB } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import type { RestCallFieldsFragment } from "../generated/graphql.ts";
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

/** A call as the legacy API shows it. */
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
