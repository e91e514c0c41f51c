import type { Database, PrismaClient } from "./db/client.ts";
import { timed } from "./logger.ts";
import type { AuthFailure, Viewer } from "./modules/auth/auth.service.ts";
import type { PubSub } from "./pubsub.ts";
import type { Services } from "./services.ts";

/** Per-operation context: the caller, resolved once from its credential, and the services. */
export interface Context {
  viewer: Viewer | null;
  /** Why a presented credential was refused; null when none was presented or it was accepted. */
  authFailure: AuthFailure | null;
  services: Services;
  prisma: PrismaClient;
  pubsub: PubSub;
  /** The incoming HTTP request; absent for operations over a WebSocket. */
  request?: Request;
  /**
   * The page the caller runs in, as its browser reports it (the Origin header of the HTTP request, or
   * of the WebSocket upgrade); null when none was sent.
   */
  origin: string | null;
  /** Where the request came from (see `http/client-address.ts`), for per-client limits; "unknown" if not known. */
  clientAddress: string;
  /** The id of the HTTP request (or WebSocket upgrade) this operation belongs to, as its logs show it. */
  requestId: string;
  /**
   * Headers a resolver wants on the HTTP response (e.g. RateLimit-*). Both GraphQL over HTTP and
   * the REST layer copy them onto what they send.
   */
  responseHeaders: Headers;
}

/** What the HTTP layer knows of a request before any operation runs; it hands this to every transport. */
export interface RequestMeta {
  clientAddress: string;
  requestId: string;
  /** Filled by resolvers, sent by the transport (see `Context.responseHeaders`). */
  responseHeaders: Headers;
}

export interface ContextDeps {
  services: Services;
  db: Database;
  pubsub: PubSub;
}

/**
 * Where the credential comes from: the `Authorization` header of an HTTP or SSE request, or the
 * graphql-ws `connection_init` payload (`{ "authorization": "Bearer ..." }`), falling back to the
 * header of the WebSocket upgrade request.
 */
export function authorizationOf(source: {
  request?: Request;
  connectionParams?: Readonly<Record<string, unknown>>;
  upgradeHeaders?: Record<string, string | string[] | undefined>;
}): string | undefined {
  const fromHeader = source.request?.headers.get("authorization");
  if (fromHeader) return fromHeader;
  const params = source.connectionParams ?? {};
  for (const key of ["authorization", "Authorization"]) {
    const value = params[key];
    if (typeof value === "string") return value;
  }
  const upgrade = source.upgradeHeaders?.authorization;
  return typeof upgrade === "string" ? upgrade : undefined;
}

export async function createContext(
  deps: ContextDeps,
  source: {
    authorization: string | undefined;
    request?: Request | undefined;
    upgradeHeaders?: Record<string, string | string[] | undefined> | undefined;
    meta: RequestMeta;
  },
): Promise<Context> {
  const { authorization, request, upgradeHeaders, meta } = source;
  const upgradeOrigin = upgradeHeaders?.origin;
  const auth = await timed("auth", () => deps.services.auth.authenticate(authorization));
  return {
    viewer: auth.viewer,
    authFailure: auth.failure ?? null,
    services: deps.services,
    prisma: deps.db.prisma,
    pubsub: deps.pubsub,
    responseHeaders: meta.responseHeaders,
    clientAddress: meta.clientAddress,
    requestId: meta.requestId,
    origin: request?.headers.get("origin") ?? (typeof upgradeOrigin === "string" ? upgradeOrigin : null),
    ...(request ? { request } : {}),
  };
}
