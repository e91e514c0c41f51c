import { z } from "zod";
import { MAX_ID } from "../ids.ts";
import type { RouteDefinition } from "../route.ts";
import { conversationErrorBody, errorBody, replyErrorBody } from "./schemas.ts";

/** The error bodies routes share, as named components. */
const ERROR_COMPONENTS = new Map<z.ZodType, string>([
  [errorBody, "Error"],
  [replyErrorBody, "ReplyError"],
  [conversationErrorBody, "ConversationError"],
]);

/** What every route can answer beyond its own errors (a route's `errors` may word them for itself). */
const COMMON_ERRORS = {
  badBody:
    "Unreadable body: not valid JSON, JSON that is not an object, a broken multipart body, over 1000 form " +
    "fields, or values nested deeper than 64 levels",
  unauthenticated: "Missing, unknown, expired or revoked credential",
  unknownPath: "A path parameter of the wrong kind: an unknown path",
  tooLarge: "Body over the size limit",
  invalid:
    "Invalid input; `errors` names each field (snake_case, nested with dots). Also an id past 2147483647 " +
    "and a form field name that cannot be nested",
  rateLimited: "Too many requests (`Retry-After` says how many seconds to wait)",
  unavailable: "Briefly unavailable, e.g. while the database is unreachable (`Retry-After`)",
  server: "Unexpected failure (never a stack trace)",
};

/** Statuses whose answer tells the client when to try again. */
const RETRY_AFTER = new Set(["429", "503"]);

export interface OpenApiOptions {
  routes: readonly RouteDefinition[];
  /** Absolute URL the API is mounted at, e.g. https://voxgate.example.com/api. */
  serverUrl: string;
  version: string;
}

type JsonObject = Record<string, unknown>;

/**
 * The OpenAPI 3.1 document of the REST API, built from the route table: each route's method, path,
 * parameter kinds and `doc` (zod schemas of its query, body and response, turned into JSON Schema
 * 2020-12, which OpenAPI 3.1 uses as is).
 */
export function openApiDocument(options: OpenApiOptions): JsonObject {
  const paths: Record<string, JsonObject> = {};
  const tags = new Set<string>();
  for (const route of options.routes) {
    tags.add(route.doc.tag);
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = operation(route);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Voxgate REST API",
      version: options.version,
      description:
        "The legacy REST API, answered through the GraphQL schema (`/graphql` has every feature). " +
        "Authenticate with `Authorization: Bearer <API key or session token>`.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: options.serverUrl }],
    tags: [...tags].map((name) => ({ name })),
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "An API key (`vgk_…`) or a session token from POST /login (`vgs_…`)",
        },
      },
      schemas: Object.fromEntries(
        [...ERROR_COMPONENTS].map(([schema, name]) => [name, jsonSchema(schema, "output")]),
      ),
    },
  };
}

/** `GET /user/api-keys/{id}` → `getUserApiKeysId`: unique, since a method and path are. */
export function operationId(route: Pick<RouteDefinition, "method" | "path">): string {
  const words = route.path.split(/[^A-Za-z0-9]+/).filter(Boolean);
  return route.method.toLowerCase() + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
}

function operation(route: RouteDefinition): JsonObject {
  const { doc } = route;
  const pathNames = [...route.path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const parameters = [
    ...pathNames.map((name) => ({
      name,
      in: "path",
      required: true,
      description: doc.pathParams?.[name],
      schema:
        route.params?.[name] === "int"
          ? { type: "integer", minimum: 0, maximum: MAX_ID }
          : route.params?.[name] === "uuid"
            ? { type: "string", format: "uuid" }
            : { type: "string" },
      example: doc.example.params?.[name],
    })),
    ...Object.entries(doc.query ?? {}).map(([name, schema]) => ({
      name,
      in: "query",
      required: !schema.safeParse(undefined).success,
      ...(schema.description ? { description: schema.description } : {}),
      schema: jsonSchema(schema, "input"),
      ...(doc.example.query?.[name] !== undefined ? { example: doc.example.query[name] } : {}),
    })),
  ];

  const errorSchema = doc.errorSchema ?? errorBody;
  // Every method but GET has its body read (413, 400; a form's field names give 422), whether or not
  // the route documents one.
  const readsBody = route.method !== "GET";
  const errors: Record<number, string> = {};
  if (readsBody) Object.assign(errors, { 400: COMMON_ERRORS.badBody, 413: COMMON_ERRORS.tooLarge });
  if (!route.public) errors[401] = COMMON_ERRORS.unauthenticated;
  if (pathNames.length > 0) errors[404] = COMMON_ERRORS.unknownPath;
  if (readsBody || doc.query || pathNames.length > 0) errors[422] = COMMON_ERRORS.invalid;
  Object.assign(errors, { 429: COMMON_ERRORS.rateLimited, 503: COMMON_ERRORS.unavailable });
  for (const [status, own] of Object.entries(doc.errors ?? {})) {
    const common = errors[Number(status)];
    errors[Number(status)] = common ? `${own}; ${common[0]!.toLowerCase()}${common.slice(1)}` : own;
  }
  errors[500] = COMMON_ERRORS.server;
  const responses: Record<string, JsonObject> = {
    [String(doc.response.status ?? 200)]: {
      description: doc.response.description,
      content: { "application/json": { schema: jsonSchema(doc.response.schema, "output") } },
    },
  };
  for (const [status, description] of Object.entries(errors)) {
    // The router's own answers (an unknown path, a per-client limit, an outage) may come before the
    // route's error shape applies, in the default `{message}`.
    const eitherShape =
      errorSchema !== errorBody && ((status === "404" && pathNames.length > 0) || RETRY_AFTER.has(status));
    const schema = eitherShape
      ? { anyOf: [errorRef(errorSchema), errorRef(errorBody)] }
      : errorRef(status === "500" ? errorBody : errorSchema);
    responses[status] = {
      description,
      ...(RETRY_AFTER.has(status)
        ? { headers: { "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } } } }
        : {}),
      content: { "application/json": { schema } },
    };
  }

  return {
    operationId: operationId(route),
    summary: doc.summary,
    ...(doc.description ? { description: doc.description } : {}),
    tags: [doc.tag],
    ...(route.public ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(doc.body ? { requestBody: requestBody(route) } : {}),
    responses,
  };
}

function requestBody(route: RouteDefinition): JsonObject {
  const body = route.doc.body!;
  const schema = jsonSchema(body.schema, "input");
  const example = route.doc.example.body;
  return {
    required: !body.schema.safeParse({}).success,
    content: {
      "application/json": { schema, ...(example !== undefined ? { example } : {}) },
      "application/x-www-form-urlencoded": { schema },
      ...(body.multipart ? { "multipart/form-data": { schema } } : {}),
    },
  };
}

function errorRef(schema: z.ZodType): JsonObject {
  const name = ERROR_COMPONENTS.get(schema);
  return name ? { $ref: `#/components/schemas/${name}` } : jsonSchema(schema, "output");
}

/** JSON Schema 2020-12 of a zod schema: what a client sends (`input`) or receives (`output`). */
function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonObject {
  const { $schema: _dialect, ...converted } = z.toJSONSchema(schema, {
    target: "draft-2020-12",
    io,
    unrepresentable: "any",
  }) as JsonObject;
  return converted;
}
