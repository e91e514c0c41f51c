/** The public widget endpoints of a Voxgate server, and the failures a visitor can meet. */

export type WidgetPosition = "bottom-right" | "bottom-left";
export type WidgetTheme = "light" | "dark" | "auto";

export interface WidgetSettings {
  theme: string;
  color: string;
  position: string;
  /** Whether visitors may call the assistant (the widget shows a call button). */
  voice?: boolean;
}

export interface AssistantProfile {
  uuid: string;
  name: string;
  initial_message: string;
  widget_settings: WidgetSettings;
}

export interface StartedConversation {
  conversation_id: string;
  initial_message: string;
  created_at: string;
}

/** A web call the server started: connect its audio with the single-use token, soon. */
export interface StartedWebCall {
  call_id: number;
  token: string;
  expires_at: string;
  /** The WebSocket path, on the API's server. */
  socket_path: string;
  /** Samples per second of the PCM16 audio, both ways. */
  sample_rate: number;
}

export type MessageRole = "user" | "assistant" | "operator";

/** A function the assistant called, as the public endpoints show it: which one, and whether it worked. */
export interface FunctionCallOutcome {
  name: string;
  succeeded: boolean;
}

export interface HistoryMessage {
  id: number | string;
  role: MessageRole;
  content: string;
  function_calls: FunctionCallOutcome[];
  created_at: string;
}

export interface ConversationHistory {
  conversation_id: string;
  messages: HistoryMessage[];
}

export interface AssistantReply {
  status: true;
  message: string;
  function_calls: FunctionCallOutcome[];
}

/**
 * Why a call failed, as the widget explains it to a visitor. `network`: no answer at all;
 * `server`: a 5xx or an answer we could not read.
 */
export type WidgetErrorKind =
  | "assistant-not-found"
  | "origin-not-allowed"
  | "conversation-gone"
  | "insufficient-balance"
  | "rate-limited"
  | "invalid-message"
  | "network"
  | "server"
  | "at-capacity"
  | "microphone-denied"
  | "call-failed";

export class WidgetApiError extends Error {
  constructor(
    readonly kind: WidgetErrorKind,
    message: string,
    /** HTTP status; 0 when the server never answered. */
    readonly status: number,
    /** Seconds to wait before retrying, from `Retry-After` on 429 and 503. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "WidgetApiError";
  }
}

/** A reply may take as long as the model does; settings and history must be quick or fail visibly. */
const QUICK_TIMEOUT_MS = 15_000;
const REPLY_TIMEOUT_MS = 120_000;

export class WidgetApi {
  private readonly base: string;

  constructor(apiBase: string) {
    this.base = apiBase.replace(/\/+$/, "");
  }

  fetchAssistant(assistantUuid: string): Promise<AssistantProfile> {
    return this.request<AssistantProfile>(
      "GET",
      `/api/widget/assistants/${encodeURIComponent(assistantUuid)}`,
      "assistant-not-found",
      QUICK_TIMEOUT_MS,
    );
  }

  startConversation(assistantUuid: string): Promise<StartedConversation> {
    return this.request<StartedConversation>(
      "POST",
      `/api/widget/assistants/${encodeURIComponent(assistantUuid)}/conversations`,
      "assistant-not-found",
      QUICK_TIMEOUT_MS,
      { page_url: currentPage() },
    );
  }

  /** Starts a web call (voice) with an assistant whose widget settings enable it. */
  startWebCall(assistantUuid: string): Promise<StartedWebCall> {
    return this.request<StartedWebCall>(
      "POST",
      `/api/widget/assistants/${encodeURIComponent(assistantUuid)}/web-calls`,
      "assistant-not-found",
      QUICK_TIMEOUT_MS,
      {},
    );
  }

  fetchHistory(conversationId: string): Promise<ConversationHistory> {
    return this.request<ConversationHistory>(
      "GET",
      `/api/conversations/${encodeURIComponent(conversationId)}/messages`,
      "conversation-gone",
      QUICK_TIMEOUT_MS,
    );
  }

  sendMessage(conversationId: string, message: string): Promise<AssistantReply> {
    return this.request<AssistantReply>(
      "POST",
      `/api/conversations/${encodeURIComponent(conversationId)}/messages`,
      "conversation-gone",
      REPLY_TIMEOUT_MS,
      { message, page_url: currentPage() },
    );
  }

  /**
   * Operator messages of a conversation as they are stored (GraphQL over SSE), until `signal`
   * aborts or the server refuses for good (deleted conversation, origin not allowed). A dropped
   * stream is reopened after a pause that grows to 30 s; `onReconnected` then lets the caller fetch
   * what it missed meanwhile.
   */
  async watchOperatorMessages(
    conversationId: string,
    onMessage: (message: { id: number; content: string }) => void,
    options: { signal: AbortSignal; onReconnected: () => void },
  ): Promise<void> {
    const { signal } = options;
    let pause = 1000;
    for (let attempt = 0; !signal.aborted; attempt++) {
      if (attempt > 0) {
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 30_000);
        if (signal.aborted) return;
        options.onReconnected();
      }
      try {
        const response = await fetch(`${this.base}/graphql`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "text/event-stream" },
          body: JSON.stringify({ query: EVENTS_QUERY, variables: { id: conversationId } }),
          credentials: "omit",
          signal,
        });
        if (!response.ok || !response.body) continue;
        const refused = await readEvents(response.body, (payload) => {
          pause = 1000;
          const message = payload.data?.widgetConversationEvents;
          if (message?.role === "operator") onMessage({ id: message.id, content: message.content });
          return (payload.errors ?? []).some((error) => FINAL_CODES.includes(error.extensions?.code ?? ""));
        });
        if (refused) return;
      } catch {
        // Network failure or abort: the loop decides.
      }
    }
  }

  private async request<T>(
    method: "GET" | "POST",
    path: string,
    notFoundKind: WidgetErrorKind,
    timeoutMs: number,
    body?: unknown,
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: body === undefined ? { accept: "application/json" } : { "content-type": "application/json" },
        body: body === undefined ? null : JSON.stringify(body),
        // Widget calls are anonymous: never send the host page's cookies to the chat service.
        credentials: "omit",
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new WidgetApiError("network", describe(cause), 0);
    }
    const payload = await response.json().catch(() => null);
    if (response.ok && payload !== null) return payload as T;
    const text = serverText(payload) ?? `HTTP ${response.status}`;
    throw new WidgetApiError(
      kindOf(response.status, notFoundKind),
      text,
      response.status,
      response.status === 429 || response.status === 503
        ? retryAfterSeconds(response.headers.get("retry-after"))
        : null,
    );
  }
}

