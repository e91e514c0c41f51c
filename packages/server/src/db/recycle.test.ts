import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { pgliteTemplate, testDatabaseKind } from "../../test/support/test-app.ts";
import { openPglite } from "./client.ts";

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A data directory with a short path: recycling needs the Unix socket (see openPglite). */
function tempDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), "vg-recycle-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

// The embedded database's process replaced by a fresh one (WebAssembly memory never shrinks):
// real PGlite processes, real connections.
describe.runIf(testDatabaseKind() === "pglite")(
  "recycling the embedded database's process",
  { timeout: 120_000 },
  () => {
    it("loses no query and no committed row across a recycle under concurrent queries", async () => {
      const db = await openPglite(tempDataDir(), pgliteTemplate(), undefined, { recycleMb: 0 });
      cleanups.push(() => db.close());
      await db.withConnection((sql) => sql.exec(`CREATE TABLE recycle_probe (n int PRIMARY KEY)`));
      const before = db.process.pid;
      // Writers on both pools, each committing rows one after another, while the process is replaced.
      let stop = false;
      const written: number[] = [];
      const writer = async (first: number, background: boolean) => {
        const run = background ? db.withBackgroundConnection : db.withConnection;
        for (let n = first; !stop; n += 10) {
          await run((sql) => sql.query(`INSERT INTO recycle_probe (n) VALUES ($1)`, [n]));
          written.push(n);
        }
      };
      const reader = async () => {
        let reads = 0;
        while (!stop) {
          const [row] = await db.prisma.$queryRawUnsafe<{ one: number }[]>(`SELECT 1 AS one`);
          expect(row!.one).toBe(1);
          reads++;
        }
        return reads;
      };
      const load = Promise.all([writer(0, false), writer(1, false), writer(2, true), reader(), reader()]);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const outcome = await db.recycle();
      await new Promise((resolve) => setTimeout(resolve, 300));
      stop = true;
      await load;

      expect(outcome).not.toBeNull();
      expect(db.process.pid).not.toBe(before);
      const rows = await db.withConnection((sql) =>
        sql.query<{ n: number }>(`SELECT n FROM recycle_probe ORDER BY n`),
      );
      expect(rows.map((row) => row.n)).toEqual(written.toSorted((a, b) => a - b));
      // Writes went on after the switch, through the new process.
      expect(written.length).toBeGreaterThan(6);
    });

    it("does not start a recycle while a query is in flight, and switches once it ends", async () => {
      const db = await openPglite(tempDataDir(), pgliteTemplate(), undefined, { recycleMb: 0 });
      cleanups.push(() => db.close());
      const before = db.process.pid;
      let finish = () => {};
      const finished = new Promise<void>((resolve) => {
        finish = resolve;
      });
      const transaction = db.withConnection(async (sql) => {
        await sql.exec("BEGIN");
        await sql.query(`CREATE TABLE recycle_held (n int)`);
        await sql.query(`INSERT INTO recycle_held VALUES (1)`);
        await finished;
        await sql.exec("COMMIT");
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      let recycled = false;
      const recycle = db.recycle().then((outcome) => {
        recycled = true;
        return outcome;
      });
      // The open transaction keeps its process: nothing switches while it runs.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(recycled).toBe(false);
      expect(db.process.pid).toBe(before);
      finish();
      await transaction;
      expect(await recycle).not.toBeNull();
      expect(db.process.pid).not.toBe(before);
      // Its commit is in the database the new process opened.
      expect(await db.withConnection((sql) => sql.query(`SELECT n FROM recycle_held`))).toEqual([{ n: 1 }]);
    });

    it("replaces a grown process by itself once the connections are quiet, not while they are busy", async () => {
      const db = await openPglite(tempDataDir(), pgliteTemplate(), undefined, {
        // Below what any PGlite process holds: only quietness decides here.
        recycleMb: 1,
        recycleIdleMs: 1_000,
      });
      cleanups.push(() => db.close());
      const recycles: number[] = [];
      db.onRecycle(() => recycles.push(Date.now()));
      const first = db.process.pid;
      // Busy: one query after another for three idle windows, and nothing is replaced.
      const busyUntil = Date.now() + 3_000;
      while (Date.now() < busyUntil)
        await db.withConnection((sql) => sql.query("SELECT count(*) FROM pg_class"));
      expect(recycles).toEqual([]);
      expect(db.process.pid).toBe(first);
      // Quiet: the watchdog replaces it; a successor is not replaced again for what it holds fresh.
      await expect.poll(() => recycles.length, { timeout: 30_000, interval: 100 }).toBe(1);
      expect(db.process.pid).not.toBe(first);
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(recycles.length).toBe(1);
      expect(await db.withConnection((sql) => sql.query("SELECT 1 AS one"))).toEqual([{ one: 1 }]);
    });
  },
);
