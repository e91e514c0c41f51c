import { filter, pipe } from "graphql-yoga";
import { builder } from "../../builder.ts";
import { CallRef } from "../calls/calls.schema.ts";
import { rateLimitHeaderWriter } from "../rate-limits/rate-limits.service.ts";

const ConversationEvaluation = builder
  .objectRef<{ conversationId: string; evaluation: unknown; evaluatedAt: Date }>("ConversationEvaluation")
  .implement({
    fields: (t) => ({
      conversationId: t.exposeString("conversationId"),
      evaluation: t.field({
        type: "JSON",
        description:
          "The assistant's post_call_schema fields (sentiment, outcome and score when it is empty).",
        resolve: (result) => result.evaluation,
      }),
      evaluatedAt: t.expose("evaluatedAt", { type: "DateTime" }),
    }),
  });

builder.mutationField("evaluateConversation", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: ConversationEvaluation,
    description:
      "Evaluates a chat conversation now with its assistant's post_call_schema (its latest 200 messages); nothing is stored. At most 10 per minute per account (RateLimit-* headers).",
    args: { id: t.arg.string({ required: true }) },
    resolve: (_root, { id }, context) =>
      context.services.evaluation.evaluateConversation(
        context.viewer.accountId,
        id,
        rateLimitHeaderWriter(context.responseHeaders),
      ),
  }),
);

builder.objectField(CallRef, "evaluationStatus", (t) =>
  t.exposeString("evaluationStatus", {
    description: "none (not asked for), pending, done (see evaluation) or failed (see evaluationError).",
  }),
);
builder.objectField(CallRef, "evaluationError", (t) => t.exposeString("evaluationError"));
builder.objectField(CallRef, "evaluatedAt", (t) =>
  t.expose("evaluatedAt", { type: "DateTime", nullable: true }),
);

builder.subscriptionField("callEvaluated", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: CallRef,
    description:
      "The account's calls (or one call) as their post-call evaluation is stored or fails for good.",
    args: { callId: t.arg.int() },
    subscribe: async (_root, args, context) => {
      const accountId = context.viewer.accountId;
      await context.services.callQueries.assertOwnedFilters(accountId, args);
      return pipe(
        context.pubsub.subscribe("call:evaluated", accountId),
        filter((event: { callId: number }) => !args.callId || event.callId === args.callId),
      );
    },
    resolve: (event: { callId: number }, _args, context) =>
      context.services.callQueries.get(context.viewer.accountId, event.callId),
  }),
);
