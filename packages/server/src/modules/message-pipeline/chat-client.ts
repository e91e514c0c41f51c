import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import { MODEL_ERROR_BODY_MAX_CHARS, MODEL_STREAM_MAX_CHARS } from "../../limits.ts";

/** Why a chat completion failed, in the terms the customer's error message needs. */
export class ChatCompletionError extends Error {
  constructor(
    readonly reason: "timeout" | "connection" | "status" | "protocol",
    message: string,
    /** The HTTP status for `status`, and the provider's own message when its body had one. */
    readonly status?: number,
    readonly detail?: string,
  ) {
    super(message);
  }
}

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
/** Statuses the OpenAI SDK retries (and so does this client): timeouts, conflicts, rate limits, server errors. */
const RETRIED_STATUSES = new Set([408, 409, 429]);
const INITIAL_RETRY_DELAY_MS = 500;
const MAX_RETRY_DELAY_MS = 8_000;

/**
 * Streamed chat completions (`POST {base}/chat/completions`, `stream: true`, server-sent events) on
 * the documented wire protocol, over kept-alive sockets. It replaces the `openai` SDK on the reply
 * path, whose fetch, web streams and event-emitting stream accumulator cost more CPU per reply than
 * the rest of the request's HTTP (bench/reply). It keeps the SDK's behaviour where callers see it:
 * the timeout (of the whole call), retries of connection failures, timeouts, 408/409/429
 * and 5xx with backoff (Retry-After honoured) before any of the answer arrived, and the provider's
 * error message.
 */
export class ChatCompletionsClient {
  private readonly url: URL;
  private readonly agent: HttpAgent;
  private readonly headers: Record<string, string>;

  constructor(
    private readonly options: {
      apiKey: string;
      baseUrl: string | undefined;
      timeoutMs: number;
      maxRetries: number;
    },
  ) {
    const base = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
    this.url = new URL(`${base}/chat/completions`);
    const secure = this.url.protocol === "https:";
    // Kept-alive sockets: a connection (and TLS handshake) per reply would cost more than the reply.
    // Idle ones do not hold the process open (the agent unrefs them), so there is nothing to close.
    this.agent = secure
      ? new HttpsAgent({ keepAlive: true, scheduling: "lifo" })
      : new HttpAgent({ keepAlive: true, scheduling: "lifo" });
    this.headers = {
      authorization: `Bearer ${options.apiKey}`,
      "content-type": "application/json",
      accept: "text/event-stream",
    };
  }

  /** One streamed completion; `onDelta` receives the text as it arrives. */
  async stream(
    body: ChatCompletionCreateParamsNonStreaming,
    onDelta: ((text: string) => void) | undefined,
  ): Promise<ChatCompletionMessage> {
    const payload = JSON.stringify({ ...body, stream: true });
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.attempt(payload, onDelta);
      } catch (error) {
        const retry = error instanceof Retryable ? error : null;
        if (!retry || attempt >= this.options.maxRetries) throw retry ? retry.cause : error;
        await new Promise((resolve) => setTimeout(resolve, retry.delayMs ?? backoff(attempt)));
      }
    }
  }

  private attempt(payload: string, onDelta: ((text: string) => void) | undefined) {
    return new Promise<ChatCompletionMessage>((resolve, reject) => {
      const send = this.url.protocol === "https:" ? httpsRequest : httpRequest;
      let answered = false;
      const request = send(this.url, {
        method: "POST",
        agent: this.agent,
        headers: { ...this.headers, "content-length": Buffer.byteLength(payload) },
      });
      // The whole call, not each read: a reservation's hold is sized on it (docs/conversations.md).
      const deadline = setTimeout(() => {
        const error = new ChatCompletionError("timeout", "the AI provider did not answer in time.");
        fail(answered ? error : new Retryable(error));
      }, this.options.timeoutMs);
      const fail = (error: unknown) => {
        clearTimeout(deadline);
        request.destroy();
        reject(error);
      };
      request.on("error", (cause) => {
        const error = new ChatCompletionError(
          "connection",
          `the AI provider could not be reached (${cause.message}).`,
        );
        fail(answered ? error : new Retryable(error));
      });
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
        const completion = new StreamedCompletion(onDelta);
        let received = 0;
        response.setEncoding("utf8");
        response.on("data", (text: string) => {
          received += text.length;
          if (received > MODEL_STREAM_MAX_CHARS) {
            fail(new ChatCompletionError("protocol", "the AI provider's answer is too long."));
            return;
          }
          try {
            completion.push(text);
          } catch (error) {
            fail(error);
          }
        });
        response.on("end", () => {
          clearTimeout(deadline);
          try {
            resolve(completion.finish());
          } catch (error) {
            reject(error);
          }
        });
        response.on("error", (cause) =>
          fail(
            new ChatCompletionError("connection", `the AI provider's answer broke off (${cause.message}).`),
          ),
        );
      });
      request.end(payload);
    });
  }
}

