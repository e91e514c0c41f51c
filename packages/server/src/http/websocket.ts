import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, GraphQLError } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { authorizationOf, type Context, type RequestMeta } from "../context.ts";
import { MAX_GRAPHQL_MESSAGE_BYTES, MEDIA_STREAM_LIMITS, WEB_CALL_LIMITS } from "../limits.ts";
import { type Logger, withRequestId } from "../logger.ts";
import { metrics } from "../metrics.ts";
import { TWILIO_PATHS } from "../modules/telephony/index.ts";
import { WEB_CALL_PATH } from "../modules/web-calls/index.ts";
import type { Services } from "../services.ts";
import { resolveClientAddress, type TrustedProxies } from "./client-address.ts";
import type { Yoga } from "./graphql.ts";
import { requestIdOf } from "./request-id.ts";

/** The enveloped (plugin-wrapped) execute and subscribe of one WebSocket operation. */
interface EnvelopedRoot {
  execute: (args: ExecutionArgs) => Promise<ExecutionResult>;
  subscribe: (args: ExecutionArgs) => Promise<ExecutionResult | AsyncGenerator<ExecutionResult>>;
}

type UpgradeRequest = IncomingMessage & { headers: Record<string, string | string[] | undefined> };

/**
 * WebSocket upgrades of `server`, routed by path: graphql-ws on /graphql, browser web calls on
 * WEB_CALL_PATH, and Twilio Media Streams on TWILIO_PATHS.media when the carrier is Twilio; any other path is refused (404) before the
 * handshake. Operations run through `yoga.getEnveloped()`, so they get the
 * same plugins, limits and context as HTTP; their client address and request id are the upgrade
 * request's.
 */
export function attachWebSocket(
  server: Server,
  yoga: Yoga,
  deps: { services: Services; trustedProxies: TrustedProxies; logger: Logger },
): { close(): Promise<void> } {
  /** One id and address per upgrade, shared by its response header, its log line and its operations. */
  const upgrades = new WeakMap<IncomingMessage, Omit<RequestMeta, "responseHeaders">>();
  const upgradeOf = (request: IncomingMessage) => {
    let upgrade = upgrades.get(request);
    if (!upgrade) {
      const forwardedFor = request.headers["x-forwarded-for"];
      upgrade = {
        requestId: requestIdOf(firstOf(request.headers["x-request-id"])),
        clientAddress:
          resolveClientAddress(
            request.socket.remoteAddress,
            firstOf(forwardedFor) ?? null,
            deps.trustedProxies,
          ) ?? "unknown",
      };
      upgrades.set(request, upgrade);
    }
    return upgrade;
  };

  // ws closes a socket whose message is larger with 1009 as soon as the frame header announces it.
  const wsServer = new WebSocketServer({ noServer: true, maxPayload: MAX_GRAPHQL_MESSAGE_BYTES });
  const media = deps.services.twilioMedia;
  const mediaServer = media
    ? new WebSocketServer({ noServer: true, maxPayload: MEDIA_STREAM_LIMITS.messageBytes })
    : null;
  mediaServer?.on("connection", (socket, request: IncomingMessage) => media!.accept(socket, request.socket));
  // A binary frame of audio or a control message; a bigger one closes the socket (1009).
  const webCallServer = new WebSocketServer({
    noServer: true,
    maxPayload: Math.max(WEB_CALL_LIMITS.frameBytes, WEB_CALL_LIMITS.controlBytes),
  });
  webCallServer.on("connection", (socket, request: IncomingMessage) =>
    deps.services.webCallSockets.accept(socket, request),
  );
  for (const socketServer of [wsServer, mediaServer, webCallServer]) {
    socketServer?.on("connection", (socket) => {
      metrics.websocketsActive.inc();
      socket.once("close", () => metrics.websocketsActive.dec());
    });
  }
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const target =
      path === "/graphql"
        ? wsServer
        : path === TWILIO_PATHS.media
          ? mediaServer
          : path === WEB_CALL_PATH
            ? webCallServer
            : null;
    if (!target) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    target.handleUpgrade(request, socket, head, (client) => target.emit("connection", client, request));
  };
  server.on("upgrade", onUpgrade);
  wsServer.on("headers", (headers, request) => {
    const { requestId, clientAddress } = upgradeOf(request);
    headers.push(`X-Request-Id: ${requestId}`);
    deps.logger.info("request", {
      method: request.method,
      path: new URL(request.url ?? "/", "http://localhost").pathname,
      status: 101,
      requestId,
      clientAddress,
    });
  });
  const cleanup = useServer<Record<string, unknown>, { request: UpgradeRequest }>(
    {
      // A credential that is presented must be valid; anonymous connections may still use public subscriptions.
      onConnect: async (ctx) => {
        const authorization = authorizationOf({
          connectionParams: ctx.connectionParams,
          upgradeHeaders: ctx.extra.request.headers,
        });
        if (!authorization) return true;
        const result = await deps.services.auth.authenticate(authorization);
        if (!result.viewer) ctx.extra.socket.close(4401, "Unauthorized");
        return result.viewer !== null;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const serverContext = {
          ...upgradeOf(ctx.extra.request),
          // Nothing carries headers back once the socket is open.
          responseHeaders: new Headers(),
          connectionParams: ctx.connectionParams,
          upgradeHeaders: ctx.extra.request.headers,
        };
        const enveloped = yoga.getEnveloped(serverContext);
        let document: DocumentNode;
        try {
          document = enveloped.parse(payload.query);
        } catch (error) {
          // Syntax errors and the token limit answer the operation, not the whole socket.
          if (error instanceof GraphQLError) return [error];
          throw error;
        }
        const errors = enveloped.validate(enveloped.schema, document);
        if (errors.length > 0) return errors;
        return {
          schema: enveloped.schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: { execute: enveloped.execute, subscribe: enveloped.subscribe },
        };
      },
      execute: (args) =>
        withRequestId(requestIdIn(args), () => (args.rootValue as EnvelopedRoot).execute(args)),
      subscribe: (args) =>
        withRequestId(requestIdIn(args), () => (args.rootValue as EnvelopedRoot).subscribe(args)),
    },
    wsServer,
  );

  return {
    close: async () => {
      server.off("upgrade", onUpgrade);
      await cleanup.dispose();
      wsServer.close();
      for (const client of mediaServer?.clients ?? []) client.terminate();
      mediaServer?.close();
      for (const client of webCallServer.clients) client.terminate();
      webCallServer.close();
    },
  };
}

function requestIdIn(args: ExecutionArgs): string {
  return (args.contextValue as Context).requestId;
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
