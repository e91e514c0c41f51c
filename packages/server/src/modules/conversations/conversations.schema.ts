import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import type { Message } from "../../generated/prisma/client.ts";
import { pageOf } from "../common/pagination.schema.ts";
import { rateLimitHeaderWriter } from "../rate-limits/rate-limits.service.ts";
import { type FunctionCallRecord, publicFunctionCall } from "../replies/tools.ts";
import type { MessageOutcome } from "./conversations.service.ts";

const ConversationChannel = builder.enumType("ConversationChannel", {
  description:
    "Where a conversation comes from: generate-reply (api), the website widget, or the owner testing.",
  values: ["api", "widget", "test"] as const,
});

const MessageRole = builder.enumType("MessageRole", {
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

/** The function calls stored with a message (a JSON column). */
const storedCalls = (message: Message) =>
  (Array.isArray(message.functionCalls) ? message.functionCalls : []) as unknown as FunctionCallRecord[];

const WidgetFunctionCall = builder
  .objectRef<ReturnType<typeof publicFunctionCall>>("WidgetFunctionCall")
  .implement({
    description:
      "What a website visitor sees of a function the assistant called: its name and whether it worked. Its arguments and answer are only shown to the owner.",
    fields: (t) => ({
      name: t.exposeString("name"),
      succeeded: t.exposeBoolean("succeeded"),
    }),
  });

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
      resolve: storedCalls,
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
      description: "The integration's id for the customer (generate-reply only).",
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
    messages: t.field({
      type: [ConversationMessage],
      description: "Every message, oldest first.",
      resolve: (conversation, _args, context) => context.services.conversations.messages(conversation.id),
    }),
  }),
});

const ConversationPage = pageOf("ConversationPage", ConversationRef);

