import { Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "./db/client.ts";
import { isDatabaseUnavailable } from "./db/unavailable.ts";

/**
 * Prometheus metrics of this process. Recording is a counter increment or a histogram observation
 * (no I/O, no allocation per label set after the first), so the reply path pays next to nothing;
 * counts that live in the database (documents, calls, queued jobs) are read when Prometheus scrapes.
 * Label values are bounded: routes are grouped, GraphQL operation names capped (see operationLabel).
 */
export const processRegistry = new Registry();

const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export const metrics = {
  httpRequests: new Counter({
    name: "voxgate_http_requests_total",
    help: "HTTP requests by area and status",
    labelNames: ["method", "area", "status"] as const,
    registers: [processRegistry],
  }),
  httpDuration: new Histogram({
    name: "voxgate_http_request_duration_seconds",
    help: "HTTP request latency by area",
    labelNames: ["area"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [processRegistry],
  }),
  graphqlOperations: new Counter({
    name: "voxgate_graphql_operations_total",
    help: "GraphQL operations (REST routes included, as their Rest* operations) by name, type and outcome",
    labelNames: ["operation", "type", "status"] as const,
    registers: [processRegistry],
  }),
  graphqlDuration: new Histogram({
    name: "voxgate_graphql_operation_duration_seconds",
    help: "GraphQL execution latency by operation",
    labelNames: ["operation"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [processRegistry],
  }),
  subscriptionsActive: new Gauge({
    name: "voxgate_graphql_subscriptions_active",
    help: "Open GraphQL subscriptions (WebSocket and SSE)",
    registers: [processRegistry],
  }),
  websocketsActive: new Gauge({
    name: "voxgate_websockets_active",
    help: "Open WebSocket connections",
    registers: [processRegistry],
  }),
  jobFailures: new Counter({
    name: "voxgate_job_failures_total",
    help: "Background job runs that threw, by task",
    labelNames: ["task"] as const,
    registers: [processRegistry],
  }),
  replyDuration: new Histogram({
    name: "voxgate_reply_duration_seconds",
    help: "Generating one AI reply, model rounds and tools included",
    buckets: LATENCY_BUCKETS,
    registers: [processRegistry],
  }),
  modelDuration: new Histogram({
    name: "voxgate_model_request_duration_seconds",
    help: "One chat completion from the model provider, by outcome",
    labelNames: ["status"] as const,
    buckets: LATENCY_BUCKETS,
    registers: [processRegistry],
  }),
  reservationsRefused: new Counter({
    name: "voxgate_balance_reservations_refused_total",
    help: "Debits and reservations refused for lack of balance, by kind",
    labelNames: ["kind"] as const,
    registers: [processRegistry],
  }),
};

const MAX_OPERATION_NAMES = 200;
const seenOperations = new Set<string>();

/** Clients choose operation names: past a bound, new ones are counted as "other". */
export function operationLabel(name: string | null | undefined): string {
  if (!name || !/^\w{1,64}$/.test(name)) return "anonymous";
  if (seenOperations.has(name)) return name;
  if (seenOperations.size >= MAX_OPERATION_NAMES) return "other";
  seenOperations.add(name);
  return name;
}

/** The part of the API a path belongs to: a bounded label. */
export function areaOf(pathname: string): string {
  if (pathname === "/graphql") return "graphql";
  if (pathname.startsWith("/api/")) return "rest";
  if (pathname.startsWith("/widget/")) return "widget";
  if (pathname.startsWith("/twilio/")) return "twilio";
  if (pathname === "/healthz" || pathname === "/readyz") return "health";
  return "other";
}

/** Whether each dependency answers, probed at scrape time (1 up, 0 down). */
export function dependencyRegistry(probe: () => Promise<Record<string, boolean>>): Registry {
  const registry = new Registry();
  new Gauge({
    name: "voxgate_dependency_up",
    help: "Whether a dependency answers: database; redis when configured (0: limits and events are local)",
    labelNames: ["dependency"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [dependency, up] of Object.entries(await probe())) this.set({ dependency }, up ? 1 : 0);
    },
  });
  return registry;
}

/** Gauges read from the database at scrape time, for one app. */
export function databaseRegistry(db: Database): Registry {
  const registry = new Registry();
  const byStatus = async (sql: string): Promise<{ status: string; count: number }[]> => {
    // Without its database the scrape still answers (voxgate_dependency_up says why these are missing).
    const rows = await db.prisma
      .$queryRawUnsafe<{ status: string; count: bigint | number }[]>(sql)
      .catch((error: unknown) => {
        if (isDatabaseUnavailable(error)) return [];
        throw error;
      });
    return rows.map((row) => ({ status: String(row.status), count: Number(row.count) }));
  };
  const countByStatus = (name: string, help: string, table: string) =>
    new Gauge({
      name,
      help,
      labelNames: ["status"] as const,
      registers: [registry],
      async collect() {
        this.reset();
        const sql = `SELECT "status"::text AS status, count(*) AS count FROM "${table}" GROUP BY 1`;
        for (const row of await byStatus(sql)) this.set({ status: row.status }, row.count);
      },
    });
  countByStatus("voxgate_documents", "Knowledge-base documents by status", "documents");
  countByStatus("voxgate_calls", "Phone and web calls by status", "calls");
  new Gauge({
    name: "voxgate_jobs_queued",
    help: "Background jobs waiting or running (the queue's depth)",
    registers: [registry],
    async collect() {
      const table = db.kind === "postgres" ? "graphile_worker.jobs" : `"background_jobs"`;
      const [row] = await byStatus(`SELECT 'all' AS status, count(*) AS count FROM ${table}`);
      if (row) this.set(row.count);
    },
  });
  return registry;
}
