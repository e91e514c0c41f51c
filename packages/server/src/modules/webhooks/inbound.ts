import { z } from "zod";
import type { ServiceDeps } from "../../deps.ts";
import { INBOUND_WEBHOOK_RESPONSE_MAX_BYTES, MAX_CALL_VARIABLES_BYTES } from "../../limits.ts";
import { safeFetch } from "../../net/safe-fetch.ts";
import { envelope } from "./payloads.ts";
import type { WebhookSecrets } from "./secrets.ts";
import { newMessageId, signedHeaders } from "./signing.ts";

/** An assistant's inbound webhook, asked before one of its calls is answered. */
export interface InboundCallRequest {
  accountId: number;
  assistantId: number;
  url: string;
  from: string;
  to: string;
  phoneNumberId: number;
}

const InboundAnswer = z.object({
  variables: z
    .record(z.string(), z.unknown())
    .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= MAX_CALL_VARIABLES_BYTES),
});

/** An assistant's inbound webhook, which may set a call's variables before it is answered. */
export class InboundWebhook {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly secrets: WebhookSecrets,
  ) {}

  /**
   * Asks an assistant's inbound webhook for the variables of a call about to be answered (signed
   * like every delivery, with a short timeout). Null when it fails, times out or answers something
   * else than `{"variables": {...}}`: the call then goes on with the assistant's defaults.
   */
  async inboundVariables(request: InboundCallRequest): Promise<Record<string, unknown> | null> {
    const messageId = newMessageId();
    const body = JSON.stringify(
      envelope("call.inbound", {
        assistant_id: request.assistantId,
        phone_number_id: request.phoneNumberId,
        from: request.from,
        to: request.to,
      }),
    );
    try {
      const response = await safeFetch(request.url, {
        method: "POST",
        headers: signedHeaders(await this.secrets.signingSecrets(request.accountId), messageId, body),
        body,
        timeoutMs: this.deps.config.webhooks.inboundTimeoutMs,
        maxBytes: INBOUND_WEBHOOK_RESPONSE_MAX_BYTES,
        maxRedirects: 0,
        allowList: this.deps.config.outboundAllowList,
      });
      if (response.status < 200 || response.status >= 300) throw new Error(`HTTP ${response.status}`);
      const parsed = InboundAnswer.safeParse(JSON.parse(response.body.toString("utf8")));
      if (!parsed.success) throw new Error('the answer is not {"variables": {...}} within the size limit');
      return parsed.data.variables;
    } catch (error) {
      this.deps.logger.warn("inbound webhook failed; the call uses the assistant's defaults", {
        accountId: request.accountId,
        assistantId: request.assistantId,
        error: error instanceof Error ? error.message : String(error),
      });
      return null;
    }
  }
}
