import { ASSISTANT_MODE } from "../enums.ts";
import { graphql } from "../generated/gql.ts";
import { intParam, type RouteDefinition, route } from "../route.ts";

export const voiceRoutes: RouteDefinition[] = [
  route({
    method: "GET",
    path: "/user/assistants/voices",
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
