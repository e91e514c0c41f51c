import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import type { Context } from "./context.ts";
import { RoleNotAllowedError, UnauthenticatedError } from "./errors.ts";
import type PrismaTypes from "./generated/pothos-types.ts";
import { getDatamodel } from "./generated/pothos-types.ts";
import type { Viewer } from "./modules/auth/auth.service.ts";
import { managesAccount } from "./modules/auth/roles.ts";

export type Scalars = {
  DateTime: { Input: Date; Output: Date };
  Decimal: { Input: string; Output: string };
  JSON: { Input: unknown; Output: unknown };
  File: { Input: File; Output: never };
};

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  Scalars: Scalars;
  /** `manager`: an owner or admin of the account (docs/console.md#team); agents get ROLE_NOT_ALLOWED. */
  AuthScopes: { authenticated: boolean; manager: boolean };
  AuthContexts: { authenticated: Context & { viewer: Viewer }; manager: Context & { viewer: Viewer } };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (context) => ({
      authenticated: context.viewer !== null,
      // Asked only by the fields that need it, and read from the database then: a role change applies at once.
      manager: async () =>
        context.viewer !== null && managesAccount(await context.services.auth.roleOf(context.viewer)),
    }),
    // A subscription's `subscribe` runs before any `resolve`: the check belongs there, so an anonymous
    // caller is refused before anything is subscribed to.
    authorizeOnSubscribe: true,
    unauthorizedError: (_parent, context) =>
      context.viewer === null
        ? new UnauthenticatedError(context.authFailure)
        : new RoleNotAllowedError("agent", "the owner or admin role"),
  },
  prisma: {
    client: (context) => context.prisma,
    dmmf: getDatamodel(),
  },
});

builder.queryType();
builder.mutationType();
builder.subscriptionType();
