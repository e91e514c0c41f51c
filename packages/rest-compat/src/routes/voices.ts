import { intParam, type RouteDefinition } from "../route.ts";

interface VoiceData {
  id: number;
  name: string;
  languageId: number | null;
  gender: string;
}

export const voiceRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/user/assistants/voices",
    operation: /* GraphQL */ `
      query RestVoices($mode: String, $languageId: Int) {
        voices(mode: $mode, languageId: $languageId) { id name languageId gender }
      }`,
    variables: ({ query }) => ({
      mode: query.get("mode") || undefined,
      languageId: intParam(query.get("language_id")),
    }),
    respond: (data) => ({
      body: (data.voices as VoiceData[]).map((voice) => ({
        id: voice.id,
        name: voice.name,
        language_id: voice.languageId,
        gender: voice.gender,
      })),
    }),
  },
];
