import { execFile, fork } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { isAlive } from "../../test/support/services.ts";
import { freshDatabase, pgliteTemplate, testDatabaseKind } from "../../test/support/test-app.ts";
import { DatabaseStoppedError, openDatabase, openPglite, pgliteExecArgv } from "./client.ts";

const run = promisify(execFile);
const serverDir = join(import.meta.dirname, "..", "..");
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  process.exitCode = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDataDir(): string {
  const dataDir = mkdtempSync(join(tmpdir(), "voxgate-db-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return dataDir;
}

// The embedded database's own behaviour: once, in the project that runs on it. PGlite starts from
// the suite's migrated template rather than a fresh initdb.
describe.runIf(testDatabaseKind() === "pglite")("the embedded database", { timeout: 120_000 }, () => {
  // The tests that only query a database (in tables of their own names) share one: a start of the
  // database's process each saved. Those that close, kill or count across the backend open their own.
  let shared: ReturnType<typeof openPglite> | undefined;
  const sharedDatabase = () => {
    shared ??= openPglite(undefined, pgliteTemplate());
    return shared;
  };
  afterAll(async () => {
    await (await shared)?.close();
  });

  it("keeps the process exit code when the embedded database closes", async () => {
    const db = await openPglite(undefined, pgliteTemplate());
    process.exitCode = 3;
    await db.close();
    expect(process.exitCode).toBe(3);
  });

  it("drops a connection's prepared statements when it closes (every connection shares the backend)", async () => {
    const db = await openPglite(undefined, pgliteTemplate());
    cleanups.push(() => db.close());
    const prepared = () =>
      db.withConnection((sql) =>
        sql.query<{ count: number }>(
          `SELECT count(*)::int AS "count" FROM pg_prepared_statements WHERE "name" LIKE 'voxgate\\_%'`,
        ),
      );
    const client = await db.pgPool.connect();
    const statement = { name: "voxgate_probe", text: "SELECT $1::int AS n" };
    await client.query({ ...statement, values: [1] });
    expect((await client.query({ ...statement, values: [2] })).rows).toEqual([{ n: 2 }]);
    expect(await prepared()).toEqual([{ count: 1 }]);
    client.release(true);
    await expect.poll(prepared).toEqual([{ count: 0 }]);
  });

  it("gives each connection the backend for a whole exchange, however large its messages", async () => {
    const db = await sharedDatabase();
    // Parameters of several megabytes arrive in many socket reads: an exchange handed over between
    // messages would let another connection's Parse replace this one's unnamed statement.
    const large = "x".repeat(3_000_000);
    const answers = await Promise.all(
      Array.from({ length: 8 }, async (_, client) => {
        const results: unknown[] = [];
        for (let round = 0; round < 3; round++) {
          const rows = await db.withConnection((sql) =>
            sql.query(`SELECT $1::int AS "n${client}", length($2::text) AS "size"`, [
              round,
              client % 2 ? large : "y",
            ]),
          );
          results.push(rows[0]);
        }
        return results;
      }),
    );
    answers.forEach((results, client) => {
      expect(results).toEqual(
        [0, 1, 2].map((round) => ({ [`n${client}`]: round, size: client % 2 ? large.length : 1 })),
      );
    });
  });

  it("answers a statement that fails mid-exchange with one ReadyForQuery, so the next query gets its own rows", async () => {
    const db = await sharedDatabase();
    await db.withConnection((sql) =>
      sql.exec(
        `CREATE TABLE parents (id int PRIMARY KEY); CREATE TABLE children (parent int REFERENCES parents (id));`,
      ),
    );
    const client = await db.pgPool!.connect();
    try {
      // Queued together, node-postgres sends the second as soon as the first's cycle ends: a stray
      // ReadyForQuery after the error would end the second before its rows arrive.
      for (let round = 0; round < 3; round++) {
        const failing = client.query("INSERT INTO children (parent) VALUES ($1)", [round]);
        const next = client.query("SELECT $1::int AS round", [round]);
        await expect(failing).rejects.toThrow(/foreign key/);
        expect((await next).rows).toEqual([{ round }]);
      }
    } finally {
      client.release();
    }
  });

  it("creates WAL segments without zero-filling them, which held the one backend for hundreds of milliseconds", async () => {
    const db = await sharedDatabase();
    const [setting] = await db.withConnection((sql) =>
      sql.query<{ wal_init_zero: string }>("SHOW wal_init_zero"),
    );
    expect(setting).toEqual({ wal_init_zero: "off" });
  });

  it("serves a request's statement before background statements that were waiting longer", async () => {
    const db = await sharedDatabase();
    // Connections opened beforehand, so that each query below is written to its socket at once.
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    const background = ["b1", "b2"].map((name) =>
      db.withBackgroundConnection(async (sql) => {
        await sql.query("SELECT 1");
        await opened;
        return sql.query<{ name: string }>("SELECT $1::text AS name", [name]);
      }),
    );
    const request = await db.pgPool.connect();
    const holder = await db.pgPool.connect();
    try {
      const finished: string[] = [];
      // An open transaction holds the single backend, so everything sent meanwhile queues in the worker.
      await holder.query("BEGIN");
      open();
      const waiting = background.map((query) => query.then(([row]) => finished.push(row!.name)));
      await new Promise((resolve) => setImmediate(resolve));
      waiting.push(request.query("SELECT 'request' AS name").then(() => finished.push("request")));
      await holder.query("COMMIT");
      await Promise.all(waiting);
      expect(finished[0]).toBe("request");
      expect(finished.toSorted()).toEqual(["b1", "b2", "request"]);
    } finally {
      request.release();
      holder.release();
    }
  });

  it("keeps a transaction to its connection and rolls back one whose connection went away", async () => {
    const db = await sharedDatabase();
    await db.withConnection((sql) => sql.exec(`CREATE TABLE "t" ("v" int)`));
    const inside = db.withConnection(async (sql) => {
      await sql.exec("BEGIN");
      await sql.query(`INSERT INTO "t" VALUES (1)`);
      // Another connection's statement waits for this transaction rather than joining it.
      const other = db.prisma.$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) AS "count" FROM "t"`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      await sql.exec("ROLLBACK");
      return other;
    });
    expect(Number((await inside)[0]!.count)).toBe(0);

    const client = await db.pgPool.connect();
    await client.query("BEGIN");
    await client.query(`INSERT INTO "t" VALUES (2)`);
    client.release(new Error("drop this connection"));
    const rows = await db.prisma.$queryRawUnsafe<{ count: bigint }[]>(`SELECT count(*) AS "count" FROM "t"`);
    expect(Number(rows[0]!.count)).toBe(0);
  });

  it("fails clearly, without hanging, when the database process dies", async () => {
    const dataDir = tempDataDir();
    const db = await openPglite(dataDir, pgliteTemplate());
    const crashed = new Promise<Error>((resolve) => db.onCrash(resolve));
    db.process.kill("SIGKILL");
    expect(await crashed).toBeInstanceOf(DatabaseStoppedError);
    await expect(db.prisma.$queryRawUnsafe("SELECT 1")).rejects.toThrow();
    await db.close();
    // The lock is released, so a restarted server opens the same data directory.
    const again = await openPglite(dataDir);
    await again.close();
  });

  it("takes over the database process that npm start forked before loading the server", async () => {
    const dataDir = tempDataDir();
    // As scripts/start.mjs does: forked first, it waits for the options that openPglite sends.
    const preforked = fork(join(import.meta.dirname, "pglite-worker.mjs"), {
      execArgv: pgliteExecArgv(false),
      serialization: "advanced",
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    (globalThis as Record<symbol, unknown>)[Symbol.for("voxgate.pglite-process")] = preforked;
    const db = await openPglite(dataDir, pgliteTemplate());
    cleanups.push(() => db.close());
    expect(db.process).toBe(preforked);
    const rows = await db.prisma.$queryRawUnsafe<{ count: bigint }[]>(
      `SELECT count(*) AS "count" FROM "_voxgate_migrations"`,
    );
    expect(Number(rows[0]!.count)).toBeGreaterThan(0);
    // Taken once: nothing is left for another database of the process, which forks its own.
    expect((globalThis as Record<symbol, unknown>)[Symbol.for("voxgate.pglite-process")]).toBeUndefined();
  });

  it("refuses a second open of one data directory in the same process, and allows it after close", async () => {
    const dataDir = tempDataDir();
    const db = await openPglite(dataDir, pgliteTemplate());
    await expect(openPglite(dataDir)).rejects.toThrow(`is in use by process ${process.pid}`);
    await db.close();
    expect(existsSync(join(dataDir, ".s.PGSQL.5432"))).toBe(false);
    expect(existsSync(join(dataDir, "pglite.pid"))).toBe(false);
  });

  it("lets a process end by itself once closed; a killed one's database flushes, exits and blocks nothing", async () => {
    const dataDir = tempDataDir();
    const fixture = join(serverDir, "test", "fixtures", "embedded-database.ts");
    // Node itself, not the tsx wrapper process, so that the kill reaches the process holding the database.
    const node = (ending: string) =>
      run(process.execPath, ["--import", "tsx", fixture, dataDir, ending], { cwd: serverDir });
    await node("close");
    const killed = await node("kill").then(
      () => null,
      (error: { signal: string; stdout: string }) => error,
    );
    expect(killed?.signal).toBe("SIGKILL");
    // The database's own process outlives its parent only to flush: it must not stay behind.
    const orphan = Number(/database process (\d+)/.exec(killed?.stdout ?? "")?.[1]);
    expect(orphan).toBeGreaterThan(0);
    while (isAlive(orphan)) await new Promise((resolve) => setTimeout(resolve, 20));
    const db = await openPglite(dataDir);
    cleanups.push(() => db.close());
    const rows = await db.prisma.$queryRawUnsafe<{ count: bigint }[]>(
      `SELECT count(*) AS "count" FROM "kept"`,
    );
    expect(Number(rows[0]!.count)).toBe(2);
  });
});

describe("closing the database", () => {
  it("ends while a transaction is being opened (Prisma abandons it, its connection checked out)", async () => {
    const fresh = await freshDatabase();
    cleanups.push(() => fresh.drop());
    const db = await openDatabase(fresh.target);
    await db.prisma.call.findFirst();
    // As when a call's stream closes with the server: its last write (a transaction, in Prisma) is
    // being opened as the database closes. Prisma fails that write, or leaves it unsettled.
    void db.prisma.call
      .updateMany({ where: { id: 1 }, data: { endReason: "The caller hung up." } })
      .catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    await db.close();
  });
});
