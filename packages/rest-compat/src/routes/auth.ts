import { z } from "zod";
import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import { formatA, message } from "../openapi/schemas.ts";
import { type RouteDefinition, route } from "../route.ts";

export const authRoutes: RouteDefinition[] = [
  route({
    method: "POST",
    path: "/login",
    doc: {
      tag: "Authentication",
      summary: "Log in with email and password; returns a session token",
      body: { schema: z.object({ email: z.email(), password: z.string() }) },
      response: {
        description: "The session token, to send as `Authorization: Bearer vgs_…`",
        schema: z.object({
          message: z.string(),
          token: z.string(),
          token_type: z.literal("Bearer"),
          expires_at: formatA,
          user: z.object({ id: z.int(), name: z.string(), email: z.string() }),
        }),
      },
      errors: { 401: "Wrong email or password", 429: "Too many failed attempts (`Retry-After`)" },
      example: { body: { email: "demo@voxgate.local", password: "the password the first start printed" } },
    },
    public: true,
    operation: graphql(`
      mutation RestLogin($input: LoginInput!) {
        login(input: $input) { token tokenType expiresAt viewer { id name email } }
      }
    `),
    variables: ({ body }) => ({ input: { email: body.email, password: body.password } }),
    respond: ({ login }) => ({
      body: {
        message: "Logged in successfully.",
        token: login.token,
        token_type: login.tokenType,
        expires_at: timestampA(login.expiresAt),
        user: login.viewer,
      },
    }),
  }),
  route({
    method: "POST",
    path: "/logout",
    doc: {
      tag: "Authentication",
      summary: "Revoke the session token of the request",
      response: { description: "Revoked", schema: message("Logged out successfully.") },
      errors: { 400: "Called with an API key (delete the key instead)" },
      example: {},
    },
    operation: graphql(`
      mutation RestLogout { logout { revoked } }
    `),
    respond: () => ({ body: { message: "Logged out successfully." } }),
  }),
];
