import { builder } from "../../builder.ts";
import { ASSISTANT_MODES } from "./voices.service.ts";

export const AssistantModeRef = builder.enumType("AssistantMode", {
  description:
    "pipeline: speech-to-text, LLM, text-to-speech; multimodal and dualplex: realtime speech models.",
  values: ASSISTANT_MODES,
});

builder.prismaObject("Language", {
  fields: (t) => ({
    id: t.exposeInt("id"),
    code: t.exposeString("code", { description: "BCP 47 tag, e.g. en-US." }),
    name: t.exposeString("name"),
  }),
});

builder.prismaObject("Voice", {
  description: "A synthetic voice: from the public catalogue, or private to one account.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    languageId: t.exposeInt("languageId", { nullable: true }),
    language: t.relation("language", { nullable: true }),
    gender: t.exposeString("gender"),
    supportedModes: t.field({ type: [AssistantModeRef], resolve: (voice) => voice.supportedModes }),
    isPublic: t.boolean({ resolve: (voice) => voice.accountId === null }),
  }),
});

builder.queryField("voices", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ["Voice"],
    description: "Public voices and the account's own. Filters: a mode the voice supports, a language.",
    args: { mode: t.arg({ type: AssistantModeRef }), languageId: t.arg.int() },
    resolve: (_query, _root, args, context) =>
      context.services.voices.list(context.viewer.accountId, {
        mode: args.mode,
        languageId: args.languageId,
      }),
  }),
);

builder.queryField("languages", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: ["Language"],
    resolve: (_query, _root, _args, context) => context.services.voices.languages(),
  }),
);
