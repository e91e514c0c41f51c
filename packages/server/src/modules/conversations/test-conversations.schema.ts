import { builder } from "../../builder.ts";
import type { MessageOutcome } from "../message-pipeline/index.ts";
import { ConversationMessage, ConversationRef, FunctionCall } from "./conversations.schema.ts";

export const MessageReply = builder.objectRef<MessageOutcome>("MessageReply").implement({
  description: "What a customer message produced.",
  fields: (t) => ({
    conversation: t.field({ type: ConversationRef, resolve: (outcome) => outcome.conversation }),
    reply: t.exposeString("reply", {
      description: "The assistant's answer; empty while a person has taken over.",
    }),
    functionCalls: t.field({ type: [FunctionCall], resolve: (outcome) => outcome.functionCalls }),
    aiDisabled: t.exposeBoolean("aiDisabled"),
    userMessage: t.field({ type: ConversationMessage, resolve: (outcome) => outcome.userMessage }),
    replyMessage: t.field({
      type: ConversationMessage,
      nullable: true,
      resolve: (outcome) => outcome.replyMessage,
    }),
  }),
});

const StartTestConversationInput = builder.inputType("StartTestConversationInput", {
  fields: (t) => ({
    assistantId: t.int({ required: true }),
    variables: t.field({
      type: "JSON",
      description: "Variables for {{name}} substitution (flat, scalar values).",
    }),
  }),
});

builder.mutationField("startTestConversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    description: "Starts a conversation in which the owner plays the customer. Test conversations are free.",
    args: { input: t.arg({ type: StartTestConversationInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.conversations.startTest(context.viewer.accountId, input),
  }),
);

const SendTestMessageInput = builder.inputType("SendTestMessageInput", {
  fields: (t) => ({
    conversationId: t.id({ required: true }),
    message: t.string({ required: true, description: "At most 2000 characters." }),
    variables: t.field({ type: "JSON" }),
  }),
});

builder.mutationField("sendTestMessage", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: MessageReply,
    description: "Sends a message as the customer in a test conversation and returns the reply (free).",
    args: { input: t.arg({ type: SendTestMessageInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.conversations.sendTestMessage(context.viewer.accountId, {
        ...input,
        conversationId: String(input.conversationId),
      }),
  }),
);
