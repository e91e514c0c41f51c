import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import type { ReadableStream } from "node:stream/web";
import ipaddr from "ipaddr.js";
import type { Agent, buildConnector } from "undici";
import { lazyRequire } from "../lazy-require.ts";

/** undici (~12 MB) is loaded by the first outbound request (webhook, website), not at start. */
const undici = lazyRequire<typeof import("undici")>("undici");

export interface SafeFetchOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** Budget for the whole exchange: every redirect hop and reading the body. */
  timeoutMs: number;
  /** Largest body accepted; enforced while streaming, so an oversized body is never held in memory. */
  maxBytes: number;
  /** Default 5. */
  maxRedirects?: number;
  /**
   * Headers that, like Authorization, Cookie and Proxy-Authorization, are meant for the first origin
   * only (a webhook's configured secrets): dropped when a redirect leads to another origin.
   */
  originBoundHeaders?: readonly string[];
  /** Hosts, IPs or CIDRs that may be reached even though they are private or loopback (config.outboundAllowList). */
  allowList: readonly string[];
  /** Media types accepted for the final response, e.g. ["text/html", "text/plain"]; omitted accepts any. */
  acceptContentTypes?: readonly string[];
  /** Cancels the request from outside (e.g. the server is stopping); the signal's reason is thrown as is. */
  signal?: AbortSignal;
}

export interface SafeFetchResult {
  status: number;
  /** The final URL after redirects. */
  url: string;
  headers: Headers;
  body: Buffer;
}

export type OutboundFailure =
  | "blocked_address"
  | "invalid_url"
  | "timeout"
  | "too_large"
  | "bad_content_type"
  | "too_many_redirects"
  | "network";

const failureMessages: Record<OutboundFailure, string> = {
  blocked_address: "the address is not allowed (private, loopback or reserved network)",
  invalid_url: "the URL is not a valid http or https URL",
  timeout: "the request timed out",
  too_large: "the response is too large",
  bad_content_type: "the response has an unsupported content type",
  too_many_redirects: "the request was redirected too many times",
  network: "the server could not be reached",
};

/** The hop a `blocked_address` failure refused: after redirects, not necessarily the URL asked for. */
export interface RefusedHop {
  url: string;
  /** The address (or the addresses a name resolved to) that is not allowed. */
  address: string;
}

export class OutboundRequestError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    detail?: string,
    readonly refused?: RefusedHop,
  ) {
    super(detail ? `${failureMessages[reason]}: ${detail}` : failureMessages[reason]);
    this.name = "OutboundRequestError";
  }
}

/** Raised by the connection guard, which knows the address but not the URL of the hop. */
class BlockedAddressError extends Error {
  constructor(readonly address: string) {
    super(`${address} is not an allowed address`);
    this.name = "BlockedAddressError";
  }
}

const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Credentials meant for one origin must not follow a redirect to another. */
const ORIGIN_BOUND_HEADERS = ["authorization", "cookie", "proxy-authorization"];

/**
 * Fetches an outside URL on behalf of a user without letting them reach internal services (SSRF).
 *
 * Addresses are checked twice: when a name resolves (so a blocked address is never connected to) and
 * on the connected socket (which also covers IP-literal URLs, where no lookup happens). Redirects are
 * followed by hand so every hop passes the same checks.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const dispatcher = sharedAgent(options.allowList);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([controller.signal, options.signal]) : controller.signal;
  try {
    return await fetchFollowingRedirects(url, options, dispatcher, signal);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    throw toOutboundError(error, controller.signal);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Connection pools by allow-list. A pooled keep-alive connection was vetted when it connected (the
 * guard checks the connected socket's address), and a pool only holds connections to one origin, so
 * reusing it is as safe as the first request. Each allow-list gets its own pool, so a connection
 * opened under a wider allow-list never serves a call made under a narrower one.
 */
const sharedAgents = new Map<string, Agent>();

function sharedAgent(allowList: readonly string[]): Agent {
  const key = JSON.stringify(allowList.map((entry) => entry.trim().toLowerCase()).sort());
  let agent = sharedAgents.get(key);
  if (!agent) {
    agent = new (undici().Agent)({ connect: guardedConnector(new AddressPolicy(allowList)) });
    sharedAgents.set(key, agent);
  }
  return agent;
}

