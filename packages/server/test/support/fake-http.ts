import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a fake provider received, as it arrived. */
export interface FakeRequest {
  method: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeAnswer {
  status: number;
  json?: unknown;
  /** A body that is not JSON (e.g. a CalDAV multistatus), sent as is. */
  text?: string;
  headers?: Record<string, string>;
}

/** A failure the fake answers instead of serving the request (a 503, a 429 with Retry-After…). */
export interface InjectedFailure {
  method: string;
  /** Matches the request's path. */
  path: RegExp;
  status: number;
  headers?: Record<string, string>;
  /** How many matching requests fail; then the fake serves them again. */
  times: number;
  /** The request is served (what it writes is stored) and its answer lost: the failure comes instead. */
  afterServing?: boolean;
}

export interface FakeServer {
  url: string;
  requests: FakeRequest[];
  /** Makes the next `times` matching requests fail with `status`. */
  fail(failure: InjectedFailure): void;
  close(): Promise<void>;
}

/**
 * A loopback HTTP server for a fake third party: it records every request, answers injected
 * failures first, then hands the request to `handle`.
 */
export async function startFakeServer(handle: (request: FakeRequest) => FakeAnswer): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const failures: InjectedFailure[] = [];
  const server = createServer(async (incoming, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? "/", "http://fake");
    const request: FakeRequest = {
      method: incoming.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      headers: incoming.headers,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    requests.push(request);
    const failure = failures.find(
      (candidate) =>
        candidate.times > 0 && candidate.method === request.method && candidate.path.test(request.path),
    );
    let answer: FakeAnswer;
    if (failure) {
      failure.times -= 1;
      if (failure.afterServing) {
        try {
          handle(request);
        } catch {
          // Lost with its answer.
        }
      }
      answer = { status: failure.status, json: { error: "injected" }, headers: failure.headers ?? {} };
    } else {
      try {
        answer = handle(request);
      } catch (error) {
        answer = { status: 500, json: { error: String(error) } };
      }
    }
    const body = answer.text ?? (answer.json === undefined ? "" : JSON.stringify(answer.json));
    response.writeHead(answer.status, {
      ...(answer.json !== undefined ? { "content-type": "application/json" } : {}),
      ...answer.headers,
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fail: (failure) => failures.push({ ...failure }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The bearer token of a request, or null. */
export function bearer(request: FakeRequest): string | null {
  const match = /^Bearer (.+)$/.exec(String(request.headers.authorization ?? ""));
  return match ? match[1]! : null;
}

export function jsonOf<T = Record<string, unknown>>(request: FakeRequest): T {
  return JSON.parse(request.body || "{}") as T;
}

/** An OAuth token endpoint's form body (application/x-www-form-urlencoded, RFC 6749 §4.1.3). */
export function formOf(request: FakeRequest): Record<string, string> {
  if (!String(request.headers["content-type"] ?? "").startsWith("application/x-www-form-urlencoded")) {
    throw new Error("token requests must be form-encoded");
  }
  return Object.fromEntries(new URLSearchParams(request.body));
}
