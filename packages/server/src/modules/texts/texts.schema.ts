import { builder } from "../../builder.ts";
import { actorOf } from "../../events.ts";
import type { TextMessage } from "../../generated/prisma/client.ts";
import { pageOf } from "../common/pagination.schema.ts";
import { TEXT_STATUSES } from "./text-status.ts";

const TextStatusRef = builder.enumType("TextStatus", {
  description:
    "scheduled: held until the account's quiet hours end (sendAt); queued: accepted, not yet sent by the carrier; sent: handed to the recipient's network; delivered, undelivered, failed (not sent; refunded): final for outbound texts; received: an inbound text.",
  values: TEXT_STATUSES,
});

const TextDirectionRef = builder.enumType("TextDirection", { values: ["outbound", "inbound"] as const });

const TextMessageRef = builder.prismaObject("TextMessage", {
  description: "One SMS sent from or received on one of the account's numbers (docs/sms.md).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    direction: t.field({ type: TextDirectionRef, resolve: (text) => text.direction }),
    from: t.exposeString("from", { description: "E.164." }),
    to: t.exposeString("to", { description: "E.164." }),
    body: t.exposeString("body"),
    encoding: t.exposeString("encoding", {
      description: "GSM-7 or UCS-2: what the segments were counted in.",
    }),
    segments: t.exposeInt("segments"),
    status: t.field({ type: TextStatusRef, resolve: (text) => text.status }),
    providerMessageId: t.exposeString("providerMessageId", {
      nullable: true,
      description: "The carrier's id for the message (Twilio's MessageSid).",
    }),
    cost: t.field({
      type: "Decimal",
      description:
        "What the account paid: segments x the price per segment; 0 when refunded, and for inbound texts.",
      resolve: (text) => text.cost.toFixed(4),
    }),
    errorCode: t.exposeString("errorCode", { nullable: true }),
    errorMessage: t.exposeString("errorMessage", { nullable: true }),
    conversationId: t.exposeString("conversationId", { nullable: true }),
    sendAt: t.expose("sendAt", {
      type: "DateTime",
      nullable: true,
      description: "When a text held by quiet hours is sent.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const TextMessagePage = pageOf("TextMessagePage", TextMessageRef);

builder.queryField("texts", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TextMessagePage,
    description: "The account's text messages, sent and received, newest first (25 per page by default).",
    args: { page: t.arg.int(), perPage: t.arg.int() },
    resolve: (_root, args, context) =>
      context.services.texts.list(context.viewer.accountId, { page: args.page, perPage: args.perPage }),
  }),
);

const SendTextInput = builder.inputType("SendTextInput", {
  fields: (t) => ({
    from: t.string({
      required: true,
      description: "One of the account's active SMS-capable numbers, E.164.",
    }),
    to: t.string({ required: true, description: "E.164." }),
    body: t.string({ required: true, description: "At most 1600 characters and 10 segments." }),
    conversationId: t.string({ description: "A conversation of the account the text belongs to." }),
  }),
});

builder.mutationField("sendText", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TextMessageRef,
    description:
      "Sends a text, charged per segment before the carrier is asked (INSUFFICIENT_BALANCE otherwise) and refunded if the carrier refuses it (UPSTREAM_FAILED). NUMBER_NOT_SMS_CAPABLE: `from` is not an active SMS-capable number of the account; RECIPIENT_OPTED_OUT: the recipient replied STOP to it.",
    args: { input: t.arg({ type: SendTextInput, required: true }) },
    resolve: (_root, { input }, context) => context.services.texts.send(context.viewer.accountId, input),
  }),
);

const SimulatedIncomingText = builder
  .objectRef<{ text: TextMessage; reply: string | null }>("SimulatedIncomingText")
  .implement({
    fields: (t) => ({
      text: t.field({ type: TextMessageRef, resolve: (outcome) => outcome.text }),
      reply: t.exposeString("reply", {
        nullable: true,
        description: "What Voxgate answered (HELP, STOP and START get a fixed reply), or null.",
      }),
    }),
  });

const SimulateIncomingTextInput = builder.inputType("SimulateIncomingTextInput", {
  fields: (t) => ({
    to: t.string({ required: true, description: "One of the account's numbers, E.164." }),
    from: t.string({ required: true, description: "The customer's number, E.164." }),
    body: t.string({ required: true }),
  }),
});

builder.mutationField("simulateIncomingText", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: SimulatedIncomingText,
    description:
      "Simulated carrier only (SIMULATED_CARRIER_REQUIRED otherwise): a text from `from` arrives on one of the account's numbers, as a carrier would deliver it.",
    args: { input: t.arg({ type: SimulateIncomingTextInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.texts.simulateInbound(context.viewer.accountId, input),
  }),
);

const TextQuietHoursRef = builder
  .objectRef<{ start: string; end: string; timezone: string }>("TextQuietHours")
  .implement({
    description:
      "When outbound texts are held (docs/sms.md): from start until end (HH:MM, 24-hour; a start after the end spans midnight) in the account's time zone.",
    fields: (t) => ({
      start: t.exposeString("start"),
      end: t.exposeString("end"),
      timezone: t.exposeString("timezone", { description: "The account's IANA time zone." }),
    }),
  });

builder.queryField("textQuietHours", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: TextQuietHoursRef,
    nullable: true,
    description: "The account's quiet hours for outbound texts; null when it has none.",
    resolve: (_root, _args, context) => context.services.textQuietHours.get(context.viewer.accountId),
  }),
);

const SetTextQuietHoursInput = builder.inputType("SetTextQuietHoursInput", {
  fields: (t) => ({
    start: t.string({ description: "HH:MM (24-hour), in the account's time zone; null with end: none." }),
    end: t.string({ description: "HH:MM (24-hour), excluded; differs from start." }),
  }),
});

builder.mutationField("setTextQuietHours", (t) =>
  t.withAuth({ manager: true }).field({
    type: TextQuietHoursRef,
    nullable: true,
    description:
      "Sets the account's quiet hours (or clears them: neither time). A text sent in them is scheduled for their end, unless it answers a customer who texted the number within the last hour.",
    args: { input: t.arg({ type: SetTextQuietHoursInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.textQuietHours.set(
        context.viewer.accountId,
        input,
        actorOf(context.viewer, context.clientAddress),
      ),
  }),
);
