import type { GraphQLFormattedError } from "graphql";
import type { z } from "zod";
import type { RestError } from "./errors.ts";
import type { TypedDocumentString } from "./generated/graphql.ts";

/**
 * Runs one GraphQL operation for a REST request, with that request's credentials. `serverContext`
 * is what the host passed along with the request (e.g. the client's address).
 */
export type GraphQLExecutor<TServerContext = unknown> = (operation: {
  document: string;
  variables: Record<string, unknown>;
  request: Request;
  serverContext: TServerContext;
}) => Promise<{
  data?: Record<string, unknown> | null;
  errors?: readonly GraphQLFormattedError[];
  /** Headers the operation asked for (e.g. RateLimit-*), sent with success and error responses alike. */
  headers?: Headers;
}>;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** A REST call, parsed: what the route's mappings read. */
export interface RestRequest {
  method: HttpMethod;
  /** Path parameters, already checked against their declared kind. */
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON or form body (multipart file fields are web `File`s); an empty object when there is none. */
  body: Record<string, unknown>;
  /** Absolute public URL of this endpoint without its query, for pagination links. */
  endpointUrl: string;
  request: Request;
}

export interface RestResponse {
  status?: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** How a route words its errors; most use the default `{message}` / `{message, errors}`. */
export type ErrorBody = (error: RestError) => unknown;

/**
 * What a route passes as its operation's variables: every variable and input field of the operation,
 * by name (a misspelt or forgotten one does not compile; `undefined` leaves one out), each holding
 * whatever the caller sent. Values are not narrowed on purpose: GraphQL's variable coercion refuses a
 * wrong one with a field message, as it would for any client.
 */
export type RestVariables<Variables> = unknown extends Variables ? unknown : Loose<NonNullable<Variables>>;

type Loose<Value> = Value extends string | number | boolean | File | readonly unknown[]
  ? unknown
  : { [Name in keyof Value]-?: RestVariables<Value[Name]> };

/**
 * What the OpenAPI document (openapi/document.ts) says about a route beyond its method and path.
 * Error statuses every route can answer (401 for routes with credentials; 400, 413 and 422 for
 * bodies; 404 and 422 for path parameters; 429, 500 and 503) are added by the document; `errors`
 * lists the route's own, and may word a common one for the route.
 */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** The section of the reference, e.g. "Knowledge bases". */
  tag: string;
  /** Path parameters' meaning (their kind comes from `params`). */
  pathParams?: Record<string, string>;
  query?: Record<string, z.ZodType>;
  /** The request body; `multipart` when it can carry a file (JSON and form bodies are accepted too). */
  body?: { schema: z.ZodType; multipart?: boolean };
  response: { status?: number; description: string; schema: z.ZodType };
  /** Statuses beyond the common ones, with what they mean here. */
  errors?: Record<number, string>;
  /** The error body when it is not `{message, errors?}`. */
  errorSchema?: z.ZodType;
  /**
   * A request that succeeds against a server holding the named objects: the reference shows it and
   * a test sends it (with ids of objects it created) and checks the answer against `response`.
   */
  example: { params?: Record<string, string | number>; query?: Record<string, string>; body?: unknown };
}

interface RouteFields {
  method: HttpMethod;
  /** Path under /api with `{name}` parameters, e.g. `/user/api-keys/{id}`. */
  path: string;
  /** Kinds of path parameters; a value of the wrong kind answers 404 like an unknown path. */
  params?: Record<string, "int" | "uuid">;
  errorBody?: ErrorBody;
  /**
   * Public endpoints that browsers call from other sites (the chat widget): the router answers
   * CORS preflights and lets any origin read the response; access rules stay in the services.
   */
  crossOrigin?: boolean;
  /**
   * Needs no credential (login, the widget's endpoints). Every other route refuses a missing or
   * invalid credential with 401 before its body is read or validated.
   */
  public?: boolean;
  doc: RouteDoc;
}

/**
 * One row of the REST table as written: the path, the GraphQL operation that answers it, how REST
 * arguments become variables and how the operation's data becomes the documented response. The
 * operation comes from `graphql()` (src/generated/, from schema.graphql), so `variables` and `respond`
 * are typed by it. No business logic lives here; services behind the GraphQL schema decide everything.
 */
export interface TypedRoute<Result, Variables> extends RouteFields {
  operation: TypedDocumentString<Result, Variables>;
  variables?: NoInfer<(request: RestRequest) => RestVariables<Variables>>;
  respond: NoInfer<(data: Result, request: RestRequest) => RestResponse>;
}

/** A row of the table as the router runs it, whatever its operation. */
export interface RouteDefinition extends RouteFields {
  /** The operation's GraphQL document, fragments included. */
  operation: string;
  variables?: (request: RestRequest) => Record<string, unknown>;
  respond: (data: Record<string, unknown>, request: RestRequest) => RestResponse;
}

export function route<Result, Variables>(definition: TypedRoute<Result, Variables>): RouteDefinition {
  const { operation, variables, respond, ...fields } = definition;
  return {
    ...fields,
    operation: operation.toString(),
    ...(variables ? { variables: (request) => variables(request) as Record<string, unknown> } : {}),
    // The executor ran exactly this document, so its data has the document's shape.
    respond: (data, request) => respond(data as Result, request),
  };
}

/** Reads a query parameter as an integer when it is one; anything else goes on as given, for GraphQL to refuse. */
export function intParam(value: string | null | undefined): number | string | undefined {
  if (value === null || value === undefined || value === "") return undefined;
  return /^-?\d+$/.test(value) ? Number(value) : value;
}
