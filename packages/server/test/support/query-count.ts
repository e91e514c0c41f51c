import type pg from "pg";

/**
 * The SQL statements sent through `pool` while `work` runs (every connection the pool lends out is
 * watched), for tests asserting that a list costs a fixed number of statements.
 */
export async function statementsDuring(pool: pg.Pool, work: () => Promise<unknown>): Promise<string[]> {
  const statements: string[] = [];
  const watched = new WeakSet<pg.PoolClient>();
  let recording = true;
  const watch = (client: pg.PoolClient) => {
    if (watched.has(client)) return;
    watched.add(client);
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      const first = args[0];
      if (recording)
        statements.push(typeof first === "string" ? first : String((first as { text?: string })?.text));
      return query(...args);
    };
  };
  pool.on("acquire", watch);
  try {
    await work();
  } finally {
    recording = false;
    pool.off("acquire", watch);
  }
  return statements;
}
