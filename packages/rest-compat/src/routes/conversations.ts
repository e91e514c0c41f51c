import { z } from "zod";
import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import type { RestFunctionCallFragment, RestWidgetFunctionCallFragment } from "../generated/graphql.ts";
import { conversationErrorBody as conversationErrorSchema, formatA } from "../openapi/schemas.ts";
import { type ErrorBody, type RouteDefinition, route } from "../route.ts";

// Fragments are found by name when an operation spreads them; these calls declare them for codegen.
graphql(`
  fragment RestFunctionCall on FunctionCall { name arguments result error durationMs }
`);
graphql(`
  fragment RestWidgetFunctionCall on WidgetFunctionCall { name succeeded }
`);

/** A tool call as the API-key endpoints show it: exactly one of `result` and `error` is non-null. */
export const functionCall = z.object({
  name: z.string(),
  arguments: z.unknown(),
  result: z.unknown(),
  error: z.string().nullable(),
  duration_ms: z.int(),
});

/** A tool call as the public endpoints show it. */
const publicFunctionCall = z.object({ name: z.string(), succeeded: z.boolean() });

/** One `function_calls` item of the legacy API: `{name, arguments, result, error, duration_ms}`. */
export function functionCallsBody(calls: RestFunctionCallFragment[]) {
  return calls.map((call) => ({
    name: call.name,
    arguments: call.arguments,
    result: call.result,
    error: call.error,
    duration_ms: call.durationMs,
  }));
}

/** One `function_calls` item of the public endpoints: `{name, succeeded}`, never arguments or answers. */
function publicFunctionCallsBody(calls: RestWidgetFunctionCallFragment[]) {
  return calls.map((call) => ({ name: call.name, succeeded: call.succeeded }));
}

/** The conversation endpoints' own error shape, from the specification. */
const conversationErrorBody: ErrorBody = (error) => ({ status: false, error: error.message });

/** The public endpoints of one widget conversation; its UUID is the capability to use it. */
export const conversationRoutes: RouteDefinition[] = [
  route({
    method: "GET",
    path: "/conversations/{uuid}/messages",
    doc: {
      tag: "Widget",
      summary: "Read a widget conversation's messages (the UUID is the capability; no credential)",
      pathParams: { uuid: "The conversation's id" },
      response: {
        description: "The conversation",
        schema: z.object({
          conversation_id: z.uuid(),
          messages: z.array(
            z.object({
              id: z.int(),
              role: z.string(),
              content: z.string(),
              function_calls: z.array(publicFunctionCall),
              created_at: formatA,
            }),
          ),
        }),
      },
      errors: { 404: "No such widget conversation" },
      errorSchema: conversationErrorSchema,
      example: { params: { uuid: "9b2f7c1e-0000-4000-8000-000000000000" } },
    },
    public: true,
    crossOrigin: true,
    operation: graphql(`
      query RestConversationMessages($id: ID!) {
        widgetConversation(id: $id) {
          id
          messages { id role content functionCalls { ...RestWidgetFunctionCall } createdAt }
        }
      }
    `),
    variables: ({ params }) => ({ id: params.uuid }),
    respond: ({ widgetConversation }) => ({
      body: {
        conversation_id: widgetConversation.id,
        messages: widgetConversation.messages.map((message) => ({
          id: message.id,
          role: message.role,
          content: message.content,
          function_calls: publicFunctionCallsBody(message.functionCalls),
          created_at: timestampA(message.createdAt),
        })),
      },
    }),
    errorBody: conversationErrorBody,
  }),
  route({
    method: "POST",
    path: "/conversations/{uuid}/messages",
    doc: {
      tag: "Widget",
      summary: "Send a visitor's message to a widget conversation; answers the assistant's reply",
      pathParams: { uuid: "The conversation's id" },
      body: {
        schema: z.object({
          message: z.string().max(4000),
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
        description: "The reply",
        schema: z.object({
          status: z.literal(true),
          message: z.string(),
          function_calls: z.array(publicFunctionCall),
        }),
      },
      errors: {
        402: "The assistant's account has no balance left",
        404: "No such widget conversation",
        429: "Too many messages (per visitor address or per conversation)",
        502: "The model failed",
      },
      errorSchema: conversationErrorSchema,
      example: { params: { uuid: "9b2f7c1e-0000-4000-8000-000000000000" }, body: { message: "Hello!" } },
    },
    public: true,
    crossOrigin: true,
    operation: graphql(`
      mutation RestSendConversationMessage($input: SendWidgetMessageInput!) {
        sendWidgetMessage(input: $input) { reply functionCalls { ...RestWidgetFunctionCall } }
      }
    `),
    variables: ({ params, body }) => ({
      input: { conversationId: params.uuid, message: body.message, pageUrl: body.page_url ?? null },
    }),
    respond: ({ sendWidgetMessage }) => ({
      body: {
        status: true,
        message: sendWidgetMessage.reply,
        function_calls: publicFunctionCallsBody(sendWidgetMessage.functionCalls),
      },
    }),
    errorBody: conversationErrorBody,
  }),
];
