import type { Config, PgliteTuning } from "../env.ts";
import type { Database } from "./database.ts";
import { openPglite } from "./pglite.ts";
import { openPostgres } from "./postgres.ts";

export type { PrismaClient } from "../generated/prisma/client.ts";
export type { Database, RecycleOutcome, SqlRunner } from "./database.ts";
export { DatabaseStoppedError, openPglite } from "./pglite.ts";
export { pgliteExecArgv } from "./pglite-process.ts";
export { redact } from "./postgres.ts";

export type DatabaseTarget =
  | {
      kind: "pglite";
      dataDir: string | undefined;
      loadDataDir?: Blob;
      sharedBuffers?: string;
      tuning?: Partial<PgliteTuning>;
    }
  | { kind: "postgres"; url: string };

/** Where the configuration says data lives. */
export function databaseTarget(config: Config): DatabaseTarget {
  return config.databaseUrl
    ? { kind: "postgres", url: config.databaseUrl }
    : {
        kind: "pglite",
        dataDir: config.dataDir,
        sharedBuffers: config.pgliteSharedBuffers,
        tuning: config.pglite,
      };
}

/**
 * Opens the configured store: a real PostgreSQL when a URL is given, otherwise PGlite on disk
 * under `<dataDir>/pglite` (or in memory when `dataDir` is undefined, for tests).
 */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  return target.kind === "postgres"
    ? openPostgres(target.url)
    : openPglite(target.dataDir, target.loadDataDir, target.sharedBuffers, target.tuning);
}
