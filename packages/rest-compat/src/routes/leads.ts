import { paginationEnvelope } from "../envelope.ts";
import { timestampB } from "../format.ts";
import { intParam, type RouteDefinition } from "../route.ts";
import { defaultErrorBody } from "../router.ts";

interface ContactData {
  id: number;
  phoneNumber: string;
  variables: unknown;
  status: string;
  createdAt: string;
  updatedAt: string;
}

interface LeadData extends ContactData {
  campaignId: number;
  campaign: { id: number; name: string };
  secondaryContacts: ContactData[];
}

const LEAD_FIELDS = `
  id campaignId phoneNumber variables status createdAt updatedAt campaign { id name }
  secondaryContacts { id phoneNumber variables status createdAt updatedAt }`;

function restContact(contact: ContactData) {
  return {
    id: contact.id,
    phone_number: contact.phoneNumber,
    variables: contact.variables,
    status: contact.status,
    created_at: timestampB(contact.createdAt),
    updated_at: timestampB(contact.updatedAt),
  };
}

function restLead(lead: LeadData) {
  return {
    id: lead.id,
    campaign_id: lead.campaignId,
    phone_number: lead.phoneNumber,
    variables: lead.variables,
    status: lead.status,
    created_at: timestampB(lead.createdAt),
    updated_at: timestampB(lead.updatedAt),
    campaign: { id: lead.campaign.id, name: lead.campaign.name },
    secondary_contacts: lead.secondaryContacts.map(restContact),
  };
}

/** Form-encoded bodies carry booleans as text. */
function booleanField(value: unknown): unknown {
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  return value;
}

function secondaryContacts(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((contact: unknown) =>
    contact !== null && typeof contact === "object" && !Array.isArray(contact)
      ? {
          phoneNumber: (contact as Record<string, unknown>).phone_number,
          variables: (contact as Record<string, unknown>).variables,
        }
      : contact,
  );
}

export const leadRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/user/lead",
    operation: /* GraphQL */ `
      mutation RestCreateLead($input: CreateLeadInput!) { createLead(input: $input) { ${LEAD_FIELDS} } }`,
    variables: ({ body }) => ({
      input: {
        phoneNumber: body.phone_number,
        campaignId: typeof body.campaign_id === "string" ? intParam(body.campaign_id) : body.campaign_id,
        variables: body.variables,
        allowDuplicate: booleanField(body.allow_dupplicate),
        secondaryContacts: secondaryContacts(body.secondary_contacts),
      },
    }),
    respond: (data) => ({
      status: 201,
      body: { message: "Lead created successfully.", data: restLead(data.createLead as LeadData) },
    }),
    // The request field keeps the legacy spelling, so its errors do too.
    errorBody: (error) => {
      const legacy = (text: string) => text.replace("allow duplicate", "allow dupplicate");
      return defaultErrorBody({
        ...error,
        message: legacy(error.message),
        ...(error.fields
          ? {
              fields: Object.fromEntries(
                Object.entries(error.fields).map(([field, messages]) => [
                  field === "allow_duplicate" ? "allow_dupplicate" : field,
                  messages.map(legacy),
                ]),
              ),
            }
          : {}),
      });
    },
  },
  {
    method: "GET",
    path: "/user/leads",
    operation: /* GraphQL */ `
      query RestLeads($page: Int, $perPage: Int, $campaignId: Int, $status: String) {
        leads(page: $page, perPage: $perPage, campaignId: $campaignId, status: $status) {
          items { ${LEAD_FIELDS} }
          pageInfo { total currentPage perPage lastPage }
        }
      }`,
    variables: ({ query }) => ({
      page: intParam(query.get("page")),
      perPage: intParam(query.get("per_page")),
      campaignId: intParam(query.get("campaign_id")),
      status: query.get("status") || undefined,
    }),
    respond: (data, request) => {
      const page = data.leads as {
        items: LeadData[];
        pageInfo: Parameters<typeof paginationEnvelope>[0]["pageInfo"];
      };
      return {
        body: paginationEnvelope({
          data: page.items.map(restLead),
          pageInfo: page.pageInfo,
          path: request.endpointUrl,
          query: request.query,
        }),
      };
    },
  },
  {
    method: "DELETE",
    path: "/user/leads/{id}",
    params: { id: "int" },
    operation: /* GraphQL */ `mutation RestDeleteLead($id: Int!) { deleteLead(id: $id) { deletedId } }`,
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: () => ({ body: { message: "Lead deleted successfully." } }),
  },
];
