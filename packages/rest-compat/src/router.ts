import type { GraphQLFormattedError } from "graphql";
import { type BodyLimits, clientWentAway, readBody } from "./body.ts";
import { type RestError, restErrorOf } from "./errors.ts";
import { snakeCasePath } from "./format.ts";
import { idOutOfRangeMessage, parseId } from "./ids.ts";
import type { GraphQLExecutor, HttpMethod, RestRequest, RestResponse, RouteDefinition } from "./route.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RestApiOptions<TServerContext = unknown> {
  routes: readonly RouteDefinition[];
  execute: GraphQLExecutor<TServerContext>;
  /**
   * Checks the request's credential for routes that need one, before their body is read: why it
   * was refused, as the GraphQL error UNAUTHENTICATED, or null when it was accepted.
   */
  authenticate: (request: Request, serverContext: TServerContext) => Promise<GraphQLFormattedError | null>;
  /** Absolute base of returned URLs, e.g. https://voxgate.example.com (no trailing slash). */
  publicBaseUrl: string;
  /** Where the API is mounted. */
  prefix?: string;
  /** The largest bodies read; larger ones answer 413 before they are buffered. */
  limits: BodyLimits;
  onUnexpectedError?: (error: unknown) => void;
}

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
}

/**
 * Answers the legacy REST API from a route table; requests outside the prefix get `null`. What the
 * host passes with a request reaches its `authenticate` and `execute` unchanged.
 */
export function createRestApi<TServerContext = unknown>(
  options: RestApiOptions<TServerContext>,
): (request: Request, serverContext: TServerContext) => Promise<Response | null> {
  const prefix = options.prefix ?? "/api";
  const compiled = options.routes.map(compile);

  return async (request, serverContext) => {
    const url = new URL(request.url);
    if (url.pathname !== prefix && !url.pathname.startsWith(`${prefix}/`)) return null;
    const path = url.pathname.slice(prefix.length).replace(/\/+$/, "") || "/";

    const candidates = compiled
      .map((entry) => ({ entry, params: matchPath(entry, path) }))
      .filter(
        (candidate): candidate is { entry: CompiledRoute; params: Record<string, string> } =>
          candidate.params !== null,
      );
    if (candidates.length === 0) return json(404, { message: "Not found." });
    const method = request.method.toUpperCase();
    if (candidates.some(({ entry }) => entry.route.crossOrigin)) {
      const methods = [...new Set(candidates.map(({ entry }) => entry.route.method))];
      if (method === "OPTIONS") return withCors(request, new Response(null, { status: 204 }), methods);
      return withCors(request, await answer(request, serverContext, url, path, method, candidates), methods);
    }
    return answer(request, serverContext, url, path, method, candidates);
  };

  async function answer(
    request: Request,
    serverContext: TServerContext,
    url: URL,
    path: string,
    method: string,
    candidates: { entry: CompiledRoute; params: Record<string, string> }[],
  ): Promise<Response> {
    const found = candidates.find(({ entry }) => entry.route.method === method);
    if (!found) {
      const allowed = [...new Set(candidates.map(({ entry }) => entry.route.method))].join(", ");
      return json(
        405,
        {
          message: `The ${method} method is not supported for route api${path}. Supported methods: ${allowed}.`,
        },
        { allow: allowed },
      );
    }

    const { route } = found.entry;
    try {
      // Who is calling comes first: an anonymous caller learns nothing about the body it sent.
      if (!route.public) {
        const refused = await options.authenticate(request, serverContext);
        if (refused) return errorResponse(route, restErrorOf(refused), refused, options);
      }
      const outOfRange = Object.entries(found.params).find(
        ([name, value]) => route.params?.[name] === "int" && parseId(value) === "out-of-range",
      );
      if (outOfRange) {
        const field = snakeCasePath(outOfRange[0]);
        const message = idOutOfRangeMessage(field.replaceAll("_", " "));
        const error = { status: 422, code: "VALIDATION_FAILED", message, fields: { [field]: [message] } };
        return json(422, (route.errorBody ?? defaultErrorBody)(error));
      }
      const body = await readBody(request, options.limits);
      if ("error" in body) return json(body.error.status, (route.errorBody ?? defaultErrorBody)(body.error));
      const restRequest: RestRequest = {
        method: method as HttpMethod,
        params: found.params,
        query: url.searchParams,
        body: body.value,
        endpointUrl: `${options.publicBaseUrl}${prefix}${path}`,
        request,
      };
      const result = await options.execute({
        document: route.operation,
        variables: route.variables?.(restRequest) ?? {},
        request,
        serverContext,
      });
      const firstError = result.errors?.[0];
      const response = firstError
        ? errorResponse(route, restErrorOf(firstError), firstError, options)
        : toResponse(route.respond(result.data ?? {}, restRequest));
      for (const [name, value] of result.headers ?? []) response.headers.set(name, value);
      return response;
    } catch (error) {
      // Nobody is left to answer, and it is no failure of ours: the host logs and counts it as such.
      if (clientWentAway(request, error)) throw error;
      options.onUnexpectedError?.(error);
      return json(500, { message: "Server Error" });
    }
  }
}

