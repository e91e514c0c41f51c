import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";
import { openPglite, type SqlRunner } from "../src/db/client.ts";
import { pgliteTemplate, testDatabaseKind } from "./support/test-app.ts";

const run = promisify(execFile);
const serverDir = join(import.meta.dirname, "..");

/** Tables, columns (type, nullability, default), constraints and indexes, as comparable lines. */
async function structure(
  sql: SqlRunner,
): Promise<{ columns: string[]; constraints: string[]; indexes: string[] }> {
  const columns = await sql.query<{ line: string }>(`
    SELECT table_name || '.' || column_name || ' ' || udt_name || ' ' || is_nullable || ' ' || coalesce(column_default, '') AS line
    FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_voxgate_migrations'`);
  const constraints = await sql.query<{ line: string }>(`
    SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS line
    FROM pg_constraint WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text <> '"_voxgate_migrations"' AND conrelid::regclass::text <> '_voxgate_migrations'`);
  const indexes = await sql.query<{ line: string }>(`
    SELECT indexdef AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_voxgate_migrations'`);
  const sorted = (rows: { line: string }[]) => rows.map((row) => row.line).sort();
  return { columns: sorted(columns), constraints: sorted(constraints), indexes: sorted(indexes) };
}

// Structure is the same on both stores; checking on PGlite is enough.
it.runIf(testDatabaseKind() === "pglite")(
  "the committed migrations build exactly the database that prisma/schema.prisma describes",
  async () => {
    // The suite's template is what `migrate` built on an empty store; opening both stores while Prisma
    // writes its script overlaps the slowest steps.
    const [{ stdout: expectedSql }, fromSchema, fromMigrations] = await Promise.all([
      run(
        process.execPath,
        [
          "scripts/prisma.mjs",
          "migrate",
          "diff",
          "--from-empty",
          "--to-schema-datamodel",
          "prisma/schema.prisma",
          "--script",
        ],
        { cwd: serverDir },
      ),
      openPglite(undefined),
      openPglite(undefined, pgliteTemplate()),
    ]);
    try {
      await fromSchema.withConnection((sql) => sql.exec(expectedSql));
      const expected = await fromSchema.withConnection(structure);
      const actual = await fromMigrations.withConnection(structure);
      expect(actual.columns, "columns differ: add a migration (see docs/architecture.md)").toEqual(
        expected.columns,
      );
      expect(actual.constraints).toEqual(expected.constraints);
      // Hand-written migrations may add indexes Prisma cannot declare (HNSW, GIN); none may be missing.
      expect(actual.indexes).toEqual(expect.arrayContaining(expected.indexes));
    } finally {
      await fromSchema.close();
      await fromMigrations.close();
    }
  },
  60_000,
);
