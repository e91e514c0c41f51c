import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { freshDatabase, testDatabaseKind } from "../../test/support/test-app.ts";
import { type Database, openDatabase } from "./client.ts";
import { MIGRATION_LOCK_KEY, migrate, readMigrations } from "./migrate.ts";

const opened: Database[] = [];
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const drop of drops.splice(0)) await drop();
});

/** An empty database (no migrations applied) of the project's kind. */
async function emptyDatabase(): Promise<Database> {
  const fresh = await freshDatabase({ unmigrated: true });
  drops.push(fresh.drop);
  const target =
    fresh.target.kind === "postgres" ? fresh.target : { kind: "pglite" as const, dataDir: undefined };
  const db = await openDatabase(target);
  opened.push(db);
  return db;
}

function migrationsDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "voxgate-migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

describe("migrations", () => {
  it("applies the committed migrations once", async () => {
    const db = await emptyDatabase();
    expect(await migrate(db)).toEqual(readMigrations().map((migration) => migration.name));
    expect(await migrate(db)).toEqual([]);
  });

  // A start of an up-to-date installation only reads: it does not queue behind an instance that holds
  // the lock (on PGlite every connection shares one backend, so the lock excludes nobody there).
  it.runIf(testDatabaseKind() === "postgres")(
    "finds an up-to-date database without waiting for the migration lock",
    async () => {
      const db = await emptyDatabase();
      await migrate(db);
      const other = await db.pgPool.connect();
      try {
        await other.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
        expect(await migrate(db)).toEqual([]);
      } finally {
        await other.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]);
        other.release();
      }
    },
  );

  it("applies a migration added later, and refuses an applied migration whose file has changed", async () => {
    const db = await emptyDatabase();
    const dir = migrationsDir({ "0001_a": `CREATE TABLE "t_a" (id int);` });
    await migrate(db, readMigrations(dir));
    mkdirSync(join(dir, "0002_b"));
    writeFileSync(join(dir, "0002_b", "migration.sql"), `CREATE TABLE "t_b" (id int);`);
    expect(await migrate(db, readMigrations(dir))).toEqual(["0002_b"]);
    writeFileSync(join(dir, "0001_a", "migration.sql"), `CREATE TABLE "t_a" (id bigint);`);
    await expect(migrate(db, readMigrations(dir))).rejects.toThrow(/0001_a was changed after it was applied/);
    rmSync(dir, { recursive: true });
  });

  it("rolls a failing migration back entirely and applies nothing after it", async () => {
    const db = await emptyDatabase();
    const dir = migrationsDir({
      "0001_ok": `CREATE TABLE "t_ok" (id int);`,
      "0002_broken": `CREATE TABLE "t_half" (id int); SELECT * FROM "missing_table";`,
      "0003_later": `CREATE TABLE "t_later" (id int);`,
    });
    await expect(migrate(db, readMigrations(dir))).rejects.toThrow(/Migration 0002_broken failed/);
    const tables = await db.withConnection((sql) =>
      sql.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_name LIKE 't\\_%'`,
      ),
    );
    expect(tables.map((table) => table.name)).toEqual(["t_ok"]);
    rmSync(dir, { recursive: true });
  });
});
