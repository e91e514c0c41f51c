import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./client.ts";

export const migrationsDir = fileURLToPath(new URL("../../prisma/migrations/", import.meta.url));

export interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

export function readMigrations(dir = migrationsDir): Migration[] {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = readFileSync(join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    });
}

/** An arbitrary constant shared by every instance, so that only one of them migrates at a time. */
export const MIGRATION_LOCK_KEY = 7_243_510_981;

/** PostgreSQL's SQLSTATE for a table that does not exist. */
const UNDEFINED_TABLE = "42P01";

/**
 * Whether the database has recorded every one of `migrations` with the same checksum: one read, no
 * lock and no DDL, which is all that a start of an up-to-date installation needs (the common case).
 */
async function upToDate(db: Database, migrations: Migration[]): Promise<boolean> {
  const rows = await db
    .withConnection((sql) =>
      sql.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM "_voxgate_migrations"`),
    )
    .catch((error: { code?: string }) => {
      if (error.code === UNDEFINED_TABLE) return [];
      throw error;
    });
  const applied = new Map(rows.map((row) => [row.name, row.checksum]));
  return migrations.every((migration) => applied.get(migration.name) === migration.checksum);
}

/**
 * Applies the committed migrations that the database has not seen, each in its own transaction,
 * and records them. Instances starting together on one PostgreSQL wait on an advisory lock.
 * An applied migration whose file changed since is an error, not something to paper over. A database
 * that already has them all is only read (`upToDate`), without waiting for the lock.
 */
export async function migrate(db: Database, migrations: Migration[] = readMigrations()): Promise<string[]> {
  if (await upToDate(db, migrations)) return [];
  return db.withConnection(async (sql) => {
    if (db.kind === "postgres") await sql.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    try {
      await sql.exec(`CREATE TABLE IF NOT EXISTS "_voxgate_migrations" (
        "name" text PRIMARY KEY,
        "checksum" text NOT NULL,
        "applied_at" timestamptz NOT NULL DEFAULT now()
      )`);
      const applied = new Map(
        (
          await sql.query<{ name: string; checksum: string }>(
            `SELECT name, checksum FROM "_voxgate_migrations"`,
          )
        ).map((row) => [row.name, row.checksum]),
      );
      const newlyApplied: string[] = [];
      for (const migration of migrations) {
        const checksum = applied.get(migration.name);
        if (checksum !== undefined) {
          if (checksum !== migration.checksum) {
            throw new Error(
              `Migration ${migration.name} was changed after it was applied; add a new migration instead.`,
            );
          }
          continue;
        }
        await sql.exec("BEGIN");
        try {
          await sql.exec(migration.sql);
          await sql.query(`INSERT INTO "_voxgate_migrations" (name, checksum) VALUES ($1, $2)`, [
            migration.name,
            migration.checksum,
          ]);
          await sql.exec("COMMIT");
        } catch (error) {
          await sql.exec("ROLLBACK");
          throw new Error(`Migration ${migration.name} failed: ${(error as Error).message}`);
        }
        newlyApplied.push(migration.name);
      }
      return newlyApplied;
    } finally {
      if (db.kind === "postgres") await sql.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
    }
  });
}
