import { builder } from "../../builder.ts";
import { ConversationRef, FunctionCall } from "../conversations/conversations.schema.ts";
import type { MessageOutcome } from "../message-pipeline/index.ts";
import { rateLimitHeaderWriter } from "../rate-limits/rate-limits.service.ts";

const GenerateReplyInput = builder.inputType("GenerateReplyInput", {
  fields: (t) => ({
    assistantId: t.int({ required: true, description: "An assistant of the caller's account." }),
    customerIdentifier: t.string({
      required: true,
      description: "Any external id of the customer (phone, e-mail, CRM id), at most 255 characters.",
    }),
    message: t.string({ required: true, description: "The customer's message, at most 4000 characters." }),
    variables: t.field({
      type: "JSON",
      description: "Merged into the conversation's variables, and kept for later calls.",
    }),
  }),
});

const GenerateReplyPayload = builder
  .objectRef<MessageOutcome & { customerIdentifier: string }>("GenerateReplyPayload")
  .implement({
    fields: (t) => ({
      conversationId: t.id({ resolve: (outcome) => outcome.conversation.id }),
      conversation: t.field({ type: ConversationRef, resolve: (outcome) => outcome.conversation }),
      customerIdentifier: t.exposeString("customerIdentifier"),
      reply: t.exposeString("reply", {
        description: "Empty while a person has taken the conversation over.",
      }),
      functionCalls: t.field({ type: [FunctionCall], resolve: (outcome) => outcome.functionCalls }),
      aiDisabled: t.exposeBoolean("aiDisabled", {
        description: "True while a person has taken over: the message was stored, not answered, not charged.",
      }),
    }),
  });

builder.mutationField("generateReply", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: GenerateReplyPayload,
    description:
      "The assistant's reply to a customer of an integration. Charged at the reply price; at most 5 calls per minute per API token (RateLimit-* headers).",
    args: { input: t.arg({ type: GenerateReplyInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.replies.generateReply(
        context.viewer,
        input,
        rateLimitHeaderWriter(context.responseHeaders),
      ),
  }),
);
