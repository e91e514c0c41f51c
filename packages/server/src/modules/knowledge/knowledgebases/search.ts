import type { Database } from "../../../db/client.ts";
import { EXACT_SEARCH, QUESTION_VECTOR_CACHE } from "../../../limits.ts";
import { timed } from "../../../logger.ts";
import { type Embedder, nonAsciiWords, toVectorBinary, words } from "../../embeddings/embedder.ts";

export type SearchMode = "vector" | "keyword" | "hybrid";

export interface Passage {
  chunkId: number;
  content: string;
  /** Where in its document the passage is: "page 3", a page URL, or null for a single-part file. */
  source: string | null;
  /** Higher is better. Vector: cosine similarity; keyword: full-text rank; hybrid: fused rank score. */
  score: number;
  /**
   * The score on one scale for every mode, from 0 to 1, for people reading results. Vector: the cosine
   * similarity (below 0 reads as 0); keyword: rank / (rank + 1), PostgreSQL's own normalisation of
   * `ts_rank_cd`; hybrid: the fused score over the best one possible (first in every ranking), so 1 is
   * "first by meaning and by words", and a passage found by one ranking only reaches at most one half.
   */
  relevance: number;
  documentId: number;
  documentName: string;
}

/** Reciprocal rank fusion constant: damps the weight of top ranks so neither list dominates. */
const RRF_K = 60;
/** Hybrid search fuses this many passages of each ranking (bounded work whatever the limit). */
const FUSION_DEPTH = 50;
/** HNSW indexes exist for dimensions up to this (pgvector's limit for the vector type). */
const MAX_INDEXED_DIMENSIONS = 2000;
/**
 * HNSW candidate list size (pgvector's default is 40). In bench/ingest (100,000 passages), recall@5
 * against exact search rose from ~0.35 at 40 to ~0.7 at 200 and ~0.8 at 400, at 8, 9 to 14 and 16 to
 * 19 ms a query beside 400 to 500 ms for the exact scan. At least twice the limit, so one pass can hold
 * the answer.
 */
const MIN_EF_SEARCH = 200;
/**
 * Full-text search ranks at most this many matching passages: `ts_rank_cd` reads each one's whole
 * tsvector, so ranking every match of a common word costs seconds on a large knowledge base.
 */
const KEYWORD_CANDIDATES = 2_000;
/**
 * A lexeme in a larger share of all passages than this (PostgreSQL's statistics of the tsvector
 * column) is too common to pick candidates by when the question's words are OR-ed; it still counts
 * in the ranking.
 */
const COMMON_LEXEME_SHARE = 0.02;

interface Row {
  chunkId: number;
  content: string;
  source: string | null;
  score: number;
  documentId: number;
  documentName: string;
}

/**
 * The vectors of the latest questions, least recently used dropped first: customers ask the same
 * things word for word ("opening hours?"), and each embedding is an HTTP round trip with 1,536
 * numbers as JSON. Kept per account, so that no account can tell from the time an answer takes
 * whether another asked the same. The embedder is fixed for the life of the server.
 */
class QuestionVectors {
  private readonly vectors = new Map<string, number[]>();

  constructor(private readonly embedder: Embedder) {}

  async get(accountId: number, question: string): Promise<number[]> {
    if (question.length > QUESTION_VECTOR_CACHE.maxChars) return this.embed(question);
    const key = `${accountId}:${question}`;
    const cached = this.vectors.get(key);
    if (cached) {
      this.vectors.delete(key);
      this.vectors.set(key, cached);
      return cached;
    }
    const vector = await this.embed(question);
    this.vectors.set(key, vector);
    if (this.vectors.size > QUESTION_VECTOR_CACHE.entries)
      this.vectors.delete(this.vectors.keys().next().value!);
    return vector;
  }

  private async embed(question: string): Promise<number[]> {
    const [vector] = await timed("embedding", () => this.embedder.embed([question]));
    return vector ?? [];
  }
}

/** Numbered parameters of one statement, added as its text is written. */
class Parameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * Whether each knowledge base is small enough for an exact scan (EXACT_SEARCH), learnt by a bounded
 * count at most every `sizeTtlMs`. A size that lags only costs speed: a grown knowledge base is still
 * searched exactly (correct, slower) until its size is counted again, and a shrunk one is planned
 * each time, as every search was before.
 */
class KnowledgebaseSizes {
  private readonly known = new Map<number, { small: boolean; until: number }>();

