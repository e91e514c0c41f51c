import type { GraphQLFormattedError } from "graphql";
import { type RestError, restErrorOf } from "./errors.ts";
import type { GraphQLExecutor, HttpMethod, RestRequest, RestResponse, RouteDefinition } from "./route.ts";

const JSON_BODY_LIMIT_BYTES = 1024 * 1024;
/** A 20 MB file plus room for the other form fields and multipart framing. */
const MULTIPART_BODY_LIMIT_BYTES = 21 * 1024 * 1024;
const UPLOAD_TOO_LARGE = { status: 413, message: "The uploaded file is too large (limit 20 MB)." };
const INT = /^\d{1,10}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface RestApiOptions {
  routes: readonly RouteDefinition[];
  execute: GraphQLExecutor;
  /** Absolute base of returned URLs, e.g. https://voxgate.example.com (no trailing slash). */
  publicBaseUrl: string;
  /** Where the API is mounted. */
  prefix?: string;
  onUnexpectedError?: (error: unknown) => void;
}

interface CompiledRoute {
  route: RouteDefinition;
  pattern: RegExp;
  names: string[];
}

/** Answers the legacy REST API from a route table; requests outside the prefix get `null`. */
export function createRestApi(options: RestApiOptions): (request: Request) => Promise<Response | null> {
  const prefix = options.prefix ?? "/api";
  const compiled = options.routes.map(compile);

  return async (request) => {
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
      return withCors(request, await answer(request, url, path, method, candidates), methods);
    }
    return answer(request, url, path, method, candidates);
  };

  async function answer(
    request: Request,
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
    const body = await readBody(request);
    if ("error" in body) return json(body.error.status, { message: body.error.message });
    const restRequest: RestRequest = {
      method: method as HttpMethod,
      params: found.params,
      query: url.searchParams,
      body: body.value,
      endpointUrl: `${options.publicBaseUrl}${prefix}${path}`,
      request,
    };

    try {
      const result = await options.execute({
        document: route.operation,
        variables: route.variables?.(restRequest) ?? {},
        request,
      });
      const firstError = result.errors?.[0];
      const response = firstError
        ? errorResponse(route, restErrorOf(firstError), firstError, options)
        : toResponse(route.respond(result.data ?? {}, restRequest));
      for (const [name, value] of result.headers ?? []) response.headers.set(name, value);
      return response;
    } catch (error) {
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
    const value = decodeURIComponent(match[index + 1]!);
    const kind = route.params?.[name];
    if (kind === "int" && !INT.test(value)) return null;
    if (kind === "uuid" && !UUID.test(value)) return null;
    params[name] = value;
  }
  return params;
}

type BodyResult = { value: Record<string, unknown> } | { error: { status: number; message: string } };

async function readBody(request: Request): Promise<BodyResult> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return { value: {} };
  const declared = Number(request.headers.get("content-length") ?? "0");
  const type = request.headers.get("content-type") ?? "";
  if (type.includes("multipart/form-data")) {
    // A body declared larger than any acceptable upload is refused before a byte of it is read.
    if (declared > MULTIPART_BODY_LIMIT_BYTES) return { error: UPLOAD_TOO_LARGE };
    return readMultipart(request);
  }
  if (declared > JSON_BODY_LIMIT_BYTES) {
    return { error: { status: 413, message: "The request body is too large (limit 1 MB)." } };
  }
  if (type.includes("application/x-www-form-urlencoded")) {
    const text = await request.text();
    return { value: Object.fromEntries(new URLSearchParams(text)) };
  }
  const text = await readLimited(request, JSON_BODY_LIMIT_BYTES);
  if (text === null)
    return { error: { status: 413, message: "The request body is too large (limit 1 MB)." } };
  if (text.trim() === "") return { value: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      return { error: { status: 400, message: "The request body must be a JSON object." } };
    }
    return { value: parsed as Record<string, unknown> };
  } catch {
    return { error: { status: 400, message: "The request body is not valid JSON." } };
  }
}

/**
 * Multipart bodies (document uploads). The server's fetch API enforces the upload size limits while
 * streaming, so an oversized file is refused without being buffered; it surfaces here as an error.
 * A repeated field (`links[0][link]`...) keeps its last value; bracketed names are nested.
 */
async function readMultipart(request: Request): Promise<BodyResult> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/size|limit|large/i.test(message)) return { error: UPLOAD_TOO_LARGE };
    return { error: { status: 400, message: "The multipart body could not be read." } };
  }
  const value: Record<string, unknown> = {};
  for (const [name, entry] of form.entries()) setNested(value, name, entry);
  return { value };
}

/** `links[0][link]=x` -> `{ links: [{ link: "x" }] }`, as form-encoding clients send arrays. */
function setNested(target: Record<string, unknown>, name: string, entry: unknown): void {
  const keys = name.replace(/\]/g, "").split("[");
  let cursor: Record<string, unknown> = target;
  for (const [index, key] of keys.entries()) {
    if (index === keys.length - 1) {
      cursor[key] = entry;
      return;
    }
    const nextIsIndex = /^\d+$/.test(keys[index + 1]!);
    cursor[key] ??= nextIsIndex ? [] : {};
    cursor = cursor[key] as Record<string, unknown>;
  }
}

/** Reads at most `limit` bytes, so that a body without a truthful Content-Length cannot exhaust memory. */
async function readLimited(request: Request, limit: number): Promise<string | null> {
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/** `{message}` for every error, with `errors` for validation failures (the legacy API's own shape). */
export function defaultErrorBody(error: RestError): unknown {
  return error.fields ? { message: error.message, errors: error.fields } : { message: error.message };
}

function errorResponse(
  route: RouteDefinition,
  error: RestError,
  original: GraphQLFormattedError,
  options: RestApiOptions,
): Response {
  if (error.status >= 500) options.onUnexpectedError?.(original);
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