/** The app's handle on the shared pools: nothing to start; stopping closes them. */
export const safeFetchConnections = {
  start(): void {},
  stop: closeSafeFetchConnections,
};

/** How long stopping waits for requests still running before cutting their connections. */
const CLOSE_GRACE_MS = 1_000;

/**
 * Closes the pooled connections (the app does it when it stops). Requests already running may
 * finish for a moment; later calls open new pools.
 */
export async function closeSafeFetchConnections(): Promise<void> {
  const agents = [...sharedAgents.values()];
  sharedAgents.clear();
  await Promise.all(
    agents.map(async (agent) => {
      let timer: NodeJS.Timeout | undefined;
      const closed = agent.close().then(() => true);
      const late = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS);
      });
      const inTime = await Promise.race([closed, late]).catch(() => false);
      clearTimeout(timer);
      if (!inTime) await agent.destroy().catch(() => undefined);
    }),
  );
}

async function fetchFollowingRedirects(
  startUrl: string,
  options: SafeFetchOptions,
  dispatcher: Agent,
  signal: AbortSignal,
): Promise<SafeFetchResult> {
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let currentUrl = parseHttpUrl(startUrl);
  let method = (options.method ?? "GET").toUpperCase();
  let body = options.body;
  const headers = { ...options.headers };
  const originBound = new Set([
    ...ORIGIN_BOUND_HEADERS,
    ...(options.originBoundHeaders ?? []).map((name) => name.toLowerCase()),
  ]);

  for (let hop = 0; ; hop++) {
    const response = await undici()
      .fetch(currentUrl, {
        method,
        headers,
        body,
        redirect: "manual",
        dispatcher,
        signal,
      })
      .catch((error: unknown) => {
        const blocked = findCause(error, BlockedAddressError);
        if (!blocked) throw error;
        const refused = { url: currentUrl.href, address: blocked.address };
        throw new OutboundRequestError("blocked_address", `${refused.url} (${refused.address})`, refused);
      });
    const location = response.headers.get("location");
    if (!REDIRECT_STATUSES.has(response.status) || location === null) {
      checkContentType(response.headers.get("content-type"), options.acceptContentTypes);
      const declaredLength = Number(response.headers.get("content-length"));
      if (Number.isFinite(declaredLength) && declaredLength > options.maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw new OutboundRequestError(
          "too_large",
          `${declaredLength} bytes declared, limit ${options.maxBytes}`,
        );
      }
      return {
        status: response.status,
        url: currentUrl.href,
        headers: new Headers([...response.headers]),
        body: await readLimited(response.body, options.maxBytes),
      };
    }
    await response.body?.cancel().catch(() => undefined);
    if (hop >= maxRedirects)
      throw new OutboundRequestError("too_many_redirects", `more than ${maxRedirects}`);

    const nextUrl = parseHttpUrl(location, currentUrl);
    if (nextUrl.origin !== currentUrl.origin) {
      for (const name of Object.keys(headers)) {
        if (originBound.has(name.toLowerCase())) delete headers[name];
      }
    }
    // Browsers turn these into a GET without a body; servers rely on it (post/redirect/get).
    if (
      response.status === 303 ||
      ((response.status === 301 || response.status === 302) && method === "POST")
    ) {
      method = "GET";
      body = undefined;
    }
    currentUrl = nextUrl;
  }
}

function parseHttpUrl(value: string, base?: URL): URL {
  let parsed: URL;
  try {
    parsed = new URL(value, base);
  } catch {
    throw new OutboundRequestError("invalid_url", value);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new OutboundRequestError("invalid_url", `${parsed.protocol} is not http or https`);
  }
  if (parsed.username || parsed.password)
    throw new OutboundRequestError("invalid_url", "credentials in the URL");
  return parsed;
}