  constructor(
    private readonly db: Database,
    readonly maxPassages: number,
  ) {}

  async small(knowledgebaseId: number): Promise<boolean> {
    const now = performance.now();
    const known = this.known.get(knowledgebaseId);
    if (known && known.until > now) return known.small;
    const [row] = await this.db.withConnection((sql) =>
      sql.prepared<{ passages: number }>(
        `SELECT count(*)::int AS "passages"
         FROM (SELECT 1 FROM "document_chunks" WHERE "knowledgebaseId" = $1 LIMIT $2) c`,
        [knowledgebaseId, this.maxPassages + 1],
      ),
    );
    const small = Number(row?.passages ?? 0) <= this.maxPassages;
    this.known.delete(knowledgebaseId);
    this.known.set(knowledgebaseId, { small, until: now + EXACT_SEARCH.sizeTtlMs });
    if (this.known.size > EXACT_SEARCH.sizesKept) this.known.delete(this.known.keys().next().value!);
    return small;
  }
}

export class KnowledgeSearch {
  /** The `hnsw.ef_search` each pooled connection's session was given by `withIndexSettings`. */
  private readonly efSearchBySession = new WeakMap<object, number>();
  private readonly questionVectors: QuestionVectors;
  private readonly sizes: KnowledgebaseSizes;

  /** `exactMaxPassages`: the largest knowledge base searched by the exact scan (EXACT_SEARCH). */
  constructor(
    private readonly db: Database,
    private readonly embedder: Embedder,
    exactMaxPassages: number = EXACT_SEARCH.maxPassages,
  ) {
    this.questionVectors = new QuestionVectors(embedder);
    this.sizes = new KnowledgebaseSizes(db, exactMaxPassages);
  }

  /**
   * The best passages of one of the account's knowledge bases for `query` (none when it is another
   * account's). Every ranking the mode needs is computed by one statement, so a reply pays one round
   * trip for retrieval (plus, on a connection's first vector search, its index settings) instead of one
   * per step: on a loaded machine each round trip costs a system call on both sides. The rankings
   * carry passage ids only, and hybrid search fuses them in the statement too: only the `limit`
   * passages returned are read whole. Fusing in the app took 50 passages of each ranking over the wire
   * (about 150 KB for 4 passages used), which was most of the cost of a search on the embedded store.
   *
   * A small knowledge base (EXACT_SEARCH), and every one on the embedded store (which keeps no vector
   * index), is searched by an exact scan written so that no plan can read the HNSW index, so it can be
   * a prepared statement on both stores (whether PostgreSQL then plans it once or, as measured in
   * bench/reply/search-cost.ts, keeps planning each call is its choice; no plan of it can go wrong). A larger
   * one on PostgreSQL is planned each time, seeing which knowledge base it searches: HNSW when the
   * knowledge base is a large share of the passages, its own index and an exact sort otherwise.
   */
  async search(
    scope: { accountId: number; knowledgebaseId: number },
    query: string,
    limit: number,
    mode: SearchMode,
  ): Promise<Passage[]> {
    const depth = mode === "hybrid" ? Math.max(limit, FUSION_DEPTH) : limit;
    const small = await this.sizes.small(scope.knowledgebaseId);
    const exact = small || this.db.kind === "pglite";
    const parameters = new Parameters();
    const knowledgebaseId = parameters.add(scope.knowledgebaseId);
    const accountId = parameters.add(scope.accountId);
    const rankLimit = parameters.add(depth);
    const steps: string[] = [];
    const rankings: string[] = [];
    if (mode !== "keyword") {
      const embedding = await this.questionVectors.get(scope.accountId, query);
      this.vectorRanking(
        parameters,
        { knowledgebaseId, accountId, rankLimit },
        embedding,
        exact,
        steps,
        rankings,
      );
    }
    if (mode !== "vector") {
      this.keywordRanking(
        parameters,
        { knowledgebaseId, accountId, rankLimit },
        query,
        small,
        steps,
        rankings,
      );
    }
    if (rankings.length === 0) return [];
    // Reciprocal rank fusion: each ranking adds 1 / (RRF_K + rank) for the passages it holds (ranks from 1).
    const best =
      mode === "hybrid"
        ? `SELECT f."chunkId", f."score", row_number() OVER (ORDER BY f."score" DESC, f."chunkId") AS "rank"
           FROM (SELECT r."chunkId", sum(1::float8 / (${RRF_K} + r."rank")) AS "score"
                 FROM (${rankings.join("\nUNION ALL\n")}) r GROUP BY r."chunkId") f
           ORDER BY f."score" DESC, f."chunkId" LIMIT ${parameters.add(limit)}`
        : rankings[0]!;
    const statement = `WITH ${steps.join(",\n")},
      best AS (${best})
      SELECT c."id" AS "chunkId", c."content", c."source", best."score", c."documentId", d."name" AS "documentName"
      FROM best JOIN "document_chunks" c ON c."id" = best."chunkId" JOIN "documents" d ON d."id" = c."documentId"
      ORDER BY best."rank"`;
    const rows = await timed("search", () =>
      exact
        ? this.db.withConnection((sql) => sql.prepared<Row>(statement, parameters.values))
        : mode === "keyword"
          ? this.db.withConnection((sql) => sql.query<Row>(statement, parameters.values))
          : this.withIndexSettings(Math.max(MIN_EF_SEARCH, depth * 2), statement, parameters.values),
    );
    const bestFused = mode === "hybrid" ? rankings.length / (RRF_K + 1) : 1;
    return rows.map((row) => toPassage(row, mode, bestFused));
  }

