import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import { type RouteDefinition, route } from "../route.ts";

export const apiKeyRoutes: RouteDefinition[] = [
  route({
    method: "POST",
    path: "/user/api-keys",
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
    params: { id: "int" },
    operation: graphql(`
      mutation RestDeleteApiKey($id: Int!) { deleteApiKey(id: $id) { deletedId } }
    `),
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: () => ({ body: { message: "API key deleted successfully." } }),
  }),
];
