/** Signed webhooks: events, signing secrets, durable delivery with retries, the delivery log. */
export {
  type CallWebhookResponses,
  type InboundCallRequest,
  WebhooksService,
} from "./webhooks.service.ts";
