import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { renderGraphiQL } from "@graphql-yoga/render-graphiql";
import { createRestApi, routes } from "@voxgate/rest-compat";
import { createFetch } from "@whatwg-node/fetch";
import { createServerAdapter } from "@whatwg-node/server";
import { type DocumentNode, type ExecutionArgs, type ExecutionResult, GraphQLError } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { createYoga, maskError, type Plugin } from "graphql-yoga";
import { WebSocketServer } from "ws";
import { authorizationOf, type Context, createContext } from "./context.ts";
import { type Database, type DatabaseTarget, openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import { hasLifecycle } from "./deps.ts";
import type { Config } from "./env.ts";
import { UnauthenticatedError } from "./errors.ts";
import {
  clientAddressOf,
  rememberClientAddress,
  resolveClientAddress,
  TrustedProxies,
} from "./http/client-address.ts";
import { MAX_UPLOAD_BYTES } from "./limits.ts";
import { createLogger, type Logger } from "./logger.ts";
import { payloadTooLarge, readBoundedBody } from "./net/bounded-body.ts";
import { MAX_GRAPHQL_MESSAGE_BYTES, operationLimitsPlugin } from "./operation-limits.ts";
import { createEventBus, type PubSub } from "./pubsub.ts";
import { schema } from "./schema.ts";
import { type DemoCredentials, seedCatalog, seedDemo } from "./seed/seed.ts";
import { createServices, type Services } from "./services.ts";
import { useWellFormedText } from "./well-formed-text.ts";

export interface AppOptions {
  logger?: Logger;
  /** Overrides where data lives (tests use an in-memory PGlite or a throw-away database). */
  database?: DatabaseTarget;
}

export interface App {
  config: Config;
  db: Database;
  services: Services;
  pubsub: PubSub;
  logger: Logger;
  /** Set on the start that created the demo account: its credentials, shown once. */
  demo: DemoCredentials | null;
  /** Answers one HTTP request in process (what the HTTP server calls). */
  handle(request: Request): Promise<Response>;
  /** Starts listening; port 0 picks a free port. Resolves with the base URL. */
  listen(port?: number, host?: string): Promise<string>;
  close(): Promise<void>;
}

const uploadAwareFetchApi = createFetch({
  formDataLimits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fieldSize: 1024 * 1024, fields: 200 },
});

/** The enveloped (plugin-wrapped) execute and subscribe of one WebSocket operation. */
interface EnvelopedRoot {
  execute: (args: ExecutionArgs) => Promise<ExecutionResult>;
  subscribe: (args: ExecutionArgs) => Promise<ExecutionResult | AsyncGenerator<ExecutionResult>>;
}

