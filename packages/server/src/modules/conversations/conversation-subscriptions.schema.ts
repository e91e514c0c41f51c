import { filter, pipe } from "graphql-yoga";
import { builder } from "../../builder.ts";
import { ConversationMessage, ConversationNoteRef, ConversationRef } from "./conversations.schema.ts";

builder.subscriptionField("conversationMessageAdded", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationMessage,
    description:
      "Each message stored in one of the account's conversations: customer, AI and operator alike.",
    args: { conversationId: t.arg.id({ required: true }) },
    subscribe: async (_root, { conversationId }, context) => {
      const conversation = await context.services.conversations.get(
        context.viewer.accountId,
        String(conversationId),
      );
      return context.pubsub.subscribe("conversation:message", conversation.id);
    },
    resolve: (event: { messageId: number }, _args, context) =>
      context.services.conversations.message(event.messageId),
  }),
);

type ActivityEvent = {
  conversationId: string;
  messageId: number | null;
  kind?: "status" | "assignment" | "note" | "read";
  noteId?: number;
  userId?: number;
};

const ConversationActivityKind = builder.enumType("ConversationActivityKind", {
  description:
    "What moved: a message stored, the conversation itself (take-over, hand-back, request for a person, hand-off), its status, its assignee, a note added, or the caller read it.",
  values: ["message", "conversation", "status", "assignment", "note", "read"] as const,
});

const ConversationActivity = builder.objectRef<ActivityEvent>("ConversationActivity").implement({
  description:
    "Something happened in one of the account's conversations: a message was stored (message set), or it was taken over, handed back, asked for a person or handed to another assistant (message null), resolved or reopened, assigned, noted, or read by the caller.",
  fields: (t) => ({
    kind: t.field({
      type: ConversationActivityKind,
      resolve: (event) => event.kind ?? (event.messageId === null ? "conversation" : "message"),
    }),
    note: t.field({
      type: ConversationNoteRef,
      nullable: true,
      description: "The note added (kind note); null otherwise.",
      resolve: (event, _args, context) =>
        event.noteId === undefined ? null : context.services.conversations.note(event.noteId),
    }),
    conversation: t.field({
      type: ConversationRef,
      description: "The conversation as it is now (unread mark, last message, aiDisabled).",
      resolve: (event, _args, context) => context.services.conversations.activityConversation(event),
    }),
    message: t.field({
      type: ConversationMessage,
      nullable: true,
      resolve: (event, _args, context) =>
        event.messageId === null ? null : context.services.conversations.message(event.messageId),
    }),
  }),
});

builder.subscriptionField("conversationActivity", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationActivity,
    description:
      "Account-wide inbox feed: each message stored in any of the account's conversations, each take-over or hand-back, status change, assignment and note, and the caller's own reads (another member's are not sent).",
    subscribe: (_root, _args, context) => {
      const userId = context.viewer.userId;
      return pipe(
        context.pubsub.subscribe("conversation:activity", context.viewer.accountId),
        filter((event) => event.kind !== "read" || event.userId === userId),
      );
    },
    resolve: (event: ActivityEvent) => event,
  }),
);

const ReplyDelta = builder.objectRef<{ conversationId: string; text: string }>("ReplyDelta").implement({
  description: "A piece of a reply while the model is still writing it; the stored message follows.",
  fields: (t) => ({ conversationId: t.exposeID("conversationId"), text: t.exposeString("text") }),
});

builder.subscriptionField("conversationReplyStream", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ReplyDelta,
    description: "The AI's reply in one of the account's conversations, token by token, as it is generated.",
    args: { conversationId: t.arg.id({ required: true }) },
    subscribe: async (_root, { conversationId }, context) => {
      const conversation = await context.services.conversations.get(
        context.viewer.accountId,
        String(conversationId),
      );
      return context.pubsub.subscribe("conversation:reply-delta", conversation.id);
    },
    resolve: (event: { conversationId: string; text: string }) => event,
  }),
);
