import { intParam, type RouteDefinition } from "../route.ts";
import { FUNCTION_CALL_FIELDS, type FunctionCallData, functionCallsBody } from "./conversations.ts";

export const aiRoutes: RouteDefinition[] = [
  {
    method: "POST",
    path: "/ai/generate-reply",
    operation: /* GraphQL */ `
      mutation RestGenerateReply($input: GenerateReplyInput!) {
        generateReply(input: $input) { conversationId customerIdentifier reply ${FUNCTION_CALL_FIELDS} aiDisabled }
      }`,
    variables: ({ body }) => ({
      input: {
        assistantId: typeof body.assistant_id === "string" ? intParam(body.assistant_id) : body.assistant_id,
        customerIdentifier: body.customer_identifier,
        message: body.message,
        ...(body.variables !== undefined ? { variables: body.variables } : {}),
      },
    }),
    respond: (data) => {
      const { generateReply } = data as {
        generateReply: {
          conversationId: string;
          customerIdentifier: string;
          reply: string;
          functionCalls: FunctionCallData[];
          aiDisabled: boolean;
        };
      };
      return {
        body: {
          success: true,
          conversation_id: generateReply.conversationId,
          customer_identifier: generateReply.customerIdentifier,
          reply: generateReply.reply,
          function_calls: functionCallsBody(generateReply.functionCalls),
          ai_disabled: generateReply.aiDisabled,
        },
      };
    },
    errorBody: (error) => ({
      success: false,
      error_code: error.code,
      message: error.message,
      ...(error.fields ? { errors: error.fields } : {}),
    }),
  },
];
