import { builder } from "../../builder.ts";
import { actorOf } from "../../events.ts";
import type { ApiKey as ApiKeyModel } from "../../generated/prisma/client.ts";

const ApiKey = builder.prismaObject("ApiKey", {
  description: "A long-lived credential of the account. Its token is shown only once, at creation.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    lastUsedAt: t.expose("lastUsedAt", {
      type: "DateTime",
      nullable: true,
      description: "When the key was last used, to the minute; null if never.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryField("apiKeys", (t) =>
  t.withAuth({ manager: true }).field({
    type: [ApiKey],
    description: "The account's API keys, newest first. Tokens are never listed.",
    resolve: (_root, _args, context) => context.services.apiKeys.list(context.viewer.accountId),
  }),
);

const CreateApiKeyInput = builder.inputType("CreateApiKeyInput", {
  fields: (t) => ({ name: t.string({ required: true, description: "A label, at most 255 characters." }) }),
});

const CreateApiKeyPayload = builder
  .objectRef<{ apiKey: ApiKeyModel; token: string }>("CreateApiKeyPayload")
  .implement({
    fields: (t) => ({
      apiKey: t.field({ type: ApiKey, resolve: (payload) => payload.apiKey }),
      token: t.exposeString("token", {
        description: "The secret token. It is not shown again: store it now.",
      }),
    }),
  });

builder.mutationField("createApiKey", (t) =>
  t.withAuth({ manager: true }).field({
    type: CreateApiKeyPayload,
    args: { input: t.arg({ type: CreateApiKeyInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.apiKeys.create(context.viewer, input, actorOf(context.viewer, context.clientAddress)),
  }),
);

const DeleteApiKeyPayload = builder.objectRef<{ deletedId: number }>("DeleteApiKeyPayload").implement({
  fields: (t) => ({ deletedId: t.exposeInt("deletedId") }),
});

builder.mutationField("deleteApiKey", (t) =>
  t.withAuth({ manager: true }).field({
    type: DeleteApiKeyPayload,
    description: "Revokes one of the account's API keys at once, including the one making this request.",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.apiKeys.delete(
        context.viewer.accountId,
        id,
        actorOf(context.viewer, context.clientAddress),
      );
      return { deletedId: id };
    },
  }),
);
