/**
 * Retrieval latency over a large knowledge base on PostgreSQL, through the real knowledge service,
 * beside the same service on connections where the planner may not use indexes (exact sequential
 * scans). Vector recall of HNSW is measured against those exact results on the same queries.
 */
import { buildApp } from "../../packages/server/src/app.ts";
import { loadConfig } from "../../packages/server/src/env.ts";
import { createLogger } from "../../packages/server/src/logger.ts";
import { LocalHashEmbedder, toVectorLiteral } from "../../packages/server/src/modules/embeddings/embedder.ts";
import type { Passage, SearchMode } from "../../packages/server/src/modules/knowledge/knowledge.service.ts";
import { ProseGenerator, seededRandom } from "./fixtures.ts";
import { percentile } from "./measure.ts";

const SMALL_KNOWLEDGEBASES = 5;
const SMALL_KNOWLEDGEBASE_CHUNKS = 1_000;
const CHUNKS_PER_DOCUMENT = 1_000;
const ROWS_PER_INSERT = 250;
const LIMIT = 5;
const MODES: SearchMode[] = ["vector", "keyword", "hybrid"];

export async function runRetrievalBenchmark(url: string, options: { chunks: number; queries: number }) {
  const config = loadConfig({
    PORT: "0",
    LOG_LEVEL: "silent",
    VOXGATE_SEED_DEMO: "false",
    DATABASE_URL: url,
  });
  const logger = createLogger("silent");
  const app = await buildApp(config, { logger, database: { kind: "postgres", url } });
  // The same service on sessions that may not use index scans of any kind: exact, sequential.
  const exactUrl = new URL(url);
  exactUrl.searchParams.set("options", "-c enable_indexscan=off -c enable_bitmapscan=off");
  const exactApp = await buildApp(config, { logger, database: { kind: "postgres", url: exactUrl.href } });
  try {
    const pool = app.db.pgPool!;
    const { account } = await app.services.accounts.create({
      email: "retrieval@example.com",
      password: "benchmark-pw",
    });
    const knowledge = app.services.knowledge;
    const main = await knowledge.createKnowledgebase(account.id, { name: "Large" });
    const smalls = [];
    for (let index = 0; index < SMALL_KNOWLEDGEBASES; index++)
      smalls.push(await knowledge.createKnowledgebase(account.id, { name: `Small ${index + 1}` }));

    // Layout: `chunks` passages in the large knowledge base, plus five small ones sharing the table and index.
    const plan: { knowledgebaseId: number; count: number }[] = [
      { knowledgebaseId: main.id, count: options.chunks },
      ...smalls.map((kb) => ({ knowledgebaseId: kb.id, count: SMALL_KNOWLEDGEBASE_CHUNKS })),
    ];
    const total = plan.reduce((sum, part) => sum + part.count, 0);
    const random = seededRandom(99);
    const pick = (count: number) =>
      new Set(Array.from({ length: options.queries }, () => Math.floor(random() * count)));
    const wanted = new Map<number, Set<number>>([
      [main.id, pick(options.chunks)],
      [smalls[0]!.id, pick(SMALL_KNOWLEDGEBASE_CHUNKS)],
    ]);
    const questions = new Map<number, string[]>([...wanted.keys()].map((id) => [id, []]));

    const indexes = await pool.query<{ indexname: string; indexdef: string }>(
      `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'document_chunks'
        AND indexname IN ('document_chunks_embedding_384_hnsw', 'document_chunks_search_vector_gin')`,
    );
    // Built once after loading rather than row by row: both are how a bulk import would be done.
    for (const { indexname } of indexes.rows) await pool.query(`DROP INDEX "${indexname}"`);

    const embedder = new LocalHashEmbedder();
    const prose = new ProseGenerator(2026);
    const loadStarted = performance.now();
    let inserted = 0;
    const pending = new Set<Promise<unknown>>();
    for (const part of plan) {
      for (let first = 0; first < part.count; first += CHUNKS_PER_DOCUMENT) {
        const document = await app.db.prisma.document.create({
          data: {
            accountId: account.id,
            knowledgebaseId: part.knowledgebaseId,
            name: `Synthetic ${first / CHUNKS_PER_DOCUMENT + 1}`,
            type: "txt",
            status: "active",
          },
        });
        const size = Math.min(CHUNKS_PER_DOCUMENT, part.count - first);
        for (let start = 0; start < size; start += ROWS_PER_INSERT) {
          const values: string[] = [];
          const params: unknown[] = [];
          for (let ordinal = start; ordinal < Math.min(size, start + ROWS_PER_INSERT); ordinal++) {
            const content = prose.paragraph(200);
            if (wanted.get(part.knowledgebaseId)?.has(first + ordinal)) {
              const words = content.toLowerCase().replace(/\./g, "").split(" ");
              const at = Math.floor(words.length / 2);
              questions.get(part.knowledgebaseId)!.push(words.slice(at, at + 6).join(" "));
            }
            const vector = embedder.embedOne(content).map((value) => Math.round(value * 1e5) / 1e5);
            const at = params.length;
            values.push(
              `($${at + 1}, $${at + 2}, $${at + 3}, $${at + 4}, $${at + 5}, 'local:hash:384', $${at + 6}::vector, to_tsvector('english', $${at + 4}))`,
            );
            params.push(
              document.id,
              part.knowledgebaseId,
              ordinal,
              content,
              Math.round(content.length / 4.5),
              toVectorLiteral(vector),
            );
          }
          // Two statements in flight: PostgreSQL parses vectors on one core while this process makes the next batch.
          const insert = pool.query(
            `INSERT INTO "document_chunks" ("documentId", "knowledgebaseId", "ordinal", "content", "tokenCount", "embedder", "embedding", "searchVector")
             VALUES ${values.join(", ")}`,
            params,
          );
          pending.add(insert);
          void insert.finally(() => pending.delete(insert));
          if (pending.size >= 2) await Promise.race(pending);
          inserted += values.length;
        }
      }
      process.stdout.write(`\rloaded ${inserted} / ${total} chunks`);
    }
    await Promise.all(pending);
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const indexTimes: string[] = [];
    const session = await pool.connect();
    try {
      await session.query("SET maintenance_work_mem = '1GB'");
      for (const { indexname, indexdef } of indexes.rows) {
        const started = performance.now();
        await session.query(indexdef);
        indexTimes.push(`${indexname} ${((performance.now() - started) / 1000).toFixed(1)} s`);
      }
      // What autovacuum would have done by now; without it the planner takes the tables for empty.
      await session.query(`ANALYZE "document_chunks", "documents", "knowledgebases"`);
    } finally {
      session.release();
    }
    console.log(
      `\n\nRetrieval: ${total} chunks (${options.chunks} in the searched knowledge base, ${SMALL_KNOWLEDGEBASES} x ${SMALL_KNOWLEDGEBASE_CHUNKS} in others), ` +
        `loaded in ${loadSeconds.toFixed(0)} s; index builds: ${indexTimes.join(", ")}`,
    );

    for (const [knowledgebaseId, label] of [
      [main.id, `large knowledge base (${options.chunks} chunks)`],
      [smalls[0]!.id, `small knowledge base (${SMALL_KNOWLEDGEBASE_CHUNKS} of the ${total} chunks)`],
    ] as const) {
      const queries = questions.get(knowledgebaseId)!;
      const search = (target: typeof app, query: string, mode: SearchMode) =>
        target.services.knowledge.search(account.id, knowledgebaseId, query, { limit: LIMIT, mode });
      // Warm both paths (connections, plans, pages in the buffer cache) before timing.
      for (const query of queries.slice(0, 3))
        for (const mode of MODES) {
          await search(app, query, mode);
          await search(exactApp, query, mode);
        }
      const usageBefore = await indexUsage(pool);
      console.log(`\n${label}: ${queries.length} queries (6 words from a random passage), limit ${LIMIT}`);
      console.log(
        `${"mode".padEnd(8)} ${"indexed p50".padStart(12)} ${"p95".padStart(9)}   ${"exact p50".padStart(10)} ${"p95".padStart(9)}   ${"recall@5".padStart(8)} ${"results".padStart(8)} ${"source in top 5".padStart(16)}`,
      );
      for (const mode of MODES) {
        const indexed: number[] = [];
        const exact: number[] = [];
        let overlap = 0;
        let expected = 0;
        let returned = 0;
        let found = 0;
        for (const [position, query] of queries.entries()) {
          const time = async (target: typeof app, into: number[]) => {
            const started = performance.now();
            const passages = await search(target, query, mode);
            into.push(performance.now() - started);
            return passages;
          };
          // Alternate which side runs first, so neither always finds the other's pages cached.
          let fast: Passage[];
          let slow: Passage[];
          if (position % 2 === 0) {
            fast = await time(app, indexed);
            slow = await time(exactApp, exact);
          } else {
            slow = await time(exactApp, exact);
            fast = await time(app, indexed);
          }
          const truth = new Set(slow.map((passage) => passage.chunkId));
          overlap += fast.filter((passage) => truth.has(passage.chunkId)).length;
          expected += truth.size;
          returned += fast.length;
          if (fast.some((passage) => passage.content.toLowerCase().replace(/\./g, "").includes(query)))
            found++;
        }
        indexed.sort((a, b) => a - b);
        exact.sort((a, b) => a - b);
        const ms = (value: number) => `${value.toFixed(1)} ms`;
        console.log(
          `${mode.padEnd(8)} ${ms(percentile(indexed, 50)).padStart(12)} ${ms(percentile(indexed, 95)).padStart(9)}   ${ms(percentile(exact, 50)).padStart(10)} ${ms(percentile(exact, 95)).padStart(9)}   ${(expected ? overlap / expected : 1).toFixed(3).padStart(8)} ${(returned / queries.length).toFixed(2).padStart(8)} ${`${((found / queries.length) * 100).toFixed(0)}%`.padStart(16)}`,
        );
      }
      const usageAfter = await indexUsage(pool);
      console.log(
        `index scans during the timed queries: ${Object.entries(usageAfter)
          .map(([name, scans]) => `${name} ${scans - (usageBefore[name] ?? 0)}`)
          .join(", ")}`,
      );
    }
    console.log(
      "recall@5: share of the exact top 5 that the indexed search also returned; results: passages returned per query (of 5);\n" +
        "source in top 5: the passage the question was taken from is among the indexed results.",
    );
  } finally {
    await exactApp.close();
    await app.close();
  }
}

/** Index scans so far per search index (statistics are flushed about once a second). */
async function indexUsage(pool: NonNullable<Awaited<ReturnType<typeof buildApp>>["db"]["pgPool"]>) {
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const { rows } = await pool.query<{ name: string; scans: string }>(
    `SELECT indexrelname AS name, idx_scan AS scans FROM pg_stat_user_indexes
      WHERE indexrelname IN ('document_chunks_embedding_384_hnsw', 'document_chunks_search_vector_gin')`,
  );
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.scans)]));
}
