import { builder } from "../../builder.ts";
import type { EndedReason, Insights, InsightsPoint } from "./insights.service.ts";

const InsightsPeriod = builder.inputType("InsightsPeriod", {
  fields: (t) => ({
    from: t.field({ type: "DateTime", required: true, description: "Start of the period (included)." }),
    to: t.field({
      type: "DateTime",
      required: true,
      description: "End of the period (excluded); at most 366 days after from.",
    }),
  }),
});

const InsightsPointRef = builder.objectRef<InsightsPoint>("InsightsPoint").implement({
  description: "One hour or day of the period, in the account's time zone.",
  fields: (t) => ({
    start: t.expose("start", { type: "DateTime" }),
    calls: t.exposeInt("calls"),
    answeredCalls: t.exposeInt("answeredCalls"),
    conversations: t.exposeInt("conversations"),
    minutes: t.exposeFloat("minutes"),
    cost: t.expose("cost", { type: "Decimal" }),
    bookings: t.exposeInt("bookings"),
  }),
});

const EndedReasonRef = builder.objectRef<EndedReason>("InsightsEndedReason").implement({
  fields: (t) => ({
    status: t.exposeString("status", { description: "The calls' final status (completed, no-answer, ...)." }),
    reason: t.exposeString("reason", {
      description: "Why Voxgate ended or failed them; empty when none was recorded.",
    }),
    calls: t.exposeInt("calls"),
  }),
});

const InsightsRef = builder.objectRef<Insights>("Insights").implement({
  description:
    "An overview of the account's calls and conversations over a period, for one assistant or all (docs/console.md#insights).",
  fields: (t) => ({
    from: t.expose("from", { type: "DateTime" }),
    to: t.expose("to", { type: "DateTime" }),
    assistantId: t.exposeInt("assistantId", { nullable: true }),
    timezone: t.exposeString("timezone", {
      description: "The account's time zone, in which the series is cut.",
    }),
    bucket: t.exposeString("bucket", {
      description: "hour (periods up to 2 days) or day: the series' step.",
    }),
    calls: t.exposeInt("calls", { description: "Calls created in the period, live ones included." }),
    finishedCalls: t.exposeInt("finishedCalls", { description: "Calls of the period with a final status." }),
    answeredCalls: t.exposeInt("answeredCalls", {
      description: "Finished calls that were answered (reached in-progress).",
    }),
    answerRate: t.exposeFloat("answerRate", {
      nullable: true,
      description: "answeredCalls / finishedCalls, 0 to 1; null without finished calls.",
    }),
    conversations: t.exposeInt("conversations", { description: "Chat conversations started in the period." }),
    minutes: t.exposeFloat("minutes", { description: "Call minutes (sum of durations / 60)." }),
    cost: t.expose("cost", {
      type: "Decimal",
      description: "What the period's calls cost, in the account's currency.",
    }),
    evaluatedCalls: t.exposeInt("evaluatedCalls", {
      description: "Calls with a stored post-call evaluation.",
    }),
    judgedCalls: t.exposeInt("judgedCalls", {
      description:
        "Evaluated calls whose evaluation has a boolean success (or successful) field or a numeric score.",
    }),
    successfulCalls: t.exposeInt("successfulCalls", {
      description: "Judged calls whose success field is true, or, without one, whose score is at least 7.",
    }),
    successRate: t.exposeFloat("successRate", {
      nullable: true,
      description: "successfulCalls / judgedCalls, 0 to 1; null without judged calls.",
    }),
    measuredTurns: t.exposeInt("measuredTurns", { description: "Assistant turns with a measured latency." }),
    averageTurnLatencyMs: t.exposeInt("averageTurnLatencyMs", {
      nullable: true,
      description: "Mean milliseconds from the caller's end of speech to the answer's first audio.",
    }),
    p95TurnLatencyMs: t.exposeInt("p95TurnLatencyMs", {
      nullable: true,
      description:
        "95th percentile of the same latency, read from a fixed histogram: within 50 ms of the exact value below 2 s (docs/console.md#insights).",
    }),
    transfers: t.exposeInt("transfers", { description: "Calls with a phone transfer (docs/transfers.md)." }),
    bookings: t.exposeInt("bookings", {
      description: "Appointments booked in the period (cancelled ones included).",
    }),
    endedReasons: t.expose("endedReasons", {
      type: [EndedReasonRef],
      description: "The five most frequent endings of the period's finished calls, most frequent first.",
    }),
    series: t.expose("series", {
      type: [InsightsPointRef],
      description: "Every hour or day of the period, in order.",
    }),
  }),
});

builder.queryField("insights", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: InsightsRef,
    description:
      "Figures of the account's calls and conversations over a period, for one assistant (assistantId) or all, with a series per hour or day for charts.",
    args: {
      period: t.arg({ type: InsightsPeriod, required: true }),
      assistantId: t.arg.int(),
    },
    resolve: (_root, args, context) =>
      context.services.insights.overview(context.viewer.accountId, {
        from: args.period.from,
        to: args.period.to,
        assistantId: args.assistantId ?? null,
      }),
  }),
);
