import { z } from "zod";
import { MANAGERS_ONLY } from "../errors.ts";
import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import { formatA, message } from "../openapi/schemas.ts";
import { type RouteDefinition, route } from "../route.ts";

export const apiKeyRoutes: RouteDefinition[] = [
  route({
    method: "POST",
    path: "/user/api-keys",
    doc: {
      tag: "API keys",
      errors: { 403: MANAGERS_ONLY },
      summary: "Create an API key (its token is shown only in this answer)",
      body: { schema: z.object({ name: z.string().max(255) }) },
      response: {
        status: 201,
        description: "Created",
        schema: z.object({
          message: z.string(),
          api_key: z.object({ name: z.string(), token: z.string().startsWith("vgk_"), created_at: formatA }),
        }),
      },
      example: { body: { name: "CRM" } },
    },
    operation: graphql(`
      mutation RestCreateApiKey($input: CreateApiKeyInput!) {
        createApiKey(input: $input) { token apiKey { name createdAt } }
      }
    `),
    variables: ({ body }) => ({ input: { name: body.name } }),
    respond: ({ createApiKey }) => ({
      status: 201,
      body: {
        message: "API key created successfully.",
        api_key: {
          name: createApiKey.apiKey.name,
          token: createApiKey.token,
          created_at: timestampA(createApiKey.apiKey.createdAt),
        },
      },
    }),
  }),
  route({
    method: "GET",
    path: "/user/api-keys",
    doc: {
      tag: "API keys",
      errors: { 403: MANAGERS_ONLY },
      summary: "List the account's API keys, newest first (never their tokens)",
      response: {
        description: "The keys",
        schema: z.object({
          api_keys: z.array(
            z.object({
              id: z.int(),
              name: z.string(),
              last_used_at: formatA.nullable(),
              created_at: formatA,
            }),
          ),
        }),
      },
      example: {},
    },
    operation: graphql(`
      query RestApiKeys { apiKeys { id name lastUsedAt createdAt } }
    `),
    respond: (data) => ({
      body: {
        api_keys: data.apiKeys.map((key) => ({
          id: key.id,
          name: key.name,
          last_used_at: timestampA(key.lastUsedAt),
          created_at: timestampA(key.createdAt),
        })),
      },
    }),
  }),
  route({
    method: "DELETE",
    path: "/user/api-keys/{id}",
    doc: {
      tag: "API keys",
      summary: "Delete an API key; it stops working at once",
      pathParams: { id: "The key's id" },
      response: { description: "Deleted", schema: message("API key deleted successfully.") },
      errors: { 403: MANAGERS_ONLY, 404: "Unknown key, or another account's" },
      example: { params: { id: 1 } },
    },
    params: { id: "int" },
    operation: graphql(`
      mutation RestDeleteApiKey($id: Int!) { deleteApiKey(id: $id) { deletedId } }
    `),
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: () => ({ body: { message: "API key deleted successfully." } }),
  }),
];
