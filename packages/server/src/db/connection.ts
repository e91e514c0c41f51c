import { createHash } from "node:crypto";
import type pg from "pg";
import type { PrismaClient } from "../generated/prisma/client.ts";
import type { Database, SqlRunner } from "./database.ts";

/** How long closing waits for queries still running before it cuts their connections. */
const CLOSE_GRACE_MS = 2_000;

/**
 * Both stores are reached the same way: node-postgres, Prisma's pg adapter, graphile-worker's pool.
 * `ready` settles when the server can accept connections (the embedded database's boot).
 */
export async function connectPool(
  pool: pg.Pool,
  describe: () => string,
  ready: Promise<unknown> = Promise.resolve(),
): Promise<Database> {
  // A connection that the server drops (restart, failover) emits "error" on the pool and on its client;
  // without listeners Node would crash the process. The pool discards that client, and the next query that
  // needs the database reports the failure to its caller.
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const checkedOut = new Set<pg.PoolClient>();
  pool.on("acquire", (client) => checkedOut.add(client));
  pool.on("release", (_error, client) => checkedOut.delete(client));
  // Prisma's client needs no connection to start its query compiler (WebAssembly, a few hundred
  // milliseconds of CPU): it starts while the database boots or the first connection is made, rather
  // than after them on the start's critical path.
  const starting = startPrisma(pool);
  starting.catch(() => {});
  await ready;
  // Fail at start with a clear message rather than on the first request.
  const probe = await pool.connect().catch((error: Error) => {
    throw new Error(`Cannot connect to ${describe()}: ${error.message}`);
  });
  probe.release();
  const prisma = await starting;
  return {
    kind: "postgres",
    prisma,
    pgPool: pool,
    withConnection: (work) => runOnConnection(pool, work),
    withBackgroundConnection: (work) => runOnConnection(pool, work),
    onCrash: () => {},
    releaseMemory: async () => null,
    onRecycle: () => {},
    close: async () => {
      // What is still running (a call's last writes as its stream closes with the server) ends first.
      await allReleased(pool, checkedOut, CLOSE_GRACE_MS);
      await prisma.$disconnect();
      // A transaction Prisma was opening when it disconnected is abandoned (its query fails with
      // "Unknown transaction status") on a connection left checked out inside BEGIN: `pool.end()`
      // waits for every checked-out connection, so it would wait forever. Released as broken, the
      // connection is closed, and the server rolls the transaction back.
      for (const client of checkedOut) client.release(true);
      await pool.end();
    },
  };
}

/** Resolves once no connection of `pool` is checked out, or after `ms`. */
function allReleased(pool: pg.Pool, checkedOut: Set<pg.PoolClient>, ms: number): Promise<void> {
  if (checkedOut.size === 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      pool.off("release", check);
      resolve();
    };
    const check = () => {
      if (checkedOut.size === 0) done();
    };
    const timer = setTimeout(done, ms);
    pool.on("release", check);
  });
}

async function startPrisma(pool: pg.Pool): Promise<PrismaClient> {
  // Loaded here rather than with this module, so that a server can start its embedded database's
  // process before loading these and the rest of its code (see main.ts).
  const [{ PrismaClient }, { PrismaPg }] = await Promise.all([
    import("../generated/prisma/client.ts"),
    import("@prisma/adapter-pg"),
  ]);
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
  await prisma.$connect();
  return prisma;
}

/**
 * A number per pooled connection, in the names of its prepared statements: the embedded store's
 * connections share one backend, where two connections' statements of one name would collide (its
 * process drops a connection's statements when it closes).
 */
const connectionNumbers = new WeakMap<pg.PoolClient, number>();
let connectionsNumbered = 0;

function statementName(client: pg.PoolClient, sql: string): string {
  let number = connectionNumbers.get(client);
  if (number === undefined) {
    number = ++connectionsNumbered;
    connectionNumbers.set(client, number);
  }
  return `voxgate_${number}_${createHash("sha1").update(sql).digest("hex").slice(0, 24)}`;
}

export async function runOnConnection<T>(pool: pg.Pool, work: (sql: SqlRunner) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    return await work({
      session: client,
      exec: async (script) => {
        await client.query(script);
      },
      query: async <Row>(sql: string, params: unknown[] = []) =>
        (await client.query(sql, params)).rows as Row[],
      prepared: async <Row>(sql: string, params: unknown[] = []) =>
        (await client.query({ name: statementName(client, sql), text: sql, values: params })).rows as Row[],
    });
  } finally {
    client.release();
  }
}
