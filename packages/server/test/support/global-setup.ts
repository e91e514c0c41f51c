import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase, openPglite } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { startPostgres, startRedis } from "./services.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A dump of a migrated PGlite, so that each test app starts from it instead of migrating again. */
    pgliteTemplatePath: string;
    /** Set in the postgres project: a superuser URL of a throw-away PostgreSQL with pgvector. */
    postgresAdminUrl: string | null;
    /** In the postgres project: a migrated database that test databases are copied from. */
    postgresTemplate: string | null;
    redisUrl: string | null;
  }
}

/**
 * Prepares what every test file of a project shares. In the `postgres` project (VOXGATE_TEST_DB=postgres)
 * it starts a real PostgreSQL and a Redis on loopback ports for the duration of the run.
 */
export default async function setup(project: TestProject) {
  const db = await openPglite(undefined);
  await migrate(db);
  const template = await db.dumpDataDir();
  const templatePath = join(mkdtempSync(join(tmpdir(), "voxgate-template-")), "pglite.tar");
  writeFileSync(templatePath, Buffer.from(await template.arrayBuffer()));
  await db.close();
  project.provide("pgliteTemplatePath", templatePath);

  if (project.name !== "server:postgres") {
    project.provide("postgresAdminUrl", null);
    project.provide("postgresTemplate", null);
    project.provide("redisUrl", null);
    return;
  }
  const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
  project.provide("postgresAdminUrl", postgres.url);
  project.provide("postgresTemplate", await migratedTemplate(postgres.url));
  project.provide("redisUrl", redis.url);
  return async () => {
    await Promise.all([postgres.stop(), redis.stop()]);
  };
}

/**
 * A database migrated once, that each test app's database is copied from (`CREATE DATABASE … TEMPLATE`):
 * copying is cheaper than running every migration again for each of the suite's apps. Nothing may stay
 * connected to it, or PostgreSQL refuses the copy.
 */
async function migratedTemplate(adminUrl: string): Promise<string> {
  const name = "vg_template";
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = await openDatabase({ kind: "postgres", url: url.toString() });
  await migrate(db);
  await db.close();
  return name;
}
