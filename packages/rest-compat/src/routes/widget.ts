import { timestampA } from "../format.ts";
import type { RouteDefinition } from "../route.ts";

/** Public endpoints the chat widget calls from customers' websites, before a conversation exists. */
export const widgetRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/widget/assistants/{uuid}",
    public: true,
    crossOrigin: true,
    operation: /* GraphQL */ `
      query RestWidgetAssistant($uuid: String!) {
        widgetAssistant(uuid: $uuid) { uuid name initialMessage widgetSettings { theme color position } }
      }`,
    variables: ({ params }) => ({ uuid: params.uuid }),
    respond: (data) => {
      const { widgetAssistant } = data as {
        widgetAssistant: {
          uuid: string;
          name: string;
          initialMessage: string;
          widgetSettings: { theme: string; color: string; position: string };
        };
      };
      return {
        body: {
          uuid: widgetAssistant.uuid,
          name: widgetAssistant.name,
          initial_message: widgetAssistant.initialMessage,
          widget_settings: widgetAssistant.widgetSettings,
        },
      };
    },
  },
  {
    method: "POST",
    path: "/widget/assistants/{uuid}/conversations",
    public: true,
    crossOrigin: true,
    operation: /* GraphQL */ `
      mutation RestStartWidgetConversation($input: StartWidgetConversationInput!) {
        startWidgetConversation(input: $input) { conversationId initialMessage createdAt }
      }`,
    variables: ({ params, body }) => ({
      input: {
        assistantUuid: params.uuid,
        ...(body.variables !== undefined ? { variables: body.variables } : {}),
      },
    }),
    respond: (data) => {
      const { startWidgetConversation } = data as {
        startWidgetConversation: { conversationId: string; initialMessage: string; createdAt: string };
      };
      return {
        status: 201,
        body: {
          conversation_id: startWidgetConversation.conversationId,
          initial_message: startWidgetConversation.initialMessage,
          created_at: timestampA(startWidgetConversation.createdAt),
        },
      };
    },
  },
];
