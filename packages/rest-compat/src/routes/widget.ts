import { z } from "zod";
import { WIDGET_POSITION } from "../enums.ts";
import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import { formatA } from "../openapi/schemas.ts";
import { type RouteDefinition, route } from "../route.ts";

/** Public endpoints the chat widget calls from customers' websites, before a conversation exists. */
export const widgetRoutes: RouteDefinition[] = [
  route({
    method: "GET",
    path: "/widget/assistants/{uuid}",
    doc: {
      tag: "Widget",
      summary: "What the chat widget shows of an assistant (public)",
      pathParams: { uuid: "The assistant's public UUID" },
      response: {
        description: "The assistant's public face",
        schema: z.object({
          uuid: z.uuid(),
          name: z.string(),
          initial_message: z.string().nullable(),
          widget_settings: z.object({
            theme: z.enum(["light", "dark"]),
            color: z.string(),
            position: z.enum(WIDGET_POSITION.values),
            voice: z.boolean(),
          }),
        }),
      },
      errors: { 404: "No such assistant" },
      example: { params: { uuid: "9b2f7c1e-0000-4000-8000-000000000000" } },
    },
    public: true,
    crossOrigin: true,
    operation: graphql(`
      query RestWidgetAssistant($uuid: String!) {
        widgetAssistant(uuid: $uuid) { uuid name initialMessage widgetSettings { theme color position voice } }
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
    doc: {
      tag: "Widget",
      summary: "Start a widget conversation with an assistant (public)",
      pathParams: { uuid: "The assistant's public UUID" },
      body: {
        schema: z.object({
          variables: z.record(z.string(), z.unknown()).optional(),
          page_url: z
            .string()
            .max(2048)
            .optional()
            .describe(
              "The page the widget is on, shown in the inbox (kept only when on the request's Origin)",
            ),
        }),
      },
      response: {
        status: 201,
        description: "Started",
        schema: z.object({
          conversation_id: z.uuid(),
          initial_message: z.string().nullable(),
          created_at: formatA,
        }),
      },
      errors: {
        403: "The page's origin is not allowed by the assistant",
        404: "No such assistant",
        429: "Too many",
      },
      example: {
        params: { uuid: "9b2f7c1e-0000-4000-8000-000000000000" },
        body: { variables: { name: "Ada" } },
      },
    },
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
        pageUrl: body.page_url ?? null,
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
  route({
    method: "POST",
    path: "/widget/assistants/{uuid}/web-calls",
    doc: {
      tag: "Widget",
      summary: "Start a web call (voice, from the browser) with an assistant (public)",
      description:
        "Only for assistants whose widget_settings.voice is true. Reserves the first minute; open the returned WebSocket path with ?token= within the token's life (docs/voice.md).",
      pathParams: { uuid: "The assistant's public UUID" },
      response: {
        status: 201,
        description: "Started: connect the audio with the token",
        schema: z.object({
          call_id: z.number().int(),
          token: z.string(),
          expires_at: formatA,
          socket_path: z.string(),
          sample_rate: z.number().int(),
        }),
      },
      errors: {
        402: "The owner's balance cannot pay the first minute",
        403: "Voice is off for this assistant, or the page's origin is not allowed",
        404: "No such assistant",
        429: "Too many",
        502: "A speech service the call would hear or speak through cannot be reached: nothing is charged",
        503: "The server carries all the calls it may (Retry-After)",
      },
      example: { params: { uuid: "9b2f7c1e-0000-4000-8000-000000000000" } },
    },
    public: true,
    crossOrigin: true,
    operation: graphql(`
      mutation RestStartWidgetWebCall($input: StartWidgetWebCallInput!) {
        startWidgetWebCall(input: $input) { callId token expiresAt socketPath sampleRate }
      }
    `),
    variables: ({ params }) => ({ input: { assistantUuid: params.uuid } }),
    respond: ({ startWidgetWebCall }) => ({
      status: 201,
      body: {
        call_id: startWidgetWebCall.callId,
        token: startWidgetWebCall.token,
        expires_at: timestampA(startWidgetWebCall.expiresAt),
        socket_path: startWidgetWebCall.socketPath,
        sample_rate: startWidgetWebCall.sampleRate,
      },
    }),
  }),
];
