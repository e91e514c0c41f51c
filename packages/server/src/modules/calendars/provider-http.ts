import { OutboundRequestError, type SafeFetchResult, safeFetch } from "../../net/safe-fetch.ts";
import { type CalendarFailure, CalendarProviderError } from "./provider.ts";

/** Largest provider response read: a month of a busy calendar is far smaller. */
const MAX_RESPONSE_BYTES = 5 * 1024 * 1024;
/** Attempts per request, the first included. */
const MAX_ATTEMPTS = 3;
/** A Retry-After longer than this is not waited for: the failure is reported instead. */
const MAX_RETRY_AFTER_MS = 5_000;
const RETRIED_STATUSES = new Set([429, 500, 502, 503, 504]);

export interface ProviderHttpOptions {
  /** Budget of each attempt (VOXGATE_CALENDAR_TIMEOUT_MS). */
  timeoutMs: number;
  /** config.outboundAllowList: every provider request passes the SSRF guard. */
  allowList: readonly string[];
  /** The first retry's delay, doubling after; default 250 ms. */
  retryBaseMs?: number;
}

export interface ProviderRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
  /**
   * Whether sending the request twice does what sending it once does (reads, deletes, writes that
   * name their result). Only these are retried after a timeout, a lost connection or a 5xx; any
   * request is retried after a 429, which says the provider did nothing.
   */
  idempotent: boolean;
}

/**
 * One provider request through the SSRF guard, with a timeout per attempt and bounded retries:
 * up to MAX_ATTEMPTS, waiting the provider's Retry-After (at most MAX_RETRY_AFTER_MS) or an
 * exponential backoff with jitter. Transport failures become `CalendarProviderError`s; statuses are
 * the caller's to judge (the last attempt's response is returned).
 */
export async function providerFetch(
  url: string,
  request: ProviderRequest,
  options: ProviderHttpOptions,
): Promise<SafeFetchResult & { attempts: number }> {
  for (let attempt = 1; ; attempt++) {
    const last = attempt >= MAX_ATTEMPTS;
    let response: SafeFetchResult;
    try {
      response = await safeFetch(url, {
        method: request.method,
        headers: request.headers,
        ...(request.body === undefined ? {} : { body: request.body }),
        timeoutMs: options.timeoutMs,
        maxBytes: MAX_RESPONSE_BYTES,
        allowList: options.allowList,
      });
    } catch (error) {
      if (!(error instanceof OutboundRequestError)) throw error;
      const transient = error.reason === "timeout" || error.reason === "network";
      if (!transient || !request.idempotent || last) throw toProviderError(error, url);
      await sleep(backoff(attempt, options));
      continue;
    }
    const retriable =
      RETRIED_STATUSES.has(response.status) && (request.idempotent || response.status === 429);
    if (!retriable || last) return { ...response, attempts: attempt };
    const wait = retryAfterMs(response.headers.get("retry-after"));
    if (wait !== null && wait > MAX_RETRY_AFTER_MS) return { ...response, attempts: attempt };
    await sleep(wait ?? backoff(attempt, options));
  }
}

function toProviderError(error: OutboundRequestError, url: string): CalendarProviderError {
  const reasons: Partial<Record<OutboundRequestError["reason"], CalendarFailure>> = {
    blocked_address: "blocked_address",
    invalid_url: "invalid_url",
    timeout: "timeout",
    network: "unreachable",
  };
  return new CalendarProviderError(reasons[error.reason] ?? "unexpected_response", url);
}

function backoff(attempt: number, options: ProviderHttpOptions): number {
  const base = (options.retryBaseMs ?? 250) * 2 ** (attempt - 1);
  return base / 2 + Math.random() * (base / 2);
}

/** Retry-After as seconds or an HTTP date (RFC 9110 §10.2.3); null when absent or unreadable. */
function retryAfterMs(header: string | null): number | null {
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The status a provider answered, as the failure it is (401 unauthorized, 403 forbidden, 404 not found). */
export function statusFailure(status: number): CalendarFailure {
  const reasons: Record<number, CalendarFailure> = {
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    410: "not_found",
    409: "conflict",
    412: "conflict",
  };
  return reasons[status] ?? "unexpected_response";
}

/** The body of a JSON answer, or null when it is not JSON. */
export function jsonBody(response: SafeFetchResult): unknown {
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return null;
  }
}
