/**
 * Retrieval latency over a large knowledge base on PostgreSQL, through the real knowledge service,
 * beside the same service on connections where the planner may not use indexes (exact sequential
 * scans). Vector recall of HNSW is measured against those exact results on the same queries.
 */
import { buildApp, createLogger, loadConfig } from "@voxgate/server";
import { LocalHashEmbedder, toVectorLiteral } from "../../packages/server/src/modules/embeddings/embedder.ts";
import type { Passage, SearchMode } from "../../packages/server/src/modules/knowledge/index.ts";
import { seededRandom } from "../../packages/server/src/seeded-random.ts";
import { ProseGenerator } from "./fixtures.ts";
import { percentile } from "./measure.ts";

type App = Awaited<ReturnType<typeof buildApp>>;
type Pool = NonNullable<App["db"]["pgPool"]>;

const SMALL_KNOWLEDGEBASES = 5;
const SMALL_KNOWLEDGEBASE_CHUNKS = 1_000;
const CHUNKS_PER_DOCUMENT = 1_000;
/** Rows per INSERT … SELECT FROM unnest(arrays): one statement, one parse, a few MB of parameters. */
const ROWS_PER_INSERT = 2_000;
const LIMIT = 5;
const MODES: SearchMode[] = ["vector", "keyword", "hybrid"];
const SEARCH_INDEXES = [
  "document_chunks_embedding_384_hnsw",
  "document_chunks_search_vector_gin",
  "document_chunks_knowledgebaseId_idx",
];

/** A question and the passage it was made from. */
interface Question {
  text: string;
  kind: "quote" | "question";
  source: string;
}

export interface Corpus {
  accountId: number;
  knowledgebases: { id: number; label: string; questions: Question[] }[];
  total: number;
  timings: string;
}

export async function runRetrievalBenchmark(url: string, options: { chunks: number; queries: number }) {
  const { app, exactApp } = await openApps(url);
  try {
    const corpus = await loadCorpus(app, options);
    console.log(
      `\n\nRetrieval: ${corpus.total} chunks (${options.chunks} in the searched knowledge base, ${SMALL_KNOWLEDGEBASES} x ${SMALL_KNOWLEDGEBASE_CHUNKS} in others); ${corpus.timings}`,
    );
    await measureSearches(app, exactApp, corpus);
    await sweepEfSearch(app, corpus);
  } finally {
    await exactApp.close();
    await app.close();
  }
}

/** The app, and the same app on sessions that may not use index scans of any kind: exact, sequential. */
export async function openApps(url: string) {
  const config = loadConfig({
    PORT: "0",
    LOG_LEVEL: "silent",
    VOXGATE_SEED_DEMO: "false",
    DATABASE_URL: url,
  });
  const logger = createLogger("silent");
  const app = await buildApp(config, { logger, database: { kind: "postgres", url } });
  const exactUrl = new URL(url);
  exactUrl.searchParams.set("options", "-c enable_indexscan=off -c enable_bitmapscan=off");
  const exactApp = await buildApp(config, { logger, database: { kind: "postgres", url: exactUrl.href } });
  return { app, exactApp };
}

/**
 * `chunks` passages in one large knowledge base plus five small ones sharing the table and indexes,
 * embedded with the offline embedder. The search indexes are dropped during the load and rebuilt from
 * their own definitions afterwards, as a bulk import would do it.
 */
