import type { Database } from "../../db/client.ts";
import { type Embedder, nonAsciiWords, toVectorLiteral, words } from "../embeddings/embedder.ts";

export type SearchMode = "vector" | "keyword" | "hybrid";

export interface Passage {
  chunkId: number;
  content: string;
  /** Where in its document the passage is: "page 3", a page URL, or null for a single-part file. */
  source: string | null;
  /** Higher is better. Vector: cosine similarity; keyword: full-text rank; hybrid: fused rank score. */
  score: number;
  documentId: number;
  documentName: string;
}

/** Reciprocal rank fusion constant: damps the weight of top ranks so neither list dominates. */
const RRF_K = 60;
/** HNSW indexes exist for dimensions up to this (pgvector's limit for the vector type). */
const MAX_INDEXED_DIMENSIONS = 2000;

interface Row {
  chunkId: number;
  content: string;
  source: string | null;
  score: number;
  documentId: number;
  documentName: string;
}

/** A mode name as stored on assistants (`knowledgebase_mode`); anything unknown means hybrid. */
export function searchModeOf(value: string | null | undefined): SearchMode {
  return value === "vector" || value === "keyword" ? value : "hybrid";
}

export class KnowledgeSearch {
  constructor(
    private readonly db: Database,
    private readonly embedder: Embedder,
  ) {}

  async search(knowledgebaseId: number, query: string, limit: number, mode: SearchMode): Promise<Passage[]> {
    if (mode === "vector") return this.vector(knowledgebaseId, query, limit);
    if (mode === "keyword") return this.keyword(knowledgebaseId, query, limit);
    const depth = Math.max(limit * 4, 20);
    const [byVector, byKeyword] = [
      await this.vector(knowledgebaseId, query, depth),
      await this.keyword(knowledgebaseId, query, depth),
    ];
    const fused = new Map<number, Passage>();
    for (const ranking of [byVector, byKeyword]) {
      for (const [rank, passage] of ranking.entries()) {
        const previous = fused.get(passage.chunkId);
        const score = (previous?.score ?? 0) + 1 / (RRF_K + rank + 1);
        fused.set(passage.chunkId, { ...passage, score });
      }
    }
    return [...fused.values()].sort((a, b) => b.score - a.score || a.chunkId - b.chunkId).slice(0, limit);
  }

  /** Cosine similarity over the chunks of the current embedder, through its HNSW index where one exists. */
  async vector(knowledgebaseId: number, query: string, limit: number): Promise<Passage[]> {
    const [embedding] = await this.embedder.embed([query]);
    const dims = this.embedder.dimensions;
    const rows = await this.db.prisma.$queryRawUnsafe<Row[]>(
      `SELECT c."id" AS "chunkId", c."content", c."source", c."documentId", d."name" AS "documentName",
              1 - (c."embedding"::vector(${dims}) <=> $2::vector(${dims})) AS "score"
       FROM "document_chunks" c JOIN "documents" d ON d."id" = c."documentId"
       WHERE c."knowledgebaseId" = $1 AND c."embedder" = $3 AND vector_dims(c."embedding") = ${dims}
         AND d."status" = 'active'
       ORDER BY c."embedding"::vector(${dims}) <=> $2::vector(${dims}), c."id"
       LIMIT $4`,
      knowledgebaseId,
      toVectorLiteral(embedding ?? []),
      this.embedder.id,
      limit,
    );
    return rows.map(toPassage);
  }

  /**
   * Full-text ranking. The question's words are OR-ed (a question rarely shares all its words with
   * the answer); passages matching more of them, more densely, rank higher.
   */
  async keyword(knowledgebaseId: number, query: string, limit: number): Promise<Passage[]> {
    const exotic = nonAsciiWords(query);
    const ascii = [...new Set(words(query))].filter((word) => !exotic.includes(word));
    if (ascii.length === 0 && exotic.length === 0) return [];
    // Non-ASCII words are matched as exact lexemes (see nonAsciiWords); both parts are OR-ed.
    const exactPart = exotic.map((word) => `'${word}'`).join(" | ");
    const rows = await this.db.prisma.$queryRawUnsafe<Row[]>(
      `WITH q AS (SELECT (CASE WHEN $2 = '' THEN ''::tsquery ELSE to_tsquery('english', $2) END)
                      || (CASE WHEN $4 = '' THEN ''::tsquery ELSE $4::tsquery END) AS query)
       SELECT c."id" AS "chunkId", c."content", c."source", c."documentId", d."name" AS "documentName",
              ts_rank_cd(c."searchVector", q.query) AS "score"
       FROM "document_chunks" c JOIN "documents" d ON d."id" = c."documentId", q
       WHERE c."knowledgebaseId" = $1 AND c."searchVector" @@ q.query AND d."status" = 'active'
       ORDER BY "score" DESC, c."id"
       LIMIT $3`,
      knowledgebaseId,
      ascii.join(" | "),
      limit,
      exactPart,
    );
    return rows.map(toPassage);
  }

  /** The migration indexes the built-in and OpenAI default dimensions; another configured one gets its own. */
  async ensureVectorIndex(): Promise<void> {
    const dims = this.embedder.dimensions;
    if (dims > MAX_INDEXED_DIMENSIONS) return;
    await this.db.prisma.$executeRawUnsafe(
      `CREATE INDEX IF NOT EXISTS "document_chunks_embedding_${dims}_hnsw"
       ON "document_chunks" USING hnsw (("embedding"::vector(${dims})) vector_cosine_ops)
       WHERE vector_dims("embedding") = ${dims}`,
    );
  }
}

function toPassage(row: Row): Passage {
  return {
    chunkId: Number(row.chunkId),
    content: row.content,
    source: row.source,
    score: Number(row.score),
    documentId: Number(row.documentId),
    documentName: row.documentName,
  };
}
