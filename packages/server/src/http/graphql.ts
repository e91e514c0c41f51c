import { createFetch } from "@whatwg-node/fetch";
import { GraphQLError } from "graphql";
import { createYoga, maskError, type Plugin, type YogaServerInstance } from "graphql-yoga";
import {
  authorizationOf,
  type Context,
  type ContextDeps,
  createContext,
  type RequestMeta,
} from "../context.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import { ServiceUnavailableError, UnauthenticatedError } from "../errors.ts";
import { GRAPHQL_FORM_LIMITS, MAX_GRAPHQL_MESSAGE_BYTES, MAX_GRAPHQL_MULTIPART_BYTES } from "../limits.ts";
import type { Logger } from "../logger.ts";
import { type BodyLimits, isMultipart, payloadTooLarge, readBoundedBody } from "../net/bounded-body.ts";
import { nestingLimitPlugin, operationLimitsPlugin } from "../operation-limits.ts";
import { schema } from "../schema.ts";
import { useWellFormedText } from "../well-formed-text.ts";
import { metricsPlugin } from "./metrics.ts";

/** What each transport hands Yoga besides the request: who is calling and the request's own meta. */
export type ServerContext = RequestMeta & {
  connectionParams?: Record<string, unknown>;
  upgradeHeaders?: Record<string, string | string[] | undefined>;
};

export type Yoga = YogaServerInstance<ServerContext, Context>;

/** Multipart uploads are cut at their limits while they stream, by the fetch API that parses them. */
export const uploadAwareFetchApi = createFetch({ formDataLimits: GRAPHQL_FORM_LIMITS });

const BODY_LIMITS: BodyLimits = {
  bytes: MAX_GRAPHQL_MESSAGE_BYTES,
  multipartBytes: MAX_GRAPHQL_MULTIPART_BYTES,
};

/**
 * The GraphQL schema behind every transport: its plugins (operation limits, well-formed text,
 * streams ending with their credential), error masking and the context factory.
 */
export function createGraphQL(deps: ContextDeps & { logger: Logger }): {
  yoga: Yoga;
  /** Answers POST/GET /graphql (queries, mutations, uploads, SSE and GraphiQL). */
  handle(request: Request, meta: RequestMeta): Promise<Response>;
} {
  const { logger, services } = deps;
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
  const yoga = createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    fetchAPI: uploadAwareFetchApi,
    // `handle` bounds every body before Yoga sees it. Yoga's own limit piped each request's body through
    // a transform stream, whose pipeline ended by aborting a signal: about a third of a cheap request's
    // CPU (bench/auth).
    maxRequestBodySize: false,
    landingPage: false,
    // Credentials travel in the Authorization header (or connectionParams), never in cookies: any
    // page may call, and no browser attaches the user's cookies to the call (no Allow-Credentials).
    cors: {
      credentials: false,
      methods: ["GET", "POST"],
      exposedHeaders: [
        "X-Request-Id",
        "Retry-After",
        "RateLimit-Limit",
        "RateLimit-Remaining",
        "RateLimit-Reset",
      ],
      maxAge: 600,
    },
    logging: {
      debug: (...args) => logger.debug(String(args[0])),
      info: (...args) => logger.info(String(args[0])),
      warn: (...args) => logger.warn(String(args[0])),
      // An outage met while building a context is logged once, as a warning, by the masking below.
      error: (...args) =>
        isDatabaseUnavailable(args[0])
          ? logger.debug(String(args[0]))
          : logger.error(String(args[0]), { detail: args.slice(1) }),
    },
    graphiql: {
      title: "Voxgate GraphQL",
      subscriptionsProtocol: "WS",
      defaultQuery:
        "# Set the header Authorization: Bearer <your API key> below, then run:\nquery Me {\n  viewer { email account { name balance } }\n}\n",
    },
    // The GraphiQL page (~35 MB of inlined scripts once loaded) is built for the first browser that asks.
    renderGraphiQL: async (options) =>
      (await import("@graphql-yoga/render-graphiql")).renderGraphiQL(options),
    maskedErrors: {
      isDev: false,
      maskError: (error, message) => {
        const original = error instanceof GraphQLError ? error.originalError : error;
        // A database outage is not a bug: the caller is told to come back (503, Retry-After).
        if (isDatabaseUnavailable(original)) {
          logger.warn("database unavailable", { error: original });
          const unavailable = new ServiceUnavailableError();
          return error instanceof GraphQLError
            ? new GraphQLError(unavailable.message, {
                nodes: error.nodes,
                path: error.path,
                extensions: unavailable.extensions,
              })
            : unavailable;
        }
        if (!(original instanceof GraphQLError) && original)
          logger.error("unexpected error", { error: original });
        return maskError(error, message, false);
      },
    },
    context: ({ request, connectionParams, upgradeHeaders, clientAddress, requestId, responseHeaders }) =>
      createContext(deps, {
        authorization: authorizationOf({ request, connectionParams, upgradeHeaders }),
        request,
        upgradeHeaders,
        meta: { clientAddress, requestId, responseHeaders },
      }),
    plugins: [
      nestingLimitPlugin(),
      operationLimitsPlugin(),
      useWellFormedText(),
      endStreamsOfInvalidCredentials,
      metricsPlugin(),
    ],
  });

  return {
    yoga,
    handle: async (request, meta) => {
      const bounded = await readBoundedBody(request, BODY_LIMITS, uploadAwareFetchApi.Request);
      if (!bounded)
        return payloadTooLarge(isMultipart(request) ? BODY_LIMITS.multipartBytes : BODY_LIMITS.bytes);
      const answer = await yoga.fetch(bounded.request, meta);
      // The form parser answers a body cut off at the limit as malformed; it was too large.
      const response = bounded.overLimit() ? payloadTooLarge(BODY_LIMITS.multipartBytes) : answer;
      for (const [name, value] of meta.responseHeaders) response.headers.set(name, value);
      return response;
    },
  };
}
