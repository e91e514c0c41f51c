// The process and its HTTP edge: where it listens, how it logs, who may connect and for how long, and
// what its outbound requests may reach.
import ipaddr from "ipaddr.js";
import { z } from "zod";
import {
  commaSeparated,
  emptyAsUndefined,
  httpUrl,
  port,
  positiveInt,
  withoutTrailingSlash,
} from "./validators.ts";

function isAddressOrRange(entry: string): boolean {
  if (!entry.includes("/")) return ipaddr.isValid(entry);
  try {
    ipaddr.parseCIDR(entry);
    return true;
  } catch {
    return false;
  }
}

export const serverEnv = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  PORT: port.default(4000),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  LOG_FORMAT: z.preprocess(emptyAsUndefined, z.enum(["json", "pretty"]).optional()),
  VOXGATE_OUTBOUND_ALLOWLIST: z.string().default(""),
  VOXGATE_TRUSTED_PROXIES: z
    .string()
    .default("")
    .transform(commaSeparated)
    .refine((entries) => entries.every(isAddressOrRange), {
      message: "must be a comma-separated list of IP addresses or CIDR ranges",
    }),
  VOXGATE_METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  VOXGATE_METRICS_PORT: port.optional(),
  VOXGATE_MAX_CONNECTIONS_PER_IP: positiveInt.max(100_000, "must be at most 100000").default(512),
  VOXGATE_MAX_WEBSOCKETS_PER_IP: positiveInt.max(100_000, "must be at most 100000").default(256),
  VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS: positiveInt.max(600, "must be at most 600").default(20),
  VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS: positiveInt.max(3600, "must be at most 3600").default(60),
  VOXGATE_WS_INIT_TIMEOUT_SECONDS: positiveInt.max(600, "must be at most 600").default(10),
  VOXGATE_WS_IDLE_SECONDS: positiveInt.max(86_400, "must be at most 86400").default(60),
  VOXGATE_WS_PING_SECONDS: positiveInt.max(3600, "must be at most 3600").default(30),
  VOXGATE_VISITOR_COUNTRY_HEADER: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, "must be an HTTP header name, e.g. CF-IPCountry")
      .transform((value) => value.toLowerCase())
      .optional(),
  ),
});

type ServerEnv = z.output<typeof serverEnv>;

export function checkServerEnv(env: ServerEnv, context: z.RefinementCtx): void {
  // Node refuses a headers timeout longer than the whole request's.
  if (env.VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS > env.VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS) {
    context.addIssue({
      code: "custom",
      path: ["VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS"],
      message: "must be at most VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS",
    });
  }
}

export interface ServerSettings {
  nodeEnv: "development" | "production" | "test";
  port: number;
  host: string;
  /** Base of every absolute URL the API returns (pagination links, widget script); no trailing slash. */
  publicBaseUrl: string;
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** JSON lines (the default in production) or readable lines (elsewhere). */
  logFormat: "json" | "pretty";
  /**
   * Hosts, IPs or CIDR ranges that outbound requests (website ingestion, tool webhooks) may reach
   * even though they are private or loopback. Empty in production; tests allow their local servers.
   */
  outboundAllowList: string[];
  /** Reverse proxies whose X-Forwarded-For names the client (per-IP rate limits); empty: trust none. */
  trustedProxies: string[];
  /**
   * Prometheus /metrics: off unless a token protects it on the main port, or a port of its own (on
   * HOST, for a network the public cannot reach) serves it; with both, the separate port also asks
   * for the token.
   */
  metrics: { token: string | undefined; port: number | undefined };
  connections: ConnectionLimits;
  /**
   * The request header a trusted proxy sets to the visitor's country (ISO 3166 alpha-2, e.g.
   * CF-IPCountry), lower-cased; null: the country of widget visitors is not known.
   */
  visitorCountryHeader: string | null;
}

/**
 * What one client may hold open and how long a connection may stay slow or idle (docs/operations.md#limits).
 * The per-IP caps count TCP connections by the socket's address (a trusted proxy's are not counted:
 * it carries many clients) and WebSockets by the resolved client address.
 */
export interface ConnectionLimits {
  maxPerAddress: number;
  maxWebSocketsPerAddress: number;
  /** A request's headers, and the whole request (body included), must arrive within these. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** graphql-ws's connection_init and a Twilio media stream's start must come within this. */
  webSocketInitMs: number;
  /** An anonymous graphql-ws socket with no operation running is closed after this. */
  webSocketIdleMs: number;
  /** Each socket (but Twilio's media streams) is pinged this often; one that missed the last pong is cut. */
  webSocketPingMs: number;
}

export function serverSettings(env: ServerEnv): ServerSettings {
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    publicBaseUrl: withoutTrailingSlash(env.PUBLIC_BASE_URL ?? `http://${displayHost(env.HOST)}:${env.PORT}`),
    logLevel: env.LOG_LEVEL,
    logFormat: env.LOG_FORMAT ?? (env.NODE_ENV === "production" ? "json" : "pretty"),
    outboundAllowList: commaSeparated(env.VOXGATE_OUTBOUND_ALLOWLIST),
    trustedProxies: env.VOXGATE_TRUSTED_PROXIES,
    metrics: { token: env.VOXGATE_METRICS_TOKEN, port: env.VOXGATE_METRICS_PORT },
    connections: {
      maxPerAddress: env.VOXGATE_MAX_CONNECTIONS_PER_IP,
      maxWebSocketsPerAddress: env.VOXGATE_MAX_WEBSOCKETS_PER_IP,
      headersTimeoutMs: env.VOXGATE_HTTP_HEADERS_TIMEOUT_SECONDS * 1000,
      requestTimeoutMs: env.VOXGATE_HTTP_REQUEST_TIMEOUT_SECONDS * 1000,
      webSocketInitMs: env.VOXGATE_WS_INIT_TIMEOUT_SECONDS * 1000,
      webSocketIdleMs: env.VOXGATE_WS_IDLE_SECONDS * 1000,
      webSocketPingMs: env.VOXGATE_WS_PING_SECONDS * 1000,
    },
    visitorCountryHeader: env.VOXGATE_VISITOR_COUNTRY_HEADER ?? null,
  };
}

/** A wildcard listening address is no address to link to: the public base URL names localhost instead. */
function displayHost(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}
