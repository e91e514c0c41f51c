import { AppError, ValidationError } from "../errors.ts";
import type { AuthService } from "../modules/auth/index.ts";
import {
  CALL_EXPORT_COLUMNS,
  type CallFilterRequest,
  type CallQueries,
  callCsvLine,
  csvLine,
} from "../modules/calls/index.ts";
import type { AccountGate } from "../modules/common/per-account-gate.ts";
import { bearerGet } from "./bearer-get.ts";

const PATH = "/exports/calls.csv";
const TEXT_FILTERS = ["status", "type", "phoneNumber", "dateFrom", "dateTo"] as const;
const ID_FILTERS = ["assistantId", "campaignId"] as const;
/** Seconds a refused export is told to wait (Retry-After): a large export takes seconds. */
const RETRY_AFTER_SECONDS = 5;
/**
 * The credential travels in the Authorization header, never a cookie, so any origin may ask (as
 * /graphql): a console served from another origin than the API exports too.
 */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "Content-Disposition, X-Row-Limit, Retry-After",
};

/**
 * `GET /exports/calls.csv`: the account's calls as CSV, with the filters of the `calls` query as
 * query parameters (`status`, `type`, `phoneNumber`, `assistantId`, `campaignId`, `dateFrom`,
 * `dateTo`) and `limit` rows at most (10,000 by default, 100,000 at most), newest first. The owner's
 * API key or session token as a Bearer token. Streamed in batches, so a large account's export
 * neither waits nor holds its calls in memory. Bad filters answer 422 with the field's message,
 * another account's assistant or campaign 404, before any row is sent. While an account's export
 * streams, another one answers 429 with Retry-After: `gate` (CALL_EXPORT_CONCURRENCY places per account,
 * across instances with REDIS_URL) is built in the composition root.
 */
export function createCallExportRoutes(deps: {
  auth: AuthService;
  callQueries: CallQueries;
  gate: AccountGate;
}): (request: Request, url: URL) => Promise<Response | null> {
  return async (request, url) => {
    if (url.pathname !== PATH) return null;
    const response = await answer(request, url);
    for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value);
    return response;
  };

  async function answer(request: Request, url: URL): Promise<Response> {
    const viewer = await bearerGet(request, deps.auth, "Authorization");
    if (viewer instanceof Response) return viewer;
    const release = await deps.gate.enter(viewer.accountId);
    if (!release) {
      return Response.json(
        {
          message: `An export of this account's calls is already running: at most ${deps.gate.limit} at a time. Try again when it has finished.`,
          code: "RATE_LIMITED",
        },
        { status: 429, headers: { "retry-after": String(RETRY_AFTER_SECONDS) } },
      );
    }
    try {
      return await stream(request, url, viewer.accountId, release);
    } catch (error) {
      release();
      throw error;
    }
  }

  /** The export's response; `release` is called once its body has ended, failed or been cancelled. */
  async function stream(
    request: Request,
    url: URL,
    accountId: number,
    release: () => void,
  ): Promise<Response> {
    let exported: Awaited<ReturnType<CallQueries["exportBatches"]>>;
    try {
      exported = await deps.callQueries.exportBatches(
        accountId,
        filterOf(url.searchParams),
        url.searchParams.get("limit") || undefined,
      );
    } catch (error) {
      release();
      if (error instanceof ValidationError) {
        return Response.json({ message: error.message, errors: error.fields }, { status: 422 });
      }
      if (error instanceof AppError && error.code === "NOT_FOUND") {
        return Response.json({ message: error.message }, { status: 404 });
      }
      throw error;
    }
    const headers = {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="calls-${new Date().toISOString().slice(0, 10)}.csv"`,
      "cache-control": "private, no-store",
      "x-row-limit": String(exported.rows),
    };
    if (request.method === "HEAD") {
      release();
      return new Response(null, { headers });
    }
    const encoder = new TextEncoder();
    const batches = exported.batches[Symbol.asyncIterator]();
    let headerSent = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvLine(CALL_EXPORT_COLUMNS)));
          return;
        }
        const next = await batches.next().catch((error: unknown) => {
          release();
          throw error;
        });
        if (next.done) {
          release();
          controller.close();
        } else controller.enqueue(encoder.encode(next.value.map(callCsvLine).join("")));
      },
      async cancel() {
        release();
        await batches.return?.();
      },
    });
    return new Response(body, { headers });
  }
}

/** Query parameters as the `calls` query's filter; an id that is not a number is left for validation to name. */
function filterOf(params: URLSearchParams): CallFilterRequest {
  const filter: Record<string, unknown> = {};
  for (const name of TEXT_FILTERS) {
    const value = params.get(name);
    if (value) filter[name] = value;
  }
  for (const name of ID_FILTERS) {
    const value = params.get(name);
    if (value) filter[name] = /^\d{1,9}$/.test(value) ? Number(value) : value;
  }
  return filter;
}
