import type { Database } from "../db/client.ts";

/** How long one dependency may take to answer before readiness reports it failed. */
const CHECK_TIMEOUT_MS = 2_000;

export type Phase = "starting" | "ready" | "stopping";

type CheckResult = "ok" | "failed" | Phase;

/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: it can serve). Readiness is
 * 503 until the app has started (migrations and seeding ran while it was built; background workers
 * start after the port opens), once it begins stopping, and while the database, or Redis when
 * configured, does not answer. Other paths answer null.
 */
export function createHealth(deps: {
  db: Database;
  /** Resolves when Redis answers; absent when no Redis is configured. */
  pingRedis: (() => Promise<void>) | undefined;
  phase: () => Phase;
}): (url: URL) => Promise<Response | null> {
  return async (url) => {
    if (url.pathname === "/healthz") return Response.json({ status: "ok", database: deps.db.kind });
    if (url.pathname !== "/readyz") return null;
    const phase = deps.phase();
    const checks: Record<string, CheckResult> = { server: phase === "ready" ? "ok" : phase };
    const [database, redis] = await Promise.all([
      check(() => deps.db.prisma.$queryRaw`SELECT 1`),
      deps.pingRedis ? check(deps.pingRedis) : undefined,
    ]);
    checks.database = database;
    if (redis) checks.redis = redis;
    const ready = Object.values(checks).every((result) => result === "ok");
    return Response.json(
      { status: ready ? "ready" : "unavailable", checks },
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
