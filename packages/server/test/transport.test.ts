import { Agent, request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { routes } from "@voxgate/rest-compat";
import { createYoga } from "graphql-yoga";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import {
  MAX_DROPPED_BODY_BYTES,
  MAX_GRAPHQL_MESSAGE_BYTES,
  MAX_GRAPHQL_MULTIPART_BYTES,
  MAX_UPLOAD_BYTES,
} from "../src/limits.ts";
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
  {
    name: "a list literal 5,000 deep",
    code: "QUERY_TOO_NESTED",
    query: `{ __typename(x: ${"[".repeat(5000)}${"]".repeat(5000)}) }`,
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

/**
 * POSTs `parts` chunked over a bare socket, as a client that never looks at the answer until it has
 * sent everything or the server closes on it.
 */
function sendChunkedUntilClosed(contentType: string, parts: string[]) {
  return new Promise<{
    answer: string;
    bytesBeforeAnswer: number;
    bytes: number;
    closedBeforeTheEnd: boolean;
  }>((resolve) => {
    const { hostname, port } = new URL(t.url);
    const socket = connect(Number(port), hostname);
    let bytes = 0;
    let bytesBeforeAnswer = -1;
    let answer = "";
    const finish = (closedBeforeTheEnd: boolean) => {
      socket.destroy();
      resolve({ answer, bytesBeforeAnswer, bytes, closedBeforeTheEnd });
    };
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      if (bytesBeforeAnswer < 0) bytesBeforeAnswer = bytes;
      answer += chunk;
    });
    socket.on("error", () => finish(true));
    socket.on("close", () => finish(true));
    socket.write(
      `POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: ${contentType}\r\ntransfer-encoding: chunked\r\n\r\n`,
    );
    const send = () => {
      for (;;) {
        const part = parts.shift();
        if (part === undefined) return finish(false);
        bytes += Buffer.byteLength(part);
        socket.write(`${Buffer.byteLength(part).toString(16)}\r\n`);
        socket.write(part);
        if (!socket.write("\r\n")) return void socket.once("drain", send);
      }
    };
    send();
  });
}

/**
 * Sends one request over `agent`'s connections and reads the answer, with the client's end of the
 * TCP connection it went over: two requests over the same `socket` were served by one connection.
 * (`request.reusedSocket` does not tell: node's Agent sets it only when a request finds an idle
 * socket in its pool, not when a request queued behind a busy one gets that socket once it is free,
 * as the next request does after an answer that arrived before the client finished writing its body.)
 * With `holdBack`, the body's last `holdBack` bytes are written only once the answer has been read:
 * a client still writing when the answer comes.
 */