/** A failure worth another attempt, after `delayMs` when the provider said how long to wait. */
class Retryable extends Error {
  constructor(
    override readonly cause: ChatCompletionError,
    readonly delayMs?: number,
  ) {
    super(cause.message);
  }
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
async function readError(response: IncomingMessage): Promise<ChatCompletionError> {
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
  return new ChatCompletionError("status", `the AI provider answered HTTP ${status}.`, status, detail);
}

interface ChunkChoice {
  delta?: {
    content?: string | null;
    tool_calls?: {
      index: number;
      id?: string;
      type?: "function";
      function?: { name?: string; arguments?: string };
    }[];
  };
}

/**
 * Assembles a streamed completion from its server-sent events: the text of the first choice, passed
 * on as it comes, and its tool calls, whose pieces arrive by index.
 */
class StreamedCompletion {
  private buffer = "";
  private content: string | null = null;
  private readonly toolCalls: (ChatCompletionMessageToolCall & { type: "function" })[] = [];
  private done = false;

  constructor(private readonly onDelta: ((text: string) => void) | undefined) {}

  push(text: string): void {
    this.buffer += text;
    for (let end = this.eventEnd(); end >= 0; end = this.eventEnd()) {
      const event = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end).replace(/^(\r?\n){2}/, "");
      this.event(event);
    }
  }

  finish(): ChatCompletionMessage {
    if (this.buffer.trim()) this.event(this.buffer);
    this.buffer = "";
    if (!this.done && this.content === null && this.toolCalls.length === 0)
      throw new ChatCompletionError("protocol", "the AI provider returned no answer.");
    return {
      role: "assistant",
      content: this.content,
      refusal: null,
      ...(this.toolCalls.length > 0 ? { tool_calls: this.toolCalls.filter(Boolean) } : {}),
    };
  }

  private eventEnd(): number {
    const lf = this.buffer.indexOf("\n\n");
    const crlf = this.buffer.indexOf("\r\n\r\n");
    if (lf < 0) return crlf;
    return crlf < 0 ? lf : Math.min(lf, crlf);
  }

  private event(block: string): void {
    let data = "";
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith("data:")) data += (data ? "\n" : "") + line.slice(line[5] === " " ? 6 : 5);
    }
    if (!data) return;
    if (data === "[DONE]") {
      this.done = true;
      return;
    }
    let chunk: { choices?: ChunkChoice[]; error?: { message?: unknown } };
    try {
      chunk = JSON.parse(data);
    } catch {
      throw new ChatCompletionError("protocol", "the AI provider sent an unreadable answer.");
    }
    if (chunk.error) {
      const message = typeof chunk.error.message === "string" ? chunk.error.message : undefined;
      throw new ChatCompletionError("status", "the AI provider reported an error.", undefined, message);
    }
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) return;
    if (typeof delta.content === "string") {
      this.content = (this.content ?? "") + delta.content;
      if (delta.content) this.onDelta?.(delta.content);
    }
    for (const piece of delta.tool_calls ?? []) {
      let call = this.toolCalls[piece.index];
      if (!call) {
        call = { id: "", type: "function", function: { name: "", arguments: "" } };
        this.toolCalls[piece.index] = call;
      }
      if (piece.id) call.id = piece.id;
      if (piece.function?.name) call.function.name += piece.function.name;
      if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
    }
  }
}
