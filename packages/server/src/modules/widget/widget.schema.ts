import { builder } from "../../builder.ts";
import type { Context } from "../../context.ts";
import type { Message } from "../../generated/prisma/client.ts";
import { WIDGET_POSITIONS, WIDGET_THEMES } from "../assistants/assistant-rules.ts";
import { spelledEnum } from "../common/enums.schema.ts";
import { MessageRole } from "../conversations/conversations.schema.ts";
import { type MessageOutcome, publicFunctionCall, storedFunctionCalls } from "../message-pipeline/index.ts";
import { rateLimitHeaderWriter } from "../rate-limits/rate-limits.service.ts";
import { widgetVoiceEnabled } from "./voice-setting.ts";

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

const WidgetTheme = spelledEnum("WidgetTheme", WIDGET_THEMES);
const WidgetPosition = spelledEnum("WidgetPosition", WIDGET_POSITIONS);

const WidgetSettings = builder
  .objectRef<{
    theme: (typeof WIDGET_THEMES)[number];
    color: string;
    position: (typeof WIDGET_POSITIONS)[number];
    voice: boolean;
  }>("WidgetSettings")
  .implement({
    fields: (t) => ({
      theme: t.expose("theme", { type: WidgetTheme }),
      color: t.exposeString("color", { description: "Hex colour, e.g. #4f46e5." }),
      position: t.expose("position", { type: WidgetPosition }),
      voice: t.exposeBoolean("voice", {
        description: "Whether the widget shows a call button: visitors may talk to the assistant (web call).",
      }),
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
          const choice = <Value extends string>(key: string, values: readonly Value[]) =>
            (values as readonly string[]).includes(text(key, "")) ? (text(key, "") as Value) : values[0]!;
          return {
            theme: choice("theme", WIDGET_THEMES),
            color: text("color", "#4f46e5"),
            position: choice("position", WIDGET_POSITIONS),
            voice: widgetVoiceEnabled(settings),
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
    resolve: (_root, { uuid }, context) => context.services.widget.assistant(uuid),
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
    pageUrl: t.string({
      description:
        "The page the widget is on (location.href), shown to the business; kept only when it is a page of the request's Origin.",
    }),
  }),
});

export const callerOf = (context: Context) => ({
  origin: context.origin,
  clientAddress: context.clientAddress,
  headers: context.request?.headers ?? null,
});

builder.mutationField("startWidgetConversation", (t) =>
  t.field({
    type: WidgetConversationStart,
    description:
      "Public: starts a widget conversation. Refused (FORBIDDEN) when the assistant lists allowed origins and the request's Origin is not one of them; limited per client IP.",
    args: { input: t.arg({ type: StartWidgetConversationInput, required: true }) },
    resolve: async (_root, { input }, context) => {
      const started = await context.services.widget.startConversation(
        { assistantUuid: input.assistantUuid, variables: input.variables, pageUrl: input.pageUrl },
        callerOf(context),
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
      resolve: (message) => storedFunctionCalls(message).map(publicFunctionCall),
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
      resolve: (conversation, _args, context) => context.services.widget.messages(conversation.id),
    }),
  }),
});

builder.queryField("widgetConversation", (t) =>
  t.field({
    type: WidgetConversation,
    description:
      "Public: a widget conversation by its UUID (the UUID is the capability), to restore a session. FORBIDDEN from an origin the assistant does not allow.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, { id }, context) => context.services.widget.conversation(String(id), context.origin),
  }),
);

const SendWidgetMessageInput = builder.inputType("SendWidgetMessageInput", {
  fields: (t) => ({
    conversationId: t.id({ required: true }),
    message: t.string({ required: true, description: "At most 2000 characters." }),
    pageUrl: t.string({
      description:
        "The page the widget is on (location.href), shown to the business; kept only when it is a page of the request's Origin.",
    }),
  }),
});

builder.mutationField("sendWidgetMessage", (t) =>
  t.field({
    type: WidgetMessageReply,
    description:
      "Public: a customer's message in a widget conversation; costs the message price to the assistant's owner. Limited per client IP and per conversation; FORBIDDEN from an origin the assistant does not allow.",
    args: { input: t.arg({ type: SendWidgetMessageInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.widget.sendMessage(
        { conversationId: String(input.conversationId), message: input.message, pageUrl: input.pageUrl },
        callerOf(context),
        rateLimitHeaderWriter(context.responseHeaders),
      ),
  }),
);

builder.subscriptionField("widgetConversationEvents", (t) =>
  t.field({
    type: WidgetMessage,
    description:
      "Public: the AI's and operators' messages of one widget conversation as they are stored (the visitor's own are not repeated), so that an operator's answer reaches an open widget at once. Over graphql-ws or SSE; same origin allow-list and per-client limit as the widget's other operations.",
    args: { conversationId: t.arg.id({ required: true }) },
    subscribe: async (_root, { conversationId }, context) =>
      context.services.widget.events(
        String(conversationId),
        callerOf(context),
        rateLimitHeaderWriter(context.responseHeaders),
      ),
    resolve: (event: { messageId: number }, _args, context) =>
      context.services.widget.message(event.messageId),
  }),
);
