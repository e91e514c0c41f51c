import type { Database } from "../../../db/client.ts";
import { EXACT_SEARCH, QUESTION_VECTOR_CACHE } from "../../../limits.ts";
import { timed } from "../../../logger.ts";
import type { Embedder } from "../../embeddings/embedder.ts";

/**
 * The vectors of the latest questions, least recently used dropped first: customers ask the same
 * things word for word ("opening hours?"), and each embedding is an HTTP round trip with 1,536
 * numbers as JSON. Kept per account, so that no account can tell from the time an answer takes
 * whether another asked the same. The embedder is fixed for the life of the server.
 */
export class QuestionVectors {
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

/**
 * Whether each knowledge base is small enough for an exact scan (EXACT_SEARCH), learnt by a bounded
 * count at most every `sizeTtlMs`. A size that lags only costs speed: a grown knowledge base is still
 * searched exactly (correct, slower) until its size is counted again, and a shrunk one is planned
 * each time, as every search was before.
 */
export class KnowledgebaseSizes {
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