builder.queryField("conversations", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationPage,
    description: "The account's conversations, most recently active first (15 per page by default).",
    args: {
      assistantId: t.arg.int(),
      channel: t.arg({ type: ConversationChannel }),
      page: t.arg.int(),
      perPage: t.arg.int(),
    },
    resolve: (_root, args, context) =>
      context.services.conversations.list(
        context.viewer.accountId,
        { assistantId: args.assistantId, channel: args.channel },
        { page: args.page, perPage: args.perPage },
      ),
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
    description: "A person takes the conversation over: the AI stops answering until it is handed back.",
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
      "Writes to the customer as a person of the business (free, never answered by the AI itself).",
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
      context.prisma.message.findUniqueOrThrow({ where: { id: event.messageId } }),
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

// ---------------------------------------------------------------- public widget API

const WidgetSettings = builder
  .objectRef<{ theme: string; color: string; position: string }>("WidgetSettings")
  .implement({
    fields: (t) => ({
      theme: t.exposeString("theme"),
      color: t.exposeString("color", { description: "Hex colour, e.g. #4f46e5." }),
      position: t.exposeString("position"),
    }),
  });

const WidgetAssistant = builder
  .objectRef<{ uuid: string; name: string; initialMessage: string; widgetSettings: unknown }>(
    "WidgetAssistant",
  )
  .implement({
    description: "What the public chat widget shows of an assistant.",
    fields: (t) => ({
      uuid: t.exposeString("uuid"),
      name: t.exposeString("name"),
      initialMessage: t.exposeString("initialMessage"),
      widgetSettings: t.field({
        type: WidgetSettings,
        resolve: (assistant) => {
          const settings = (assistant.widgetSettings ?? {}) as Record<string, unknown>;
          const text = (key: string, fallback: string) =>
            typeof settings[key] === "string" ? (settings[key] as string) : fallback;
          return {
            theme: text("theme", "light"),
            color: text("color", "#4f46e5"),
            position: text("position", "bottom-right"),
          };
        },
      }),
    }),
  });

builder.queryField("widgetAssistant", (t) =>
  t.field({
    type: WidgetAssistant,
    description: "Public: an assistant's widget settings by its UUID (no credential needed).",
    args: { uuid: t.arg.string({ required: true }) },
    resolve: (_root, { uuid }, context) => context.services.conversations.widgetAssistant(uuid),
  }),
);

const WidgetConversationStart = builder
  .objectRef<{ conversationId: string; initialMessage: string; createdAt: Date }>("WidgetConversationStart")
  .implement({
    fields: (t) => ({
      conversationId: t.exposeID("conversationId"),
      initialMessage: t.exposeString("initialMessage"),
      createdAt: t.expose("createdAt", { type: "DateTime" }),
    }),
  });

const StartWidgetConversationInput = builder.inputType("StartWidgetConversationInput", {
  fields: (t) => ({
    assistantUuid: t.string({ required: true }),
    variables: t.field({ type: "JSON" }),
  }),
});

/** The page a browser request comes from, as the browser reports it. */
const originOf = (context: Context) => context.request?.headers.get("origin") ?? null;

builder.mutationField("startWidgetConversation", (t) =>
  t.field({
    type: WidgetConversationStart,
    description:
      "Public: starts a widget conversation. Refused (FORBIDDEN) when the assistant lists allowed origins and the request's Origin is not one of them; limited per client IP.",
    args: { input: t.arg({ type: StartWidgetConversationInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      const started = await context.services.conversations.startWidgetConversation(
        {
          assistantUuid: input.assistantUuid,
          variables: input.variables,
          origin: originOf(context),
          clientAddress: context.clientAddress,
        },
        rateLimitHeaderWriter(context.responseHeaders),
      );
      return {
        conversationId: started.conversation.id,
        initialMessage: started.initialMessage,
        createdAt: started.conversation.createdAt,
      };
    },
  }),
);

const WidgetMessage = builder.objectRef<Message>("WidgetMessage").implement({
  description: "One message of a widget conversation, as the public widget API shows it.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    role: t.field({ type: MessageRole, resolve: (message) => message.role }),
    content: t.exposeString("content"),
    functionCalls: t.field({
      type: [WidgetFunctionCall],
      description: "Functions called to write this reply (name and outcome only); empty for other messages.",
      resolve: (message) => storedCalls(message).map(publicFunctionCall),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const WidgetMessageReply = builder.objectRef<MessageOutcome>("WidgetMessageReply").implement({
  description: "What a visitor's message produced, as the public widget API shows it.",
  fields: (t) => ({
    conversationId: t.id({ resolve: (outcome) => outcome.conversation.id }),
    reply: t.exposeString("reply", {
      description: "The assistant's answer; empty while a person has taken over.",
    }),
    functionCalls: t.field({
      type: [WidgetFunctionCall],
      resolve: (outcome) => outcome.functionCalls.map(publicFunctionCall),
    }),
    aiDisabled: t.exposeBoolean("aiDisabled"),
    userMessage: t.field({ type: WidgetMessage, resolve: (outcome) => outcome.userMessage }),
    replyMessage: t.field({
      type: WidgetMessage,
      nullable: true,
      resolve: (outcome) => outcome.replyMessage,
    }),
  }),
});

const WidgetConversation = builder.objectRef<{ id: string }>("WidgetConversation").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    messages: t.field({
      type: [WidgetMessage],
      description: "Every message, oldest first.",
      resolve: (conversation, _args, context) => context.services.conversations.messages(conversation.id),
    }),
  }),
});

builder.queryField("widgetConversation", (t) =>
  t.field({
    type: WidgetConversation,
    description:
      "Public: a widget conversation by its UUID (the UUID is the capability), to restore a session. FORBIDDEN from an origin the assistant does not allow.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.conversations.widgetConversation(String(id), originOf(context)),
  }),
);

const SendWidgetMessageInput = builder.inputType("SendWidgetMessageInput", {
  fields: (t) => ({
    conversationId: t.id({ required: true }),
    message: t.string({ required: true, description: "At most 2000 characters." }),
  }),
});

builder.mutationField("sendWidgetMessage", (t) =>
  t.field({
    type: WidgetMessageReply,
    description:
      "Public: a customer's message in a widget conversation; costs the message price to the assistant's owner. Limited per client IP and per conversation; FORBIDDEN from an origin the assistant does not allow.",
    args: { input: t.arg({ type: SendWidgetMessageInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.conversations.sendWidgetMessage(
        {
          conversationId: String(input.conversationId),
          message: input.message,
          origin: originOf(context),
          clientAddress: context.clientAddress,
        },
        rateLimitHeaderWriter(context.responseHeaders),
      ),
  }),
);
