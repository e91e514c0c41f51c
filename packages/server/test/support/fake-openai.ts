import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * An OpenAI-compatible HTTP server for tests: `POST /v1/chat/completions` (plain JSON or SSE
 * streaming, with tool calls), `POST /v1/embeddings` (deterministic vectors) and scripted error
 * responses, with optional injected latency. The real `openai` client talks to it over HTTP, so
 * everything between the gateway and the wire is exercised.
 */

/** One scripted answer to a chat completion request. */
export interface FakeChatReply {
  /** The assistant's text; ignored when `toolCalls` is set and empty by default. */
  content?: string;
  /** Functions the model asks to call; `arguments` objects are sent as JSON strings. */
  toolCalls?: { name: string; arguments: Record<string, unknown> | string; id?: string }[];
  /** Answer with this HTTP error instead (an OpenAI-style error body). */
  error?: { status: number; message: string; type?: string };
  /** Extra latency for this answer only, in milliseconds. */
  delayMs?: number;
  /** Streamed answers: a pause before each piece of content, as a real model's tokens come apart. */
  pieceDelayMs?: number;
  /** Answer only once this settles: lets a test act while the request is known to be in flight. */
  after?: Promise<unknown>;
  /** Streamed answers: the rest after the first sentence comes once this settles (a model still writing). */
  holdAfterFirstSentence?: Promise<unknown>;
}

/** What a test sees of a chat completion request the server received. */
export interface RecordedChatRequest {
  model: string;
  temperature?: number;
  stream: boolean;
  messages: { role: string; content?: string | null; tool_calls?: unknown[]; tool_call_id?: string }[];
  tools?: { type: string; function: { name: string; description?: string; parameters?: unknown } }[];
  tool_choice?: unknown;
  /** Structured output asked for (`{type: "json_schema", json_schema: {...}}`). */
  response_format?: unknown;
  authorization: string | undefined;
}

export type ChatResponder = (request: RecordedChatRequest) => FakeChatReply;

export interface FakeOpenAI {
  /** Base URL to give the client as OPENAI_BASE_URL, ending in /v1. */
  baseUrl: string;
  /** Every chat completion request, in arrival order. */
  chatRequests: RecordedChatRequest[];
  /** Every embeddings request's inputs, in arrival order. */
  embeddingRequests: { model: string; input: string[] }[];
  /** Answers the next chat requests with these, in order, before falling back to the responder. */
  enqueue(...replies: FakeChatReply[]): void;
  /** Replaces the fallback responder (by default: "Echo: <last user message>"). */
  respondWith(responder: ChatResponder): void;
  /** Latency added to every response (chat and embeddings), in milliseconds. */
  setLatency(ms: number): void;
  /** Forgets recorded requests, queued replies and latency; restores the echo responder. */
  reset(): void;
  close(): Promise<void>;
}

/** The default responder: repeats the last user message, so tests can tell replies apart. */
export const echoResponder: ChatResponder = (request) => {
  const lastUser = request.messages.findLast((message) => message.role === "user");
  return { content: `Echo: ${lastUser?.content ?? ""}` };
};

/**
 * A deterministic unit vector for a text: the same text always embeds the same way, and texts
 * sharing words point in similar directions (each word adds to a few hashed dimensions).
 */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    const digest = createHash("sha256").update(word).digest();
    for (let i = 0; i < 4; i++) {
      const index = digest.readUInt32BE(i * 4) % dimensions;
      vector[index]! += digest[16 + i]! % 2 === 0 ? 1 : -1;
    }
  }
  const norm = Math.hypot(...vector) || 1;
  return vector.map((value) => value / norm);
}

/**
 * `fakeEmbedding` plus a small deterministic value in every dimension, like a real model's vectors:
 * those are dense float32s that PostgreSQL cannot compress, while `fakeEmbedding`'s are mostly zeros,
 * which it compresses in the row and decompresses on every exact scan (bench/reply/README.md). The
 * words still decide the direction (the added part has a norm of about 0.11, the words 1).
 */
export function denseFakeEmbedding(text: string, dimensions: number): number[] {
  const sparse = fakeEmbedding(text, dimensions);
  let state = createHash("sha256").update(text).digest().readUInt32BE(0) || 1;
  const dense = sparse.map((value) => {
    // xorshift32: cheap, deterministic, and every bit of the float's mantissa varies.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return value + ((state >>> 0) / 0x1_0000_0000 - 0.5) * (0.02 / Math.sqrt(dimensions / 384));
  });
  const norm = Math.hypot(...dense) || 1;
  return dense.map((value) => value / norm);
}

/** `encoding_format: "base64"`: the vector's float32s, little-endian, in base64 (as OpenAI sends them). */
function float32Base64(vector: number[]): string {
  const bytes = Buffer.alloc(vector.length * 4);
  for (const [index, value] of vector.entries()) bytes.writeFloatLE(value, index * 4);
  return bytes.toString("base64");
}

