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

it("migration 0013 keeps the oldest holder of a number held twice, releases the others and logs it", async () => {
  const fresh = await freshDatabase({ unmigrated: true });
  drops.push(fresh.drop);
  const db = await openDatabase(
    fresh.target.kind === "postgres" ? fresh.target : { kind: "pglite", dataDir: undefined },
  );
  opened.push(db);
  const all = readMigrations();
  await migrate(
    db,
    all.filter((migration) => migration.name < "0013"),
  );
  const ids = await db.withConnection(async (sql) => {
    const [a, b] = await sql.query<{ id: number }>(
      `INSERT INTO "accounts" ("name", "updatedAt") VALUES ('A', now()), ('B', now()) RETURNING "id"`,
    );
    const insert = (
      accountId: number,
      phoneNumber: string,
      kind: string,
      createdAt: string,
      released = false,
    ) =>
      sql
        .query<{ id: number }>(
          `INSERT INTO "phone_numbers" ("accountId", "phoneNumber", "countryCode", "kind", "createdAt", "updatedAt", "releasedAt")
           VALUES ($1, $2, 'US', $3::phone_number_kind, $4::timestamptz, now(), ${released ? "now()" : "NULL"}) RETURNING "id"`,
          [accountId, phoneNumber, kind, createdAt],
        )
        .then((rows) => rows[0]!.id);
    // B bought +14155550123 first; A later added it as SIP (the bug), then as a caller ID.
    const oldest = await insert(b!.id, "+14155550123", "normal", "2026-01-01T00:00:00Z");
    const sipCopy = await insert(a!.id, "+14155550123", "sip", "2026-02-01T00:00:00Z");
    const callerIdCopy = await insert(a!.id, "+14155550123", "caller_id", "2026-03-01T00:00:00Z");
    const releasedEarlier = await insert(a!.id, "+14155550123", "normal", "2025-12-01T00:00:00Z", true);
    const ownCallerId = await insert(a!.id, "+14155550999", "caller_id", "2026-01-01T00:00:00Z");
    const [campaign] = await sql.query<{ id: number }>(
      `INSERT INTO "campaigns" ("accountId", "name", "updatedAt") VALUES ($1, 'Spring', now()) RETURNING "id"`,
      [a!.id],
    );
    await sql.query(
      `INSERT INTO "campaign_phone_numbers" ("campaignId", "phoneNumberId") VALUES ($1, $2), ($1, $3)`,
      [campaign!.id, sipCopy, ownCallerId],
    );
    return { oldest, sipCopy, callerIdCopy, releasedEarlier, ownCallerId, campaign: campaign!.id };
  });

  expect(
    await migrate(
      db,
      all.filter((migration) => migration.name < "0014"),
    ),
  ).toEqual(["0013_phone_number_holder"]);

  await db.withConnection(async (sql) => {
    const rows = await sql.query<{ id: number; status: string; released: boolean }>(
      `SELECT "id", "status"::text AS "status", "releasedAt" IS NOT NULL AS "released" FROM "phone_numbers" ORDER BY "id"`,
    );
    expect(rows).toEqual([
      { id: ids.oldest, status: "active", released: false },
      { id: ids.sipCopy, status: "released", released: true },
      { id: ids.callerIdCopy, status: "released", released: true },
      { id: ids.releasedEarlier, status: "released", released: true },
      // No caller ID was verified before: each must be verified again.
      { id: ids.ownCallerId, status: "pending_verification", released: false },
    ]);
    const logged = await sql.query<{ payload: { phoneNumberId: number } }>(
      `SELECT "payload" FROM "provider_operations" WHERE "operation" = 'duplicate_released_by_migration' ORDER BY "id"`,
    );
    expect(logged.map((row) => row.payload.phoneNumberId)).toEqual([ids.sipCopy, ids.callerIdCopy]);
    const rotation = await sql.query<{ phoneNumberId: number }>(
      `SELECT "phoneNumberId" FROM "campaign_phone_numbers" WHERE "campaignId" = $1`,
      [ids.campaign],
    );
    expect(rotation).toEqual([{ phoneNumberId: ids.ownCallerId }]);
    // From now on the database itself refuses a second holder.
    await expect(
      sql.query(
        `INSERT INTO "phone_numbers" ("accountId", "phoneNumber", "countryCode", "updatedAt")
         SELECT "accountId", "phoneNumber", 'US', now() FROM "phone_numbers" WHERE "id" = $1`,
        [ids.oldest],
      ),
    ).rejects.toThrow(/phone_numbers_held_number_key/);
  });
}, 180_000);
