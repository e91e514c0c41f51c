import { z } from "zod";
import { LEAD_STATUS } from "../enums.ts";
import { paginationEnvelope } from "../envelope.ts";
import { timestampB } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import type { RestLeadFragment } from "../generated/graphql.ts";
import { formatB, freeObject, message, pageQuery, paginated } from "../openapi/schemas.ts";
import { intParam, type RouteDefinition, route } from "../route.ts";
import { defaultErrorBody } from "../router.ts";

// Fragments are found by name when an operation spreads them; this call declares it for codegen.
graphql(`
  fragment RestLead on Lead {
    id campaignId phoneNumber variables status createdAt updatedAt campaign { id name }
    secondaryContacts { id phoneNumber variables status createdAt updatedAt }
  }
`);

type ContactData = RestLeadFragment["secondaryContacts"][number];

function restContact(contact: ContactData) {
  return {
    id: contact.id,
    phone_number: contact.phoneNumber,
    variables: contact.variables,
    status: LEAD_STATUS.rest(contact.status),
    created_at: timestampB(contact.createdAt),
    updated_at: timestampB(contact.updatedAt),
  };
}

const contactFields = {
  id: z.int(),
  phone_number: z.string(),
  variables: freeObject,
  status: z.enum(LEAD_STATUS.values),
  created_at: formatB,
  updated_at: formatB,
};

/** The reference's shape of `restLead`. */
const leadSchema = z.object({
  ...contactFields,
  campaign_id: z.int(),
  campaign: z.object({ id: z.int(), name: z.string() }),
  secondary_contacts: z.array(z.object(contactFields)),
});

function restLead(lead: RestLeadFragment) {
  return {
    id: lead.id,
    campaign_id: lead.campaignId,
    phone_number: lead.phoneNumber,
    variables: lead.variables,
    status: LEAD_STATUS.rest(lead.status),
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
  route({
    method: "POST",
    path: "/user/lead",
    doc: {
      tag: "Leads",
      summary: "Add a lead (and its secondary contacts) to a campaign",
      body: {
        schema: z.object({
          phone_number: z.string().meta({ description: "E.164, e.g. +14155550123" }),
          campaign_id: z.int(),
          variables: freeObject.optional(),
          allow_dupplicate: z.boolean().optional().meta({ description: "Spelled so. Default false" }),
          secondary_contacts: z
            .array(z.object({ phone_number: z.string(), variables: freeObject.optional() }))
            .max(20)
            .optional(),
        }),
      },
      response: {
        status: 201,
        description: "Created",
        schema: z.object({ message: z.string(), data: leadSchema }),
      },
      errors: {
        404: "Unknown campaign, or another account's",
        409: "A number belongs to a customer the account erased (`CUSTOMER_ERASED`, docs/data-governance.md)",
      },
      example: { body: { phone_number: "+14155550123", campaign_id: 1, variables: { name: "Ada" } } },
    },
    operation: graphql(`
      mutation RestCreateLead($input: CreateLeadInput!) { createLead(input: $input) { ...RestLead } }
    `),
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
      body: { message: "Lead created successfully.", data: restLead(data.createLead) },
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
  }),
  route({
    method: "GET",
    path: "/user/leads",
    doc: {
      tag: "Leads",
      summary: "List the account's leads, newest first",
      query: {
        ...pageQuery,
        campaign_id: z.int().optional(),
        status: z.enum(LEAD_STATUS.values).optional(),
      },
      response: { description: "A page of leads", schema: paginated(leadSchema) },
      errors: { 404: "`campaign_id` of another account" },
      example: { query: { campaign_id: "1" } },
    },
    operation: graphql(`
      query RestLeads($page: Int, $perPage: Int, $campaignId: Int, $status: LeadStatus) {
        leads(page: $page, perPage: $perPage, campaignId: $campaignId, status: $status) {
          items { ...RestLead }
          pageInfo { total currentPage perPage lastPage }
        }
      }
    `),
    variables: ({ query }) => ({
      page: intParam(query.get("page")),
      perPage: intParam(query.get("per_page")),
      campaignId: intParam(query.get("campaign_id")),
      status: LEAD_STATUS.variable(query.get("status")),
    }),
    respond: ({ leads: page }, request) => {
      return {
        body: paginationEnvelope({
          data: page.items.map(restLead),
          pageInfo: page.pageInfo,
          path: request.endpointUrl,
          query: request.query,
        }),
      };
    },
  }),
  route({
    method: "DELETE",
    path: "/user/leads/{id}",
    doc: {
      tag: "Leads",
      summary: "Delete a lead and its secondary contacts",
      pathParams: { id: "The lead" },
      response: { description: "Deleted", schema: message("Lead deleted successfully.") },
      errors: { 404: "Unknown lead, or another account's" },
      example: { params: { id: 1 } },
    },
    params: { id: "int" },
    operation: graphql(`
      mutation RestDeleteLead($id: Int!) { deleteLead(id: $id) { deletedId } }
    `),
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: () => ({ body: { message: "Lead deleted successfully." } }),
  }),
];
