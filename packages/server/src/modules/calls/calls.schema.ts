import { filter, pipe } from "graphql-yoga";
import { builder } from "../../builder.ts";
import { type PubSubEvents, startingWith } from "../../pubsub.ts";
import { spelledEnum } from "../common/enums.schema.ts";
import { pageOf } from "../common/pagination.schema.ts";
import { CALL_STATUSES, CALL_TYPES, toApiStatus } from "./call-status.ts";

type CallStatusEvent = PubSubEvents["call:status"][1];

const CallStatusRef = spelledEnum("CallStatus", CALL_STATUSES, {
  description:
    "Where a call is. Final: busy, no_answer, failed, and for an answered call ended, completed, ended_by_customer or ended_by_assistant. REST spells in_progress and no_answer with a hyphen.",
});
const CallTypeRef = spelledEnum("CallType", CALL_TYPES);

export const CallRef = builder.prismaObject("Call", {
  description:
    "A voice call. Names and numbers are copies taken when the call started, so history stays readable.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    assistantId: t.exposeInt("assistantId", { nullable: true }),
    campaignId: t.exposeInt("campaignId", { nullable: true }),
    leadId: t.exposeInt("leadId", { nullable: true }),
    assistantName: t.exposeString("assistantName"),
    campaignName: t.exposeString("campaignName"),
    type: t.expose("type", { type: CallTypeRef }),
    status: t.field({ type: CallStatusRef, resolve: (call) => toApiStatus(call.status) }),
    duration: t.exposeInt("duration", { description: "Seconds from answer to end." }),
    assistantPhoneNumber: t.exposeString("assistantPhoneNumber"),
    clientPhoneNumber: t.exposeString("clientPhoneNumber"),
    transcript: t.exposeString("transcript"),
    variables: t.field({ type: "JSON", resolve: (call) => call.variables }),
    evaluation: t.field({ type: "JSON", resolve: (call) => call.evaluation }),
    webhookResponse: t.field({ type: "JSON", resolve: (call) => call.webhookResponse }),
    carrierCost: t.field({ type: "Decimal", resolve: (call) => call.carrierCost.toFixed(4) }),
    totalCost: t.field({ type: "Decimal", resolve: (call) => call.totalCost.toFixed(4) }),
    answeredBy: t.exposeString("answeredBy", {
      description: "human or machine (voicemail) when the carrier could tell; empty otherwise.",
    }),
    endReason: t.exposeString("endReason", {
      description:
        "Why the call failed or Voxgate ended it (no balance, max duration, carrier error); empty otherwise.",
    }),
    provider: t.exposeString("providerName", {
      description: "The carrier: simulated or twilio; empty for web calls.",
    }),
    recordingUrl: t.exposeString("recordingUrl"),
    recordingStatus: t.exposeString("recordingStatus", {
      description:
        "Where the recording stands: empty (not recorded), recording (being recorded, or being stored once the call ended), stored (`recordingUrl` plays it), failed, or expired (removed by the retention policy).",
    }),
    transferState: t.exposeString("transferState", {
      description:
        "The call's phone transfer (docs/transfers.md#phone-transfers): empty (none, or the caller came back from one nobody answered and the assistant took over), dialing, connected (the caller talked with the destination), returned (back with the assistant, before its next words).",
    }),
    transferredToCallId: t.exposeInt("transferredToCallId", {
      nullable: true,
      description: "The leg of the call's latest transfer: a call of its own, to the destination.",
    }),
    transferredFromCallId: t.exposeInt("transferredFromCallId", {
      nullable: true,
      description: "On a transfer's leg: the call the caller was transferred from.",
    }),
    transferDestinationName: t.exposeString("transferDestinationName", {
      description: "On a transfer's leg: the destination's name when it was dialled; empty otherwise.",
    }),
    test: t.exposeBoolean("test", {
      description:
        "An agent test's simulated phone call: never charged, no webhooks, left out of calls unless includeTests.",
    }),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true }),
    endedAt: t.expose("endedAt", { type: "DateTime", nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    activeAssistantId: t.int({
      nullable: true,
      description:
        "The assistant answering the call: after a hand-off (docs/transfers.md) the one it was handed to, else assistantId. assistantId keeps the call's own assistant (billing, webhooks, evaluation).",
      resolve: (call) => call.activeAssistantId ?? call.assistantId,
    }),
    handoffCount: t.int({
      description: "How many times the call was handed from one assistant to another.",
      resolve: (call) => call.handoffTrail.length,
    }),
  }),
});

const CallPage = pageOf("CallPage", CallRef);

const CallFilterInput = builder.inputType("CallFilter", {
  fields: (t) => ({
    status: t.field({ type: CallStatusRef }),
    type: t.field({ type: CallTypeRef }),
    phoneNumber: t.string({ description: "The client's number, E.164 (exact match)." }),
    assistantId: t.int(),
    campaignId: t.int(),
    dateFrom: t.string({ description: "YYYY-MM-DD, included, in the account's time zone." }),
    dateTo: t.string({ description: "YYYY-MM-DD, included, in the account's time zone." }),
    includeTests: t.boolean({
      description:
        "Include agent tests' simulated phone calls (test: true), left out by default (docs/testing-assistants.md).",
    }),
  }),
});

