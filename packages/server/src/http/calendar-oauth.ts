import type { Config } from "../env.ts";
import type { Logger } from "../logger.ts";
import { CALLBACK_PATH, type CalendarOAuthService } from "../modules/calendars/index.ts";

/** A callback's query (code, state, error, error_description…) is far smaller. */
const MAX_QUERY_LENGTH = 8192;

/**
 * The OAuth redirect back from Google or Microsoft (GET CALLBACK_PATH): a sign-in that worked
 * continues in the console on the new connection (303 to /console/#/calendars/<id>); one that did
 * not gets a short page saying why, with a way back. Other paths answer null.
 */
export function createCalendarOAuthRoutes(deps: {
  config: Config;
  oauth: CalendarOAuthService;
  logger: Logger;
}): (request: Request, url: URL) => Promise<Response | null> {
  return async (request, url) => {
    if (url.pathname !== CALLBACK_PATH) return null;
    // Not HEAD either: a link checker's HEAD must not use up the single-use state.
    if (request.method !== "GET") {
      return new Response("Method Not Allowed", { status: 405, headers: { allow: "GET" } });
    }
    if (url.search.length > MAX_QUERY_LENGTH)
      return page(414, "The sign-in answer is too long.", deps.config);
    const outcome = await deps.oauth.finish(url.searchParams);
    if (outcome.ok) {
      const target = `${deps.config.publicBaseUrl}/console/#/calendars/${outcome.connectionId}`;
      return new Response(null, { status: 303, headers: { location: target, "cache-control": "no-store" } });
    }
    deps.logger.info("calendar sign-in refused", { reason: outcome.reason });
    return page(400, outcome.message, deps.config, outcome.reason);
  };
}

function page(status: number, message: string, config: Config, reason = "too_long"): Response {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>Calendar not connected</title></head>
<body><h1>Calendar not connected</h1>
<p>${escapeHtml(message)}</p>
<p><small>Reason: ${escapeHtml(reason)}</small></p>
<p><a href="${escapeHtml(`${config.publicBaseUrl}/console/#/calendars`)}">Back to the console</a></p>
</body></html>`;
  return new Response(html, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": "default-src 'none'",
      "referrer-policy": "no-referrer",
    },
  });
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
