import { filter, pipe } from "graphql-yoga";
import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { pageOf } from "../common/pagination.schema.ts";
import {
  type FunctionCallRecord,
  type MessageOutcome,
  storedFunctionCalls,
} from "../message-pipeline/index.ts";

const ConversationChannel = builder.enumType("ConversationChannel", {
  description:
    "Where a conversation comes from: generate-reply (api), the website widget, the owner testing, or text messages to one of the account's numbers (sms; the customer identifier is the customer's number).",
  values: ["api", "widget", "test", "sms"] as const,
});

export const MessageRole = builder.enumType("MessageRole", {
  description:
    "Who wrote a message: the customer (user), the AI (assistant) or a person of the business (operator).",
  values: ["user", "assistant", "operator", "system"] as const,
});

export const FunctionCall = builder.objectRef<FunctionCallRecord>("FunctionCall").implement({
  description:
    "A function the assistant called while writing a reply. Exactly one of result and error is set.",
  fields: (t) => ({
    name: t.exposeString("name"),
    arguments: t.field({
      type: "JSON",
      description: "The arguments the model chose, as an object.",
      resolve: (call) => call.arguments,
    }),
    result: t.field({
      type: "JSON",
      nullable: true,
      description: "The function's answer (JSON, or text when it was not JSON); null when it failed.",
      resolve: (call) => call.result ?? null,
    }),
    error: t.string({
      nullable: true,
      description: "Why the call failed; null when it succeeded.",
      resolve: (call) => call.error,
    }),
    durationMs: t.exposeInt("duration_ms", { description: "How long the call took, in milliseconds." }),
  }),
});

const ConversationStatus = builder.enumType("ConversationStatus", {
  description:
    "open until a person resolves it (resolveConversation); a new customer message reopens a resolved conversation.",
  values: ["open", "resolved"] as const,
});

type VisitorSource = { pageUrl: string | null; browser: string | null; country: string | null };

const Visitor = builder.objectRef<VisitorSource>("Visitor").implement({
  description:
    'Where a widget visitor wrote from, as the request told it; each field null when not known (docs/console.md "Inbox").',
  fields: (t) => ({
    pageUrl: t.exposeString("pageUrl", {
      nullable: true,
      description: "The page the widget was on (only a page of the conversation's origin is kept).",
    }),
    browser: t.exposeString("browser", {
      nullable: true,
      description: 'The user agent summarised, e.g. "Chrome 131 on macOS".',
    }),
    country: t.exposeString("country", {
      nullable: true,
      description:
        "ISO 3166 alpha-2 code from the header a trusted proxy sets (VOXGATE_VISITOR_COUNTRY_HEADER); null without one.",
    }),
  }),
});

function visitorOf(source: VisitorSource): VisitorSource | null {
  if (source.pageUrl === null && source.browser === null && source.country === null) return null;
  return { pageUrl: source.pageUrl, browser: source.browser, country: source.country };
}

type MemberSource = { id: number; name: string; email: string };

const ConversationMember = builder.objectRef<MemberSource>("ConversationMember").implement({
  description: "A member of the account as the inbox names them (an assignee, a note's author).",
  fields: (t) => ({
    id: t.exposeInt("id", { description: "The user id (assignConversation takes it)." }),
    name: t.exposeString("name"),
    email: t.exposeString("email"),
  }),
});

/** The member an inbox operation acts for. */
function memberOf(context: Context) {
  const viewer = context.viewer!;
  return { accountId: viewer.accountId, userId: viewer.userId };
}

export const ConversationMessage = builder.prismaObject("Message", {
  name: "ConversationMessage",
  description: "One message of a conversation.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    conversationId: t.exposeID("conversationId"),
    role: t.field({ type: MessageRole, resolve: (message) => message.role }),
    content: t.exposeString("content"),
    functionCalls: t.field({
      type: [FunctionCall],
      description: "Functions called to write this reply; empty for other messages.",
      resolve: storedFunctionCalls,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    visitor: t.field({
      type: Visitor,
      nullable: true,
      description: "Where the customer wrote this message from (widget); null for other messages.",
      resolve: visitorOf,
    }),
  }),
});