builder.queryField("calls", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallPage,
    description:
      "The account's calls, newest first, 15 per page by default; total counts the filtered calls.",
    args: { page: t.arg.int(), perPage: t.arg.int(), filter: t.arg({ type: CallFilterInput }) },
    resolve: (_root, args, context) =>
      context.services.callQueries.list(
        context.viewer.accountId,
        { page: args.page, perPage: args.perPage },
        { ...args.filter },
      ),
  }),
);

builder.queryField("call", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.callQueries.get(context.viewer.accountId, id),
  }),
);

const StartWebCallInput = builder.inputType("StartWebCallInput", {
  fields: (t) => ({
    assistantId: t.int({ required: true }),
    variables: t.field({ type: "JSON", description: "Object of context values for this call." }),
  }),
});

builder.mutationField("startWebCall", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallRef,
    description: "Records a web (browser) call with one of the account's assistants, in status initiated.",
    args: { input: t.arg({ type: StartWebCallInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.callStarts.start(context.viewer.accountId, {
        assistantId: input.assistantId,
        type: "web",
        variables: input.variables,
      }),
  }),
);

const StartCallInput = builder.inputType("StartCallInput", {
  fields: (t) => ({
    assistantId: t.int({ required: true }),
    to: t.string({ required: true, description: "The number to call, E.164 (e.g. +14155550123)." }),
    phoneNumberId: t.int({
      description: "The account's number to call from; default: the assistant's number.",
    }),
    variables: t.field({ type: "JSON", description: "Object of context values for this call." }),
  }),
});

builder.mutationField("startCall", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallRef,
    description:
      "Places an outbound phone call: reserves the first minute and dials. The call starts initiated; follow it with callStatusChanged. Refused with RATE_LIMITED when the account has its maximum of calls running, INSUFFICIENT_BALANCE without money for a minute.",
    args: { input: t.arg({ type: StartCallInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.callStarts.placeOutbound({
        accountId: context.viewer.accountId,
        assistantId: input.assistantId,
        to: input.to,
        phoneNumberId: input.phoneNumberId,
        variables: input.variables as Record<string, unknown> | undefined,
      }),
  }),
);

builder.mutationField("endCall", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallRef,
    description:
      "Hangs up a call. A phone call ends when its carrier confirms (status ended, or failed if it was not answered yet); an ended call is returned unchanged.",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.callLifecycle.end(context.viewer.accountId, id),
  }),
);

const SimulateInboundCallInput = builder.inputType("SimulateInboundCallInput", {
  fields: (t) => ({
    phoneNumberId: t.int({ required: true, description: "The account's number that rings." }),
    from: t.string({ required: true, description: "The caller's number, E.164 (e.g. +14155550123)." }),
  }),
});

builder.mutationField("simulateInboundCall", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallRef,
    description:
      "Rings one of the account's numbers on the simulated carrier, as a caller would: answered by the number's inbound assistant (in_progress, then a simulated conversation), or refused (failed, with endReason) when the number has no assistant, the account no balance or its maximum of calls running. SIMULATED_CARRIER_REQUIRED on a real carrier; NOT_FOUND for a number the account does not hold.",
    args: { input: t.arg({ type: SimulateInboundCallInput, required: true }) },
    resolve: (_root, { input }, context) =>
      context.services.inboundCalls.simulateInbound(context.viewer.accountId, input),
  }),
);

const CallStatusChange = builder.objectRef<CallStatusEvent>("CallStatusChange").implement({
  fields: (t) => ({
    callId: t.exposeInt("callId"),
    status: t.expose("status", { type: CallStatusRef }),
    previousStatus: t.expose("previousStatus", {
      type: CallStatusRef,
      nullable: true,
      description:
        "Null when the call was just created, and in the first event of a subscription with includeCurrent (the call as it was then).",
    }),
    call: t.field({
      type: CallRef,
      description: "The call as it is now (it may have moved on since this event).",
      resolve: (event, _args, context) =>
        context.services.callQueries.get(context.viewer!.accountId, event.callId),
    }),
  }),
});

builder.subscriptionField("callStatusChanged", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallStatusChange,
    description:
      "Each status change of the account's calls, optionally of one call, assistant or campaign. With callId and includeCurrent, the call's status when the subscription starts comes first (previousStatus null): a client that read the call and then subscribed misses no change made in between.",
    args: {
      callId: t.arg.int(),
      assistantId: t.arg.int(),
      campaignId: t.arg.int(),
      includeCurrent: t.arg.boolean({
        description:
          "With callId: the call's current status first, then its changes. Ignored without callId.",
      }),
    },
    subscribe: async (_root, args, context) => {
      const accountId = context.viewer.accountId;
      await context.services.callQueries.assertOwnedFilters(accountId, args);
      const live = pipe(
        context.pubsub.subscribe("call:status", accountId),
        filter(
          (event: CallStatusEvent) =>
            (!args.callId || event.callId === args.callId) &&
            (!args.assistantId || event.assistantId === args.assistantId) &&
            (!args.campaignId || event.campaignId === args.campaignId),
        ),
      );
      const callId = args.callId;
      if (!callId || !args.includeCurrent) return live;
      return startingWith(live, async () => {
        const call = await context.services.callQueries.get(accountId, callId);
        return {
          callId,
          assistantId: call.assistantId,
          campaignId: call.campaignId,
          status: toApiStatus(call.status),
          previousStatus: null,
        };
      });
    },
    resolve: (event) => event,
  }),
);
