import { setImmediate as nextTurn } from "node:timers/promises";
import type { Lifecycle, ServiceDeps } from "../../../deps.ts";
import type { Document, Prisma } from "../../../generated/prisma/client.ts";
import type { JobContext, JobQueue } from "../../../jobs/index.ts";
import { storableText } from "../../../storable-text.mjs";
import { ProviderError } from "../../common/provider-http.ts";
import {
  type Embedder,
  nonAsciiWords,
  toVectorArrayBinary,
  toVectorLiteral,
} from "../../embeddings/embedder.ts";
import { type Chunk, type ChunkingOptions, chunkStream, DEFAULT_CHUNKING } from "./chunking.ts";
import { type ExtractProgress, extractFile, extractPdf, type Section } from "./extract.ts";
import { IngestionFailure } from "./failure.ts";
import { detectFileType, type FileDocumentType } from "./file-types.ts";
import type { UploadStore } from "./upload-store.ts";
import { readWebsite } from "./website.ts";

/**
 * The one retry policy: starts of processing (first run, retries after an unexpected error, and
 * resumptions after a stop or crash), counted in `document.attempts`, before a document is given up.
 */
const MAX_PROCESSING_ATTEMPTS = 3;
const EMBED_BATCH = 64;
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
 * Progress (pages read, passages stored) is stored and published at most this often, so a 500-page PDF
 * does not mean 500 writes.
 */
const PROGRESS_INTERVAL_MS = 250;
/** How long past the hard time limit a silent "processing" document is taken for abandoned. */
const ABANDONED_GRACE_MS = 30_000;
const SWEEP_INTERVAL_MS = 60_000;

const INGEST_TASK = "document.ingest";
const REEMBED_TASK = "document.reembed";

export type DocumentStage = "queued" | "fetching" | "parsing" | "chunking" | "embedding";

export interface ProgressReport {
  stage?: DocumentStage;
  pagesDone?: number;
  pagesTotal?: number;
  chunkCount?: number;
}

export type IngestionOutcome =
  | { status: "active"; chunkCount: number }
  | { status: "failed"; failureReason: string };

/**
 * How ingestion reports on a document to the owner of its state (the documents part), which alone
 * writes its status and progress, recounts its knowledge base and publishes the change. Every write
 * applies only while the document is still processing, so a deleted or finished document stays so.
 */
export interface IngestionReporter {
  /** Counts a start and clears the progress of an earlier run; null when deleted or no longer processing. */
  begin(documentId: number): Promise<Document | null>;
  report(documentId: number, progress: ProgressReport): Promise<void>;
  finish(documentId: number, outcome: IngestionOutcome): Promise<void>;
  exists(documentId: number): Promise<boolean>;
  /** Documents still processing with no word from their worker since `before`. */
  silentSince(before: Date): Promise<{ id: number; attempts: number }[]>;
}

/** What reading a document's source needs to know of it. */
interface SourceDocument {
  id: number;
  type: string;
  url: string | null;
  links: Prisma.JsonValue;
  relativeLinksLimit: number | null;
  sizeBytes: number | null;
}

/**
 * The background processing of documents: read the source, extract text, cut passages, embed them
 * and store them for vector and full-text search. Runs from the job queue, never in a request; a
 * sweep requeues documents whose worker was lost.
 */
