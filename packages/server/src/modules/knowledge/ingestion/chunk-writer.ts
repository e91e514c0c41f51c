import { setImmediate as nextTurn } from "node:timers/promises";
import type { ServiceDeps } from "../../../deps.ts";
import { ProviderError } from "../../common/provider-http.ts";
import { type Embedder, nonAsciiWords, toVectorArrayBinary } from "../../embeddings/embedder.ts";
import type { Chunk } from "./chunking.ts";
import type { ProgressReports } from "./progress-reports.ts";

/** Passages embedded in one request (and, on PostgreSQL, stored in one statement). */
export const EMBED_BATCH = 64;
/**
 * How long one INSERT of passages may hold the embedded store's single backend. A request that arrives
 * meanwhile waits for the statement to end (requests go first after it: see src/db/pglite-worker.mjs),
 * so the rows per statement follow the measured cost of a row, which grows with the HNSW index: 16 rows
 * held it 0.3 to 0.9 s once the table had a few thousand passages. PostgreSQL, with a backend per
 * connection, takes a whole embedding batch per statement.
 */
const PGLITE_STATEMENT_TARGET_MS = 20;
/** Rows of the first PGlite statement, before any has been measured. */
const PGLITE_FIRST_ROWS = 4;
/**
 * How long one clean-up of the full-text index's pending list may hold the embedded store's backend.
 * GIN adds new entries to a pending list and merges it into the index when it passes 4 MB (PostgreSQL's
 * `gin_pending_list_limit`), inside whichever INSERT crossed it: ~1,500 passages merged at once, which held
 * the backend 150 ms on a quiet machine and 0.5 to 0.8 s under load, three to four times per 6 MB of text,
 * and every request waited behind it (bench/embedded-store, issue #35). On PGlite the writer merges the
 * list itself (`gin_clean_pending_list`) in statements of its own, as many passages at a time as fit this
 * target, so a request waits for at most one such merge; the 4 MB limit is never reached by ingestion.
 * Larger merges cost less in all (a frequent word's posting list is rewritten once per merge).
 */
const PGLITE_GIN_MERGE_TARGET_MS = 30;
/** Passages merged by the first clean-up, before any has been measured. */
const PGLITE_GIN_FIRST_ROWS = 16;
/** Well under the ~1,500 passages that fill the 4 MB pending list, so the INSERT never merges it. */
const PGLITE_GIN_MAX_ROWS = 512;
/** The full-text index (migration 0002), whose pending list the writer merges on PGlite. */
const SEARCH_VECTOR_INDEX = `"document_chunks_search_vector_gin"`;
/** Batches being written at once on PostgreSQL. */
const STORE_CONCURRENCY = 2;

/**
 * Embeds and stores a document's passages batch by batch as they are cut. Storing is bound by the HNSW
 * index, which PostgreSQL maintains row by row, so on PostgreSQL two batches are written at once on
 * two connections (each backend uses its own core) while the next batch is embedded; PGlite has one
 * connection. `add` waits while that many writes are running, which holds back the chunking and, through
 * it, the PDF worker: memory stays a few batches whatever the document's length.
 */
