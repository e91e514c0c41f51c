import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, GraphQLError } from "graphql";
import { CloseCode, type Context as GraphqlWsContext, handleProtocols, makeServer } from "graphql-ws";
import { type WebSocket, WebSocketServer } from "ws";
import { authorizationOf, type Context, type RequestMeta } from "../context.ts";
import type { ConnectionLimits } from "../env.ts";
import {
  LIVE_LISTEN_LIMITS,
  MAX_GRAPHQL_MESSAGE_BYTES,
  MEDIA_STREAM_LIMITS,
  WEB_CALL_LIMITS,
} from "../limits.ts";
import { type Logger, withRequestId } from "../logger.ts";
import { metrics } from "../metrics.ts";
import { LIVE_AUDIO_PATH } from "../modules/live-listen/index.ts";
import { TWILIO_PATHS } from "../modules/telephony/index.ts";
import { WEB_CALL_PATH } from "../modules/web-calls/index.ts";
import type { Services } from "../services.ts";
import { resolveClientAddress, type TrustedProxies } from "./client-address.ts";
import { PerAddressCount, TOO_MANY_CONNECTIONS } from "./connection-limits.ts";
import type { Yoga } from "./graphql.ts";
import { requestIdOf } from "./request-id.ts";

/** The enveloped (plugin-wrapped) execute and subscribe of one WebSocket operation. */
interface EnvelopedRoot {
  execute: (args: ExecutionArgs) => Promise<ExecutionResult>;
  subscribe: (args: ExecutionArgs) => Promise<ExecutionResult | AsyncGenerator<ExecutionResult>>;
}

type UpgradeRequest = IncomingMessage & { headers: Record<string, string | string[] | undefined> };

/** What graphql-ws hands each hook of one socket. */
interface SocketExtra {
  socket: WebSocket;
  request: UpgradeRequest;
}

/**
 * WebSocket upgrades of `server`, routed by path: graphql-ws on /graphql, browser web calls on
 * WEB_CALL_PATH, operators' live listen on LIVE_AUDIO_PATH, and Twilio Media Streams on
 * TWILIO_PATHS.media when the carrier is Twilio; any other
 * path is refused (404) before the handshake. Operations run through `yoga.getEnveloped()`, so they
 * get the same plugins, limits and context (the upgrade's Origin included) as HTTP; their client
 * address and request id are the upgrade request's. What a client may hold and for how long is
 * bounded here for every path (docs/operations.md#limits): sockets per address, a time to say who it
 * is, pings, and every socket's errors are handled where it is born, before any path's code sees it.
 */