export class IngestionWorker implements Lifecycle {
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly jobs: JobQueue,
    private readonly embedder: Embedder,
    /** Uploaded files waiting for their document to be processed. */
    readonly uploads: UploadStore,
    private readonly documents: IngestionReporter,
  ) {
    jobs.define(INGEST_TASK, {
      // The document's attempts decide (see `process`); each run counts one before it can fail, so
      // the queue's own limit, the same number, is never the one reached.
      maxAttempts: MAX_PROCESSING_ATTEMPTS,
      run: (payload, context) => this.process(Number(payload.documentId), context),
    });
    jobs.define(REEMBED_TASK, {
      run: (payload, context) => this.reembed(Number(payload.documentId), context.signal),
    });
  }

  /** Queues a document for processing; a document already waiting is not queued twice. */
  async queue(documentId: number): Promise<void> {
    await this.jobs.enqueue(INGEST_TASK, { documentId }, { key: `document:${documentId}` });
  }

  async start(): Promise<void> {
    await this.resumeAbandoned();
    await this.uploads.removeOrphans();
    await this.queueReembedding();
    this.sweepTimer = setInterval(() => {
      Promise.all([this.resumeAbandoned(), this.uploads.removeOrphans()]).catch((error: unknown) =>
        this.deps.logger.error("document sweep failed", { error }),
      );
    }, SWEEP_INTERVAL_MS);
    this.sweepTimer.unref();
  }

  async stop(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.sweepTimer = null;
    await this.uploads.close();
  }

  /**
   * Documents still "processing" long after the hard time limit lost their worker (a crash, or a
   * queue that lost the job): they are queued again, or failed with a reason after too many starts.
   */
  async resumeAbandoned(): Promise<void> {
    const cutoff = new Date(Date.now() - this.deps.config.documentTimeoutSeconds * 1000 - ABANDONED_GRACE_MS);
    for (const document of await this.documents.silentSince(cutoff)) {
      if (document.attempts >= MAX_PROCESSING_ATTEMPTS) {
        await this.documents.finish(document.id, {
          status: "failed",
          failureReason: interrupted(document.attempts),
        });
      } else {
        this.deps.logger.warn("resuming an abandoned document", { documentId: document.id });
        await this.documents.report(document.id, { stage: "queued" });
        await this.queue(document.id);
      }
    }
  }

  async process(documentId: number, job: JobContext): Promise<void> {
    const prisma = this.deps.db.prisma;
    const document = await this.documents.begin(documentId);
    // Deleted, or already finished by an earlier run of a duplicated job.
    if (!document) return;
    // Each start is counted before any work: a document whose processing takes the whole process
    // down (killed, out of memory) would otherwise be started again after every restart, forever.
    // The embedded queue unlocks such a job at start without knowing it ever ran.
    if (document.attempts > MAX_PROCESSING_ATTEMPTS) {
      return this.documents.finish(documentId, {
        status: "failed",
        failureReason: interrupted(document.attempts - 1),
      });
    }
    const timeoutMs = this.deps.config.documentTimeoutSeconds * 1000;
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([job.signal, deadline]);

    try {
      // A resumed run starts over: passages of an interrupted run are incomplete.
      await prisma.documentChunk.deleteMany({ where: { documentId } });
      await this.documents.report(documentId, {
        stage: document.type === "website" ? "fetching" : "parsing",
      });
      // One pipeline: sections are read, cut into passages, embedded and stored as they come, so a
      // long PDF is parsed while its first pages are stored, and only a few batches are in memory.
      const progress = new ProgressReports(this.documents, document.id);
      // The knowledge base's passage sizes as they are now: a change applies from the next document.
      const knowledgebase = await prisma.knowledgebase.findUnique({
        where: { id: document.knowledgebaseId },
        select: { chunkMaxTokens: true, chunkOverlapTokens: true },
      });
      const chunking: ChunkingOptions = knowledgebase
        ? { maxTokens: knowledgebase.chunkMaxTokens, overlapTokens: knowledgebase.chunkOverlapTokens }
        : DEFAULT_CHUNKING;
      const passages = this.readPassages(document, progress, signal, chunking);
      const writer = new ChunkWriter(
        this.deps,
        this.embedder,
        progress,
        document.id,
        document.knowledgebaseId,
        signal,
      );
      let chunkCount: number;
      try {
        for await (const chunk of passages) await writer.add(chunk);
        await this.documents.report(documentId, { stage: "embedding" });
        chunkCount = await writer.finish();
      } finally {
        await writer.close();
      }
      if (chunkCount === 0) throw new IngestionFailure("No text was found in the document.");
      await this.documents.finish(documentId, { status: "active", chunkCount });
    } catch (error) {
      if (job.signal.aborted) throw error;
      if (!(await this.documents.exists(documentId))) return;
      // Passages are stored as they are cut, so a run that fails part-way leaves some: a failed
      // document keeps none (a run that will start again clears them when it starts).
      await prisma.documentChunk.deleteMany({ where: { documentId } });
      if (deadline.aborted) {
        return this.documents.finish(documentId, {
          status: "failed",
          failureReason: `Processing took longer than ${this.deps.config.documentTimeoutSeconds} seconds and was stopped.`,
        });
      }
      if (error instanceof IngestionFailure) {
        return this.documents.finish(documentId, { status: "failed", failureReason: error.message });
      }
      this.deps.logger.error("document processing failed", { documentId, attempt: document.attempts, error });
      // Thrown, the job is run again by the queue after a pause; that run is the next start.
      if (document.attempts < MAX_PROCESSING_ATTEMPTS) throw error;
      await this.documents.finish(documentId, { status: "failed", failureReason: describeUnexpected(error) });
    }
  }

  /** Embeds again the passages made by another embedder (after the configuration changed). */
  async reembed(documentId: number, signal: AbortSignal): Promise<void> {
    const prisma = this.deps.db.prisma;
    for (;;) {
      signal.throwIfAborted();
      const stale = await prisma.documentChunk.findMany({
        where: { documentId, OR: [{ embedder: { not: this.embedder.id } }, { embedder: null }] },
        select: { id: true, content: true },
        orderBy: { id: "asc" },
        take: EMBED_BATCH,
      });
      if (stale.length === 0) return;
      const vectors = await this.embedder.embed(
        stale.map((chunk) => chunk.content),
        signal,
      );
      for (const [index, chunk] of stale.entries()) {
        await prisma.$executeRawUnsafe(
          `UPDATE "document_chunks" SET "embedding" = $1::vector, "embedder" = $2 WHERE "id" = $3`,
          toVectorLiteral(vectors[index]!),
          this.embedder.id,
          chunk.id,
        );
      }
    }
  }

  /** Passages embedded by another embedder than the configured one are embedded again, in the background. */
  private async queueReembedding(): Promise<void> {
    const stale = await this.deps.db.prisma.documentChunk.findMany({
      where: {
        OR: [{ embedder: { not: this.embedder.id } }, { embedder: null }],
        document: { status: "active" },
      },
      distinct: ["documentId"],
      select: { documentId: true },
    });
    for (const { documentId } of stale) {
      await this.jobs.enqueue(REEMBED_TASK, { documentId }, { key: `reembed:${documentId}` });
    }
    if (stale.length > 0)
      this.deps.logger.info("re-embedding documents", { count: stale.length, embedder: this.embedder.id });
  }

  /**
   * The document's passages as they are cut. A PDF is cut in its extraction worker, page by page; other
   * sources here, as their sections are read. When the source is read to its end, the document enters the
   * "chunking" stage (what is left is cutting, embedding and storing).
   */
  private async *readPassages(
    document: SourceDocument,
    progress: ProgressReports,
    signal: AbortSignal,
    chunking: ChunkingOptions,
  ): AsyncGenerator<Chunk> {
    if (document.type !== "pdf") {
      yield* chunkStream(this.readSource(document, progress, signal), signal, chunking);
      return;
    }
    const content = await this.readUpload(document, "pdf");
    yield* extractPdf(content, pageProgress(progress), signal, { chunking });
    await this.enterChunking(document.id, signal);
  }

  /** The sections of a website, DOCX or text document as they are read, made storable. */
  private async *readSource(
    document: SourceDocument,
    progress: ProgressReports,
    signal: AbortSignal,
  ): AsyncGenerator<Section> {
    // One section is read ahead, so the stage changes as soon as the last one is read, not after it is
    // chunked: a text file is a single section.
    const sections = this.extractSource(document, progress, signal);
    try {
      let next = await sections.next();
      if (next.done) await this.enterChunking(document.id, signal);
      while (!next.done) {
        const section = next.value;
        next = await sections.next();
        if (next.done) await this.enterChunking(document.id, signal);
        yield { ...section, text: storableText(section.text) };
      }
    } finally {
      await sections.return(undefined);
    }
  }

  private async enterChunking(documentId: number, signal: AbortSignal): Promise<void> {
    signal.throwIfAborted();
    await this.documents.report(documentId, { stage: "chunking" });
  }

  private async *extractSource(
    document: SourceDocument,
    progress: ProgressReports,
    signal: AbortSignal,
  ): AsyncGenerator<Section> {
    if (document.type === "website") {
      const source = document.url
        ? { kind: "crawl" as const, url: document.url, relativeLinksLimit: document.relativeLinksLimit ?? 0 }
        : { kind: "links" as const, links: (document.links as string[] | null) ?? [] };
      const sections = await readWebsite(source, {
        allowList: this.deps.config.outboundAllowList,
        signal,
        onProgress: pageProgress(progress),
      });
      await this.documents.report(document.id, { stage: "parsing" });
      yield* sections;
      return;
    }
    const type = document.type === "docx" ? "docx" : "txt";
    yield* await extractFile(type, await this.readUpload(document, type), signal);
  }

  /** The uploaded file, checked to be of the document's type. */
  private async readUpload(document: SourceDocument, type: FileDocumentType): Promise<Uint8Array> {
    const content = await this.uploads.read(document.id, document.sizeBytes ?? 0);
    if (!content) throw new IngestionFailure("The uploaded file is no longer available; upload it again.");
    if (detectFileType(content) !== type)
      throw new IngestionFailure(`The file is not a valid ${document.type.toUpperCase()} file.`);
    return content;
  }
}