function checkContentType(header: string | null, accepted: readonly string[] | undefined): void {
  if (!accepted) return;
  const mediaType = (header ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  if (!accepted.some((type) => type.toLowerCase() === mediaType)) {
    throw new OutboundRequestError("bad_content_type", mediaType || "none");
  }
}

async function readLimited(stream: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  if (!stream) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new OutboundRequestError("too_large", `more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}

/** Decides which remote addresses may be reached: public unicast only, unless the allow-list says otherwise. */
export class AddressPolicy {
  private readonly hosts = new Set<string>();
  private readonly ranges: [ipaddr.IPv4 | ipaddr.IPv6, number][] = [];

  constructor(allowList: readonly string[]) {
    for (const entry of allowList) {
      const value = stripBrackets(entry.trim().toLowerCase());
      if (!value) continue;
      if (value.includes("/") && isCidr(value)) this.ranges.push(ipaddr.parseCIDR(value));
      else if (ipaddr.isValid(value)) {
        const address = normalise(ipaddr.parse(value));
        this.ranges.push([address, address.kind() === "ipv4" ? 32 : 128]);
      } else this.hosts.add(value);
    }
  }

  hostAllowed(hostname: string): boolean {
    return this.hosts.has(stripBrackets(hostname.toLowerCase()));
  }

  addressAllowed(address: string): boolean {
    if (!ipaddr.isValid(address)) return false;
    const parsed = normalise(ipaddr.parse(address));
    if (this.ranges.some(([base, bits]) => base.kind() === parsed.kind() && parsed.match(base, bits)))
      return true;
    return parsed.range() === "unicast";
  }
}

function isCidr(value: string): boolean {
  try {
    ipaddr.parseCIDR(value);
    return true;
  } catch {
    return false;
  }
}

/** An IPv4 address written as IPv6 (::ffff:127.0.0.1) is judged as the IPv4 address it is. */
function normalise(address: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (address as ipaddr.IPv6).toIPv4Address();
  }
  return address;
}

function stripBrackets(host: string): string {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

function guardedConnector(policy: AddressPolicy): buildConnector.connector {
  return (connectOptions, callback) => {
    const hostAllowed = policy.hostAllowed(connectOptions.hostname);
    const lookup: LookupFunction = (hostname, lookupOptions, done) => {
      dnsLookup(hostname, { ...lookupOptions, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return done(error, "", 0);
        const usable = hostAllowed
          ? addresses
          : addresses.filter(({ address }) => policy.addressAllowed(address));
        if (usable.length === 0) {
          return done(new BlockedAddressError(addresses.map(({ address }) => address).join(", ")), "", 0);
        }
        if (lookupOptions.all) return done(null, usable);
        const [first] = usable as [LookupAddress];
        done(null, first.address, first.family);
      });
    };
    // An IP literal is never looked up: refuse it before connecting, so not even a TCP handshake
    // reaches an internal service.
    const literal = stripBrackets(connectOptions.hostname);
    if (!hostAllowed && ipaddr.isValid(literal) && !policy.addressAllowed(literal)) {
      return callback(new BlockedAddressError(literal), null);
    }
    const connect = undici().buildConnector({ lookup });
    connect(connectOptions, (error, socket) => {
      if (error) return callback(error, null);
      const remote = socket.remoteAddress ?? "";
      if (!hostAllowed && !policy.addressAllowed(remote)) {
        socket.destroy();
        return callback(new BlockedAddressError(remote), null);
      }
      callback(null, socket);
    });
  };
}

function findCause<T extends Error>(error: unknown, type: abstract new (...args: never[]) => T): T | null {
  for (let current: unknown = error; current instanceof Error; current = current.cause) {
    if (current instanceof type) return current;
  }
  return null;
}

function toOutboundError(error: unknown, signal: AbortSignal): OutboundRequestError {
  const known = findCause(error, OutboundRequestError);
  if (known) return known;
  if (signal.aborted) return new OutboundRequestError("timeout");
  const detail = error instanceof Error ? describeNetworkError(error) : String(error);
  return new OutboundRequestError("network", detail);
}

function describeNetworkError(error: Error): string {
  const cause = error.cause instanceof Error ? error.cause : error;
  const code = (cause as NodeJS.ErrnoException).code;
  return code ? `${code}` : cause.message;
}
