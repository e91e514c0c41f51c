import { graphql } from "../generated/gql.ts";
import { intParam, type RouteDefinition, route } from "../route.ts";
import { functionCallsBody } from "./conversations.ts";

export const aiRoutes: RouteDefinition[] = [
  route({
    method: "POST",
    path: "/ai/generate-reply",
    operation: graphql(`
      mutation RestGenerateReply($input: GenerateReplyInput!) {
        generateReply(input: $input) {
          conversationId customerIdentifier reply functionCalls { ...RestFunctionCall } aiDisabled
        }
      }
    `),
    variables: ({ body }) => ({
      input: {
        assistantId: typeof body.assistant_id === "string" ? intParam(body.assistant_id) : body.assistant_id,
        customerIdentifier: body.customer_identifier,
        message: body.message,
        variables: body.variables,
      },
    }),
    respond: ({ generateReply }) => ({
      body: {
        success: true,
        conversation_id: generateReply.conversationId,
        customer_identifier: generateReply.customerIdentifier,
        reply: generateReply.reply,
        function_calls: functionCallsBody(generateReply.functionCalls),
        ai_disabled: generateReply.aiDisabled,
      },
    }),
    errorBody: (error) => ({
      success: false,
      error_code: error.code,
      message: error.message,
      ...(error.fields ? { errors: error.fields } : {}),
    }),
  }),
];
