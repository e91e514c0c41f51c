import { builder } from "../../builder.ts";
import { pageOf } from "../common/pagination.schema.ts";
import { rateLimitHeaderWriter } from "../rate-limits/rate-limits.service.ts";

const WebhookAttemptRef = builder.prismaObject("WebhookAttempt", {
  description: "One HTTP attempt to deliver a webhook event.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    attempt: t.exposeInt("attempt", {
      description: "1 for the first attempt (counted again from 1 after a redelivery).",
    }),
    statusCode: t.exposeInt("statusCode", { nullable: true, description: "Null when no response came." }),
    error: t.exposeString("error", {
      nullable: true,
      description: "Why no usable response came (timeout, network, refused address).",
    }),
    latencyMs: t.exposeInt("latencyMs"),
    responseBody: t.exposeString("responseBody", {
      description: "The first 2,000 characters of the response.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const WebhookDeliveryRef = builder.prismaObject("WebhookEvent", {
  name: "WebhookDelivery",
  description: "One event for one endpoint and where its delivery stands (docs/webhooks.md).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    webhookId: t.exposeString("messageId", {
      description: "The webhook-id header: the same on every attempt.",
    }),
    type: t.exposeString("type"),
    url: t.exposeString("url"),
    assistantId: t.exposeInt("assistantId", { nullable: true }),
    callId: t.exposeInt("callId", { nullable: true }),
    status: t.exposeString("status", {
      description: "pending (not yet delivered, maybe retrying), delivered or failed.",
    }),
    attempts: t.exposeInt("attempts"),
    nextAttemptAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When the next attempt is due; null once delivered or failed.",
      resolve: (event) => (event.status === "pending" ? event.nextAttemptAt : null),
    }),
    lastStatusCode: t.exposeInt("lastStatusCode", { nullable: true }),
    lastError: t.exposeString("lastError", { nullable: true }),
    deliveredAt: t.expose("deliveredAt", { type: "DateTime", nullable: true }),
    payload: t.field({ type: "JSON", resolve: (event) => event.payload }),
    attemptLog: t.field({
      type: [WebhookAttemptRef],
      description: "Every attempt, oldest first.",
      resolve: (event, _args, context) => context.services.webhooks.attemptsOf(event.id),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

const WebhookDeliveryPage = pageOf("WebhookDeliveryPage", WebhookDeliveryRef);

const WebhookDeliveryFilter = builder.inputType("WebhookDeliveryFilter", {
  fields: (t) => ({
    type: t.string({ description: "An event type, e.g. call.ended." }),
    status: t.string({ description: "pending, delivered or failed." }),
    callId: t.int(),
  }),
});

builder.queryField("webhookDeliveries", (t) =>
  t.withAuth({ manager: true }).field({
    type: WebhookDeliveryPage,
    description: "The account's webhook delivery log, newest first, 20 per page by default.",
    args: { page: t.arg.int(), perPage: t.arg.int(), filter: t.arg({ type: WebhookDeliveryFilter }) },
    resolve: (_root, args, context) =>
      context.services.webhooks.deliveries(
        context.viewer.accountId,
        { page: args.page, perPage: args.perPage },
        { ...args.filter },
      ),
  }),
);

builder.queryField("webhookDelivery", (t) =>
  t.withAuth({ manager: true }).field({
    type: WebhookDeliveryRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.webhooks.delivery(context.viewer.accountId, id),
  }),
);

builder.mutationField("redeliverWebhook", (t) =>
  t.withAuth({ manager: true }).field({
    type: WebhookDeliveryRef,
    description: "Sends a logged event again (same webhook-id), with a fresh set of attempts.",
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, context) => context.services.webhooks.redeliver(context.viewer.accountId, id),
  }),
);

builder.mutationField("sendTestWebhook", (t) =>
  t.withAuth({ manager: true }).field({
    type: WebhookDeliveryRef,
    description:
      "Queues a signed webhook.test event to `url`, or to the assistant's webhook URL; follow it in the log. At most 10 per minute per account (RateLimit-* headers).",
    args: { url: t.arg.string(), assistantId: t.arg.int() },
    resolve: (_root, args, context) =>
      context.services.webhooks.sendTest(
        context.viewer.accountId,
        args,
        rateLimitHeaderWriter(context.responseHeaders),
      ),
  }),
);

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** When a secret was made and until when it (or the one it replaced) signs, as both secret types show it. */
function secretLifetime<Parent extends { createdAt: Date }>(
  t: PothosSchemaTypes.ObjectFieldBuilder<Types, Parent>,
  until: { resolve: (parent: Parent) => Date | null; description: string },
) {
  return {
    createdAt: t.field({ type: "DateTime", resolve: (parent) => parent.createdAt }),
    until: t.field({ type: "DateTime", nullable: true, ...until }),
  };
}

const WebhookSecretInfo = builder
  .objectRef<{ id: number; createdAt: Date; expiresAt: Date | null }>("WebhookSigningSecret")
  .implement({
    description: "A signing secret, without its value (shown once, when it is made).",
    fields: (t) => {
      const { createdAt, until } = secretLifetime(t, {
        resolve: (secret) => secret.expiresAt,
        description: "Null for the current secret; set on one a rotation retired.",
      });
      return { id: t.exposeInt("id"), createdAt, expiresAt: until };
    },
  });

builder.queryField("webhookSigningSecrets", (t) =>
  t.withAuth({ manager: true }).field({
    type: [WebhookSecretInfo],
    description: "The secrets that sign the account's webhooks now, newest first.",
    resolve: (_root, _args, context) => context.services.webhooks.secrets(context.viewer.accountId),
  }),
);

const RotatedSecret = builder
  .objectRef<{ secret: string; createdAt: Date; previousExpiresAt: Date | null }>("RotatedWebhookSecret")
  .implement({
    fields: (t) => {
      const { createdAt, until } = secretLifetime(t, {
        resolve: (rotated) => rotated.previousExpiresAt,
        description: "Until when the previous secret also signs; null when it stopped at once.",
      });
      return {
        secret: t.exposeString("secret", { description: "whsec_…: not shown again, store it now." }),
        createdAt,
        previousExpiresAt: until,
      };
    },
  });

builder.mutationField("rotateWebhookSecret", (t) =>
  t.withAuth({ manager: true }).field({
    type: RotatedSecret,
    description:
      "Makes a new signing secret and returns it once. The previous one keeps signing for overlapSeconds (default 86400, at most 7 days), so both verify meanwhile.",
    args: { overlapSeconds: t.arg.int() },
    resolve: (_root, { overlapSeconds }, context) =>
      context.services.webhooks.rotateSecret(context.viewer.accountId, overlapSeconds),
  }),
);