export function attachWebSocket(
  server: Server & { refuses(socket: Duplex): boolean },
  yoga: Yoga,
  deps: { services: Services; trustedProxies: TrustedProxies; logger: Logger; limits: ConnectionLimits },
): { close(): Promise<void> } {
  const { logger, limits } = deps;
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
  const wsServer = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_GRAPHQL_MESSAGE_BYTES,
    handleProtocols,
  });
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

  // A listener says one small message (who it is); everything after that is audio it is sent.
  const liveAudioServer = new WebSocketServer({
    noServer: true,
    maxPayload: LIVE_LISTEN_LIMITS.messageBytes,
  });
  liveAudioServer.on("connection", (socket, request: IncomingMessage) =>
    deps.services.listenSockets.accept(socket, upgradeOf(request).clientAddress),
  );

  const perAddress = new PerAddressCount(limits.maxWebSocketsPerAddress);
  const heartbeat = new Heartbeat(limits.webSocketPingMs);
  /** Everything a socket gets before its path's code sees it. */
  const born = (socket: WebSocket, path: string, clientAddress: string) => {
    // ws reports a broken or oversized frame (after closing with 1002/1009) as an 'error': without a
    // listener it would end the process.
    socket.on("error", (error) =>
      logger.warn("websocket error", { path, clientAddress, error: error.message }),
    );
    metrics.websocketsActive.inc();
    socket.once("close", () => metrics.websocketsActive.dec());
    // Twilio streams audio every 20 ms for a whole call: its silence, not a ping, tells a dead stream.
    if (path !== TWILIO_PATHS.media) heartbeat.watch(socket);
  };

  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node stops watching the connection once it is an upgrade: a client resetting it now must not
    // become an unhandled error.
    socket.on("error", (error) => logger.debug("upgrade connection error", { error: error.message }));
    if (server.refuses(socket)) return refuseUpgrade(socket, TOO_MANY_CONNECTIONS);
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    const target =
      path === "/graphql"
        ? wsServer
        : path === TWILIO_PATHS.media
          ? mediaServer
          : path === WEB_CALL_PATH
            ? webCallServer
            : path === LIVE_AUDIO_PATH
              ? liveAudioServer
              : null;
    if (!target) return refuseUpgrade(socket, NOT_FOUND);
    const { clientAddress } = upgradeOf(request);
    if (!perAddress.take(clientAddress)) {
      logger.warn("websocket refused", { path, clientAddress, why: "too many sockets from this address" });
      return refuseUpgrade(socket, TOO_MANY_CONNECTIONS);
    }
    // The connection's end, whether the handshake succeeded or not.
    socket.once("close", () => perAddress.release(clientAddress));
    target.handleUpgrade(request, socket, head, (client) => {
      born(client, path, clientAddress);
      target.emit("connection", client, request);
    });
  };
  server.on("upgrade", onUpgrade);
  wsServer.on("headers", (headers, request) => {
    const { requestId, clientAddress } = upgradeOf(request);
    headers.push(`X-Request-Id: ${requestId}`);
    logger.info("request", {
      method: request.method,
      path: new URL(request.url ?? "/", "http://localhost").pathname,
      status: 101,
      requestId,
      clientAddress,
    });
  });

  /** An anonymous socket is closed once it has carried no message and run no operation for a while. */
  const closeWhenIdle = (ctx: GraphqlWsContext<Record<string, unknown>, SocketExtra>) => {
    const { socket } = ctx.extra;
    const timer = setTimeout(() => {
      if (Object.keys(ctx.subscriptions).length > 0) timer.refresh();
      else socket.close(1000, "Idle");
    }, limits.webSocketIdleMs).unref();
    socket.on("message", () => timer.refresh());
    socket.once("close", () => clearTimeout(timer));
  };
  const graphqlWs = makeServer<Record<string, unknown>, SocketExtra>({
    // A socket that never says connection_init is closed with 4408.
    connectionInitWaitTimeout: limits.webSocketInitMs,
    // A credential that is presented must be valid; anonymous connections may still use public subscriptions.
    onConnect: async (ctx) => {
      const authorization = authorizationOf({
        connectionParams: ctx.connectionParams,
        upgradeHeaders: ctx.extra.request.headers,
      });
      if (!authorization) {
        closeWhenIdle(ctx);
        return true;
      }
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
  });
  // graphql-ws's own binding to ws (`useServer`) printed every socket error to stderr, outside the logs.
  wsServer.on("connection", (socket, request: UpgradeRequest) => {
    const closed = graphqlWs.opened(
      {
        protocol: socket.protocol,
        send: (data) =>
          new Promise<void>((resolve, reject) => {
            if (socket.readyState !== socket.OPEN) return resolve();
            socket.send(data, (error) => (error ? reject(error) : resolve()));
          }),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (handle) =>
          socket.on("message", (data) =>
            handle(String(data)).catch((error: unknown) => {
              logger.error("unexpected error", { error });
              socket.close(CloseCode.InternalServerError, "Internal server error");
            }),
          ),
      },
      { socket, request },
    );
    socket.once("close", (code, reason) =>
      closed(code, String(reason)).catch((error: unknown) => logger.error("unexpected error", { error })),
    );
  });

  return {
    close: async () => {
      server.off("upgrade", onUpgrade);
      heartbeat.stop();
      for (const client of wsServer.clients) client.close(1001, "Going away");
      wsServer.close();
      for (const client of mediaServer?.clients ?? []) client.terminate();
      mediaServer?.close();
      for (const client of webCallServer.clients) client.terminate();
      webCallServer.close();
      for (const client of liveAudioServer.clients) client.close(1001, "Going away");
      liveAudioServer.close();
    },
  };
}

const NOT_FOUND = "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";

/** Answers an upgrade with `response` and closes the connection, whether or not the client closes its side. */
function refuseUpgrade(socket: Duplex, response: string): void {
  socket.once("finish", () => socket.destroy());
  socket.end(response);
}

/**
 * Pings every watched socket each `intervalMs`; one that has not answered the previous ping by then
 * (a peer gone without closing: a sleeping laptop, a dropped network) is cut.
 */
class Heartbeat {
  private readonly answered = new Map<WebSocket, boolean>();
  private readonly timer: NodeJS.Timeout;

  constructor(intervalMs: number) {
    this.timer = setInterval(() => this.beat(), intervalMs).unref();
  }

  watch(socket: WebSocket) {
    this.answered.set(socket, true);
    socket.on("pong", () => this.answered.set(socket, true));
    socket.once("close", () => this.answered.delete(socket));
  }

  stop() {
    clearInterval(this.timer);
  }

  private beat() {
    for (const [socket, answered] of this.answered) {
      if (!answered) {
        socket.terminate();
        continue;
      }
      this.answered.set(socket, false);
      socket.ping();
    }
  }
}

function requestIdIn(args: ExecutionArgs): string {
  return (args.contextValue as Context).requestId;
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
