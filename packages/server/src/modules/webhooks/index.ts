/** Signed webhooks: events, signing secrets, durable delivery with retries, the delivery log. */
export type { InboundCallRequest } from "./inbound.ts";
export { WebhookLogRetention } from "./log-retention.ts";
export { WebhooksService } from "./webhooks.service.ts";
