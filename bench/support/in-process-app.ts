import { performance } from "node:perf_hooks";
import { buildApp, createLogger, loadConfig } from "@voxgate/server";

/**
 * The server built in this process and not listening (benches call `app.handle`), silent, without the
 * demo account: on an in-memory PGlite, or on PostgreSQL at `databaseUrl` (default DATABASE_URL) when set.
 */
export async function inProcessApp(databaseUrl?: string) {
  const base = loadConfig();
  const url = databaseUrl ?? base.databaseUrl;
  const config = {
    ...base,
    databaseUrl: url,
    logLevel: "silent" as const,
    seedDemo: false,
    publicBaseUrl: "http://bench.local",
  };
  return buildApp(config, {
    database: url ? { kind: "postgres", url } : { kind: "pglite", dataDir: undefined },
    logger: createLogger("silent"),
  });
}

/** `run`'s durations in ms, `iterations` times after `warmUps` (3) warm-up runs. */
export async function timeSamples(
  run: () => Promise<void>,
  iterations: number,
  warmUps = 3,
): Promise<number[]> {
  for (let warm = 0; warm < warmUps; warm++) await run();
  const samples: number[] = [];
  for (let iteration = 0; iteration < iterations; iteration++) {
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return samples;
}

export function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}