export async function loadCorpus(app: App, options: { chunks: number; queries: number }): Promise<Corpus> {
  const pool = app.db.pgPool!;
  const { account } = await app.services.accounts.create({
    email: "retrieval@example.com",
    password: "benchmark-pw",
  });
  const knowledgebases = app.services.knowledgebases;
  const main = await knowledgebases.create(account.id, { name: "Large" });
  const smalls = [];
  for (let index = 0; index < SMALL_KNOWLEDGEBASES; index++)
    smalls.push(await knowledgebases.create(account.id, { name: `Small ${index + 1}` }));
  const plan = [
    { knowledgebaseId: main.id, count: options.chunks },
    ...smalls.map((kb) => ({ knowledgebaseId: kb.id, count: SMALL_KNOWLEDGEBASE_CHUNKS })),
  ];
  const total = plan.reduce((sum, part) => sum + part.count, 0);

  const random = seededRandom(99);
  const pick = (count: number) =>
    new Set(Array.from({ length: options.queries }, () => Math.floor(random() * count)));
  const wanted = new Map([
    [main.id, pick(options.chunks)],
    [smalls[0]!.id, pick(SMALL_KNOWLEDGEBASE_CHUNKS)],
  ]);
  const questions = new Map<number, Question[]>([...wanted.keys()].map((id) => [id, []]));

  const indexes = await pool.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'document_chunks' AND indexname = ANY($1)`,
    [SEARCH_INDEXES.slice(0, 2)],
  );
  for (const { indexname } of indexes.rows) await pool.query(`DROP INDEX "${indexname}"`);

  const embedder = new LocalHashEmbedder();
  const prose = new ProseGenerator(2026);
  const topical = new TopicalProse(prose, seededRandom(7));
  const loadStarted = performance.now();
  let inserted = 0;
  const pending = new Set<Promise<unknown>>();
  for (const part of plan) {
    const documentIds: number[] = [];
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
      documentIds.push(document.id);
    }
    for (let start = 0; start < part.count; start += ROWS_PER_INSERT) {
      const columns = {
        documentId: [] as number[],
        ordinal: [] as number[],
        content: [] as string[],
        tokens: [] as number[],
        embedding: [] as string[],
      };
      for (let index = start; index < Math.min(part.count, start + ROWS_PER_INSERT); index++) {
        const content = topical.passage(200);
        if (wanted.get(part.knowledgebaseId)?.has(index))
          questions
            .get(part.knowledgebaseId)!
            .push(questionFrom(content, questions.get(part.knowledgebaseId)!.length, prose));
        columns.documentId.push(documentIds[Math.floor(index / CHUNKS_PER_DOCUMENT)]!);
        columns.ordinal.push(index % CHUNKS_PER_DOCUMENT);
        columns.content.push(content);
        columns.tokens.push(Math.round(content.length / 4.5));
        columns.embedding.push(
          toVectorLiteral(embedder.embedOne(content).map((value) => Math.round(value * 1e5) / 1e5)),
        );
      }
      // Two statements in flight: PostgreSQL parses vectors and text while this process makes the next batch.
      const insert = pool.query(
        `INSERT INTO "document_chunks" ("documentId", "knowledgebaseId", "ordinal", "content", "tokenCount", "embedder", "embedding", "searchVector")
         SELECT u.document, $2, u.ordinal, u.content, u.tokens, 'local:hash:384', u.embedding::vector, to_tsvector('english', u.content)
         FROM unnest($1::int[], $3::int[], $4::text[], $5::int[], $6::text[]) AS u(document, ordinal, content, tokens, embedding)`,
        [
          columns.documentId,
          part.knowledgebaseId,
          columns.ordinal,
          columns.content,
          columns.tokens,
          columns.embedding,
        ],
      );
      pending.add(insert);
      void insert.finally(() => pending.delete(insert));
      if (pending.size >= 2) await Promise.race(pending);
      inserted += columns.content.length;
      process.stdout.write(`\rloaded ${inserted} / ${total} chunks`);
    }
  }
  await Promise.all(pending);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const indexTimes: string[] = [];
  const session = await pool.connect();
  try {
    // One parallel worker beside the leader: two cores.
    await session.query("SET maintenance_work_mem = '1GB'; SET max_parallel_maintenance_workers = 1");
    for (const { indexname, indexdef } of indexes.rows) {
      const started = performance.now();
      await session.query(indexdef);
      indexTimes.push(`${indexname} ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
    // What autovacuum would have done by now; without it the planner takes the tables for empty.
    await session.query(`VACUUM ANALYZE "document_chunks", "documents", "knowledgebases"`);
  } finally {
    session.release();
  }
  return {
    accountId: account.id,
    total,
    timings: `loaded in ${loadSeconds.toFixed(0)} s; index builds: ${indexTimes.join(", ")}`,
    knowledgebases: [
      {
        id: main.id,
        label: `large knowledge base (${options.chunks} chunks)`,
        questions: questions.get(main.id)!,
      },
      {
        id: smalls[0]!.id,
        label: `small knowledge base (${SMALL_KNOWLEDGEBASE_CHUNKS} of the ${total} chunks)`,
        questions: questions.get(smalls[0]!.id)!,
      },
    ],
  };
}

