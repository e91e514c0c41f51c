import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import { pageOf } from "../common/pagination.schema.ts";
import { type FunctionCallRecord, storedFunctionCalls } from "../message-pipeline/index.ts";

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
export function memberOf(context: Context) {
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

export const ConversationNoteRef = builder.prismaObject("ConversationNote", {
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
