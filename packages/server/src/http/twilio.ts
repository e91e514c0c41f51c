import { readLimited } from "@voxgate/rest-compat";
import type { Config } from "../env.ts";
import { TELEPHONY_WEBHOOK_BODY_BYTES } from "../limits.ts";
import type { Logger } from "../logger.ts";
import type { TwilioWebhooks } from "../modules/telephony/index.ts";

const PREFIX = "/telephony/twilio/";

/**
 * Twilio's webhooks (voice, outbound answer, status, answering machine detection, recording callbacks, inbound texts and text statuses) under
 * /telephony/twilio/. Each must be a form POST of at most TELEPHONY_WEBHOOK_BODY_BYTES whose
 * X-Twilio-Signature matches the URL Twilio was given (PUBLIC_BASE_URL + path + query) and its
 * fields; anything else is refused (403 for a missing or wrong signature) before it reaches a
 * service. Other paths answer null; with another carrier these paths do not exist.
 */
export function createTwilioRoutes(deps: {
  config: Config;
  webhooks: TwilioWebhooks | null;
  logger: Logger;
}): (request: Request, url: URL) => Promise<Response | null> {
  return async (request, url) => {
    if (!url.pathname.startsWith(PREFIX)) return null;
    if (!deps.webhooks) return text("Not Found", 404);
    if (request.method !== "POST") return text("Method Not Allowed", 405, { allow: "POST" });
    const type = request.headers.get("content-type") ?? "";
    if (!type.toLowerCase().startsWith("application/x-www-form-urlencoded")) {
      return text("Unsupported Media Type", 415);
    }
    const body = await readLimited(request, TELEPHONY_WEBHOOK_BODY_BYTES);
    if (body === null) return text("Payload Too Large", 413);
    const params: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(body.toString("utf8"))) params[name] = value;
    const publicUrl = `${deps.config.publicBaseUrl}${url.pathname}${url.search}`;
    if (!deps.webhooks.verify(publicUrl, params, request.headers.get("x-twilio-signature"))) {
      deps.logger.warn("twilio webhook refused: bad signature", { path: url.pathname });
      return text("Forbidden", 403);
    }
    const id = (name: string) => {
      const value = url.searchParams.get(name);
      return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
    };
    const answer = await deps.webhooks.handle(url.pathname, id("callId"), params, id("textId"));
    if ("refused" in answer) return text("Forbidden", 403);
    return "twiml" in answer
      ? new Response(answer.twiml, { headers: { "content-type": "text/xml; charset=utf-8" } })
      : new Response(null, { status: 204 });
  };
}

function text(body: string, status: number, headers: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}
