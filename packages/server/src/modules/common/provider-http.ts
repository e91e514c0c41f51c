import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { MODEL_ERROR_BODY_MAX_CHARS } from "../../limits.ts";

/** Why a call to an OpenAI-compatible service failed, in the terms the customer's error message needs. */
export class ProviderError extends Error {
  constructor(
    readonly reason: "timeout" | "connection" | "status" | "protocol",
    message: string,
    /** The HTTP status for `status`, and the provider's own message when its body had one. */
    readonly status?: number,
    readonly detail?: string,
  ) {
    super(message);
  }

  /** The message with the provider's own words, when it sent any (a 400's reason, an error event's). */
  get described(): string {
    return this.detail === undefined ? this.message : `${this.message.replace(/\.$/, "")} (${this.detail}).`;
  }
}

export interface ProviderSettings {
  apiKey: string;
  baseUrl: string | undefined;
  /** For each attempt as a whole (connecting, waiting, reading the answer), not for each read. */
  timeoutMs: number;
  maxRetries: number;
}

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Statuses the OpenAI SDK retries (and so does this client): timeouts, conflicts, rate limits, server errors. */
const RETRIED_STATUSES = new Set([408, 409, 429]);
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

/**
 * One endpoint of an OpenAI-compatible service (`POST {base}{path}`), on its documented wire
 * protocol over kept-alive sockets. It replaces the `openai` SDK on the reply path, whose fetch
 * (undici), web streams and response wrappers cost more CPU per call than the rest of a request's
 * HTTP (bench/reply). It keeps the SDK's behaviour where callers see it: a timeout per attempt,
 * retries with backoff (Retry-After honoured) of connection failures, timeouts, 408/409/429 and 5xx
 * before any of the answer was read, and the provider's error message.
 */
export class ProviderEndpoint {
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private readonly headers: Record<string, string>;

  constructor(
    path: string,
    accept: string,
    private readonly settings: ProviderSettings,
  ) {
    const base = (settings.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.url = new URL(`${base}${path}`);
    // Kept-alive sockets: a connection (and TLS handshake) per call would cost more than the call.
    // Idle ones do not hold the process open (the agent unrefs them), so there is nothing to close.
    this.agent =
      this.url.protocol === "https:"
        ? new HttpsAgent({ keepAlive: true, scheduling: "lifo" })
        : new HttpAgent({ keepAlive: true, scheduling: "lifo" });
    this.headers = {
      authorization: `Bearer ${settings.apiKey}`,
      "content-type": "application/json",
      accept,
    };
  }

  /**
   * POSTs `payload` (JSON) and gives a successful answer to `read`, whose failure ends the call
   * (part of the answer may already have been used, so it is not retried). `signal` stops the call,
   * and any wait between attempts, with its reason.
   */
  async post<T>(
    payload: string,
    read: (response: IncomingMessage) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      try {
        return await this.attempt(payload, read, signal);
      } catch (error) {
        const retry = error instanceof Retryable ? error : null;
        if (!retry || attempt >= this.settings.maxRetries) throw retry ? retry.cause : error;
        await pause(retry.delayMs ?? backoff(attempt), signal);
      }
    }
  }

  private attempt<T>(
    payload: string,
    read: (response: IncomingMessage) => Promise<T>,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const send = this.url.protocol === "https:" ? httpsRequest : httpRequest;
      let answered = false;
      let settled = false;
      const request = send(this.url, {
        method: "POST",
        agent: this.agent,
        headers: { ...this.headers, "content-length": Buffer.byteLength(payload) },
      });
      const settle = () => {
        settled = true;
        clearTimeout(deadline);
        signal?.removeEventListener("abort", onAbort);
      };
      /** A failure before the answer was read is worth another attempt when `retryable`. */
      const fail = (error: unknown, retryable = false) => {
        if (settled) return;
        settle();
        request.destroy();
        reject(retryable && !answered && error instanceof ProviderError ? new Retryable(error) : error);
      };
      const onAbort = () => fail(signal!.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      const deadline = setTimeout(
        () => fail(new ProviderError("timeout", "the AI provider did not answer in time."), true),
        this.settings.timeoutMs,
      );
      request.on("error", (cause) =>
        fail(
          new ProviderError("connection", `the AI provider could not be reached (${cause.message}).`),
          true,
        ),
      );
      request.on("response", (response) => {
        const status = response.statusCode ?? 0;
        if (status < 200 || status >= 300) {
          readError(response).then((error) => {
            const retried = RETRIED_STATUSES.has(status) || status >= 500;
            fail(retried ? new Retryable(error, retryAfterMs(response)) : error);
          }, fail);
          return;
        }
        answered = true;
        read(response).then((value) => {
          if (settled) return;
          settle();
          resolve(value);
        }, fail);
      });
      request.end(payload);
    });
  }
}

/** A failure worth another attempt, after `delayMs` when the provider said how long to wait. */
class Retryable extends Error {
  constructor(
    override readonly cause: ProviderError,
    readonly delayMs?: number,
  ) {
    super(cause.message);
  }
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The SDK's backoff: half a second doubling per attempt, up to 8 s, less up to a quarter of jitter. */
function backoff(attempt: number): number {
  return Math.min(INITIAL_RETRY_DELAY_MS * 2 ** attempt, MAX_RETRY_DELAY_MS) * (1 - Math.random() * 0.25);
}

function retryAfterMs(response: IncomingMessage): number | undefined {
  const ms = Number(response.headers["retry-after-ms"]);
  if (Number.isFinite(ms) && ms >= 0 && ms < 60_000) return ms;
  const seconds = Number(response.headers["retry-after"]);
  if (Number.isFinite(seconds) && seconds >= 0 && seconds < 60) return seconds * 1000;
  return undefined;
}

/** An error response: its status and, from an OpenAI-style body, the provider's message. */
async function readError(response: IncomingMessage): Promise<ProviderError> {
  const status = response.statusCode ?? 0;
  let text = "";
  response.setEncoding("utf8");
  for await (const chunk of response) {
    text += chunk as string;
    if (text.length > MODEL_ERROR_BODY_MAX_CHARS) {
      response.destroy();
      break;
    }
  }
  let detail: string | undefined;
  try {
    const message = (JSON.parse(text) as { error?: { message?: unknown } }).error?.message;
    if (typeof message === "string") detail = message;
  } catch {
    // Not JSON (a proxy's HTML page): the status says enough.
  }
  return new ProviderError("status", `the AI provider answered HTTP ${status}.`, status, detail);
}

/** Reads a whole JSON answer of at most `maxChars` characters. */
export function readJson(maxChars: number): (response: IncomingMessage) => Promise<unknown> {
  return (response) =>
    new Promise((resolve, reject) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
        if (text.length > maxChars) {
          response.destroy();
          reject(new ProviderError("protocol", "the AI provider's answer is too long."));
        }
      });
      response.on("end", () => {
        try {
          resolve(JSON.parse(text));
        } catch {
          reject(new ProviderError("protocol", "the AI provider sent an unreadable answer."));
        }
      });
      response.on("error", (cause) =>
        reject(new ProviderError("connection", `the AI provider's answer broke off (${cause.message}).`)),
      );
    });
}