  /**
   * Runs `statement` with the HNSW index settings of a vector search (PostgreSQL). They are kept in
   * the pooled connection's session and set only when it has not got them yet: a transaction scoping
   * them cost two more round trips per search. Only HNSW scans read them, and every HNSW scan is a
   * search made here, which sets what it needs first.
   */
  private async withIndexSettings(efSearch: number, statement: string, values: unknown[]): Promise<Row[]> {
    const wanted = Math.trunc(efSearch);
    return this.db.withConnection(async (sql) => {
      if (this.efSearchBySession.get(sql.session) !== wanted) {
        await sql.exec(
          `SELECT set_config('hnsw.iterative_scan', 'relaxed_order', false), set_config('hnsw.ef_search', '${wanted}', false)`,
        );
        this.efSearchBySession.set(sql.session, wanted);
      }
      return sql.query<Row>(statement, values);
    });
  }

  /**
   * Cosine similarity over the chunks of the current embedder. The ORDER BY is the HNSW index's own
   * expression and its WHERE repeats the index's predicate, so PostgreSQL can read the index in
   * distance order; the knowledge-base and document filters are applied to that stream, and the
   * iterative scan keeps reading until `limit` passages pass them. For a knowledge base that is a small
   * share of the table the planner prefers the knowledgebaseId index and an exact sort (extended
   * statistics of migration 0003 give it the row count), which is both exact and fast.
   * `relaxed_order` may return the index's results slightly out of order; the ranking sorts them.
   * `exact`: the distance to the column as it is (not cast to the index's expression), so no plan can
   * read the index; the same distances, as the cast only checks the dimensions the WHERE has checked.
   */
  private vectorRanking(
    parameters: Parameters,
    scope: { knowledgebaseId: string; accountId: string; rankLimit: string },
    embedding: number[],
    exact: boolean,
    steps: string[],
    rankings: string[],
  ): void {
    const dims = this.embedder.dimensions;
    const question = parameters.add(toVectorBinary(embedding));
    const embedder = parameters.add(this.embedder.id);
    const distance = `${exact ? `c."embedding"` : `c."embedding"::vector(${dims})`} <=> ${question}::vector(${dims})`;
    steps.push(`nearest AS MATERIALIZED (
         SELECT c."id", c."documentId", ${distance} AS "distance"
         FROM "document_chunks" c
         WHERE vector_dims(c."embedding") = ${dims} AND c."knowledgebaseId" = ${scope.knowledgebaseId}
           AND c."embedder" = ${embedder}
           AND EXISTS (SELECT 1 FROM "documents" d WHERE d."id" = c."documentId" AND d."status" = 'active')
         ORDER BY ${distance}
         LIMIT ${scope.rankLimit})`);
    rankings.push(`(SELECT row_number() OVER (ORDER BY n."distance", n."id") AS "rank", n."id" AS "chunkId",
              1 - n."distance" AS "score"
       FROM nearest n JOIN "documents" d ON d."id" = n."documentId" AND d."accountId" = ${scope.accountId}
       ORDER BY n."distance", n."id")`);
  }