export class ChunkWriter {
  private readonly concurrency: number;
  /** PGlite: rows per statement follow the measured milliseconds a row (null on PostgreSQL: a batch each). */
  private readonly rowCost: RowCost | null;
  /**
   * PGlite: passages per merge of the full-text index's pending list, from the measured cost of merging
   * one (null on PostgreSQL, where the merge of one connection's INSERT holds no other connection back
   * and autovacuum does it too).
   */
  private readonly mergeCost: RowCost | null;
  /** Passages stored since the pending list was last merged. */
  private unmerged = 0;
  private readonly writing = new Set<Promise<void>>();
  private failure: { error: unknown } | null = null;
  private pending: Chunk[] = [];
  private cut = 0;
  private stored = 0;
  private vectorOidQuery: Promise<number> | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly embedder: Embedder,
    private readonly progress: ProgressReports,
    private readonly documentId: number,
    private readonly knowledgebaseId: number,
    private readonly signal: AbortSignal,
  ) {
    const postgres = deps.db.kind === "postgres";
    this.concurrency = postgres ? STORE_CONCURRENCY : 1;
    this.rowCost = postgres ? null : new RowCost();
    this.mergeCost = postgres ? null : new RowCost(PGLITE_GIN_FIRST_ROWS, PGLITE_GIN_MAX_ROWS);
  }

  async add(chunk: Chunk): Promise<void> {
    this.pending.push(chunk);
    if (this.pending.length >= EMBED_BATCH) await this.flush();
  }

  /** Stores what is left and waits for every write; the number of passages stored. */
  async finish(): Promise<number> {
    if (this.pending.length > 0) await this.flush();
    await this.settle(0);
    // Searches read the whole pending list: an active document leaves none of its passages in it.
    if (this.unmerged > 0) await this.mergePendingList();
    await this.progress.report({ chunkCount: this.stored }, { now: true });
    return this.stored;
  }

  /** Waits for the writes still running, whatever happened: none may outlive the document's run. */
  async close(): Promise<void> {
    await Promise.allSettled(this.writing);
  }

  private async flush(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const firstOrdinal = this.cut;
    this.cut += batch.length;
    // Chunking and the offline embedder run on the thread that answers requests: a turn between batches.
    await nextTurn();
    this.signal.throwIfAborted();
    let vectors: number[][];
    try {
      vectors = await this.embedder.embed(
        batch.map((chunk) => chunk.content),
        this.signal,
      );
    } catch (error) {
      if (this.signal.aborted) throw error;
      throw new EmbeddingServiceError(error);
    }
    await this.settle(this.concurrency - 1);
    const write: Promise<void> = this.insert(firstOrdinal, batch, vectors)
      .then(
        () => {
          this.stored += batch.length;
        },
        (error: unknown) => {
          this.failure ??= { error };
        },
      )
      .finally(() => this.writing.delete(write));
    this.writing.add(write);
  }

  /** The `vector` type's OID, which a binary array of vectors names (asked once per document). */
  private vectorOid(): Promise<number> {
    this.vectorOidQuery ??= this.deps.db
      .withBackgroundConnection((sql) => sql.query<{ oid: number }>(`SELECT 'vector'::regtype::oid AS "oid"`))
      .then(([row]) => Number(row!.oid));
    return this.vectorOidQuery;
  }

  private async settle(until: number): Promise<void> {
    while (this.writing.size > until) await Promise.race(this.writing);
    if (this.failure) throw this.failure.error;
    await this.progress.report({ chunkCount: this.stored });
  }

  /**
   * One statement per batch (on PGlite, as many rows as fit the statement target): arrays unnested into
   * rows, so the statement text and its nine parameters are the same whatever the number of rows; the
   * vectors in binary (`toVectorArrayBinary`). Sent outside Prisma, whose raw queries pass every parameter
   * through its query compiler.
   */
  private async insert(firstOrdinal: number, batch: Chunk[], vectors: number[][]): Promise<void> {
    let start = 0;
    while (start < batch.length) {
      const count = this.rowCost?.rowsFor(PGLITE_STATEMENT_TARGET_MS) ?? batch.length;
      const end = Math.min(batch.length, start + count);
      const rows = batch.slice(start, end);
      const params = [
        this.documentId,
        this.knowledgebaseId,
        rows.map((_, index) => firstOrdinal + start + index),
        rows.map((chunk) => chunk.content),
        rows.map((chunk) => chunk.tokenCount),
        rows.map((chunk) => chunk.source),
        this.embedder.id,
        toVectorArrayBinary(vectors.slice(start, end), await this.vectorOid()),
        rows.map((chunk) => nonAsciiWords(chunk.content).join(" ")),
      ];
      const began = performance.now();
      await this.deps.db.withBackgroundConnection((sql) =>
        sql.query(
          `INSERT INTO "document_chunks"
             ("documentId", "knowledgebaseId", "ordinal", "content", "tokenCount", "source", "embedder", "embedding", "searchVector")
           SELECT $1, $2, row.ordinal, row.content, row.token_count, row.source, $7, row.embedding,
                  to_tsvector('english', row.content) || array_to_tsvector(string_to_array(row.non_ascii, ' '))
             FROM unnest($3::int[], $4::text[], $5::int[], $6::text[], $8::vector[], $9::text[])
               AS row(ordinal, content, token_count, source, embedding, non_ascii)`,
          params,
        ),
      );
      this.rowCost?.record(rows.length, performance.now() - began);
      start = end;
      if (this.mergeCost) {
        this.unmerged += rows.length;
        if (this.unmerged >= this.mergeCost.rowsFor(PGLITE_GIN_MERGE_TARGET_MS))
          await this.mergePendingList();
      }
    }
  }

  /**
   * Merges the full-text index's pending list into the index, a background statement of its own (requests
   * go before it: see src/db/pglite-worker.mjs), sized by `PGLITE_GIN_MERGE_TARGET_MS`.
   */
  private async mergePendingList(): Promise<void> {
    const rows = this.unmerged;
    this.unmerged = 0;
    const began = performance.now();
    await this.deps.db.withBackgroundConnection((sql) =>
      sql.query(`SELECT gin_clean_pending_list('${SEARCH_VECTOR_INDEX}'::regclass)`),
    );
    this.mergeCost?.record(rows, performance.now() - began);
  }
}

/**
 * The cost of a stored row on the embedded store, measured from the statements themselves (it grows with
 * the indexes and varies with the text), and the rows that fit a statement of a given duration. The
 * estimate follows recent statements (exponential average), so it tracks the table's growth.
 */
export class RowCost {
  private msPerRow: number | null = null;

  constructor(
    private readonly firstRows = PGLITE_FIRST_ROWS,
    private readonly maxRows = EMBED_BATCH,
  ) {}

  rowsFor(targetMs: number): number {
    if (this.msPerRow === null) return this.firstRows;
    return Math.max(1, Math.min(this.maxRows, Math.floor(targetMs / this.msPerRow)));
  }

  record(rows: number, elapsedMs: number): void {
    const sample = elapsedMs / rows;
    this.msPerRow = this.msPerRow === null ? sample : 0.7 * this.msPerRow + 0.3 * sample;
  }
}

/** The embedding service kept failing after the client's own retries; the job retries the document. */
export class EmbeddingServiceError extends Error {
  constructor(cause: unknown) {
    const reason =
      cause instanceof ProviderError
        ? cause.described
        : cause instanceof Error
          ? cause.message
          : String(cause);
    super(`The embedding service failed: ${reason}`, {
      cause,
    });
    this.name = "EmbeddingServiceError";
  }
}
