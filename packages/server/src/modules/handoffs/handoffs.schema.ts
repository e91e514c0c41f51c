import { builder } from "../../builder.ts";
import { actorOf } from "../../events.ts";
import { BusinessHours, BusinessHoursInput } from "../calendars/calendars.schema.ts";
import type { BusinessHours as WeeklyHours } from "../calendars/index.ts";
import { CallRef } from "../calls/calls.schema.ts";
import type { HandoffTargetView } from "./chat-functions.ts";
import type { ChatHandoffSettingsView } from "./chat-handoffs.service.ts";

const TransferMode = builder.enumType("TransferMode", {
  description:
    "cold: the caller is connected and the assistant leaves; warm: the person who answers is briefed first.",
  values: ["cold", "warm"] as const,
});

const TransferDestination = builder.prismaObject("TransferDestination", {
  description: "Where an assistant may transfer a call (docs/transfers.md#destinations).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    assistantId: t.exposeInt("assistantId"),
    name: t.exposeString("name"),
    phoneNumber: t.exposeString("phoneNumber", { nullable: true, description: "E.164; or sipUri." }),
    sipUri: t.exposeString("sipUri", { nullable: true, description: "sip: or sips: URI; or phoneNumber." }),
    description: t.exposeString("description", { description: "What the model reads to choose it." }),
    mode: t.field({ type: TransferMode, resolve: (destination) => destination.mode }),
    timezone: t.exposeString("timezone", { description: "IANA zone of the business hours." }),
    businessHours: t.field({
      type: BusinessHours,
      nullable: true,
      description: "When it is offered; null: always.",
      resolve: (destination) => destination.businessHours as WeeklyHours | null,
    }),
    briefingInstructions: t.exposeString("briefingInstructions", {
      description: "Warm transfers: what the briefing to the person who answers covers.",
    }),
    openNow: t.boolean({
      description: "Whether its business hours are open now (a transfer offers it).",
      resolve: (destination, _args, context) => context.services.transferDestinations.isOpen(destination),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

builder.queryField("transferDestinations", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [TransferDestination],
    description: "An assistant's transfer destinations, oldest first.",
    args: { assistantId: t.arg.int({ required: true }) },
    resolve: (_root, { assistantId }, context) =>
      context.services.transferDestinations.list(context.viewer.accountId, assistantId),
  }),
);

const CreateTransferDestinationInput = builder.inputType("CreateTransferDestinationInput", {
  fields: (t) => ({
    assistantId: t.int({ required: true }),
    name: t.string({ required: true }),
    phoneNumber: t.string({
      description: "E.164, e.g. +14155550123. Exactly one of phoneNumber and sipUri.",
    }),
    sipUri: t.string({ description: "e.g. sip:frontdesk@pbx.example.com." }),
    description: t.string({ required: true, description: "What the model reads to choose it." }),
    mode: t.field({ type: TransferMode, description: "Default cold." }),
    timezone: t.string({ description: "IANA zone of the business hours; default the assistant's." }),
    businessHours: t.field({ type: BusinessHoursInput, description: "Absent or null: always offered." }),
    briefingInstructions: t.string({ description: "Warm transfers: what the briefing covers." }),
  }),
});

builder.mutationField("createTransferDestination", (t) =>
  t.withAuth({ manager: true }).field({
    type: TransferDestination,
    args: { input: t.arg({ type: CreateTransferDestinationInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.transferDestinations.create(context.viewer.accountId, input),
  }),
);

const UpdateTransferDestinationInput = builder.inputType("UpdateTransferDestinationInput", {
  description: "Only the given fields change; null clears phoneNumber, sipUri or businessHours.",
  fields: (t) => ({
    name: t.string(),
    phoneNumber: t.string(),
    sipUri: t.string(),
    description: t.string(),
    mode: t.field({ type: TransferMode }),
    timezone: t.string(),
    businessHours: t.field({ type: BusinessHoursInput }),
    briefingInstructions: t.string(),
  }),
});

builder.mutationField("updateTransferDestination", (t) =>
  t.withAuth({ manager: true }).field({
    type: TransferDestination,
    args: {
      id: t.arg.int({ required: true }),
      input: t.arg({ type: UpdateTransferDestinationInput, required: true }),
    },
    resolve: (_root, { id, input }, context) =>
      context.services.transferDestinations.update(context.viewer.accountId, id, input),
  }),
);

builder.mutationField("deleteTransferDestination", (t) =>
  t.withAuth({ manager: true }).int({
    description: "Deletes a transfer destination; returns its id.",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.transferDestinations.delete(context.viewer.accountId, id);
      return id;
    },
  }),
);

const HandoffTarget = builder.objectRef<HandoffTargetView>("HandoffTarget").implement({
  description: "An assistant a chat may be handed to, with what the model reads to choose it.",
  fields: (t) => ({
    assistantId: t.exposeInt("assistantId"),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
  }),
});

const ChatHandoffSettings = builder.objectRef<ChatHandoffSettingsView>("ChatHandoffSettings").implement({
  description: "How an assistant hands widget and sms conversations over (docs/transfers.md#chat).",
  fields: (t) => ({
    assistantId: t.exposeInt("assistantId"),
    requestHuman: t.exposeBoolean("requestHuman", { description: "request_human is offered." }),
    timezone: t.exposeString("timezone", { description: "IANA zone of humanHours." }),
    humanHours: t.field({
      type: BusinessHours,
      nullable: true,
      description: "When people answer chats; null: any time.",
      resolve: (settings) => settings.humanHours,
    }),
    targets: t.field({
      type: [HandoffTarget],
      description: "Assistants `handoff` may move a conversation to, in order.",
      resolve: (settings) => settings.targets,
    }),
  }),
});

builder.queryField("chatHandoffSettings", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ChatHandoffSettings,
    args: { assistantId: t.arg.int({ required: true }) },
    resolve: (_root, { assistantId }, context) =>
      context.services.chatHandoffs.settings(context.viewer.accountId, assistantId),
  }),
);

const HandoffTargetInput = builder.inputType("HandoffTargetInput", {
  fields: (t) => ({
    assistantId: t.int({ required: true, description: "Another assistant of the account." }),
    description: t.string({ required: true, description: "What the model reads to choose it." }),
  }),
});

const SetChatHandoffSettingsInput = builder.inputType("SetChatHandoffSettingsInput", {
  description: "Only the given fields change; targets replaces the list.",
  fields: (t) => ({
    assistantId: t.int({ required: true }),
    requestHuman: t.boolean(),
    timezone: t.string(),
    humanHours: t.field({ type: BusinessHoursInput, description: "null: people answer any time." }),
    targets: t.field({ type: [HandoffTargetInput] }),
  }),
});

builder.mutationField("setChatHandoffSettings", (t) =>
  t.withAuth({ manager: true }).field({
    type: ChatHandoffSettings,
    args: { input: t.arg({ type: SetChatHandoffSettingsInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.chatHandoffs.setSettings(context.viewer.accountId, {
        ...input,
        ...(input.requestHuman === null ? { requestHuman: undefined } : {}),
        ...(input.timezone === null ? { timezone: undefined } : {}),
        ...(input.targets === null ? { targets: undefined } : {}),
      }),
  }),
);

builder.mutationField("takeOverCall", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallRef,
    description:
      "Takes a live phone call of the account over: a warm transfer to `phoneNumber` (the operator's own " +
      "phone), started at once. The person who answers hears a briefing and accepts (1 or no key) or declines " +
      "(2); declined or unanswered, the caller returns to the assistant. Answers the transfer's leg, a call " +
      "of its own (docs/transfers.md#take-over).",
    args: {
      callId: t.arg.int({ required: true }),
      phoneNumber: t.arg.string({ required: true, description: "E.164; not premium-rate or shared-cost." }),
    },
    resolve: (_root, { callId, phoneNumber }, context) =>
      context.services.callTransfers.takeOver(
        context.viewer.accountId,
        callId,
        { phoneNumber },
        actorOf(context.viewer, context.clientAddress),
      ),
  }),
);
