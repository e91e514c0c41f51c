import { timestampA } from "../format.ts";
import type { RouteDefinition } from "../route.ts";

interface ApiKeyData {
  id: number;
  name: string;
  lastUsedAt: string | null;
  createdAt: string;
}

export const apiKeyRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/user/api-keys",
    operation: /* GraphQL */ `
      mutation RestCreateApiKey($input: CreateApiKeyInput!) {
        createApiKey(input: $input) { token apiKey { name createdAt } }
      }`,
    variables: ({ body }) => ({ input: { name: body.name } }),
    respond: (data) => {
      const { createApiKey } = data as { createApiKey: { token: string; apiKey: ApiKeyData } };
      return {
        status: 201,
        body: {
          message: "API key created successfully.",
          api_key: {
            name: createApiKey.apiKey.name,
            token: createApiKey.token,
            created_at: timestampA(createApiKey.apiKey.createdAt),
          },
        },
      };
    },
  },
  {
    method: "GET",
    path: "/user/api-keys",
    operation: /* GraphQL */ `query RestApiKeys { apiKeys { id name lastUsedAt createdAt } }`,
    respond: (data) => ({
      body: {
        api_keys: (data.apiKeys as ApiKeyData[]).map((key) => ({
          id: key.id,
          name: key.name,
          last_used_at: timestampA(key.lastUsedAt),
          created_at: timestampA(key.createdAt),
        })),
      },
    }),
  },
  {
    method: "DELETE",
    path: "/user/api-keys/{id}",
    params: { id: "int" },
    operation: /* GraphQL */ `mutation RestDeleteApiKey($id: Int!) { deleteApiKey(id: $id) { deletedId } }`,
    variables: ({ params }) => ({ id: Number(params.id) }),
    respond: () => ({ body: { message: "API key deleted successfully." } }),
  },
];
