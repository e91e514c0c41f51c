import { afterEach, expect, it } from "vitest";
import { freshDatabase } from "../../../test/support/test-app.ts";
import { type Database, openDatabase } from "../../db/client.ts";
import { migrate, readMigrations } from "../../db/migrate.ts";

const opened: Database[] = [];
const drops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const db of opened.splice(0)) await db.close();
  for (const drop of drops.splice(0)) await drop();
});

it("migration 0037 marks each day already rolled up dirty once (its first bucket): the job builds its daily row", async () => {
  const fresh = await freshDatabase({ unmigrated: true });
  drops.push(fresh.drop);
  const db = await openDatabase(
    fresh.target.kind === "postgres" ? fresh.target : { kind: "pglite", dataDir: undefined },
  );
  opened.push(db);
  const all = readMigrations();
  await migrate(
    db,
    all.filter((migration) => migration.name < "0037"),
  );
  await db.withConnection(async (sql) => {
    // Two accounts' 15-minute rows before the daily level: two days of one (two assistants on one of
    // them), one day of the other.
    await sql.query(
      `INSERT INTO "insights_rollups" ("accountId", "assistantId", "bucket", "calls", "finished", "answered",
         "seconds", "cost", "evaluated", "judged", "successful", "transfers", "conversations", "bookings",
         "turns", "latencyMs", "latencyHistogram", "endings")
       SELECT "accountId", "assistantId", "bucket"::timestamptz, 1, 1, 1, 60, 0.5, 0, 0, 0, 0, 0, 0, 0, 0, NULL, '[]'
       FROM (VALUES (1, 1, '2027-03-01T00:00:00Z'), (1, 2, '2027-03-01T00:00:00Z'), (1, 1, '2027-03-01T23:45:00Z'),
         (1, 1, '2027-03-02T10:15:00Z'), (2, 5, '2027-03-01T06:30:00Z')) AS "r"("accountId", "assistantId", "bucket")`,
    );
    await sql.query(`DELETE FROM "insights_dirty_buckets"`);
  });

  expect(
    await migrate(
      db,
      all.filter((migration) => migration.name < "0038"),
    ),
  ).toEqual(["0037_insights_daily_rollups"]);

  await db.withConnection(async (sql) => {
    const marks = await sql.query<{ accountId: number; bucket: Date }>(
      `SELECT "accountId", "bucket" FROM "insights_dirty_buckets" ORDER BY "accountId", "bucket"`,
    );
    expect(marks.map((mark) => [mark.accountId, new Date(mark.bucket).toISOString()])).toEqual([
      [1, "2027-03-01T00:00:00.000Z"],
      [1, "2027-03-02T00:00:00.000Z"],
      [2, "2027-03-01T00:00:00.000Z"],
    ]);
    const [daily] = await sql.query<{ rows: number }>(
      `SELECT count(*)::int AS "rows" FROM "insights_daily_rollups"`,
    );
    expect(daily!.rows).toBe(0);
  });
});
