import { timestampA } from "../format.ts";
import { graphql } from "../generated/gql.ts";
import type { RestFunctionCallFragment, RestWidgetFunctionCallFragment } from "../generated/graphql.ts";
import { type ErrorBody, type RouteDefinition, route } from "../route.ts";

// Fragments are found by name when an operation spreads them; these calls declare them for codegen.
graphql(`
  fragment RestFunctionCall on FunctionCall { name arguments result error durationMs }
`);
graphql(`
  fragment RestWidgetFunctionCall on WidgetFunctionCall { name succeeded }
`);

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
    public: true,
    crossOrigin: true,
    operation: graphql(`
      mutation RestSendConversationMessage($input: SendWidgetMessageInput!) {
        sendWidgetMessage(input: $input) { reply functionCalls { ...RestWidgetFunctionCall } }
      }
    `),
    variables: ({ params, body }) => ({ input: { conversationId: params.uuid, message: body.message } }),
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
