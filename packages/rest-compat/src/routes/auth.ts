import { timestampA } from "../format.ts";
import type { RouteDefinition } from "../route.ts";

interface LoginData {
  login: {
    token: string;
    tokenType: string;
    expiresAt: string;
    viewer: { id: number; name: string; email: string };
  };
}

export const authRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/login",
    public: true,
    operation: /* GraphQL */ `
      mutation RestLogin($input: LoginInput!) {
        login(input: $input) { token tokenType expiresAt viewer { id name email } }
      }`,
    variables: ({ body }) => ({ input: { email: body.email, password: body.password } }),
    respond: (data) => {
      const { login } = data as unknown as LoginData;
      return {
        body: {
          message: "Logged in successfully.",
          token: login.token,
          token_type: login.tokenType,
          expires_at: timestampA(login.expiresAt),
          user: login.viewer,
        },
      };
    },
  },
  {
    method: "POST",
    path: "/logout",
    operation: /* GraphQL */ `mutation RestLogout { logout { revoked } }`,
    respond: () => ({ body: { message: "Logged out successfully." } }),
  },
];
