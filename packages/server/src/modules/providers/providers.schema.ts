import { builder } from "../../builder.ts";
import type { AiModel, SpeechProvider } from "../../generated/prisma/client.ts";
import { KEY_PROVIDERS } from "./catalogue.ts";
import type { ProviderKeySummary } from "./provider-keys.service.ts";
import type { Listed } from "./providers.service.ts";

const SpeechProviderKindRef = builder.enumType("SpeechProviderKind", {
  values: {
    transcriber: {
      value: "transcriber",
      description: "Speech-to-text (an assistant's transcriberProviderId).",
    },
    synthesizer: {
      value: "synthesizer",
      description: "Text-to-speech (an assistant's synthesizerProviderId).",
    },
  },
});

const AiModelKindRef = builder.enumType("AiModelKind", {
  values: {
    llm: { value: "llm", description: "A chat model answering pipeline calls and texts (llmModelId)." },
    multimodal: {
      value: "multimodal",
      description: "A realtime speech model of multimodal and dualplex calls (multimodalModelId).",
    },
  },
});

const ProviderKeyNameRef = builder.enumType("ProviderKeyName", {
  description: "A provider an account can hold its own key for.",
  values: KEY_PROVIDERS,
});

/** What both kinds of catalogue rows tell: where they can run. */
const CatalogueEntryRef = builder
  .interfaceRef<Listed<SpeechProvider> | Listed<AiModel>>("CatalogueEntry")
  .implement({
    description: "A row of the provider and model catalogue, and where it can run.",
    resolveType: (row) => (row.kind === "llm" || row.kind === "multimodal" ? "AiModel" : "SpeechProvider"),
    fields: (t) => ({
      id: t.exposeInt("id"),
      name: t.exposeString("name"),
      label: t.exposeString("label"),
      keyProvider: t.field({
        type: ProviderKeyNameRef,
        description: "Whose key it connects with (the deployment's, or the account's own: setProviderKey).",
        resolve: (row) => row.keyProvider,
      }),
      configured: t.exposeBoolean("configured", {
        description: "This deployment's environment configures it (a key, or a server of its own).",
      }),
      accountKey: t.exposeBoolean("accountKey", {
        description: "The viewer's account has its own key for it.",
      }),
      available: t.boolean({
        description: "Selecting it takes effect: configured, or an account key. Else calls use the default.",
        resolve: (row) => row.configured || row.accountKey,
      }),
      isDefault: t.exposeBoolean("isDefault", {
        description: "What this deployment uses when an assistant selects nothing.",
      }),
    }),
  });

const SpeechProviderRef = builder.objectRef<Listed<SpeechProvider>>("SpeechProvider").implement({
  description:
    "A speech provider of the deployment's catalogue; its id is an assistant's transcriberProviderId or " +
    "synthesizerProviderId (by kind). Ids are fixed across deployments.",
  interfaces: [CatalogueEntryRef],
  fields: (t) => ({
    kind: t.field({ type: SpeechProviderKindRef, resolve: (row) => row.kind }),
    streaming: t.exposeBoolean("streaming", {
      description: "Transcribes as the caller speaks, or speaks as the model writes.",
    }),
  }),
});

const AiModelRef = builder.objectRef<Listed<AiModel>>("AiModel").implement({
  description:
    "A model of the deployment's catalogue, by the name its API takes; its id is an assistant's llmModelId " +
    "or multimodalModelId (by kind). Seeded ids are below 1000; models the deployment configures beyond " +
    "them are added with ids from 1000.",
  interfaces: [CatalogueEntryRef],
  fields: (t) => ({
    kind: t.field({ type: AiModelKindRef, resolve: (row) => row.kind }),
  }),
});

const ProviderKeyRef = builder.objectRef<ProviderKeySummary>("ProviderKey").implement({
  description:
    "An account's own key for a provider: stored encrypted, never returned; only its last four characters.",
  fields: (t) => ({
    provider: t.field({ type: ProviderKeyNameRef, resolve: (key) => key.provider }),
    lastFour: t.exposeString("lastFour"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

builder.queryField("speechProviders", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [SpeechProviderRef],
    description:
      "The deployment's speech providers, with whether each is configured here or by the account's key.",
    args: { kind: t.arg({ type: SpeechProviderKindRef }) },
    resolve: (_root, args, context) =>
      context.services.providers.speechProviders(context.viewer.accountId, args.kind),
  }),
);

builder.queryField("aiModels", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [AiModelRef],
    description:
      "The deployment's chat and realtime models, with whether each is configured here or by the account's key.",
    args: { kind: t.arg({ type: AiModelKindRef }) },
    resolve: (_root, args, context) => context.services.providers.models(context.viewer.accountId, args.kind),
  }),
);

builder.queryField("providerKeys", (t) =>
  t.withAuth({ manager: true }).field({
    type: [ProviderKeyRef],
    description: "The account's own provider keys (never the keys themselves).",
    resolve: (_root, _args, context) => context.services.providerKeys.list(context.viewer.accountId),
  }),
);

builder.mutationField("setProviderKey", (t) =>
  t.withAuth({ manager: true }).field({
    type: ProviderKeyRef,
    description:
      "Stores (or replaces) the account's own key for a provider, encrypted; the account's calls use it " +
      "instead of the deployment's from their next start.",
    args: {
      provider: t.arg({ type: ProviderKeyNameRef, required: true }),
      key: t.arg.string({ required: true }),
    },
    resolve: (_root, args, context) => context.services.providerKeys.set(context.viewer.accountId, args),
  }),
);

builder.mutationField("removeProviderKey", (t) =>
  t.withAuth({ manager: true }).field({
    type: ProviderKeyRef,
    description:
      "Deletes the account's key for a provider (NOT_FOUND without one); returns what was removed.",
    args: { provider: t.arg({ type: ProviderKeyNameRef, required: true }) },
    resolve: (_root, args, context) =>
      context.services.providerKeys.remove(context.viewer.accountId, args.provider),
  }),
);
