import { z } from "zod";
import type { RouteDefinition } from "../route.ts";
import { conversationErrorBody, errorBody, replyErrorBody } from "./schemas.ts";

/** The error bodies routes share, as named components. */
const ERROR_COMPONENTS = new Map<z.ZodType, string>([
  [errorBody, "Error"],
  [replyErrorBody, "ReplyError"],
  [conversationErrorBody, "ConversationError"],
]);

/** What every route can answer beyond its own errors. */
const COMMON_ERRORS = {
  unauthenticated: "Missing, unknown, expired or revoked credential",
  tooLarge: "Body over the size limit",
  unsupported: "Body in a content type the route does not read",
  invalid: "Invalid input; `errors` names each field (snake_case, nested with dots)",
  server: "Unexpected failure (never a stack trace)",
};

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
          ? { type: "integer", minimum: 0 }
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
  const errors: Record<number, string> = {};
  if (!route.public) errors[401] = COMMON_ERRORS.unauthenticated;
  if (doc.body) Object.assign(errors, { 413: COMMON_ERRORS.tooLarge, 415: COMMON_ERRORS.unsupported });
  if (doc.body || doc.query) errors[422] = COMMON_ERRORS.invalid;
  Object.assign(errors, doc.errors, { 500: COMMON_ERRORS.server });
  const responses: Record<string, JsonObject> = {
    [String(doc.response.status ?? 200)]: {
      description: doc.response.description,
      content: { "application/json": { schema: jsonSchema(doc.response.schema, "output") } },
    },
  };
  for (const [status, description] of Object.entries(errors)) {
    // A path parameter of the wrong kind is an unknown path: the router's own `{message}` 404.
    const schema =
      status === "404" && pathNames.length > 0 && errorSchema !== errorBody
        ? { anyOf: [errorRef(errorSchema), errorRef(errorBody)] }
        : status === "500" || status === "415"
          ? errorRef(status === "500" ? errorBody : errorSchema)
          : errorRef(errorSchema);
    responses[status] = {
      description,
      ...(status === "429"
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
