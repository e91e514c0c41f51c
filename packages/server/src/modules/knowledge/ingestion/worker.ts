import type { Lifecycle, ServiceDeps } from "../../../deps.ts";
import type { JobContext, JobQueue } from "../../../jobs/index.ts";
import { type Embedder, toVectorLiteral } from "../../embeddings/embedder.ts";
import { ChunkWriter, EMBED_BATCH, EmbeddingServiceError } from "./chunk-writer.ts";
import { type ChunkingOptions, DEFAULT_CHUNKING } from "./chunking.ts";
import { IngestionFailure } from "./failure.ts";
import { DocumentPassages } from "./passages.ts";
import { type IngestionReporter, ProgressReports } from "./progress-reports.ts";
import type { UploadStore } from "./upload-store.ts";

/**
 * The one retry policy: starts of processing (first run, retries after an unexpected error, and
 * resumptions after a stop or crash), counted in `document.attempts`, before a document is given up.
 */
const MAX_PROCESSING_ATTEMPTS = 3;
/** How long past the hard time limit a silent "processing" document is taken for abandoned. */
const ABANDONED_GRACE_MS = 30_000;
const SWEEP_INTERVAL_MS = 60_000;

const INGEST_TASK = "document.ingest";
const REEMBED_TASK = "document.reembed";

/**
 * The background processing of documents: read the source, extract text, cut passages, embed them
 * and store them for vector and full-text search. Runs from the job queue, never in a request; a
 * sweep requeues documents whose worker was lost.
 */
export class IngestionWorker implements Lifecycle {
  private sweepTimer: NodeJS.Timeout | null = null;
  private readonly passages: DocumentPassages;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly jobs: JobQueue,
    private readonly embedder: Embedder,
    /** Uploaded files waiting for their document to be processed. */
    readonly uploads: UploadStore,
    private readonly documents: IngestionReporter,
  ) {
    this.passages = new DocumentPassages(deps, uploads, documents);
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
      const passages = this.passages.read(document, progress, signal, chunking);
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
}

function interrupted(times: number): string {
  return `Processing was interrupted ${times} times (the server stopped or crashed) and was given up.`;
}

function describeUnexpected(error: unknown): string {
  if (error instanceof EmbeddingServiceError) return error.message;
  return "An unexpected error stopped processing; try again later.";
}
