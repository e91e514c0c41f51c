import { builder } from "../../builder.ts";
import {
  ConversationMessage,
  ConversationNoteRef,
  ConversationRef,
  memberOf,
} from "./conversations.schema.ts";

builder.mutationField("takeOverConversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    description:
      "A person takes the conversation over: the AI stops answering until it is handed back. It answers a request for a person (waitingForHuman becomes false).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.conversations.setAiDisabled(context.viewer.accountId, String(id), true),
  }),
);

builder.mutationField("handBackConversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    description: "Hands the conversation back to the AI.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.conversations.setAiDisabled(context.viewer.accountId, String(id), false),
  }),
);

builder.mutationField("markConversationRead", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    description:
      "Marks every customer message of the conversation read by the caller (each member has their own read state).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.conversations.markRead(memberOf(context), String(id)),
  }),
);

builder.mutationField("resolveConversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    description: "Marks the conversation resolved; the customer's next message reopens it.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.conversations.setStatus(context.viewer.accountId, String(id), "resolved"),
  }),
);

builder.mutationField("reopenConversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    description: "Opens a resolved conversation again.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.conversations.setStatus(context.viewer.accountId, String(id), "open"),
  }),
);

builder.mutationField("assignConversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    description:
      "Assigns the conversation to a member of the account (userId), or to nobody (null). A user of another account is NOT_FOUND.",
    args: { id: t.arg.id({ required: true }), userId: t.arg.int() },
    resolve: (_root, { id, userId }, context) =>
      context.services.conversations.assign(context.viewer.accountId, String(id), { userId: userId ?? null }),
  }),
);

const AddConversationNoteInput = builder.inputType("AddConversationNoteInput", {
  fields: (t) => ({
    conversationId: t.id({ required: true }),
    content: t.string({ required: true, description: "At most 5000 characters." }),
  }),
});

builder.mutationField("addConversationNote", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationNoteRef,
    description:
      "A private note for the account's members, by the caller: never shown to the customer nor sent to the model.",
    args: { input: t.arg({ type: AddConversationNoteInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.conversations.addNote(memberOf(context), {
        conversationId: String(input.conversationId),
        content: input.content,
      }),
  }),
);

const SendOperatorMessageInput = builder.inputType("SendOperatorMessageInput", {
  fields: (t) => ({
    conversationId: t.id({ required: true }),
    content: t.string({ required: true, description: "At most 2000 characters." }),
  }),
});

builder.mutationField("sendOperatorMessage", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationMessage,
    description:
      "Writes to the customer as a person of the business (free, never answered by the AI itself). In an sms conversation it is also texted to the customer, charged per segment like any text: RECIPIENT_OPTED_OUT or NUMBER_NOT_SMS_CAPABLE refuse it before it is stored.",
    args: { input: t.arg({ type: SendOperatorMessageInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.conversations.sendOperatorMessage(context.viewer.accountId, {
        conversationId: String(input.conversationId),
        content: input.content,
      }),
  }),
);