function sendOn(
  agent: Agent,
  method: string,
  contentType: string,
  body: Buffer,
  { path = "/graphql", holdBack = 0 }: { path?: string; holdBack?: number } = {},
) {
  return new Promise<{ status: number; body: string; socket: Socket }>((resolve, reject) => {
    const request = httpRequest(`${t.url}${path}`, {
      method,
      agent,
      headers: { "content-type": contentType, "content-length": String(body.byteLength) },
    });
    let socket: Socket | undefined;
    request.once("socket", (assigned) => {
      socket = assigned;
    });
    request.on("response", (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () => {
        if (holdBack > 0) request.end(body.subarray(body.byteLength - holdBack));
        if (!socket) return reject(new Error("answered without a socket"));
        resolve({ status: response.statusCode ?? 0, body: text, socket });
      });
    });
    request.on("error", reject);
    if (holdBack > 0) request.write(body.subarray(0, body.byteLength - holdBack));
    else request.end(body);
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
    expect(status).toBe(400);
    expect(codesOf(body)).toEqual(["QUERY_TOO_NESTED"]);
    expect(body.errors?.[0]?.extensions?.limit).toBe(OPERATION_LIMITS.nesting);
    expect(text).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it("refuses brackets nested past the limit with 400 before parsing, whatever the Accept header", async () => {
    const limit = OPERATION_LIMITS.nesting;
    const nested = (depth: number) =>
      `{ __typename(x: ${"{a: ".repeat(depth - 2)}1${"}".repeat(depth - 2)}) }`;
    for (const accept of ["application/json", "application/graphql-response+json"]) {
      const refused = await postGraphQL(nested(limit + 1), accept);
      expect(refused.status).toBe(400);
      expect(codesOf(refused.body)).toEqual(["QUERY_TOO_NESTED"]);
      expect(refused.body.errors?.[0]?.extensions).toEqual({ code: "QUERY_TOO_NESTED", limit });
    }
    // At the limit it parses (and fails validation: __typename takes no arguments).
    expect(codesOf((await postGraphQL(nested(limit))).body)).not.toContain("QUERY_TOO_NESTED");
    // Brackets in strings, block strings and comments are not nesting.
    const quoted = `{ __typename # ${"[".repeat(100)}\n @include(if: true) @skip(if: false) }`;
    expect((await postGraphQL(quoted)).body).toEqual({ data: { __typename: "Query" } });
    const inStrings = `query Q($a: String! = "${"{".repeat(100)}\\"", $b: String! = """${"(".repeat(100)}\\""" """) {
      a: __type(name: $a) { name } b: __type(name: $b) { name }
    }`;
    expect((await postGraphQL(inStrings)).body).toEqual({ data: { a: null, b: null } });
  });

  it("refuses variables nested past the limit on HTTP and graphql-ws, before they are coerced", async () => {
    const deep = (depth: number): unknown => {
      let value: unknown = 1;
      for (let level = 1; level < depth; level++) value = level % 2 ? [value] : { a: value };
      return value;
    };
    // A JSON input, which would reach the database as it is.
    const query = `mutation Q($v: JSON) {
      generateReply(input: { assistantId: 1, customerIdentifier: "c", message: "m", variables: $v }) { aiDisabled }
    }`;
    const send = (variables: unknown) =>
      fetch(`${t.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query, variables }),
      });
    const refused = await send({ v: deep(2000) });
    expect(refused.status).toBe(400);
    expect(codesOf((await refused.json()) as GraphQLBody)).toEqual(["QUERY_TOO_NESTED"]);
    // The variables object itself is one level.
    const atLimit = await send({ v: deep(OPERATION_LIMITS.nesting - 1) });
    expect(codesOf((await atLimit.json()) as GraphQLBody)).toEqual(["UNAUTHENTICATED"]);

    const subscription = await subscribeWs(t.url, query, { variables: { v: deep(2000) } });
    try {
      expect(codesOf(await subscription.next())).toEqual(["QUERY_TOO_NESTED"]);
    } finally {
      await subscription.close();
    }
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

describe("CORS on /graphql", () => {
  const origin = "https://any-site.example";

  it("answers a preflight from any origin without allowing credentials", async () => {
    const preflight = await fetch(`${t.url}/graphql`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, POST");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("authorization, content-type");
    expect(preflight.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("lets any origin read an answer, never with credentials", async () => {
    const answer = await fetch(`${t.url}/graphql`, {
      method: "POST",
      headers: { origin, "content-type": "application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(await answer.json()).toEqual({ data: { __typename: "Query" } });
    expect(answer.headers.get("access-control-allow-origin")).toBe(origin);
    expect(answer.headers.get("access-control-allow-credentials")).toBeNull();
    expect(answer.headers.get("access-control-expose-headers")).toContain("Retry-After");
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

  it("answers a multipart body past its limit with 413 at once, and closes on a client that sends on and on", async () => {
    const boundary = "----voxgate-many-fields";
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"{ __typename }"}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{}\r\n`;
    // Each field within the form parser's 1 MB a field; 150 of them are 135 MB in all.
    const fields = Array.from(
      { length: 150 },
      (_, index) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="pad${index}"\r\n\r\n${"x".repeat(900 * 1024)}\r\n`,
    );
    const sent = await sendChunkedUntilClosed(`multipart/form-data; boundary=${boundary}`, [head, ...fields]);
    expect(sent.answer).toMatch(/^HTTP\/1\.1 413 /);
    // The JSON of a chunked answer: between its first and last brace.
    const body = sent.answer.slice(sent.answer.indexOf("{"), sent.answer.lastIndexOf("}") + 1);
    expect(codesOf(JSON.parse(body) as GraphQLBody)).toEqual(["PAYLOAD_TOO_LARGE"]);
    const slack = 20 * 1024 * 1024;
    // Answered once the limit was passed; the rest read and dropped up to its own limit, then the end.
    expect(sent.bytesBeforeAnswer).toBeLessThan(MAX_GRAPHQL_MULTIPART_BYTES + slack);
    expect(sent.closedBeforeTheEnd).toBe(true);
    expect(sent.bytes).toBeLessThan(MAX_GRAPHQL_MULTIPART_BYTES + MAX_DROPPED_BODY_BYTES + slack);
  });

  /** A GraphQL multipart upload whose file is 1 MB over the upload limit. */
  function oversizedUpload(boundary: string): Buffer {
    return Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n` +
          `{"query":"{ __typename }","variables":{"file":null}}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="map"\r\n\r\n{"0":["variables.file"]}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="big.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      ),
      Buffer.alloc(MAX_UPLOAD_BYTES + 1024 * 1024, 0x61),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
  }

  /**
   * Sends the oversized upload (its last `holdBack` bytes only once the 413 is read), then a small
   * request on the same agent, which must go over the same connection and be answered.
   */
  async function uploadThenNextRequest(holdBack: number) {
    const boundary = "----voxgate-big-file";
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const multipart = `multipart/form-data; boundary=${boundary}`;
      const refused = await sendOn(agent, "POST", multipart, oversizedUpload(boundary), { holdBack });
      expect(refused.status).toBe(413);
      const next = await sendOn(agent, "POST", "application/json", Buffer.from('{"query":"{ __typename }"}'));
      expect(next.status).toBe(200);
      expect(next.socket === refused.socket, "the next request goes over the same connection").toBe(true);
      expect(JSON.parse(next.body)).toEqual({ data: { __typename: "Query" } });
    } finally {
      agent.destroy();
    }
  }

  it("reads off the rest of an upload refused at its file limit, so the connection serves the next request", () =>
    uploadThenNextRequest(0));

  it("does so for a client still writing the upload when the 413 arrives", () =>
    uploadThenNextRequest(256 * 1024));

  it("keeps the connection of a REST body refused over its limit for the client's next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const oversized = Buffer.from(JSON.stringify({ email: "x".repeat(2 * 1024 * 1024), password: "p" }));
      const refused = await sendOn(agent, "POST", "application/json", oversized, { path: "/api/login" });
      expect(refused.status).toBe(413);
      const next = await sendOn(agent, "POST", "application/json", Buffer.from('{"query":"{ __typename }"}'));
      expect(next.status).toBe(200);
      expect(next.socket === refused.socket, "the next request goes over the same connection").toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it.each(["/api/login", "/graphql"])(
    "keeps the connection of a chunked body refused at %s while the client still writes, for its next request",
    async (path) => {
      const { hostname, port } = new URL(t.url);
      const socket = connect(Number(port), hostname);
      socket.setEncoding("utf8");
      socket.on("error", () => {});
      let received = "";
      const answerMatching = (pattern: RegExp) =>
        new Promise<string>((resolve, reject) => {
          const check = () => {
            if (!pattern.test(received)) return;
            socket.off("data", onData);
            socket.off("close", onClose);
            resolve(received);
          };
          const onData = (chunk: string) => {
            received += chunk;
            check();
          };
          const onClose = () => reject(new Error(`closed with ${JSON.stringify(received)}`));
          socket.on("data", onData);
          socket.once("close", onClose);
          check();
        });
      const part = `{"email":"${"x".repeat(64 * 1024)}`;
      const chunk = `${Buffer.byteLength(part).toString(16)}\r\n${part}\r\n`;
      const refused = answerMatching(/^HTTP\/1\.1 413 [\s\S]*\r\n\r\n[\s\S]*}/);
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n`,
      );
      // Past the 1 MB limit, then the rest of the body only once the 413 is in.
      for (let sent = 0; sent < 24; sent++) socket.write(chunk);
      await refused;
      for (let sent = 0; sent < 4; sent++) socket.write(chunk);
      socket.write("0\r\n\r\n");
      received = "";
      const next = answerMatching(/^HTTP\/1\.1 200 [\s\S]*"Query"/);
      const query = '{"query":"{ __typename }"}';
      socket.write(
        `POST /graphql HTTP/1.1\r\nhost: ${hostname}\r\ncontent-type: application/json\r\ncontent-length: ${query.length}\r\n\r\n${query}`,
      );
      // Before, the half-read body was destroyed with its request: the connection hung until the
      // server's request timeout answered 408.
      expect(await next).toContain('{"data":{"__typename":"Query"}}');
      socket.destroy();
    },
  );
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
