import type { ServiceDeps } from "../../../deps.ts";
import type { EventSink } from "../../../events.ts";
import type { Document, Prisma } from "../../../generated/prisma/client.ts";
import type { IngestionOutcome, IngestionReporter, ProgressReport } from "../ingestion/progress-reports.ts";
import type { UploadStore } from "../ingestion/upload-store.ts";

export type DocumentStatusValue = "processing" | "active" | "failed";
export type KnowledgebaseStatusValue = "empty" | "processing" | "active" | "failed";

/** One change of a document, as subscribers receive it. `status` is "deleted" once it is gone. */
export interface DocumentProgress {
  documentId: number;
  knowledgebaseId: number;
  status: DocumentStatusValue | "deleted";
  stage: string | null;
  pagesDone: number;
  pagesTotal: number | null;
  chunkCount: number;
  failureReason: string | null;
  knowledgebaseStatus: KnowledgebaseStatusValue;
}

export interface KnowledgebaseProgress {
  knowledgebaseId: number;
  status: KnowledgebaseStatusValue;
  /** The document whose change caused this event; null for the first (current state) event. */
  document: DocumentProgress | null;
}

/**
 * The one writer of a document's state: its status, stage and progress, the status of its knowledge
 * base recounted with every change of its documents, and the `document:status` events announcing
 * each change. The documents service calls it for what a person asks; ingestion reports through it
 * (`IngestionReporter`). It trusts its callers to have checked ownership.
 */
