import { WIDGET_POSITION } from "../enums.ts";
import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import { type RouteDefinition, route } from "../route.ts";

/** Public endpoints the chat widget calls from customers' websites, before a conversation exists. */
export const widgetRoutes: RouteDefinition[] = [
  route({
    method: "GET",
    path: "/widget/assistants/{uuid}",
    public: true,
    crossOrigin: true,
    operation: graphql(`
      query RestWidgetAssistant($uuid: String!) {
        widgetAssistant(uuid: $uuid) { uuid name initialMessage widgetSettings { theme color position } }
      }
    `),
    variables: ({ params }) => ({ uuid: params.uuid }),
    respond: ({ widgetAssistant }) => ({
      body: {
        uuid: widgetAssistant.uuid,
        name: widgetAssistant.name,
        initial_message: widgetAssistant.initialMessage,
        widget_settings: {
          ...widgetAssistant.widgetSettings,
          position: WIDGET_POSITION.rest(widgetAssistant.widgetSettings.position),
        },
      },
    }),
  }),
  route({
    method: "POST",
    path: "/widget/assistants/{uuid}/conversations",
    public: true,
    crossOrigin: true,
    operation: graphql(`
      mutation RestStartWidgetConversation($input: StartWidgetConversationInput!) {
        startWidgetConversation(input: $input) { conversationId initialMessage createdAt }
      }
    `),
    variables: ({ params, body }) => ({
      input: {
        assistantUuid: params.uuid,
        variables: body.variables,
      },
    }),
    respond: ({ startWidgetConversation }) => ({
      status: 201,
      body: {
        conversation_id: startWidgetConversation.conversationId,
        initial_message: startWidgetConversation.initialMessage,
        created_at: timestampA(startWidgetConversation.createdAt),
      },
    }),
  }),
];
