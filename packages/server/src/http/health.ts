import type { Database } from "../db/client.ts";
import type { ModelSetup } from "../modules/providers/model-setup.ts";

/** How long one dependency may take to answer before readiness reports it failed. */
const CHECK_TIMEOUT_MS = 2_000;

export type Phase = "starting" | "ready" | "stopping";

type CheckResult = "ok" | "failed" | "down" | Phase;

export interface HealthDeps {
  db: Database;
  /** Resolves when Redis answers; absent when no Redis is configured. */
  pingRedis: (() => Promise<void>) | undefined;
  /** Whether other instances' events arrive (false while the Redis event bus is disconnected). */
  eventBusUp: () => boolean;
  /**
   * Whether rate limits or the per-account gates of expensive reads are counted per instance because
   * their Redis connection (each has its own) is not ready.
   */
  limitsLocal: () => boolean;
  phase: () => Phase;
  /** What the deployment answers with; reported, not checked: without a model it still serves. */
  model: ModelSetup;
}

/** What an instance serves with while Redis is down (the `degraded` details of `/readyz`). */
const WITHOUT_REDIS = {
  rateLimits: "local: counted per instance",
  events: "local: subscribers hear only this instance's events",
  caches: "bypassed: credentials and assistant settings are read from the database",
  readLimits: "local: overviews and call exports at once per account are counted per instance",
};

/**
 * Whether each dependency answers now: the database always, Redis when configured (for `/readyz`
 * and the `voxgate_dependency_up` gauge).
 */
export function dependencyProbe(deps: HealthDeps): () => Promise<Record<string, boolean>> {
  return async () => {
    const [database, redis] = await Promise.all([
      check(() => deps.db.prisma.$queryRaw`SELECT 1`),
      deps.pingRedis ? check(deps.pingRedis) : undefined,
    ]);
    const up: Record<string, boolean> = { database: database === "ok" };
    if (redis) up.redis = redis === "ok" && deps.eventBusUp() && !deps.limitsLocal();
    return up;
  };
}

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: it can serve). Readiness is
 * 503 until the app has started (migrations and seeding ran while it was built; background workers
 * start after the port opens), once it begins stopping, and while the database does not answer.
 * Redis down leaves it ready (200, status "degraded", with what runs locally meanwhile): every
 * instance shares that Redis, and a load balancer draining them all at once would turn a degraded
 * service into none. `model` says what it answers with: a missing model is reported with what to set,
 * never made unready (assistants answer with the fallback meanwhile). Other paths answer null.
 */
export function createHealth(deps: HealthDeps): (url: URL) => Promise<Response | null> {
  const probe = dependencyProbe(deps);
  return async (url) => {
    if (url.pathname === "/healthz") return Response.json({ status: "ok", database: deps.db.kind });
    if (url.pathname !== "/readyz") return null;
    const phase = deps.phase();
    const up = await probe();
    const checks: Record<string, CheckResult> = {
      server: phase === "ready" ? "ok" : phase,
      database: up.database ? "ok" : "failed",
    };
    if (up.redis !== undefined) checks.redis = up.redis ? "ok" : "down";
    const ready = checks.server === "ok" && checks.database === "ok";
    const degraded = ready && checks.redis === "down";
    return Response.json(
      {
        status: degraded ? "degraded" : ready ? "ready" : "unavailable",
        checks,
        ...(degraded ? { degraded: WITHOUT_REDIS } : {}),
        model: deps.model,
      },
      { status: ready ? 200 : 503, headers: { "cache-control": "no-store" } },
    );
  };
}

async function check(probe: () => Promise<unknown>): Promise<"ok" | "failed"> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"failed">((resolve) => {
    timer = setTimeout(() => resolve("failed"), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([probe().then(() => "ok" as const), timeout]);
  } catch {
    return "failed";
  } finally {
    clearTimeout(timer);
  }
}
