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

/** A function call as the public widget operations return it: which function, and whether it worked. */
interface PublicFunctionCallData {
  name: string;
  succeeded: boolean;
}

const PUBLIC_FUNCTION_CALL_FIELDS = "functionCalls { name succeeded }";

/** One `function_calls` item of the public endpoints: `{name, succeeded}`, never arguments or answers. */
function publicFunctionCallsBody(calls: PublicFunctionCallData[]) {
  return calls.map((call) => ({ name: call.name, succeeded: call.succeeded }));
}

/** The conversation endpoints' own error shape, from the specification. */
const conversationErrorBody: ErrorBody = (error) => ({ status: false, error: error.message });

interface MessageData {
  id: number;
  role: string;
  content: string;
  functionCalls: PublicFunctionCallData[];
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
          messages { id role content ${PUBLIC_FUNCTION_CALL_FIELDS} createdAt }
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
            function_calls: publicFunctionCallsBody(message.functionCalls),
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
        sendWidgetMessage(input: $input) { reply ${PUBLIC_FUNCTION_CALL_FIELDS} }
      }`,
    variables: ({ params, body }) => ({ input: { conversationId: params.uuid, message: body.message } }),
    respond: (data) => {
      const { sendWidgetMessage } = data as {
        sendWidgetMessage: { reply: string; functionCalls: PublicFunctionCallData[] };
      };
      return {
        body: {
          status: true,
          message: sendWidgetMessage.reply,
          function_calls: publicFunctionCallsBody(sendWidgetMessage.functionCalls),
        },
      };
    },
    errorBody: conversationErrorBody,
  },
];
