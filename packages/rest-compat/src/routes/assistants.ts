import { z } from "zod";
import { paginationEnvelope } from "../envelope.ts";
import { snakeCase, timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import type { RestAssistantFragment } from "../generated/graphql.ts";
import { formatA, freeObject, pageQuery, paginated } from "../openapi/schemas.ts";
import { intParam, type RouteDefinition, route } from "../route.ts";

/** The GraphQL fields of an assistant, in the order of the spec's table. */
graphql(`
  fragment RestAssistant on Assistant {
    id userId phoneNumberId engineId synthesizerId transcriberId voiceId instanceId name variables
    postCallEvaluation fillers postCallSchema tools isWebhookActive webhookUrl inboundWebhookUrl language
    type status maxDuration record initialMessage systemPrompt flowsPlatformId timezone createdAt updatedAt
    deletedAt maxSilenceDuration reengagementInterval endCallOnVoicemail llmTemperature voiceStability
    voiceSimilarity speechSpeed ambientSoundVolume allowInterruptions enableNoiseCancellation waitForCustomer
    endpointSensitivity interruptSensitivity endpointType mode languageId transcriberProviderId
    synthesizerProviderId llmModelId multimodalModelId ambientSound uuid sendWebhookOnlyOnCompleted
    includeRecordingInWebhook fillerConfig knowledgebaseId knowledgebaseMode minInterruptWords widgetSettings
  }
`);

/**
 * An assistant as the legacy API shows it: snake_case, format A timestamps, the 1/0 voicemail flag.
 * Its enum values need no mapping: none of them holds a hyphen.
 */
export function restAssistant(
  assistant: Pick<RestAssistantFragment, "endCallOnVoicemail" | "createdAt" | "updatedAt" | "deletedAt"> &
    Record<string, unknown>,
): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(assistant)) shown[snakeCase(field)] = value;
  shown.end_call_on_voicemail = assistant.endCallOnVoicemail ? 1 : 0;
  shown.created_at = timestampA(assistant.createdAt);
  shown.updated_at = timestampA(assistant.updatedAt);
  shown.deleted_at = timestampA(assistant.deletedAt);
  return shown;
}

export const assistantRoutes: RouteDefinition[] = [
  route({
    method: "GET",
    path: "/user/assistants/get",
    doc: {
      tag: "Assistants",
      summary: "List the account's assistants, oldest first",
      description:
        "Every field of the specification's table, snake_case; docs/assistants-and-telephony.md lists values and units.",
      query: pageQuery,
      response: {
        description: "A page of assistants",
        schema: paginated(
          z.looseObject({
            id: z.int(),
            uuid: z.uuid(),
            name: z.string(),
            user_id: z.int(),
            end_call_on_voicemail: z.union([z.literal(0), z.literal(1)]),
            variables: freeObject,
            widget_settings: freeObject,
            tools: z.array(z.unknown()),
            created_at: formatA,
            updated_at: formatA,
            deleted_at: z.null(),
          }),
        ),
      },
      example: { query: { per_page: "10", page: "1" } },
    },
    operation: graphql(`
      query RestAssistants($page: Int, $perPage: Int) {
        assistants(page: $page, perPage: $perPage) {
          items { ...RestAssistant }
          pageInfo { total currentPage perPage lastPage }
        }
      }
    `),
    variables: ({ query }) => ({
      page: intParam(query.get("page")),
      perPage: intParam(query.get("per_page")),
    }),
    respond: ({ assistants }, request) => ({
      body: paginationEnvelope({
        data: assistants.items.map(restAssistant),
        pageInfo: assistants.pageInfo,
        path: request.endpointUrl,
        query: request.query,
      }),
    }),
  }),
];