  /**
   * Full-text ranking by `ts_rank_cd` against the question's words OR-ed (a question rarely shares all
   * its words with the answer), over a bounded set of candidates, widened step by step while there are
   * fewer than `limit`:
   * 1. passages containing every word;
   * 2. passages containing any of the words that are not common (see COMMON_LEXEME_SHARE);
   * 3. passages containing any of the words.
   * Each step takes at most KEYWORD_CANDIDATES passages, so a question made of very common words ranks
   * a sample of their matches rather than all of them. The words become lexemes as PostgreSQL's English
   * configuration makes them (stemmed, stop words dropped), plus non-ASCII words as exact lexemes (see
   * nonAsciiWords); their share of passages comes from the column's statistics (absent: rare, or never
   * analysed). No lexeme at all (only stop words): no passage.
   *
   * `small`: a knowledge base of at most `exactMaxPassages` (fewer than KEYWORD_CANDIDATES), where
   * no step can reach its bound, so the steps' candidates are found by one pass over its passages
   * instead of one scan per step: each `@@` and `ts_rank_cd` read a passage's tsvector from the toast
   * table and decompressed it again (four times a passage), now read once into the pass. The same
   * candidates, scores and order.
   */
  private keywordRanking(
    parameters: Parameters,
    scope: { knowledgebaseId: string; accountId: string; rankLimit: string },
    query: string,
    small: boolean,
    steps: string[],
    rankings: string[],
  ): void {
    const exotic = nonAsciiWords(query);
    const ascii = [...new Set(words(query))].filter((word) => !exotic.includes(word));
    if (ascii.length === 0 && exotic.length === 0) return;
    const text = parameters.add(ascii.join(" "));
    const exact = parameters.add(exotic);
    const commonShare = parameters.add(COMMON_LEXEME_SHARE);
    const { knowledgebaseId, rankLimit } = scope;
    const active = `EXISTS (SELECT 1 FROM "documents" d WHERE d."id" = c."documentId" AND d."status" = 'active')`;
    steps.push(
      `lexemes AS (
         SELECT DISTINCT lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ${text})) || ${exact}::text[]) AS lexeme
       )`,
      `shares AS (
         SELECT e.lexeme, e.share
         FROM pg_stats s, unnest(s."most_common_elems"::text::text[], s."most_common_elem_freqs") AS e(lexeme, share)
         WHERE s."schemaname" = current_schema() AND s."tablename" = 'document_chunks' AND s."attname" = 'searchVector'
       )`,
      `queries AS MATERIALIZED (
         SELECT string_agg(quote_literal(l.lexeme), ' & ')::tsquery AS "everyWord",
                string_agg(quote_literal(l.lexeme), ' | ')::tsquery AS "anyWord",
                string_agg(quote_literal(l.lexeme), ' | ') FILTER (WHERE coalesce(s.share, 0) <= ${commonShare})::tsquery AS "anyRareWord"
         FROM lexemes l LEFT JOIN shares s ON s.lexeme = l.lexeme
       )`,
    );
    if (small && this.sizes.maxPassages < KEYWORD_CANDIDATES) {
      // `|| ''` makes a copy of the tsvector, read from the toast table once; every use below reads the copy.
      steps.push(
        `keyword_texts AS MATERIALIZED (
           SELECT c."id", c."documentId", c."searchVector" || ''::tsvector AS "words" FROM "document_chunks" c
           WHERE c."knowledgebaseId" = ${knowledgebaseId} AND ${active}
         )`,
        `keyword_matches AS MATERIALIZED (
           SELECT t."id", t."documentId", (t."words" @@ q."everyWord") IS TRUE AS "everyWord",
                  (t."words" @@ q."anyRareWord") IS TRUE AS "anyRareWord", ts_rank_cd(t."words", q."anyWord") AS "score"
           FROM keyword_texts t, queries q WHERE t."words" @@ q."anyWord"
         )`,
        `keyword_counts AS MATERIALIZED (
           SELECT count(*) FILTER (WHERE "everyWord") AS "everyWord",
                  count(*) FILTER (WHERE "everyWord" OR "anyRareWord") AS "anyRareWord"
           FROM keyword_matches
         )`,
      );
      rankings.push(`(SELECT row_number() OVER (ORDER BY m."score" DESC, m."id") AS "rank", m."id" AS "chunkId", m."score"
         FROM keyword_matches m CROSS JOIN keyword_counts n
           JOIN "documents" d ON d."id" = m."documentId" AND d."accountId" = ${scope.accountId}
         WHERE CASE WHEN n."everyWord" >= ${rankLimit} THEN m."everyWord"
                    WHEN n."anyRareWord" >= ${rankLimit} THEN m."everyWord" OR m."anyRareWord"
                    ELSE true END
         ORDER BY m."score" DESC, m."id"
         LIMIT ${rankLimit})`);
      return;
    }
    const candidates = parameters.add(KEYWORD_CANDIDATES);
    steps.push(
      `every_word AS (
         SELECT c."id" FROM "document_chunks" c
         WHERE c."knowledgebaseId" = ${knowledgebaseId} AND c."searchVector" @@ (SELECT "everyWord" FROM queries)
           AND ${active}
         LIMIT ${candidates}
       )`,
      `any_rare_word AS (
         SELECT c."id" FROM "document_chunks" c
         WHERE (SELECT count(*) FROM every_word) < ${rankLimit}
           AND c."knowledgebaseId" = ${knowledgebaseId} AND c."searchVector" @@ (SELECT "anyRareWord" FROM queries)
           AND ${active}
         LIMIT ${candidates}
       )`,
      `any_word AS (
         SELECT c."id" FROM "document_chunks" c
         WHERE (SELECT count(*) FROM (SELECT "id" FROM every_word UNION SELECT "id" FROM any_rare_word) found) < ${rankLimit}
           AND c."knowledgebaseId" = ${knowledgebaseId} AND c."searchVector" @@ (SELECT "anyWord" FROM queries)
           AND ${active}
         LIMIT ${candidates}
       )`,
      `candidates AS (
         SELECT "id" FROM every_word UNION SELECT "id" FROM any_rare_word UNION SELECT "id" FROM any_word
       )`,
    );
    rankings.push(`(SELECT row_number() OVER (ORDER BY ts_rank_cd(c."searchVector", (SELECT "anyWord" FROM queries)) DESC, c."id") AS "rank", c."id" AS "chunkId",
              ts_rank_cd(c."searchVector", (SELECT "anyWord" FROM queries)) AS "score"
       FROM candidates JOIN "document_chunks" c ON c."id" = candidates."id"
         JOIN "documents" d ON d."id" = c."documentId" AND d."accountId" = ${scope.accountId}
       ORDER BY "score" DESC, c."id"
       LIMIT ${rankLimit})`);
  }

