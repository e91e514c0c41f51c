import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderError } from "../common/provider-http.ts";
import { ChatCompletionsClient } from "./chat-client.ts";

/**
 * The wire details the fake model server of the other tests never varies: events split across
 * network reads and CRLF line ends, an error event inside a 200 stream, Retry-After. The server
 * answers each request with the next scripted handler.
 */
let server: Server;
let baseUrl: string;
const handlers: ((response: ServerResponse) => void)[] = [];
let requests = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++;
    request.resume();
    request.on("end", () => handlers.shift()!(response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const client = () => new ChatCompletionsClient({ apiKey: "k", baseUrl, timeoutMs: 5000, maxRetries: 1 });
const body = { model: "m", messages: [{ role: "user" as const, content: "hi" }] };
const event = (delta: Record<string, unknown>) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: null }] })}`;

describe("streamed chat completions", () => {
  it("assembles text and tool calls from events split anywhere, with CRLF line ends", async () => {
    const stream = [
      event({ role: "assistant", content: "" }),
      event({ content: "Hello " }),
      event({ content: "there" }),
      event({
        tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "look", arguments: "" } }],
      }),
      event({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
      event({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }),
      "data: [DONE]",
    ]
      .map((line) => `${line}\r\n\r\n`)
      .join("");
    handlers.push((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      // Pieces of 7 bytes: events and their line ends arrive cut in the middle.
      for (let i = 0; i < stream.length; i += 7) response.write(stream.slice(i, i + 7));
      response.end();
    });
    const deltas: string[] = [];
    const message = await client().stream(body, (text) => deltas.push(text));
    expect(message.content).toBe("Hello there");
    expect(deltas).toEqual(["Hello ", "there"]);
    expect(message.tool_calls).toEqual([
      { id: "call_1", type: "function", function: { name: "look", arguments: '{"q":"x"}' } },
    ]);
  });

  it("reports an error event inside a successful response with the provider's message, without retrying", async () => {
    requests = 0;
    handlers.push((response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(`${event({ content: "Hal" })}\n\ndata: {"error":{"message":"overloaded"}}\n\n`);
    });
    const failure = await client()
      .stream(body, undefined)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ reason: "status", detail: "overloaded" });
    expect(requests).toBe(1);
  });

  it("retries a 429 after the Retry-After the provider asked for, and keeps a 400's message without retrying", async () => {
    requests = 0;
    handlers.push(
      (response) => {
        response.writeHead(429, { "content-type": "application/json", "retry-after-ms": "10" });
        response.end(JSON.stringify({ error: { message: "slow down" } }));
      },
      (response) => {
        response.writeHead(200, { "content-type": "text/event-stream" });
        response.end(`${event({ content: "ok" })}\n\ndata: [DONE]\n\n`);
      },
      (response) => {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "bad model" } }));
      },
    );
    expect((await client().stream(body, undefined)).content).toBe("ok");
    expect(requests).toBe(2);
    await expect(client().stream(body, undefined)).rejects.toMatchObject({
      reason: "status",
      status: 400,
      detail: "bad model",
    });
    expect(requests).toBe(3);
  });
});