/**
 * Embeds and stores a document's passages batch by batch as they are cut. Storing is bound by the HNSW
 * index, which PostgreSQL maintains row by row, so on PostgreSQL two batches are written at once on
 * two connections (each backend uses its own core) while the next batch is embedded; PGlite has one
 * connection. `add` waits while that many writes are running, which holds back the chunking and, through
 * it, the PDF worker: memory stays a few batches whatever the document's length.
 */
class ChunkWriter {
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
 * A document's progress, pages read and passages stored together: one write (an update, a read and a
 * publication, through Prisma on the thread that embeds) carries both, at most every
 * `PROGRESS_INTERVAL_MS`, rather than one write for each. Writes go one after another, each with the
 * newest figures, so a slower earlier write never overwrites a later one.
 */
export class ProgressReports {
  private pending: ProgressReport | null = null;
  private lastWrite = 0;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly documents: IngestionReporter,
    private readonly documentId: number,
  ) {}

  /** Keeps `progress`; writes what is kept if the interval has passed since the last write, or `now`. */
  async report(progress: ProgressReport, { now = false }: { now?: boolean } = {}): Promise<void> {
    this.pending = { ...this.pending, ...progress };
    if (!now && Date.now() - this.lastWrite < PROGRESS_INTERVAL_MS) return;
    this.lastWrite = Date.now();
    const write = this.writing.then(() => this.writePending());
    this.writing = write.catch(() => {});
    await write;
  }

  private async writePending(): Promise<void> {
    const progress = this.pending;
    this.pending = null;
    if (progress) await this.documents.report(this.documentId, progress);
  }
}

/** Pages read, through a document's progress; the last page is written at once. */
function pageProgress(progress: ProgressReports): ExtractProgress {
  return (pagesDone, pagesTotal) =>
    progress.report({ pagesDone, pagesTotal }, { now: pagesDone >= pagesTotal });
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
class EmbeddingServiceError extends Error {
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

function interrupted(times: number): string {
  return `Processing was interrupted ${times} times (the server stopped or crashed) and was given up.`;
}

function describeUnexpected(error: unknown): string {
  if (error instanceof EmbeddingServiceError) return error.message;
  return "An unexpected error stopped processing; try again later.";
}