const ConversationNoteRef = builder.prismaObject("ConversationNote", {
  description:
    "A private note of a member on a conversation: never shown to the customer nor sent to the model.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    conversationId: t.exposeID("conversationId"),
    content: t.exposeString("content"),
    author: t.field({
      type: ConversationMember,
      nullable: true,
      description: "Who wrote it; null once that user is deleted.",
      resolve: (note, _args, context) => context.services.conversations.noteAuthor(note),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

export const ConversationRef = builder.prismaObject("Conversation", {
  description: "A text conversation between a customer and an assistant.",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The conversation UUID." }),
    assistantId: t.exposeInt("assistantId"),
    channel: t.field({ type: ConversationChannel, resolve: (conversation) => conversation.channel }),
    customerIdentifier: t.exposeString("customerIdentifier", {
      nullable: true,
      description:
        "The integration's id for the customer (generate-reply), or the customer's E.164 number (sms); null otherwise.",
    }),
    variables: t.field({
      type: "JSON",
      description: "Variables of this conversation, merged over the assistant's for {{name}} substitution.",
      resolve: (conversation) => conversation.variables,
    }),
    aiDisabled: t.exposeBoolean("aiDisabled", {
      description: "A person has taken over: customer messages are stored but not answered by the AI.",
    }),
    origin: t.exposeString("origin", {
      nullable: true,
      description: "The web page origin a widget conversation started on.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    lastMessageAt: t.expose("lastMessageAt", {
      type: "DateTime",
      nullable: true,
      description: "When the newest message was stored; null before the first.",
    }),
    lastMessage: t.field({
      type: ConversationMessage,
      nullable: true,
      description: "The newest message (an inbox preview); null before the first.",
      resolve: (conversation, _args, context) => context.services.conversations.lastMessage(conversation),
    }),
    unread: t.boolean({
      description:
        "A customer message arrived after the caller (this member) last read the conversation (markConversationRead); each member has their own.",
      resolve: (conversation, _args, context) =>
        context.viewer
          ? context.services.conversations.unreadBy(conversation, context.viewer.userId)
          : conversation.lastCustomerMessageId > conversation.lastReadMessageId,
    }),
    status: t.field({ type: ConversationStatus, resolve: (conversation) => conversation.status }),
    resolvedAt: t.expose("resolvedAt", {
      type: "DateTime",
      nullable: true,
      description: "When it was resolved; null while open.",
    }),
    assignee: t.field({
      type: ConversationMember,
      nullable: true,
      description: "The member it is assigned to; null: unassigned.",
      resolve: (conversation, _args, context) => context.services.conversations.assignee(conversation),
    }),
    notes: t.field({
      type: [ConversationNoteRef],
      description: "The members' private notes, oldest first.",
      resolve: (conversation, _args, context) => context.services.conversations.notes(conversation.id),
    }),
    visitor: t.field({
      type: Visitor,
      nullable: true,
      description: "Where the visitor last wrote from (widget); null when nothing is known.",
      resolve: visitorOf,
    }),
    messages: t.field({
      type: [ConversationMessage],
      description: "Every message, oldest first.",
      resolve: (conversation, _args, context) => context.services.conversations.messages(conversation.id),
    }),
    waitingForHuman: t.boolean({
      description:
        "The customer asked for a person (request_human) and nobody has taken over yet (takeOverConversation clears it).",
      resolve: (conversation) => conversation.humanRequestedAt !== null,
    }),
    humanRequestedAt: t.expose("humanRequestedAt", {
      type: "DateTime",
      nullable: true,
      description: "Since when it waits for a person; null when it does not.",
    }),
    activeAssistantId: t.int({
      description:
        "The assistant answering now: after a hand-off the one it was handed to, else assistantId.",
      resolve: (conversation) => conversation.activeAssistantId ?? conversation.assistantId,
    }),
    handoffCount: t.int({
      description: "How many times it was handed from one assistant to another (docs/transfers.md).",
      resolve: (conversation) => conversation.handoffTrail.length,
    }),
  }),
});

const ConversationPage = pageOf("ConversationPage", ConversationRef);

builder.queryField("conversations", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationPage,
    description:
      "The account's conversations, most recently active first (15 per page by default, at most 100). Filters combine (AND).",
    args: {
      assistantId: t.arg.int(),
      channel: t.arg({ type: ConversationChannel }),
      channels: t.arg({
        type: [ConversationChannel],
        description: "Only conversations of one of these channels (the inbox: widget and sms).",
      }),
      status: t.arg({ type: ConversationStatus }),
      unreadOnly: t.arg.boolean({
        description: "Only conversations with a customer message the caller has not read.",
      }),
      waitingForHuman: t.arg.boolean({
        description: "Only conversations waiting for a person (true) or not waiting (false).",
      }),
      assignedToMe: t.arg.boolean({ description: "Only those assigned to the caller." }),
      unassigned: t.arg.boolean({ description: "Only those assigned to nobody." }),
      assigneeId: t.arg.int({ description: "Only those assigned to this member." }),
      search: t.arg.string({
        description:
          "Only those with a message (customer, AI or operator) containing this text, case-insensitive; 2 to 100 characters.",
      }),
      page: t.arg.int(),
      perPage: t.arg.int(),
    },
    resolve: (_root, args, context) => {
      const { page, perPage, ...filters } = args;
      return context.services.conversations.list(memberOf(context), filters, { page, perPage });
    },
  }),
);

builder.queryField("unreadConversationCount", (t) =>
  t.withAuth({ authenticated: true }).int({
    description: "How many open conversations have a customer message the caller has not read.",
    resolve: (_root, _args, context) => context.services.conversations.unreadCount(memberOf(context)),
  }),
);

builder.queryField("conversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.conversations.get(context.viewer.accountId, String(id)),
  }),
);

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
