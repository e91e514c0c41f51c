import { paginationEnvelope } from "../envelope.ts";
import { timestampA } from "../format.ts";
import { intParam, type RouteDefinition } from "../route.ts";

interface AssistantData {
  [field: string]: unknown;
  endCallOnVoicemail: boolean;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

interface PageData<Item> {
  items: Item[];
  pageInfo: { total: number; currentPage: number; perPage: number; lastPage: number };
}

/** The GraphQL fields of an assistant, in the order of the spec's table. */
const ASSISTANT_FIELDS = `
  id userId phoneNumberId engineId synthesizerId transcriberId voiceId instanceId name variables
  postCallEvaluation fillers postCallSchema tools isWebhookActive webhookUrl inboundWebhookUrl language
  type status maxDuration record initialMessage systemPrompt flowsPlatformId timezone createdAt updatedAt
  deletedAt maxSilenceDuration reengagementInterval endCallOnVoicemail llmTemperature voiceStability
  voiceSimilarity speechSpeed ambientSoundVolume allowInterruptions enableNoiseCancellation waitForCustomer
  endpointSensitivity interruptSensitivity endpointType mode languageId transcriberProviderId
  synthesizerProviderId llmModelId multimodalModelId ambientSound uuid sendWebhookOnlyOnCompleted
  includeRecordingInWebhook fillerConfig knowledgebaseId knowledgebaseMode minInterruptWords widgetSettings`;

const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** An assistant as the legacy API shows it: snake_case, format A timestamps, the 1/0 voicemail flag. */
export function restAssistant(assistant: AssistantData): Record<string, unknown> {
  const shown: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(assistant)) shown[snake(field)] = value;
  shown.end_call_on_voicemail = assistant.endCallOnVoicemail ? 1 : 0;
  shown.created_at = timestampA(assistant.createdAt);
  shown.updated_at = timestampA(assistant.updatedAt);
  shown.deleted_at = timestampA(assistant.deletedAt);
  return shown;
}

export const assistantRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/user/assistants/get",
    operation: /* GraphQL */ `
      query RestAssistants($page: Int, $perPage: Int) {
        assistants(page: $page, perPage: $perPage) {
          items { ${ASSISTANT_FIELDS} }
          pageInfo { total currentPage perPage lastPage }
        }
      }`,
    variables: ({ query }) => ({
      page: intParam(query.get("page")),
      perPage: intParam(query.get("per_page")),
    }),
    respond: (data, request) => {
      const page = data.assistants as PageData<AssistantData>;
      return {
        body: paginationEnvelope({
          data: page.items.map(restAssistant),
          pageInfo: page.pageInfo,
          path: request.endpointUrl,
          query: request.query,
        }),
      };
    },
  },
];
