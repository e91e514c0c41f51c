import { timestampA } from "../format.ts";
import type { ErrorBody, RouteDefinition } from "../route.ts";

/** A function call as GraphQL returns it. */
export interface FunctionCallData {
  name: string;
  arguments: unknown;
  result: unknown;
  error: string | null;
  durationMs: number;
}

export const FUNCTION_CALL_FIELDS = "functionCalls { name arguments result error durationMs }";

/** One `function_calls` item of the legacy API: `{name, arguments, result, error, duration_ms}`. */
export function functionCallsBody(calls: FunctionCallData[]) {
  return calls.map((call) => ({
    name: call.name,
    arguments: call.arguments,
    result: call.result,
    error: call.error,
    duration_ms: call.durationMs,
  }));
}

/** The conversation endpoints' own error shape, from the specification. */
const conversationErrorBody: ErrorBody = (error) => ({ status: false, error: error.message });

interface MessageData {
  id: number;
  role: string;
  content: string;
  functionCalls: FunctionCallData[];
  createdAt: string;
}

/** The public endpoints of one widget conversation; its UUID is the capability to use it. */
export const conversationRoutes: RouteDefinition[] = [
  {
    method: "GET",
    path: "/conversations/{uuid}/messages",
    public: true,
    crossOrigin: true,
    operation: /* GraphQL */ `
      query RestConversationMessages($id: ID!) {
        widgetConversation(id: $id) {
          id
          messages { id role content ${FUNCTION_CALL_FIELDS} createdAt }
        }
      }`,
    variables: ({ params }) => ({ id: params.uuid }),
    respond: (data) => {
      const { widgetConversation } = data as { widgetConversation: { id: string; messages: MessageData[] } };
      return {
        body: {
          conversation_id: widgetConversation.id,
          messages: widgetConversation.messages.map((message) => ({
            id: message.id,
            role: message.role,
            content: message.content,
            function_calls: functionCallsBody(message.functionCalls),
            created_at: timestampA(message.createdAt),
          })),
        },
      };
    },
    errorBody: conversationErrorBody,
  },
  {
    method: "POST",
    path: "/conversations/{uuid}/messages",
    public: true,
    crossOrigin: true,
    operation: /* GraphQL */ `
      mutation RestSendConversationMessage($input: SendWidgetMessageInput!) {
        sendWidgetMessage(input: $input) { reply ${FUNCTION_CALL_FIELDS} }
      }`,
    variables: ({ params, body }) => ({ input: { conversationId: params.uuid, message: body.message } }),
    respond: (data) => {
      const { sendWidgetMessage } = data as {
        sendWidgetMessage: { reply: string; functionCalls: FunctionCallData[] };
      };
      return {
        body: {
          status: true,
          message: sendWidgetMessage.reply,
          function_calls: functionCallsBody(sendWidgetMessage.functionCalls),
        },
      };
    },
    errorBody: conversationErrorBody,
  },
];
