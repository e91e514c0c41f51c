import { paginationEnvelope } from "../envelope.ts";
import { timestampB } from "../format.ts";
import { intParam, type RouteDefinition } from "../route.ts";

interface CallData {
  id: number;
  assistantName: string;
  campaignName: string;
  type: string;
  duration: number;
  assistantPhoneNumber: string;
  clientPhoneNumber: string;
  status: string;
  transcript: string;
  variables: unknown;
  evaluation: unknown;
  webhookResponse: unknown;
  carrierCost: string;
  totalCost: string;
  answeredBy: string;
  recordingUrl: string;
  createdAt: string;
  updatedAt: string;
}

interface CallPageData {
  items: CallData[];
  pageInfo: { total: number; currentPage: number; perPage: number; lastPage: number };
}

const text = (value: string | null) => (value === null || value === "" ? undefined : value);

/**
 * An E.164 number sent unencoded (`?phone_number=+1415...`) arrives with its `+` decoded as a
 * space; no number starts with a space, so a leading one is that `+`.
 */
const phoneNumberFilter = (value: string | null) => text(value?.replace(/^ /, "+") ?? null);

export const callRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/user/calls",
    operation: /* GraphQL */ `
      query RestCalls($page: Int, $perPage: Int, $filter: CallFilter) {
        calls(page: $page, perPage: $perPage, filter: $filter) {
          items {
            id assistantName campaignName type duration assistantPhoneNumber clientPhoneNumber status
            transcript variables evaluation webhookResponse carrierCost totalCost answeredBy recordingUrl
            createdAt updatedAt
          }
          pageInfo { total currentPage perPage lastPage }
        }
      }`,
    variables: ({ query }) => ({
      page: intParam(query.get("page")),
      perPage: intParam(query.get("per_page")),
      filter: {
        status: text(query.get("status")),
        type: text(query.get("type")),
        phoneNumber: phoneNumberFilter(query.get("phone_number")),
        assistantId: intParam(query.get("assistant_id")),
        campaignId: intParam(query.get("campaign_id")),
        dateFrom: text(query.get("date_from")),
        dateTo: text(query.get("date_to")),
      },
    }),
    respond: (data, request) => {
      const page = data.calls as CallPageData;
      return {
        body: paginationEnvelope({
          data: page.items.map((call) => ({
            id: call.id,
            assistant_name: call.assistantName,
            campaign_name: call.campaignName,
            type: call.type,
            duration: call.duration,
            assistant_phone_number: call.assistantPhoneNumber,
            client_phone_number: call.clientPhoneNumber,
            status: call.status,
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
          })),
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
  },
];