/** Rate-limit headers a cross-origin page needs to read to back off politely. */
const EXPOSED_HEADERS = "Retry-After, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset";

/**
 * CORS for public routes: the caller's origin is echoed (any origin may call; an assistant's own
 * origin allow-list is enforced by the service), preflights are answered for the route's methods.
 */
function withCors(request: Request, response: Response, methods: string[]): Response {
  const origin = request.headers.get("origin");
  response.headers.set("access-control-allow-origin", origin ?? "*");
  response.headers.append("vary", "Origin");
  response.headers.set("access-control-expose-headers", EXPOSED_HEADERS);
  if (request.method.toUpperCase() === "OPTIONS") {
    response.headers.set("access-control-allow-methods", [...methods, "OPTIONS"].join(", "));
    response.headers.set(
      "access-control-allow-headers",
      request.headers.get("access-control-request-headers") ?? "content-type",
    );
    response.headers.set("access-control-max-age", "600");
  }
  return response;
}

function compile(route: RouteDefinition): CompiledRoute {
  const names: string[] = [];
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name);
    return "([^/]+)";
  });
  return { route, pattern: new RegExp(`^${source}$`), names };
}

function matchPath({ route, pattern, names }: CompiledRoute, path: string): Record<string, string> | null {
  const match = pattern.exec(path);
  if (!match) return null;
  const params: Record<string, string> = {};
  for (const [index, name] of names.entries()) {
    const value = decodePathSegment(match[index + 1]!);
    if (value === null) return null;
    const kind = route.params?.[name];
    // An id past the integer range names a resource that cannot exist: the route answers 422.
    if (kind === "int" && parseId(value) === null) return null;
    if (kind === "uuid" && !UUID.test(value)) return null;
    params[name] = value;
  }
  return params;
}

/** A segment with broken percent-encoding (`%ZZ`) names nothing, like an unknown path. */
function decodePathSegment(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** `{message}` for every error, with `errors` for validation failures (the legacy API's own shape). */
export function defaultErrorBody(error: RestError): unknown {
  return error.fields ? { message: error.message, errors: error.fields } : { message: error.message };
}

function errorResponse<TServerContext>(
  route: RouteDefinition,
  error: RestError,
  original: GraphQLFormattedError,
  options: RestApiOptions<TServerContext>,
): Response {
  // A refusal that says when to come back (at capacity, an outage) is expected, not a failure to report.
  if (error.status >= 500 && error.retryAfter === undefined) options.onUnexpectedError?.(original);
  const headers: Record<string, string> = {};
  if (error.retryAfter !== undefined) headers["retry-after"] = String(error.retryAfter);
  return json(error.status, (route.errorBody ?? defaultErrorBody)(error), headers);
}

function toResponse(response: RestResponse): Response {
  return json(response.status ?? 200, response.body, response.headers);
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
