import { connect } from "node:net";
import { routes } from "@voxgate/rest-compat";
import { createYoga } from "graphql-yoga";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { MAX_GRAPHQL_MESSAGE_BYTES } from "../src/limits.ts";
import { OPERATION_LIMITS, operationLimitsPlugin } from "../src/operation-limits.ts";
import { schema } from "../src/schema.ts";
import { subscribeWs } from "./support/subscriptions.ts";
import { startTestApp, type TestApp } from "./support/test-app.ts";

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

const UUID = "00000000-0000-4000-8000-000000000000";

/** One abusive document per limit, each within every other limit as far as it can be. */
const ABUSES: { name: string; code: string; query: string }[] = [
  {
    name: "5,000 aliases of widgetAssistant",
    code: "QUERY_TOO_LARGE",
    query: `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: widgetAssistant(uuid: "${UUID}") { name }`).join(" ")} }`,
  },
  {
    name: "25 aliases",
    code: "TOO_MANY_ALIASES",
    query: `{ ${Array.from({ length: 25 }, (_, i) => `a${i}: widgetAssistant(uuid: "${UUID}") { name }`).join(" ")} }`,
  },
  {
    name: "nesting 12 levels deep",
    code: "QUERY_TOO_DEEP",
    query: `{ ${"viewer { ".repeat(12)}email${" }".repeat(12)} }`,
  },
  {
    name: "a fragment spread 300 times",
    code: "QUERY_TOO_COMPLEX",
    query: `fragment F on Account { id name balance timezone createdAt } { viewer { account { ${"...F ".repeat(300)}} } }`,
  },
  {
    name: "60 directives",
    code: "TOO_MANY_DIRECTIVES",
    query: `{ __typename ${"@include(if: true) ".repeat(60)}}`,
  },
];

type GraphQLBody = { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };

const codesOf = (body: GraphQLBody) => (body.errors ?? []).map((error) => error.extensions?.code);

/** The JSON body, or the first event's data of an SSE answer. */
async function postGraphQL(query: string, accept = "application/json") {
  const response = await fetch(`${t.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept },
    body: JSON.stringify({ query }),
  });
  const text = await response.text();
  const data = text.startsWith("{")
    ? text
    : (text
        .split("\n")
        .find((line) => line.startsWith("data:"))
        ?.slice(5) ?? "{}");
  return { status: response.status, text, body: JSON.parse(data) as GraphQLBody };
}

/** Sends raw bytes and returns the raw HTTP answer (for requests fetch refuses to build). */
function rawHttp(request: string): Promise<string> {
  const { port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), "127.0.0.1", () => socket.write(request));
    let answer = "";
    socket.on("data", (chunk) => {
      answer += chunk;
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("operation limits", () => {
  it.each(ABUSES)("refuses $name with $code over HTTP", async ({ code, query }) => {
    const { status, body } = await postGraphQL(query);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
    expect(body.data ?? null).toBeNull();
    expect(codesOf(body)).toContain(code);
  });

  it.each(ABUSES)("refuses $name with $code over SSE", async ({ code, query }) => {
    const { status, body } = await postGraphQL(query, "text/event-stream");
    expect(status).toBeLessThan(500);
    expect(codesOf(body)).toContain(code);
  });

  it.each(ABUSES)("refuses $name with $code over graphql-ws", async ({ code, query }) => {
    const subscription = await subscribeWs(t.url, query);
    try {
      expect(codesOf(await subscription.next())).toContain(code);
    } finally {
      await subscription.close();
    }
  });

  it("answers a 3,000-deep query with a GraphQL error instead of overflowing the parser", async () => {
    const { status, body, text } = await postGraphQL(`{ ${"a { ".repeat(3000)}b${" }".repeat(3000)} }`);
    expect(status).toBeLessThan(500);
    expect(codesOf(body)).toEqual(["QUERY_TOO_LARGE"]);
    expect(body.errors?.[0]?.extensions?.limit).toBe(OPERATION_LIMITS.tokens);
    expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it("still answers a cheap request sent while abusive ones are being refused", async () => {
    const flood = ABUSES[0]!.query;
    const abusive = Array.from({ length: 4 }, () => postGraphQL(flood));
    const cheap = postGraphQL("{ __typename }");
    const [cheapAnswer, ...refused] = await Promise.all([cheap, ...abusive]);
    expect(cheapAnswer.body).toEqual({ data: { __typename: "Query" } });
    for (const answer of refused) expect(codesOf(answer.body)).toEqual(["QUERY_TOO_LARGE"]);
  });

  it("lets every operation of the REST table through the same limits", () => {
    const enveloped = createYoga({ schema, plugins: [operationLimitsPlugin()] }).getEnveloped({});
    for (const route of routes) {
      const errors = enveloped.validate(enveloped.schema, enveloped.parse(route.operation));
      expect(errors, `${route.method} ${route.path}`).toEqual([]);
    }
  });
});

describe("message and body size", () => {
  it("closes a WebSocket with 1009 on an oversized message, and keeps serving", async () => {
    const socket = new WebSocket(`${t.url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws");
    const closed = new Promise<number>((resolve) => socket.on("close", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      socket.on("open", () => resolve());
      socket.on("error", reject);
    });
    socket.send(JSON.stringify({ type: "connection_init" }));
    const aliases = "a:__typename ".repeat(Math.ceil((MAX_GRAPHQL_MESSAGE_BYTES * 2) / 13));
    socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query: `{ ${aliases} }` } }));
    expect(await closed).toBe(1009);
    expect((await postGraphQL("{ __typename }")).body).toEqual({ data: { __typename: "Query" } });
  });

  it("refuses an oversized /graphql body with 413 and a GraphQL error, declared or chunked", async () => {
    const query = `{ ${"__typename ".repeat(Math.ceil(MAX_GRAPHQL_MESSAGE_BYTES / 11) + 1)}}`;
    const declared = await postGraphQL(query);
    expect(declared.status).toBe(413);
    expect(codesOf(declared.body)).toEqual(["PAYLOAD_TOO_LARGE"]);

    const bytes = new TextEncoder().encode(JSON.stringify({ query }));
    const chunked = await fetch(`${t.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: new ReadableStream({
        start(controller) {
          for (let offset = 0; offset < bytes.length; offset += 64 * 1024)
            controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect(codesOf((await chunked.json()) as GraphQLBody)).toEqual(["PAYLOAD_TOO_LARGE"]);
  });

  it("still reads bodies under the limit, whatever their framing", async () => {
    const padded = `{ __typename }${" ".repeat(MAX_GRAPHQL_MESSAGE_BYTES / 2)}`;
    expect((await postGraphQL(padded)).body).toEqual({ data: { __typename: "Query" } });
  });
});

describe("unexpected errors", () => {
  it("answers a request that throws inside the server with a bare 500, never a stack trace", async () => {
    // A Host header with an impossible port makes the request's URL unparsable: an unexpected throw
    // before any route runs.
    const answer = await rawHttp("GET /healthz HTTP/1.1\r\nHost: x:99999\r\nConnection: close\r\n\r\n");
    expect(answer).toMatch(/^HTTP\/1\.1 500/);
    expect(answer).toContain('{"message":"Server Error"}');
    expect(answer).not.toMatch(/Error:|\bat .+:\d+:\d+/);
  });

  it("answers a throw at the handle boundary the same way", async () => {
    const request = new Proxy(new Request(`${t.url}/healthz`), {
      get(target, property) {
        if (property === "url") throw new TypeError("boom");
        return Reflect.get(target, property, target);
      },
    });
    const response = await t.app.handle(request);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ message: "Server Error" });
  });
});
