/**
 * What the knowledge search of a reply costs the database, statement by statement: the bench's
 * handbook (about 200 passages) and a larger knowledge base (about 5,000 passages) in one database,
 * searched the way a reply searches (hybrid, 4 passages) with the bench's questions.
 *
 *   pnpm exec tsx bench/reply/search-cost.ts [searches=200] [sections=5700] [--store=pglite|postgres|both] [--explain] [--hold] [--embeddings=sparse]
 *
 * On PostgreSQL (a throw-away server with pg_stat_statements, planning tracked) it prints, per
 * statement of the searches, calls and mean planning and execution time, and the backend's CPU per
 * search; on both stores the wall time per search. `--explain` prints EXPLAIN (ANALYZE, BUFFERS) of one
 * search per knowledge base; `--hold` waits after seeding, with the database's address printed, until
 * the process gets SIGUSR2 (for trying statements in psql).
 */

import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, type DatabaseTarget } from "@voxgate/server";
import { startFakeOpenAI } from "../../packages/server/test/support/fake-openai.ts";
import { findPostgresBinaries, startPostgres } from "../../packages/server/test/support/services.ts";
import { benchConfig, handbook, question, treeCpuMs } from "./fixture.ts";

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const flags = new Set(process.argv.slice(2).filter((arg) => arg.startsWith("--")));
const searches = Number(positional[0] ?? 200);
const largeSections = Number(positional[1] ?? 5700);
const store = [...flags].find((flag) => flag.startsWith("--store="))?.slice(8) ?? "both";

async function run(database: DatabaseTarget, label: string, pid: number | undefined) {
  // Dense vectors like a real model's unless asked for the tests' sparse ones (reply.bench.ts's option).
  const fake = await startFakeOpenAI({ denseEmbeddings: !flags.has("--embeddings=sparse") });
  const dataDir = join(tmpdir(), `voxgate-search-${process.pid}-${randomBytes(4).toString("hex")}`);
  const config = benchConfig(fake.baseUrl, dataDir);
  const app = await buildApp(config, { database });
  await app.listen(0, "127.0.0.1"); // the background workers (ingestion) start with the server
  const statements = database.kind === "postgres";
  const admin = (text: string, values: unknown[] = []) =>
    app.db.withConnection((sql) => sql.query<Record<string, number | string>>(text, values));
  if (statements) await admin("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  try {
    const { account } = await app.services.accounts.create({
      email: `search-${randomBytes(4).toString("hex")}@example.com`,
      password: "benchmark-pw",
      balance: "100",
    });
    const bases: { name: string; id: number }[] = [];
    for (const [name, sections] of [
      ["handbook", 229],
      ["large", largeSections],
    ] as const) {
      if (sections <= 0) continue;
      const kb = await app.services.knowledgebases.create(account.id, { name });
      const document = await app.services.documents.create(account.id, kb.id, {
        name,
        type: "txt",
        file: new File([handbook(sections)], `${name}.txt`, { type: "text/plain" }),
      } as never);
      for (;;) {
        const state = await app.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
        if (state.status === "failed") throw new Error(`${name} failed: ${state.failureReason}`);
        if (state.status !== "processing") break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      bases.push({ name, id: kb.id });
    }
    // What autovacuum does on a real server (the bench's PostgreSQL runs without it).
    await app.db.withConnection((sql) => sql.exec("ANALYZE"));
    if (flags.has("--hold")) {
      console.log(
        `holding ${JSON.stringify(database)} kbs ${JSON.stringify(bases)} account ${account.id}; SIGUSR2 goes on`,
      );
      await new Promise((resolve) => process.once("SIGUSR2", resolve));
    }
    for (const base of bases) {
      const chunks = await app.db.prisma.documentChunk.count({ where: { knowledgebaseId: base.id } });
      const search = (index: number) =>
        app.services.knowledgebases.search(account.id, base.id, question(index), {
          limit: 4,
          mode: "hybrid",
        });
      for (let i = 0; i < 20; i++) await search(-1 - i);
      if (statements) await admin("SELECT pg_stat_statements_reset()");
      const databaseCpu = () => (pid ? (treeCpuMs({ database: pid }).database ?? 0) : Number.NaN);
      const cpuBefore = databaseCpu();
      const started = performance.now();
      for (let i = 0; i < searches; i++) await search(i);
      const wall = (performance.now() - started) / searches;
      const cpu = (databaseCpu() - cpuBefore) / searches;
      console.log(
        `\n${label}, ${base.name} (${chunks} passages): ${wall.toFixed(2)} ms wall per search, database CPU ${cpu.toFixed(2)} ms per search`,
      );
      if (statements) {
        const rows = await admin(
          `SELECT calls, mean_plan_time, mean_exec_time, shared_blks_hit, left(regexp_replace(query, '\\s+', ' ', 'g'), 70) AS query
           FROM pg_stat_statements WHERE calls >= $1 ORDER BY total_plan_time + total_exec_time DESC LIMIT 8`,
          [searches / 2],
        );
        for (const row of rows)
          console.log(
            `  ${String(row.calls).padStart(5)} calls  plan ${Number(row.mean_plan_time).toFixed(3)} ms  exec ${Number(row.mean_exec_time).toFixed(3)} ms  ${(Number(row.shared_blks_hit) / Number(row.calls)).toFixed(0)} blocks  ${row.query}`,
          );
      }
      if (flags.has("--explain")) await explain(app, search);
    }
  } finally {
    await app.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** EXPLAIN (ANALYZE, BUFFERS) of the statement one search sends, caught on its way to the database. */
async function explain(
  app: Awaited<ReturnType<typeof buildApp>>,
  search: (index: number) => Promise<unknown>,
) {
  const withConnection = app.db.withConnection.bind(app.db);
  let caught: { text: string; values: unknown[] } | undefined;
  app.db.withConnection = ((work: Parameters<typeof withConnection>[0]) =>
    withConnection((sql) => {
      const catching = (text: string, values: unknown[] = []) => {
        if (text.includes(" best AS (")) caught = { text, values };
        return sql.query(text, values);
      };
      return work({ ...sql, session: sql.session, query: catching, prepared: catching } as never);
    })) as typeof withConnection;
  await search(7);
  app.db.withConnection = withConnection;
  if (!caught) throw new Error("no search statement seen");
  const { text, values } = caught;
  const rows = await app.db.withConnection((sql) =>
    sql.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values),
  );
  console.log(rows.map((row) => `    ${row["QUERY PLAN"]}`).join("\n"));
}

if (store !== "postgres") await run({ kind: "pglite", dataDir: undefined }, "PGlite", undefined);
if (store !== "pglite" && findPostgresBinaries()) {
  const postgres = await startPostgres([
    "shared_preload_libraries=pg_stat_statements",
    "pg_stat_statements.track_planning=on",
  ]);
  try {
    await run({ kind: "postgres", url: postgres.url }, "PostgreSQL", postgres.pid);
  } finally {
    await postgres.stop();
  }
}