  /**
   * The vector index, decided per store (measurements in docs/knowledge-bases.md). PostgreSQL keeps
   * HNSW: the migration indexes the built-in and OpenAI default dimensions, and another configured one
   * gets its own. The embedded store keeps none: PGlite maintains HNSW row by row in WebAssembly, two
   * thirds of the cost of storing a passage, and holds its single backend meanwhile, while an exact
   * scan of one knowledge base at the sizes an embedded install holds is fast and never misses a passage.
   */
  async arrangeVectorIndexes(): Promise<void> {
    if (this.db.kind === "pglite") {
      await this.db.withConnection(async (sql) => {
        const indexes = await sql.query<{ indexname: string }>(
          `SELECT indexname FROM pg_indexes
           WHERE schemaname = current_schema() AND tablename = 'document_chunks'
             AND indexname LIKE 'document\\_chunks\\_embedding\\_%\\_hnsw'`,
        );
        for (const { indexname } of indexes) await sql.exec(`DROP INDEX IF EXISTS "${indexname}"`);
      });
      return;
    }
    const dims = this.embedder.dimensions;
    if (dims > MAX_INDEXED_DIMENSIONS) return;
    await this.db.prisma.$executeRawUnsafe(
      `CREATE INDEX IF NOT EXISTS "document_chunks_embedding_${dims}_hnsw"
       ON "document_chunks" USING hnsw (("embedding"::vector(${dims})) vector_cosine_ops)
       WHERE vector_dims("embedding") = ${dims}`,
    );
  }
}

function toPassage(row: Row, mode: SearchMode, bestFused: number): Passage {
  const score = Number(row.score);
  const relevance = mode === "vector" ? score : mode === "keyword" ? score / (score + 1) : score / bestFused;
  return {
    chunkId: Number(row.chunkId),
    content: row.content,
    source: row.source,
    score,
    relevance: Math.min(1, Math.max(0, relevance)),
    documentId: Number(row.documentId),
    documentName: row.documentName,
  };
}
