import { builder } from "../../builder.ts";
import { rateLimitHeaderWriter } from "../rate-limits/rate-limits.service.ts";

interface LoginPayloadShape {
  token: string;
  expiresAt: Date;
  userId: number;
}

const LoginInput = builder.inputType("LoginInput", {
  fields: (t) => ({
    email: t.string({ required: true }),
    password: t.string({ required: true }),
  }),
});

const LoginPayload = builder.objectRef<LoginPayloadShape>("LoginPayload").implement({
  description: "A session token. Send it as `Authorization: Bearer <token>` until it expires or you log out.",
  fields: (t) => ({
    token: t.exposeString("token"),
    tokenType: t.string({ resolve: () => "Bearer" }),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    viewer: t.prismaField({
      type: "User",
      resolve: (query, payload, _args, context) =>
        context.prisma.user.findUniqueOrThrow({ ...query, where: { id: payload.userId } }),
    }),
  }),
});

builder.mutationField("login", (t) =>
  t.field({
    type: LoginPayload,
    description: "Exchanges an email and password for a session token.",
    args: { input: t.arg({ type: LoginInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.auth.login(
        input,
        context.clientAddress,
        rateLimitHeaderWriter(context.responseHeaders),
      ),
  }),
);

const LogoutPayload = builder.objectRef<{ revoked: boolean }>("LogoutPayload").implement({
  fields: (t) => ({ revoked: t.exposeBoolean("revoked") }),
});

builder.mutationField("logout", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: LogoutPayload,
    description: "Revokes the session token used for this request.",
    resolve: async (_root, _args, context) => {
      await context.services.auth.logout(context.viewer);
      return { revoked: true };
    },
  }),
);

export const MemberRoleEnum = builder.enumType("MemberRole", {
  description:
    "A member's role in their account: owners and admins manage it (keys, billing, webhooks, settings, numbers, calendars, team); agents work conversations and calls.",
  values: {
    owner: { description: "Manages everything, including other owners." },
    admin: { description: "Manages the account and its admins and agents, not its owners." },
    agent: { description: "Works conversations and calls; sees assistants read-only." },
  } as const,
});

export { LoginPayload };
