import { z } from "zod";
import { ASSISTANT_MODE } from "../enums.ts";
import { graphql } from "../generated/gql.ts";
import { intParam, type RouteDefinition, route } from "../route.ts";

export const voiceRoutes: RouteDefinition[] = [
  route({
    method: "GET",
    path: "/user/assistants/voices",
    doc: {
      tag: "Assistants",
      summary: "List the voices an assistant can use: public ones, then the account's own",
      query: {
        mode: z
          .enum(ASSISTANT_MODE.values)
          .optional()
          .meta({ description: "Only voices supporting this mode" }),
        language_id: z.int().optional().meta({ description: "Only voices of this language" }),
      },
      response: {
        description: "A plain array",
        schema: z.array(
          z.object({
            id: z.int(),
            name: z.string(),
            language_id: z.int().nullable(),
            gender: z.string().nullable(),
          }),
        ),
      },
      example: { query: { mode: "pipeline" } },
    },
    operation: graphql(`
      query RestVoices($mode: AssistantMode, $languageId: Int) {
        voices(mode: $mode, languageId: $languageId) { id name languageId gender }
      }
    `),
    variables: ({ query }) => ({
      mode: ASSISTANT_MODE.variable(query.get("mode")),
      languageId: intParam(query.get("language_id")),
    }),
    respond: (data) => ({
      body: data.voices.map((voice) => ({
        id: voice.id,
        name: voice.name,
        language_id: voice.languageId,
        gender: voice.gender,
      })),
    }),
  }),
];
