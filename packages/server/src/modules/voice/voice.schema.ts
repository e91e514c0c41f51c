import { filter, pipe } from "graphql-yoga";
import { builder } from "../../builder.ts";
import type { PubSubEvents } from "../../pubsub.ts";
import { CallRef } from "../calls/calls.schema.ts";
import { FunctionCall } from "../conversations/conversations.schema.ts";
import type { FunctionCallRecord } from "../message-pipeline/index.ts";
import type { CallLatency } from "./call-turns.service.ts";

type CallTurnEvent = PubSubEvents["call:turn"][1];

export const CallTurnRef = builder.prismaObject("CallTurn", {
  description:
    "One turn of a live call: what the caller said, or what the assistant generated and what of it the caller heard, with the time of each stage.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    callId: t.exposeInt("callId"),
    speaker: t.exposeString("speaker", { description: "assistant or customer." }),
    text: t.exposeString("text", {
      description: "The caller's transcript, or the assistant's whole generated turn.",
    }),
    heardText: t.exposeString("heardText", {
      description:
        "What the caller heard: the text, cut to the sentences played when the caller interrupted.",
    }),
    interrupted: t.exposeBoolean("interrupted"),
    startMs: t.exposeInt("startMs", { description: "Milliseconds from the start of the call's audio." }),
    endMs: t.exposeInt("endMs"),
    speechEndedAt: t.expose("speechEndedAt", {
      type: "DateTime",
      nullable: true,
      description: "Assistant turns: when the caller stopped speaking (the turn this one answers).",
    }),
    transcriptAt: t.expose("transcriptAt", { type: "DateTime", nullable: true }),
    firstTokenAt: t.expose("firstTokenAt", { type: "DateTime", nullable: true }),
    firstAudioAt: t.expose("firstAudioAt", { type: "DateTime", nullable: true }),
    playedAt: t.expose("playedAt", {
      type: "DateTime",
      nullable: true,
      description: "When the carrier confirmed (mark) the last sentence played.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    functionCalls: t.field({
      type: [FunctionCall],
      description: "Assistant turns: the functions the model called to write the turn, in order.",
      resolve: (turn) =>
        (Array.isArray(turn.functionCalls) ? turn.functionCalls : []) as unknown as FunctionCallRecord[],
    }),
  }),
});

const CallLatencyRef = builder.objectRef<CallLatency>("CallLatency").implement({
  description:
    "How fast the assistant answered, over the call's answered turns, in ms from the caller's end of speech. Null without such turns.",
  fields: (t) => ({
    turns: t.exposeInt("turns"),
    firstAudioP50Ms: t.exposeInt("firstAudioP50Ms", { nullable: true }),
    firstAudioP95Ms: t.exposeInt("firstAudioP95Ms", { nullable: true }),
    transcriptP50Ms: t.exposeInt("transcriptP50Ms", { nullable: true }),
    firstTokenP50Ms: t.exposeInt("firstTokenP50Ms", { nullable: true }),
  }),
});

builder.objectFields(CallRef, (t) => ({
  turns: t.field({
    type: [CallTurnRef],
    description: "The conversation turn by turn (phone calls through the voice engine).",
    resolve: (call, _args, context) => context.services.callTurns.list(call.accountId, call.id),
  }),
  latency: t.field({
    type: CallLatencyRef,
    resolve: (call, _args, context) => context.services.callTurns.latency(call.accountId, call.id),
  }),
}));

builder.subscriptionField("callTranscript", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallTurnRef,
    description: "Each turn of one of the account's calls as soon as it is stored.",
    args: { callId: t.arg.int({ required: true }) },
    subscribe: async (_root, args, context) => {
      const accountId = context.viewer.accountId;
      await context.services.callQueries.assertOwnedFilters(accountId, { callId: args.callId });
      return pipe(
        context.pubsub.subscribe("call:turn", accountId),
        filter((event: CallTurnEvent) => event.callId === args.callId),
      );
    },
    resolve: async (event, _args, context) =>
      (await context.services.callTurns.get(context.viewer.accountId, event.turnId))!,
  }),
);
