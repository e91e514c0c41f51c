import type { Database } from "../../../db/client.ts";
import { EXACT_SEARCH } from "../../../limits.ts";
import { timed } from "../../../logger.ts";
import type { Embedder } from "../../embeddings/embedder.ts";
import { keywordRanking, Parameters, vectorRanking } from "./rankings.ts";
import { KnowledgebaseSizes, QuestionVectors } from "./search-caches.ts";

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

interface Row {
  chunkId: number;
  content: string;
  source: string | null;
  score: number;
  documentId: number;
  documentName: string;
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
      vectorRanking(
        parameters,
        { knowledgebaseId, accountId, rankLimit },
        this.embedder,
        embedding,
        exact,
        steps,
        rankings,
      );
    }
    if (mode !== "vector") {
      keywordRanking(
        parameters,
        { knowledgebaseId, accountId, rankLimit },
        query,
        small,
        this.sizes.maxPassages,
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