const TOPICS = 2_000;
const WORDS_PER_TOPIC = 20;
const TOPIC_WORD_SHARE = 0.25;

/**
 * Passages about topics: a quarter of each passage's words come from its topic's own 20 words, the
 * rest from the Zipf prose. Real knowledge bases have passages on the same subject sharing terms;
 * without that, every passage is about equally far from every question and "nearest" means little
 * (an HNSW index then finds near-ties rather than the exact top 5).
 */
export class TopicalProse {
  private readonly topics: string[][];

  constructor(
    private readonly prose: ProseGenerator,
    private readonly random: () => number,
  ) {
    this.topics = Array.from({ length: TOPICS }, () => {
      const words = new Set<string>();
      while (words.size < WORDS_PER_TOPIC) {
        const word = prose.word();
        if (word.length > 5) words.add(word);
      }
      return [...words];
    });
  }

  passage(words: number): string {
    const topic = this.topics[Math.floor(this.random() * TOPICS)]!;
    return this.prose
      .paragraph(words)
      .split(" ")
      .map((word) =>
        this.random() < TOPIC_WORD_SHARE ? topic[Math.floor(this.random() * WORDS_PER_TOPIC)]! : word,
      )
      .join(" ");
  }
}

/**
 * Half the questions quote 6 consecutive words of the passage; the other half take 4 of them and add
 * 2 words the passage does not contain, as a real question shares only some words with its answer.
 */
function questionFrom(content: string, position: number, prose: ProseGenerator): Question {
  const words = content.toLowerCase().replace(/\./g, "").split(" ");
  const at = Math.floor(words.length / 2);
  if (position % 2 === 0) return { text: words.slice(at, at + 6).join(" "), kind: "quote", source: content };
  const present = new Set(words);
  const extra: string[] = [];
  while (extra.length < 2) {
    const word = prose.word();
    if (!present.has(word) && word.length > 3) extra.push(word);
  }
  return { text: [...words.slice(at, at + 4), ...extra].join(" "), kind: "question", source: content };
}

