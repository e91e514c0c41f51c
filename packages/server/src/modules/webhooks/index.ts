/** Signed webhooks: events, signing secrets, durable delivery with retries, the delivery log. */
export { WebhookLogRetention } from "./log-retention.ts";
export { type InboundCallRequest, WebhooksService } from "./webhooks.service.ts";