const EVENTS_QUERY = `subscription($id: ID!) { widgetConversationEvents(conversationId: $id) { id role content } }`;
/** Refusals that a new attempt would only repeat. */
const FINAL_CODES = ["FORBIDDEN", "CONVERSATION_NOT_FOUND", "NOT_FOUND"];

interface EventPayload {
  data?: { widgetConversationEvents?: { id: number; role: MessageRole; content: string } } | null;
  errors?: { extensions?: { code?: string } }[];
}

/** Reads an SSE body; true when `onEvent` said to stop (a final refusal). */
async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (payload: EventPayload) => boolean) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return false;
    buffer += decoder.decode(value, { stream: true });
    let boundary = buffer.indexOf("\n\n");
    while (boundary >= 0) {
      const block = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary + 2);
      const data = block
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n");
      if (data) {
        let payload: EventPayload | null = null;
        try {
          payload = JSON.parse(data) as EventPayload;
        } catch {
          // A malformed event is skipped; the next one may be fine.
        }
        if (payload && onEvent(payload)) {
          await reader.cancel();
          return true;
        }
      }
      boundary = buffer.indexOf("\n\n");
    }
  }
}

function kindOf(status: number, notFoundKind: WidgetErrorKind): WidgetErrorKind {
  switch (status) {
    case 402:
      return "insufficient-balance";
    case 403:
      return "origin-not-allowed";
    case 404:
    case 410:
      return notFoundKind;
    case 422:
    case 400:
      return "invalid-message";
    case 429:
      return "rate-limited";
    case 503:
      return "at-capacity";
    default:
      return "server";
  }
}

/** The server's explanation, whichever of its two error shapes it used. */
function serverText(payload: unknown): string | null {
  if (typeof payload !== "object" || payload === null) return null;
  const { error, message } = payload as { error?: unknown; message?: unknown };
  if (typeof error === "string") return error;
  if (typeof message === "string") return message;
  return null;
}

/** `Retry-After` is either seconds or an HTTP date; without one, a short pause. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number {
  const fallback = 10;
  if (!header) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(1, Math.ceil(seconds));
  const date = Date.parse(header);
  return Number.isNaN(date) ? fallback : Math.max(1, Math.ceil((date - now) / 1000));
}

/** Failures that no retry can help: this website, or the assistant itself, is refused. */
export function isPermanent(kind: WidgetErrorKind): boolean {
  return kind === "origin-not-allowed" || kind === "assistant-not-found";
}

/** Any failure as the widget explains it: what is not one of the API's own errors counts as a server error. */
export function asApiError(failure: unknown): WidgetApiError {
  return failure instanceof WidgetApiError ? failure : new WidgetApiError("server", describe(failure), 0);
}

function describe(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** The page the widget is on, for the business's inbox (the server keeps it only on the page's own origin). */
function currentPage(): string | undefined {
  const href = globalThis.location?.href;
  return typeof href === "string" && href.length <= 2048 ? href : undefined;
}