export async function measureSearches(app: App, exactApp: App, corpus: Corpus) {
  const pool = app.db.pgPool!;
  for (const { id: knowledgebaseId, label, questions } of corpus.knowledgebases) {
    const search = (target: App, query: string, mode: SearchMode) =>
      target.services.knowledgebases.search(corpus.accountId, knowledgebaseId, query, { limit: LIMIT, mode });
    // Warm both paths (connections, plans, pages in the buffer cache) before timing.
    for (const question of questions.slice(0, 2))
      for (const mode of MODES) {
        await search(app, question.text, mode);
        await search(exactApp, question.text, mode);
      }
    const usageBefore = await indexUsage(pool);
    console.log(
      `\n${label}: ${questions.length} queries (half 6 words quoted from a random passage, half 4 of them plus 2 absent words), limit ${LIMIT}`,
    );
    console.log(
      `${"mode".padEnd(8)} ${"indexed p50".padStart(12)} ${"p95".padStart(9)}   ${"exact p50".padStart(10)} ${"p95".padStart(9)}   ${"recall@5".padStart(8)} ${"score kept".padStart(10)} ${"results".padStart(8)} ${"source in top 5".padStart(16)}`,
    );
    for (const mode of MODES) {
      const indexed: number[] = [];
      const exact: number[] = [];
      let overlap = 0;
      let expected = 0;
      let indexedScore = 0;
      let exactScore = 0;
      let returned = 0;
      let found = 0;
      for (const [position, question] of questions.entries()) {
        const time = async (target: App, into: number[]) => {
          const started = performance.now();
          const passages = await search(target, question.text, mode);
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
        indexedScore += fast.reduce((sum, passage) => sum + passage.score, 0);
        exactScore += slow.reduce((sum, passage) => sum + passage.score, 0);
        returned += fast.length;
        if (fast.some((passage) => passage.content === question.source)) found++;
      }
      indexed.sort((a, b) => a - b);
      exact.sort((a, b) => a - b);
      const ms = (value: number) => `${value.toFixed(1)} ms`;
      console.log(
        `${mode.padEnd(8)} ${ms(percentile(indexed, 50)).padStart(12)} ${ms(percentile(indexed, 95)).padStart(9)}   ${ms(percentile(exact, 50)).padStart(10)} ${ms(percentile(exact, 95)).padStart(9)}   ${(expected ? overlap / expected : 1).toFixed(3).padStart(8)} ${(exactScore ? indexedScore / exactScore : 1).toFixed(3).padStart(10)} ${(returned / questions.length).toFixed(2).padStart(8)} ${`${((found / questions.length) * 100).toFixed(0)}%`.padStart(16)}`,
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
    "recall@5: share of the exact top 5 that the indexed search also returned; score kept: sum of the indexed results' scores\n" +
      "over the exact results' (below 1 when a miss is a worse passage, about 1 when it is a near-tie); results: passages returned per query (of 5);\n" +
      "source in top 5: the passage the question was taken from is among the indexed results.",
  );
}

/**
 * Vector search alone (the service's SQL shape, without the query embedding and transaction round
 * trips) on the large knowledge base for several `hnsw.ef_search` values: the recall/latency trade-off
 * behind the service's setting.
 */
export async function sweepEfSearch(app: App, corpus: Corpus) {
  const pool = app.db.pgPool!;
  const { id: knowledgebaseId, questions } = corpus.knowledgebases[0]!;
  const embedder = new LocalHashEmbedder();
  const vectors = questions.map((question) => toVectorLiteral(embedder.embedOne(question.text)));
  const nearest = async (settings: string, vector: string) => {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN; ${settings}`);
      const { rows } = await client.query<{ id: number }>(
        `SELECT c."id" FROM "document_chunks" c
         WHERE vector_dims(c."embedding") = 384 AND c."knowledgebaseId" = $1 AND c."embedder" = 'local:hash:384'
         ORDER BY c."embedding"::vector(384) <=> $2::vector(384) LIMIT ${LIMIT}`,
        [knowledgebaseId, vector],
      );
      await client.query("COMMIT");
      return rows.map((row) => row.id);
    } finally {
      client.release();
    }
  };
  const truth: Set<number>[] = [];
  for (const vector of vectors)
    truth.push(new Set(await nearest("SET LOCAL enable_indexscan = off;", vector)));
  console.log(
    `\nHNSW alone on the large knowledge base, ${vectors.length} queries, limit ${LIMIT} (iterative scan on):`,
  );
  console.log(
    `${"ef_search".padEnd(10)} ${"p50".padStart(9)} ${"p95".padStart(9)} ${"recall@5".padStart(9)}`,
  );
  for (const efSearch of [40, 100, 200, 400]) {
    const times: number[] = [];
    let found = 0;
    for (const [index, vector] of vectors.entries()) {
      const started = performance.now();
      const ids = await nearest(
        `SET LOCAL hnsw.ef_search = ${efSearch}; SET LOCAL hnsw.iterative_scan = relaxed_order;`,
        vector,
      );
      times.push(performance.now() - started);
      found += ids.filter((id) => truth[index]!.has(id)).length;
    }
    times.sort((a, b) => a - b);
    console.log(
      `${String(efSearch).padEnd(10)} ${`${percentile(times, 50).toFixed(1)} ms`.padStart(9)} ${`${percentile(times, 95).toFixed(1)} ms`.padStart(9)} ${(found / (vectors.length * LIMIT)).toFixed(3).padStart(9)}`,
    );
  }
}

/** Index scans so far per search index (statistics are flushed about once a second). */
async function indexUsage(pool: Pool) {
  await new Promise((resolve) => setTimeout(resolve, 1_200));
  const { rows } = await pool.query<{ name: string; scans: string }>(
    `SELECT indexrelname AS name, idx_scan AS scans FROM pg_stat_user_indexes WHERE indexrelname = ANY($1)`,
    [SEARCH_INDEXES],
  );
  return Object.fromEntries(rows.map((row) => [row.name, Number(row.scans)]));
}