export async function startFakeOpenAI(options: { denseEmbeddings?: boolean } = {}): Promise<FakeOpenAI> {
  const embed = options.denseEmbeddings ? denseFakeEmbedding : fakeEmbedding;
  const chatRequests: RecordedChatRequest[] = [];
  const embeddingRequests: { model: string; input: string[] }[] = [];
  let queue: FakeChatReply[] = [];
  let responder: ChatResponder = echoResponder;
  let latencyMs = 0;
  let sequence = 0;

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: { message: String(error) } });
      else response.end();
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readJson(request);
    const path = (request.url ?? "").split("?")[0];
    if (request.method === "POST" && path === "/v1/chat/completions") {
      const recorded: RecordedChatRequest = {
        model: String(body.model),
        stream: body.stream === true,
        messages: body.messages as RecordedChatRequest["messages"],
        authorization: request.headers.authorization,
        ...(typeof body.temperature === "number" ? { temperature: body.temperature } : {}),
        ...(Array.isArray(body.tools) ? { tools: body.tools as RecordedChatRequest["tools"] } : {}),
        ...(body.tool_choice !== undefined ? { tool_choice: body.tool_choice } : {}),
        ...(body.response_format !== undefined ? { response_format: body.response_format } : {}),
      };
      chatRequests.push(recorded);
      const reply = queue.shift() ?? responder(recorded);
      await sleep(latencyMs + (reply.delayMs ?? 0));
      await reply.after;
      if (reply.error) {
        sendJson(response, reply.error.status, {
          error: { message: reply.error.message, type: reply.error.type ?? "server_error", code: null },
        });
        return;
      }
      const id = `chatcmpl-fake-${++sequence}`;
      const toolCalls = (reply.toolCalls ?? []).map((call, index) => ({
        id: call.id ?? `call_${sequence}_${index}`,
        type: "function" as const,
        function: {
          name: call.name,
          arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments),
        },
      }));
      const content = toolCalls.length > 0 ? (reply.content ?? null) : (reply.content ?? "");
      if (recorded.stream) {
        await streamCompletion(
          response,
          id,
          recorded.model,
          content,
          toolCalls,
          reply.pieceDelayMs ?? 0,
          reply.holdAfterFirstSentence,
        );
      } else {
        sendJson(response, 200, {
          id,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model: recorded.model,
          choices: [
            {
              index: 0,
              message: {
                role: "assistant",
                content,
                refusal: null,
                ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
              },
              finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
              logprobs: null,
            },
          ],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
        });
      }
      return;
    }
    if (request.method === "POST" && path === "/v1/embeddings") {
      const inputs = Array.isArray(body.input) ? body.input.map(String) : [String(body.input)];
      const model = String(body.model);
      embeddingRequests.push({ model, input: inputs });
      await sleep(latencyMs);
      const dimensions = typeof body.dimensions === "number" ? body.dimensions : 1536;
      sendJson(response, 200, {
        object: "list",
        model,
        data: inputs.map((input, index) => ({
          object: "embedding",
          index,
          embedding:
            body.encoding_format === "base64"
              ? float32Base64(embed(input, dimensions))
              : embed(input, dimensions),
        })),
        usage: { prompt_tokens: inputs.length, total_tokens: inputs.length },
      });
      return;
    }
    sendJson(response, 404, {
      error: { message: `Unknown path ${request.method} ${path}`, type: "invalid_request_error" },
    });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    chatRequests,
    embeddingRequests,
    enqueue: (...replies) => {
      queue.push(...replies);
    },
    respondWith: (next) => {
      responder = next;
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    reset: () => {
      chatRequests.length = 0;
      embeddingRequests.length = 0;
      queue = [];
      responder = echoResponder;
      latencyMs = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a completion as the API streams it: role, content in word-sized pieces, tool-call deltas, finish. */
async function streamCompletion(
  response: ServerResponse,
  id: string,
  model: string,
  content: string | null,
  toolCalls: { id: string; type: "function"; function: { name: string; arguments: string } }[],
  pieceDelayMs: number,
  holdAfterFirstSentence?: Promise<unknown>,
): Promise<void> {
  response.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    response.write(
      `data: ${JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
      })}\n\n`,
    );
  chunk({ role: "assistant", content: "" });
  let held = !holdAfterFirstSentence;
  for (const piece of content?.match(/\S+\s*|\s+/g) ?? []) {
    if (pieceDelayMs > 0) await sleep(pieceDelayMs);
    chunk({ content: piece });
    if (!held && /[.!?]\s*$/.test(piece)) {
      held = true;
      await holdAfterFirstSentence;
    }
  }
  for (const [index, call] of toolCalls.entries()) {
    chunk({
      tool_calls: [
        { index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } },
      ],
    });
    const half = Math.ceil(call.function.arguments.length / 2);
    for (const part of [call.function.arguments.slice(0, half), call.function.arguments.slice(half)]) {
      if (part) chunk({ tool_calls: [{ index, function: { arguments: part } }] });
    }
  }
  chunk({}, toolCalls.length > 0 ? "tool_calls" : "stop");
  response.end("data: [DONE]\n\n");
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return {};
  return JSON.parse(text) as Record<string, unknown>;
}

function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
