import { createRestApi, routes } from "@voxgate/rest-compat";
import { type DocumentNode, type ExecutionResult, GraphQLError } from "graphql";
import type { Context, RequestMeta } from "../context.ts";
import { isDatabaseUnavailable } from "../db/unavailable.ts";
import type { Config } from "../env.ts";
import { ServiceUnavailableError, UnauthenticatedError } from "../errors.ts";
import { REST_BODY_LIMITS } from "../limits.ts";
import type { Logger } from "../logger.ts";
import type { Yoga } from "./graphql.ts";

/**
 * One REST request's GraphQL operation: the router authenticates before reading a body and
 * executes afterwards, and both use this one context, so the credential is looked up once.
 */
interface RestOperation {
  enveloped: ReturnType<Yoga["getEnveloped"]>;
  context: Promise<Context>;
}

/**
 * The legacy REST API under /api, answered by running each route's GraphQL document through the
 * same plugins, context and limits as /graphql. Requests outside /api answer null.
 */
export function createRestHandler(
  yoga: Yoga,
  deps: { config: Config; logger: Logger },
): (request: Request, meta: RequestMeta) => Promise<Response | null> {
  /** REST documents are fixed: each is parsed and validated (limits included) once. */
  const parsedOperations = new Map<string, DocumentNode>();
  const rest = createRestApi<() => RestOperation>({
    routes,
    publicBaseUrl: deps.config.publicBaseUrl,
    limits: REST_BODY_LIMITS,
    onUnexpectedError: (error) => deps.logger.error("REST call failed", { error }),
    authenticate: async (_request, operation) => {
      const context = await contextOf(operation());
      if ("unavailable" in context) return context.unavailable;
      return context.viewer ? null : new UnauthenticatedError(context.authFailure).toJSON();
    },
    execute: async ({ document, variables, serverContext: operation }) => {
      const { enveloped } = operation();
      const contextValue = await contextOf(operation());
      if ("unavailable" in contextValue) return { data: null, errors: [contextValue.unavailable] };
      let parsed = parsedOperations.get(document);
      if (!parsed) {
        const fresh: DocumentNode = enveloped.parse(document);
        const errors = enveloped.validate(enveloped.schema, fresh);
        if (errors.length > 0) throw new AggregateError(errors, "A REST route's operation is invalid");
        parsedOperations.set(document, fresh);
        parsed = fresh;
      }
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

  return (request, meta) => {
    // Built on first use: requests outside /api, and 404s inside it, never look up a credential.
    let operation: RestOperation | undefined;
    return rest(request, () => {
      operation ??= start(request, meta);
      return operation;
    });
  };

  /** The operation's context, or the error to answer when the database could not be asked for it. */
  async function contextOf(
    operation: RestOperation,
  ): Promise<Context | { unavailable: ReturnType<GraphQLError["toJSON"]> }> {
    try {
      return await operation.context;
    } catch (error) {
      // GraphQL's error masking already turned an outage met while building the context into its error.
      if (error instanceof GraphQLError && error.extensions.code === "SERVICE_UNAVAILABLE") {
        return { unavailable: error.toJSON() };
      }
      if (!isDatabaseUnavailable(error)) throw error;
      deps.logger.warn("database unavailable", { error });
      return { unavailable: new ServiceUnavailableError().toJSON() };
    }
  }

  function start(request: Request, meta: RequestMeta): RestOperation {
    const enveloped = yoga.getEnveloped({ request, ...meta });
    return {
      enveloped,
      context: Promise.resolve(enveloped.contextFactory({ request, ...meta })) as Promise<Context>,
    };
  }
}