const exampleDir = new URL("../../../examples/", import.meta.url);
const widgetDistDir = fileURLToPath(new URL("../../widget/dist/", import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".map": "application/json",
  ".json": "application/json",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".png": "image/png",
};

/** Serves a file from `root`; paths that leave it, or files that do not exist, are 404. */
async function serveStatic(root: string, relative: string): Promise<Response> {
  const path = resolve(root, relative);
  if (!path.startsWith(root) || relative.includes("\0"))
    return Response.json({ message: "Not found." }, { status: 404 });
  try {
    const body = await readFile(path);
    return new Response(body, {
      headers: {
        "content-type": CONTENT_TYPES[extname(path)] ?? "application/octet-stream",
        "access-control-allow-origin": "*",
        "cache-control": "public, max-age=300",
      },
    });
  } catch {
    return Response.json({ message: "Not found." }, { status: 404 });
  }
}

/**
 * Builds the whole service without listening: database (migrated), services, the GraphQL schema
 * with HTTP, SSE and WebSocket transports, and the REST API mounted under /api.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? createLogger(config.logLevel);
  const target: DatabaseTarget =
    options.database ??
    (config.databaseUrl
      ? { kind: "postgres", url: config.databaseUrl }
      : { kind: "pglite", dataDir: config.dataDir });
  const db = await openDatabase(target);
  const applied = await migrate(db);
  if (applied.length > 0) logger.info("migrations applied", { migrations: applied });

  const events = createEventBus(config.redisUrl);
  const pubsub = events.pubsub;
  const services = createServices({ config, db, pubsub, logger });
  await seedCatalog(db.prisma);
  const demo = config.seedDemo ? await seedDemo(db.prisma, services) : null;

  const contextDeps = { services, db, pubsub };
  /** Response headers resolvers asked for, by request, for the HTTP layer to send. */
  const headersByRequest = new WeakMap<Request, Headers>();
  const copyHeaders = (from: Headers | undefined, to: Headers) => {
    for (const [name, value] of from ?? []) to.set(name, value);
  };
  /** Every subscription a caller opened ends, with UNAUTHENTICATED, once its credential is revoked or expires. */
  const endStreamsOfInvalidCredentials: Plugin<Context> = {
    onSubscribe: () => ({
      onSubscribeResult: ({ args, result, setResult }) => {
        const viewer = args.contextValue.viewer;
        if (!viewer || !(Symbol.asyncIterator in result)) return;
        setResult(
          services.credentialStreams.watch(viewer, result[Symbol.asyncIterator](), (reason) => ({
            errors: [new UnauthenticatedError(reason)],
          })),
        );
      },
    }),
  };
  const yoga = createYoga<
    { connectionParams?: Record<string, unknown>; upgradeHeaders?: Record<string, string> },
    Context
  >({
    schema,
    graphqlEndpoint: "/graphql",
    fetchAPI: uploadAwareFetchApi,
    landingPage: false,
    logging: {
      debug: (...args) => logger.debug(String(args[0])),
      info: (...args) => logger.info(String(args[0])),
      warn: (...args) => logger.warn(String(args[0])),
      error: (...args) => logger.error(String(args[0]), { detail: args.slice(1) }),
    },
    graphiql: {
      title: "Voxgate GraphQL",
      subscriptionsProtocol: "WS",
      defaultQuery:
        "# Set the header Authorization: Bearer <your API key> below, then run:\nquery Me {\n  viewer { email account { name balance } }\n}\n",
    },
    renderGraphiQL,
    maskedErrors: {
      isDev: false,
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        if (!(original instanceof GraphQLError) && original)
          logger.error("unexpected error", { error: original });
        return maskError(error, message, false);
      },
    },
    context: async ({ request, connectionParams, upgradeHeaders }) => {
      const context = await createContext(
        contextDeps,
        authorizationOf({ request, connectionParams, upgradeHeaders }),
        request,
      );
      if (request) headersByRequest.set(request, context.responseHeaders);
      return context;
    },
    plugins: [
      operationLimitsPlugin(),
      useWellFormedText(),
      endStreamsOfInvalidCredentials,
      { onResponse: ({ request, response }) => copyHeaders(headersByRequest.get(request), response.headers) },
    ],
  });

  /** REST documents are fixed: each is parsed and validated (limits included) once. */
  const parsedOperations = new Map<string, DocumentNode>();
  /**
   * The REST router authenticates before reading a body and executes afterwards: both use one
   * context per request, so the credential is looked up once.
   */
  const restOperations = new WeakMap<
    Request,
    { enveloped: ReturnType<typeof yoga.getEnveloped>; context: Promise<Context> }
  >();
  const restOperationOf = (request: Request) => {
    let operation = restOperations.get(request);
    if (!operation) {
      const enveloped = yoga.getEnveloped({ request });
      operation = {
        enveloped,
        context: Promise.resolve(enveloped.contextFactory({ request })) as Promise<Context>,
      };
      restOperations.set(request, operation);
    }
    return operation;
  };
  const rest = createRestApi({
    routes,
    publicBaseUrl: config.publicBaseUrl,
    onUnexpectedError: (error) => logger.error("REST call failed", { error }),
    authenticate: async (request) => {
      const { viewer, authFailure } = await restOperationOf(request).context;
      return viewer ? null : new UnauthenticatedError(authFailure).toJSON();
    },
    execute: async ({ document, variables, request }) => {
      const { enveloped, context } = restOperationOf(request);
      let parsed = parsedOperations.get(document);
      if (!parsed) {
        const fresh: DocumentNode = enveloped.parse(document);
        const errors = enveloped.validate(enveloped.schema, fresh);
        if (errors.length > 0) throw new AggregateError(errors, "A REST route's operation is invalid");
        parsedOperations.set(document, fresh);
        parsed = fresh;
      }
      const contextValue = await context;
      const result: ExecutionResult | AsyncIterable<unknown> = await enveloped.execute({
        schema: enveloped.schema,
        document: parsed,
        variableValues: variables,
        contextValue,
      });
      if (Symbol.asyncIterator in result) throw new Error("REST routes cannot run subscriptions");
      return {
        data: (result.data as Record<string, unknown> | null | undefined) ?? null,
        errors: result.errors?.map((error) => error.toJSON()),
        headers: contextValue.responseHeaders,
      };
    },
  });

  const route = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    if (url.pathname === "/graphql") {
      const bounded = await readBoundedBody(request, MAX_GRAPHQL_MESSAGE_BYTES, uploadAwareFetchApi.Request);
      if (!bounded) return payloadTooLarge(MAX_GRAPHQL_MESSAGE_BYTES);
      if (bounded !== request) rememberClientAddress(bounded, clientAddressOf(request));
      return yoga.fetch(bounded);
    }
    const restResponse = await rest(request);
    if (restResponse) return restResponse;
    if (url.pathname === "/healthz") return Response.json({ status: "ok", database: db.kind });
    if (url.pathname.startsWith("/widget/") && !url.pathname.startsWith("/widget/demo")) {
      return serveStatic(widgetDistDir, url.pathname.slice("/widget/".length));
    }
    if (url.pathname === "/widget/demo" || url.pathname === "/widget/demo/") {
      const html = await readFile(new URL("widget/index.html", exampleDir), "utf8");
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (url.pathname === "/") {
      return Response.json({
        name: "Voxgate",
        graphql: `${config.publicBaseUrl}/graphql`,
        rest: `${config.publicBaseUrl}/api`,
        widgetDemo: `${config.publicBaseUrl}/widget/demo`,
      });
    }
    return Response.json({ message: "Not found." }, { status: 404 });
  };

  /**
   * The last line of defence: whatever throws, the client gets no stack trace and the log gets the
   * error. Nothing reaches the server adapter's own error path, which would answer with the stack.
   */
  const guard = async (answer: () => Promise<Response>): Promise<Response> => {
    try {
      return await answer();
    } catch (error) {
      logger.error("unexpected error", { error });
      return Response.json({ message: "Server Error" }, { status: 500 });
    }
  };
  const handle = (request: Request) => guard(() => route(request));

  const trustedProxies = new TrustedProxies(config.trustedProxies);
  const backgroundServices = Object.values(services as Record<string, object>).filter(hasLifecycle);
  const adapter = createServerAdapter<{ req?: IncomingMessage }>(
    (request, serverContext) =>
      guard(async () => {
        rememberClientAddress(
          request,
          resolveClientAddress(
            serverContext.req?.socket.remoteAddress,
            request.headers.get("x-forwarded-for"),
            trustedProxies,
          ),
        );
        return route(request);
      }),
    { fetchAPI: uploadAwareFetchApi },
  );
  const server: Server = createServer(adapter);
  // ws closes a socket whose message is larger with 1009 as soon as the frame header announces it.
  const wsServer = new WebSocketServer({ server, path: "/graphql", maxPayload: MAX_GRAPHQL_MESSAGE_BYTES });
  const wsCleanup = useServer<
    Record<string, unknown>,
    { request: { headers: Record<string, string | string[] | undefined> } }
  >(
    {
      // A credential that is presented must be valid; anonymous connections may still use public subscriptions.
      onConnect: async (ctx) => {
        const authorization = authorizationOf({
          connectionParams: ctx.connectionParams,
          upgradeHeaders: ctx.extra.request.headers,
        });
        if (!authorization) return true;
        const result = await services.auth.authenticate(authorization);
        if (!result.viewer) ctx.extra.socket.close(4401, "Unauthorized");
        return result.viewer !== null;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const enveloped = yoga.getEnveloped({
          connectionParams: ctx.connectionParams,
          upgradeHeaders: ctx.extra.request.headers,
        });
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
      execute: (args) => (args.rootValue as EnvelopedRoot).execute(args),
      subscribe: (args) => (args.rootValue as EnvelopedRoot).subscribe(args),
    },
    wsServer,
  );

  return {
    config,
    db,
    services,
    pubsub,
    logger,
    demo,
    handle,
    listen: async (port = config.port, host = config.host) => {
      const url = await new Promise<string>((done, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => {
          server.off("error", reject);
          const address = server.address() as AddressInfo;
          const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
          done(`http://${shownHost}:${address.port}`);
        });
      });
      for (const service of backgroundServices) await service.start();
      return url;
    },
    close: async () => {
      for (const service of backgroundServices.toReversed()) await service.stop();
      await wsCleanup.dispose();
      wsServer.close();
      if (server.listening) {
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      }
      await events.close();
      await db.close();
    },
  };
}
