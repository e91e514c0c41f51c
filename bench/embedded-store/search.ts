/**
 * Vector search on the embedded store with and without an HNSW index (issue #11).
 *
 *   pnpm exec tsx bench/embedded-store/search.ts [--sizes=10000,50000,200000] [--hnsw-up-to=50000] [--queries=20]
 *
 * Starts the app on an in-memory PGlite, loads synthetic topical passages (bench/ingest's generator,
 * embedded with the offline embedder) into one large knowledge base, after a small one of 1,000, and at
 * each size times `knowledgebases.search` (vector mode, limit 5) without the HNSW index, i.e. the exact
 * search the embedded store now runs. Up to `--hnsw-up-to` chunks it then builds the HNSW index of
 * migration 0002, times the same questions with it and reports recall@5 against the exact results, in
 * both knowledge bases (the small one is a filtered search: HNSW reads the whole table's graph and keeps
 * the rows of one knowledge base). Building HNSW in WebAssembly is slow, hence the bound. The exact search
 * is also timed with the vectors stored out of line, as before migration 0012 (the table rewritten each
 * way with VACUUM FULL).
 */
import { buildApp, createLogger, loadConfig } from "@voxgate/server";
import { LocalHashEmbedder, toVectorLiteral } from "../../packages/server/src/modules/embeddings/embedder.ts";
import { seededRandom } from "../../packages/server/src/seeded-random.ts";
import { ProseGenerator } from "../ingest/fixtures.ts";
import { percentile } from "../ingest/measure.ts";
import { TopicalProse } from "../ingest/retrieval.ts";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key!, value ?? ""];
  }),
);
const SIZES = (flags.get("sizes") ?? "10000,50000,200000").split(",").map(Number);
const HNSW_UP_TO = Number(flags.get("hnsw-up-to") ?? 50_000);
const QUERIES = Number(flags.get("queries") ?? 20);
const SMALL_CHUNKS = 1_000;
const ROWS_PER_INSERT = 1_000;
const PASSAGE_WORDS = 120;
const HNSW_INDEX = `CREATE INDEX "document_chunks_embedding_384_hnsw"
  ON "document_chunks" USING hnsw (("embedding"::vector(384)) vector_cosine_ops)
  WHERE vector_dims("embedding") = 384`;