export class DocumentStates implements IngestionReporter {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly uploads: UploadStore,
    private readonly events: EventSink,
  ) {}

  /**
   * Records a new document with its document.status event; announce it to subscribers with
   * `announce` once its work is queued.
   */
  insert(data: Prisma.DocumentUncheckedCreateInput): Promise<Document> {
    return this.withKnowledgebaseLock(data.knowledgebaseId, async (tx) => {
      const document = await tx.document.create({ data });
      await this.emitStatus(tx, document, document.status);
      return document;
    });
  }

  /**
   * Takes back a document subscribers were not told of (its upload could not be stored); webhooks
   * heard of it with the insert, so they hear of its deletion too.
   */
  async discard(document: Document): Promise<void> {
    await this.delete(document);
    await this.uploads.delete(document.id);
  }

  /** Deletes a document and its passages, even while it is processing (its worker then stops). */
  async remove(document: Document): Promise<void> {
    await this.delete(document);
    await this.uploads.delete(document.id);
    await this.publish(document, "deleted");
  }

  private delete(document: Document): Promise<void> {
    return this.withKnowledgebaseLock(document.knowledgebaseId, async (tx) => {
      const { count } = await tx.document.deleteMany({ where: { id: document.id } });
      if (count > 0) await this.emitStatus(tx, document, "deleted");
    });
  }

  /**
   * Puts a failed document back in the queue's hands, as new: the conditional update lets only one of
   * two concurrent requests through, and null tells the other (or a document that is not failed).
   */
  async restart(document: Document): Promise<Document | null> {
    return this.withKnowledgebaseLock(document.knowledgebaseId, async (tx) => {
      const { count } = await tx.document.updateMany({
        where: { id: document.id, status: "failed" },
        data: {
          status: "processing",
          stage: "queued",
          failureReason: null,
          attempts: 0,
          startedAt: null,
          finishedAt: null,
          pagesDone: 0,
          pagesTotal: null,
          chunkCount: 0,
        },
      });
      return count === 0 ? null : tx.document.findUnique({ where: { id: document.id } });
    });
  }

  async announce(document: Document): Promise<void> {
    await this.publish(document);
  }

  // ------------------------------------------------------------ reports of ingestion

  async begin(documentId: number): Promise<Document | null> {
    const { count } = await this.deps.db.prisma.document.updateMany({
      where: { id: documentId, status: "processing" },
      data: {
        attempts: { increment: 1 },
        startedAt: new Date(),
        pagesDone: 0,
        pagesTotal: null,
        chunkCount: 0,
      },
    });
    if (count === 0) return null;
    return this.deps.db.prisma.document.findUnique({ where: { id: documentId } });
  }

  async report(documentId: number, progress: ProgressReport): Promise<void> {
    const { count } = await this.deps.db.prisma.document.updateMany({
      where: { id: documentId, status: "processing" },
      data: progress,
    });
    if (count === 0) return;
    const document = await this.deps.db.prisma.document.findUnique({ where: { id: documentId } });
    if (document) await this.publish(document);
  }

  async finish(documentId: number, outcome: IngestionOutcome): Promise<void> {
    const current = await this.deps.db.prisma.document.findUnique({ where: { id: documentId } });
    if (!current) return;
    let finished: Document | null = null;
    await this.withKnowledgebaseLock(current.knowledgebaseId, async (tx) => {
      const { count } = await tx.document.updateMany({
        where: { id: documentId, status: "processing" },
        data: {
          status: outcome.status,
          stage: null,
          finishedAt: new Date(),
          ...(outcome.status === "active"
            ? { chunkCount: outcome.chunkCount, failureReason: null }
            : { failureReason: outcome.failureReason }),
        },
      });
      if (count === 0) return;
      finished = await tx.document.findUniqueOrThrow({ where: { id: documentId } });
      await this.emitStatus(tx, finished, finished.status);
    });
    if (finished) {
      // A failed document keeps its upload: `restart` processes it again from there.
      if (outcome.status === "active") await this.uploads.delete(documentId);
      this.deps.logger.info("document processed", { documentId, status: outcome.status });
      await this.publish(finished);
    }
  }

  async exists(documentId: number): Promise<boolean> {
    return (await this.deps.db.prisma.document.count({ where: { id: documentId } })) > 0;
  }

  silentSince(before: Date): Promise<{ id: number; attempts: number }[]> {
    return this.deps.db.prisma.document.findMany({
      where: { status: "processing", updatedAt: { lt: before } },
      select: { id: true, attempts: true },
    });
  }

  // ------------------------------------------------------------ reads

  /** The document's state now (or as given, once it is gone). */
  async progress(document: Document): Promise<DocumentProgress> {
    const current = await this.deps.db.prisma.document.findUnique({ where: { id: document.id } });
    return progressOf(current ?? document, await this.knowledgebaseStatus(document.knowledgebaseId));
  }

  async knowledgebaseStatus(knowledgebaseId: number): Promise<KnowledgebaseStatusValue> {
    const knowledgebase = await this.deps.db.prisma.knowledgebase.findUnique({
      where: { id: knowledgebaseId },
      select: { status: true },
    });
    return knowledgebase?.status ?? "empty";
  }

  // ------------------------------------------------------------ internals

  /**
   * Runs a change to a knowledge base's documents and recomputes its status, holding a lock on the
   * knowledge base row: concurrent changes take turns, and each recount sees the others' results.
   */
  private async withKnowledgebaseLock<T>(
    knowledgebaseId: number,
    change: (tx: Prisma.TransactionClient) => Promise<T>,
  ): Promise<T> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      // NO KEY UPDATE serialises these changes as well, and unlike UPDATE does not block the key-share
      // lock a passage INSERT takes on its knowledge base (foreign key): deleting a document whose
      // passages are being stored deadlocked with that INSERT (seen since passages are stored while a
      // document is still being read).
      await tx.$queryRaw`SELECT "id" FROM "knowledgebases" WHERE "id" = ${knowledgebaseId} FOR NO KEY UPDATE`;
      const result = await change(tx);
      await tx.$executeRaw`
        UPDATE "knowledgebases" SET "status" = (
          CASE
            WHEN NOT EXISTS (SELECT 1 FROM "documents" WHERE "knowledgebaseId" = ${knowledgebaseId}) THEN 'empty'
            WHEN EXISTS (SELECT 1 FROM "documents" WHERE "knowledgebaseId" = ${knowledgebaseId} AND "status" = 'processing') THEN 'processing'
            WHEN EXISTS (SELECT 1 FROM "documents" WHERE "knowledgebaseId" = ${knowledgebaseId} AND "status" = 'failed') THEN 'failed'
            ELSE 'active'
          END
        )::"knowledgebase_status"
        WHERE "id" = ${knowledgebaseId}`;
      return result;
    });
  }

  /** Status changes (not progress) are what the account's webhooks hear of (document.status). */
  private emitStatus(
    tx: Prisma.TransactionClient,
    document: Document,
    status: DocumentStatusValue | "deleted",
  ): Promise<void> {
    return this.events.emit(tx, {
      type: "document.status",
      accountId: document.accountId,
      knowledgebaseId: document.knowledgebaseId,
      documentId: document.id,
      status,
      failureReason: status === "failed" ? document.failureReason : null,
      chunkCount: document.chunkCount,
    });
  }

  private async publish(document: Document, override?: "deleted"): Promise<void> {
    const progress = progressOf(document, await this.knowledgebaseStatus(document.knowledgebaseId));
    this.deps.pubsub.publish("document:status", document.knowledgebaseId, {
      ...progress,
      ...(override ? { status: override } : {}),
    });
  }
}

function progressOf(document: Document, knowledgebaseStatus: KnowledgebaseStatusValue): DocumentProgress {
  return {
    documentId: document.id,
    knowledgebaseId: document.knowledgebaseId,
    status: document.status,
    stage: document.stage,
    pagesDone: document.pagesDone,
    pagesTotal: document.pagesTotal,
    chunkCount: document.chunkCount,
    failureReason: document.failureReason,
    knowledgebaseStatus,
  };
}
