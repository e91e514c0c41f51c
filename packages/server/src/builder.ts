import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import type { Context } from "./context.ts";
import { UnauthenticatedError } from "./errors.ts";
import type PrismaTypes from "./generated/pothos-types.ts";
import { getDatamodel } from "./generated/pothos-types.ts";
import type { Viewer } from "./modules/auth/auth.service.ts";

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
  AuthScopes: { authenticated: boolean };
  AuthContexts: { authenticated: Context & { viewer: Viewer } };
  DefaultFieldNullability: false;
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authScopes: (context) => ({ authenticated: context.viewer !== null }),
    // A subscription's `subscribe` runs before any `resolve`: the check belongs there, so an anonymous
    // caller is refused before anything is subscribed to.
    authorizeOnSubscribe: true,
    unauthorizedError: (_parent, context) => new UnauthenticatedError(context.authFailure),
  },
  prisma: {
    client: (context) => context.prisma,
    dmmf: getDatamodel(),
  },
});

builder.queryType();
builder.mutationType();
builder.subscriptionType();
