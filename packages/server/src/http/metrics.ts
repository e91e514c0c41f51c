import { timingSafeEqual } from "node:crypto";
import { STATUS_BY_CODE } from "@voxgate/rest-compat";
import { type ExecutionResult, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import { Registry } from "prom-client";
import type { Database } from "../db/client.ts";
import {
  databaseRegistry,
  dependencyRegistry,
  metrics,
  operationLabel,
  processRegistry,
} from "../metrics.ts";

/** Counts GraphQL operations (REST routes included) and open subscriptions. */
export function metricsPlugin(): Plugin {
  return {
    onExecute: ({ args }) => {
      const operation = getOperationAST(args.document, args.operationName);
      const name = operationLabel(operation?.name?.value);
      const stopTimer = metrics.graphqlDuration.startTimer({ operation: name });
      return {
        onExecuteDone: ({ result }) => {
          stopTimer();
          if (Symbol.asyncIterator in result) return;
          metrics.graphqlOperations.inc({
            operation: name,
            type: operation?.operation ?? "unknown",
            status: outcome(result),
          });
        },
      };
    },
    onSubscribe: ({ args }) => ({
      onSubscribeResult: ({ result }) => {
        const name = operationLabel(getOperationAST(args.document, args.operationName)?.name?.value);
        if (!(Symbol.asyncIterator in result)) {
          metrics.graphqlOperations.inc({ operation: name, type: "subscription", status: outcome(result) });
          return;
        }
        metrics.graphqlOperations.inc({ operation: name, type: "subscription", status: "ok" });
        metrics.subscriptionsActive.inc();
        return { onEnd: () => metrics.subscriptionsActive.dec() };
      },
    }),
  };
}

/** "ok", the first error's stable code, or "error": a bounded set of values. */
function outcome(result: ExecutionResult): string {
  const code = result.errors?.[0]?.extensions?.code;
  if (!result.errors?.length) return "ok";
  return typeof code === "string" && code in STATUS_BY_CODE ? code : "error";
}

/**
 * Answers Prometheus scrapes: this process's counters with the app's database gauges. With a token,
 * only `Authorization: Bearer <token>` is answered (compared in constant time by length and bytes).
 */
export function createMetricsEndpoint(
  db: Database,
  token: string | undefined,
  dependencies: () => Promise<Record<string, boolean>>,
) {
  const registry = Registry.merge([processRegistry, databaseRegistry(db), dependencyRegistry(dependencies)]);
  const expected = token ? Buffer.from(`Bearer ${token}`) : null;
  return async (request: Request): Promise<Response> => {
    if (expected) {
      const given = Buffer.from(request.headers.get("authorization") ?? "");
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return Response.json(
          { message: "Unauthenticated." },
          { status: 401, headers: { "www-authenticate": "Bearer" } },
        );
      }
    }
    return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType } });
  };
}
