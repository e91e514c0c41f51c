import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import { type RouteDefinition, route } from "../route.ts";

export const authRoutes: RouteDefinition[] = [
  route({
    method: "POST",
    path: "/login",
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
    operation: graphql(`
      mutation RestLogout { logout { revoked } }
    `),
    respond: () => ({ body: { message: "Logged out successfully." } }),
  }),
];