const config = loadConfig({ PORT: "0", LOG_LEVEL: "silent", VOXGATE_SEED_DEMO: "false" });
const app = await buildApp(config, {
  logger: createLogger("silent"),
  database: { kind: "pglite", dataDir: undefined },
});
try {
  const { account } = await app.services.accounts.create({
    email: "search@example.com",
    password: "benchmark-pw",
  });
  const small = await app.services.knowledgebases.create(account.id, { name: "Small" });
  const large = await app.services.knowledgebases.create(account.id, { name: "Large" });
  const embedder = new LocalHashEmbedder();
  const prose = new ProseGenerator(2026);
  const topical = new TopicalProse(prose, seededRandom(7));
  const random = seededRandom(99);
  const questions = new Map<number, string[]>([
    [small.id, []],
    [large.id, []],
  ]);
  const counts = new Map<number, number>([
    [small.id, 0],
    [large.id, 0],
  ]);
  // Vector search only: the full-text index would triple the load time and plays no part.
  await app.db.withConnection((sql) =>
    sql.exec(
      `DROP INDEX IF EXISTS "document_chunks_embedding_384_hnsw"; DROP INDEX IF EXISTS "document_chunks_search_vector_gin"`,
    ),
  );

  const load = async (knowledgebaseId: number, upTo: number) => {
    const document = await app.db.prisma.document.create({
      data: {
        accountId: account.id,
        knowledgebaseId,
        name: `Synthetic ${upTo}`,
        type: "txt",
        status: "active",
      },
    });
    const started = performance.now();
    const from = counts.get(knowledgebaseId)!;
    for (let start = from; start < upTo; start += ROWS_PER_INSERT) {
      const content: string[] = [];
      const embedding: string[] = [];
      for (let index = start; index < Math.min(upTo, start + ROWS_PER_INSERT); index++) {
        const passage = topical.passage(PASSAGE_WORDS);
        // Questions quote 6 words of passages spread over what is loaded at the first size.
        if (questions.get(knowledgebaseId)!.length < QUERIES && random() < (QUERIES * 2) / SMALL_CHUNKS) {
          const words = passage.toLowerCase().replace(/\./g, "").split(" ");
          questions.get(knowledgebaseId)!.push(words.slice(40, 46).join(" "));
        }
        content.push(passage);
        embedding.push(
          toVectorLiteral(embedder.embedOne(passage).map((value) => Math.round(value * 1e5) / 1e5)),
        );
      }
      await app.db.withConnection((sql) =>
        sql.query(
          `INSERT INTO "document_chunks" ("documentId", "knowledgebaseId", "ordinal", "content", "tokenCount", "embedder", "embedding", "searchVector")
           SELECT $1, $2, $3 + u.ordinality, u.content, 1, 'local:hash:384', u.embedding::vector, to_tsvector('english', u.content)
           FROM unnest($4::text[], $5::text[]) WITH ORDINALITY AS u(content, embedding, ordinality)`,
          [document.id, knowledgebaseId, start, content, embedding],
        ),
      );
      process.stdout.write(`\rloaded ${start + content.length} / ${upTo}`);
    }
    counts.set(knowledgebaseId, upTo);
    await app.db.withConnection((sql) => sql.exec(`ANALYZE "document_chunks"`));
    return (performance.now() - started) / 1000;
  };

  const time = async (knowledgebaseId: number) => {
    const latencies: number[] = [];
    const results: number[][] = [];
    const qs = questions.get(knowledgebaseId)!;
    for (const question of qs.slice(0, 2))
      await app.services.knowledgebases.search(account.id, knowledgebaseId, question, {
        limit: 5,
        mode: "vector",
      });
    for (const question of qs) {
      const started = performance.now();
      const passages = await app.services.knowledgebases.search(account.id, knowledgebaseId, question, {
        limit: 5,
        mode: "vector",
      });
      latencies.push(performance.now() - started);
      results.push(passages.map((passage) => passage.chunkId));
    }
    latencies.sort((a, b) => a - b);
    return { p50: percentile(latencies, 50), p95: percentile(latencies, 95), results };
  };

  await load(small.id, SMALL_CHUNKS);
  console.log(
    `\nEmbedded store (PGlite in memory), vector search, limit 5, ${QUERIES} questions; passages of ${PASSAGE_WORDS} words, 384 dimensions; a small knowledge base of ${SMALL_CHUNKS} beside the large one`,
  );
  for (const size of SIZES) {
    const loadSeconds = await load(large.id, size);
    const searched = [
      { label: `large (${size})`, id: large.id },
      { label: `small (${SMALL_CHUNKS} of ${size + SMALL_CHUNKS})`, id: small.id },
    ];
    // As before migration 0012: vectors out of line (pgvector's default), the table rewritten to apply it.
    const restore = async (storage: "EXTERNAL" | "MAIN") => {
      const started = performance.now();
      await app.db.withConnection((sql) =>
        sql.exec(`ALTER TABLE "document_chunks" ALTER COLUMN "embedding" SET STORAGE ${storage}`),
      );
      await app.db.withConnection((sql) => sql.exec(`VACUUM FULL ANALYZE "document_chunks"`));
      return (performance.now() - started) / 1000;
    };
    await restore("EXTERNAL");
    const outOfLine = [];
    for (const { id } of searched) outOfLine.push(await time(id));
    const rewriteSeconds = await restore("MAIN");
    const exact = [];
    for (const { id } of searched) exact.push(await time(id));
    const hnsw: string[] = searched.map(() => "not built");
    if (size <= HNSW_UP_TO) {
      const built = performance.now();
      await app.db.withConnection((sql) => sql.exec(HNSW_INDEX));
      const buildSeconds = (performance.now() - built) / 1000;
      for (const [position, { id }] of searched.entries()) {
        const indexed = await time(id);
        let kept = 0;
        let total = 0;
        for (const [question, expected] of exact[position]!.results.entries()) {
          total += expected.length;
          kept += expected.filter((chunkId) => indexed.results[question]!.includes(chunkId)).length;
        }
        hnsw[position] =
          `p50 ${indexed.p50.toFixed(1)} ms, p95 ${indexed.p95.toFixed(1)} ms, recall@5 ${(kept / total).toFixed(2)} (index built in ${buildSeconds.toFixed(0)} s)`;
      }
      await app.db.withConnection((sql) => sql.exec(`DROP INDEX "document_chunks_embedding_384_hnsw"`));
    }
    for (const [position, { label }] of searched.entries())
      console.log(
        `\n${label.padEnd(26)} exact: p50 ${exact[position]!.p50.toFixed(1)} ms, p95 ${exact[position]!.p95.toFixed(1)} ms | exact, vectors out of line (before 0012): p50 ${outOfLine[position]!.p50.toFixed(1)} ms, p95 ${outOfLine[position]!.p95.toFixed(1)} ms | HNSW: ${hnsw[position]} | loaded in ${loadSeconds.toFixed(0)} s, table rewritten in ${rewriteSeconds.toFixed(0)} s`,
      );
  }
} finally {
  await app.close();
}
