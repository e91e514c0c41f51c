import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import { clientWentAway } from "@voxgate/rest-compat";
import { createServerAdapter } from "@whatwg-node/server";
import type { RequestMeta } from "../context.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import type { ConnectionLimits } from "../env.ts";
import { ServiceUnavailableError } from "../errors.ts";
import { HTTP_KEEP_ALIVE, MAX_DROPPED_BODY_BYTES } from "../limits.ts";
import { type Logger, requestStages, withRequestId } from "../logger.ts";
import { areaOf, metrics } from "../metrics.ts";
import { resolveClientAddress, type TrustedProxies } from "./client-address.ts";
import { capConnectionsPerAddress } from "./connection-limits.ts";
import { uploadAwareFetchApi } from "./graphql.ts";
import { requestIdOf } from "./request-id.ts";

/** Answers one request, given what the HTTP layer knows of it. */
export type Route = (request: Request, meta: RequestMeta) => Promise<Response>;

/**
 * What every HTTP request passes through: it gets a request id (the caller's sane `X-Request-Id`
 * or a new one) that is sent back, set on the context and carried by every log line of its work;
 * whatever throws becomes a bare 500 (never a stack trace), a database outage a 503 with Retry-After,
 * and a client that hung up a 499 (logged at debug); one access-log line records it. The
 * query string is left out of the log: it may carry tokens.
 */
export function answerRequests(route: Route, logger: Logger) {
  return (request: Request, clientAddress: string): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdOf(request.headers.get("x-request-id"));
    return withRequestId(requestId, async () => {
      let response: Response;
      try {
        response = await route(request, { clientAddress, requestId, responseHeaders: new Headers() });
      } catch (error) {
        if (clientWentAway(request, error)) {
          logger.debug("request aborted by the client", { error: String(error) });
          response = new Response(null, { status: CLIENT_CLOSED_REQUEST });
        } else {
          response = failureResponse(error, logger);
        }
      }
      response.headers.set("x-request-id", requestId);
      const elapsed = performance.now() - started;
      const path = pathOf(request);
      const area = path === undefined ? "other" : areaOf(path);
      metrics.httpRequests.inc({ method: request.method, area, status: response.status });
      metrics.httpDuration.observe({ area }, elapsed / 1000);
      const stages = requestStages();
      logger.info("request", {
        method: request.method,
        path,
        status: response.status,
        durationMs: Math.round(elapsed),
        requestId,
        clientAddress,
        ...(stages ? { stages } : {}),
      });
      return response;
    });
  };
}

/**
 * The status logged and counted for a request whose client hung up before its body arrived (nginx's
 * 499): nobody receives it, and it is not the server's failure.
 */
export const CLIENT_CLOSED_REQUEST = 499;

/** The path without its query; a request whose URL cannot be read (the 500 above) logs none. */
function pathOf(request: Request): string | undefined {
  try {
    return new URL(request.url).pathname;
  } catch {
    return undefined;
  }
}

/**
 * The node HTTP server: it resolves each request's client address from its socket (and a trusted
 * proxy's X-Forwarded-For) and hands the request to `answer`. Each address holds a bounded number of
 * connections, and a request's headers and body must arrive in time (docs/operations.md#limits).
 */
export function createNodeServer(
  answer: (request: Request, clientAddress: string) => Promise<Response>,
  trustedProxies: TrustedProxies,
  limits: ConnectionLimits,
): Server & { refuses(socket: Socket | Duplex): boolean } {
  const adapter = createServerAdapter<{ req?: IncomingMessage }>(
    (request, serverContext) =>
      answer(
        request,
        resolveClientAddress(
          serverContext.req?.socket.remoteAddress,
          request.headers.get("x-forwarded-for"),
          trustedProxies,
        ) ?? "unknown",
      ),
    { fetchAPI: uploadAwareFetchApi },
  );
  const timeouts = {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    // How often Node looks for connections past those timeouts (its own default is every 30 s).
    connectionsCheckingInterval: Math.min(5_000, limits.headersTimeoutMs / 4),
  };
  const server = createServer(timeouts, (request, response) => {
    const { socket } = request;
    if (cap.refuses(socket)) {
      response.writeHead(429, { connection: "close", "retry-after": "1", "content-length": "0" });
      return void response.end();
    }
    response.once("finish", () => {
      if (!request.complete && !socket.destroyed) dropUnreadBody(request, socket);
    });
    return adapter(request, response);
  });
  server.keepAliveTimeout = HTTP_KEEP_ALIVE.idleMs;
  const cap = capConnectionsPerAddress(server, limits.maxPerAddress, trustedProxies);
  return Object.assign(server, { refuses: cap.refuses });
}

/**
 * Reads off and drops the rest of a body that an early answer left unread (a 413, or an upload
 * refused at a parser's limit), so that the kept-alive connection serves the client's next request:
 * the request's own readers (the fetch adapter's stream, a form parser) stop where they stopped, and
 * node only drains a body nobody began to read. Past MAX_DROPPED_BODY_BYTES the connection is closed.
 */
function dropUnreadBody(request: IncomingMessage, socket: Socket): void {
  let dropped = 0;
  // A reader that stopped (the fetch adapter's stream) keeps its "readable" listener, which would hold
  // the body out of flowing mode.
  request.removeAllListeners("readable");
  request.on("data", (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > MAX_DROPPED_BODY_BYTES) socket.destroy();
  });
  request.resume();
}

/** Starts listening; port 0 picks a free port. Resolves with the base URL. */
export function listen(server: Server, port: number, host: string): Promise<string> {
  return new Promise<string>((done, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const address = server.address() as AddressInfo;
      const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
      done(`http://${shownHost}:${address.port}`);
    });
  });
}

/** Stops accepting and ends open connections (SSE streams included). */
export async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A database outage answers 503 with Retry-After (clients come back); anything else is a bare 500. */
function failureResponse(error: unknown, logger: Logger): Response {
  if (isDatabaseUnavailable(error)) {
    logger.warn("database unavailable", { error });
    const { message, extensions } = new ServiceUnavailableError();
    return Response.json(
      { message },
      { status: 503, headers: { "retry-after": String(extensions.retryAfter) } },
    );
  }
  logger.error("unexpected error", { error });
  return Response.json({ message: "Server Error" }, { status: 500 });
}
