import { z } from "zod";
import { graphql } from "../generated/gql.ts";
import { freeObject, replyErrorBody } from "../openapi/schemas.ts";
import { intParam, type RouteDefinition, route } from "../route.ts";
import { functionCall, functionCallsBody } from "./conversations.ts";

export const aiRoutes: RouteDefinition[] = [
  route({
    method: "POST",
    path: "/ai/generate-reply",
    doc: {
      tag: "AI replies",
      summary: "Generate an assistant's reply to a customer's message (charged per reply)",
      body: {
        schema: z.object({
          assistant_id: z.int(),
          customer_identifier: z
            .string()
            .meta({ description: "Who is talking; one conversation per customer" }),
          message: z.string().max(4000),
          variables: freeObject.optional(),
        }),
      },
      response: {
        description: "The reply",
        schema: z.object({
          success: z.literal(true),
          conversation_id: z.string(),
          customer_identifier: z.string(),
          reply: z.string().nullable(),
          function_calls: z.array(functionCall),
          ai_disabled: z.boolean(),
        }),
      },
      errors: {
        402: "Balance too low",
        404: "Unknown assistant",
        429: "Rate limited (`Retry-After`, `RateLimit-*`)",
        502: "The model failed (not charged)",
      },
      errorSchema: replyErrorBody,
      example: {
        body: {
          assistant_id: 1,
          customer_identifier: "customer-42",
          message: "What are your opening hours?",
        },
      },
    },
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
