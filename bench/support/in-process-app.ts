import { buildApp, createLogger, loadConfig } from "@voxgate/server";

/**
 * The server built in this process and not listening (benches call `app.handle`), silent, without the
 * demo account: on an in-memory PGlite, or on PostgreSQL when DATABASE_URL is set.
 */
export async function inProcessApp() {
  const base = loadConfig();
  const config = {
    ...base,
    logLevel: "silent" as const,
    seedDemo: false,
    publicBaseUrl: "http://bench.local",
  };
  return buildApp(config, {
    database: base.databaseUrl
      ? { kind: "postgres", url: base.databaseUrl }
      : { kind: "pglite", dataDir: undefined },
    logger: createLogger("silent"),
  });
}
