import type { IncomingMessage } from "node:http";
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessage,
  ChatCompletionMessageToolCall,
} from "openai/resources/chat/completions";
import { MODEL_STREAM_MAX_CHARS } from "../../limits.ts";
import { ProviderEndpoint, ProviderError, type ProviderSettings } from "../common/provider-http.ts";

/**
 * Streamed chat completions (`POST {base}/chat/completions`, `stream: true`, server-sent events) over
 * the provider endpoint of `common/provider-http.ts` (the SDK's retries and timeout, kept-alive
 * sockets), assembling text and tool calls itself: the SDK's event-emitting stream accumulator was
 * the largest share of a reply's CPU (bench/reply).
 */
export class ChatCompletionsClient {
  private readonly endpoint: ProviderEndpoint;

  constructor(settings: ProviderSettings) {
    this.endpoint = new ProviderEndpoint("/chat/completions", "text/event-stream", settings);
  }

  /** One streamed completion; `onDelta` receives the text as it arrives. */
  stream(
    body: ChatCompletionCreateParamsNonStreaming,
    onDelta: ((text: string) => void) | undefined,
  ): Promise<ChatCompletionMessage> {
    return this.endpoint.post(JSON.stringify({ ...body, stream: true }), (response) =>
      readCompletion(response, onDelta),
    );
  }
}

function readCompletion(
  response: IncomingMessage,
  onDelta: ((text: string) => void) | undefined,
): Promise<ChatCompletionMessage> {
  return new Promise((resolve, reject) => {
    const completion = new StreamedCompletion(onDelta);
    let received = 0;
    response.setEncoding("utf8");
    response.on("data", (text: string) => {
      received += text.length;
      if (received > MODEL_STREAM_MAX_CHARS) {
        response.destroy();
        reject(new ProviderError("protocol", "the AI provider's answer is too long."));
        return;
      }
      try {
        completion.push(text);
      } catch (error) {
        response.destroy();
        reject(error);
      }
    });
    response.on("end", () => {
      try {
        resolve(completion.finish());
      } catch (error) {
        reject(error);
      }
    });
    response.on("error", (cause) =>
      reject(new ProviderError("connection", `the AI provider's answer broke off (${cause.message}).`)),
    );
  });
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
      throw new ProviderError("protocol", "the AI provider returned no answer.");
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
      throw new ProviderError("protocol", "the AI provider sent an unreadable answer.");
    }
    if (chunk.error) {
      const message = typeof chunk.error.message === "string" ? chunk.error.message : undefined;
      throw new ProviderError("status", "the AI provider reported an error.", undefined, message);
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
