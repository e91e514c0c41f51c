import { z } from "zod";
import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import { NotFoundError, PayloadTooLargeError, ValidationError } from "../../errors.ts";
import type { Document, Prisma } from "../../generated/prisma/client.ts";
import type { JobContext, JobQueue } from "../../jobs/index.ts";
import { MAX_UPLOAD_BYTES } from "../../limits.ts";
import { optionalString, parseInput, requiredString } from "../../validation.ts";
import { createEmbedder, type Embedder } from "../embeddings/embedder.ts";
import {
  describeFileType,
  type FileDocumentType,
  isUploadedFile,
  sniffFileType,
  type UploadedFile,
} from "./file-types.ts";
import { DocumentIngestion, MAX_PROCESSING_ATTEMPTS } from "./ingestion.ts";
import { KnowledgeSearch, type Passage, type SearchMode } from "./search.ts";
import { createUploadStore, type UploadStore } from "./upload-store.ts";

export type { Passage, SearchMode } from "./search.ts";

export const MAX_WEBSITE_LINKS = 50;
export const DEFAULT_RELATIVE_LINKS_LIMIT = 10;
/** How long past the hard time limit a silent "processing" document is taken for abandoned. */
const ABANDONED_GRACE_MS = 30_000;
const SWEEP_INTERVAL_MS = 60_000;

export const INGEST_TASK = "document.ingest";
export const REEMBED_TASK = "document.reembed";

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

const KnowledgebaseInput = z.object({
  name: requiredString("name"),
  description: optionalString("description"),
});

const KnowledgebaseUpdate = z.object({
  name: requiredString("name").optional(),
  description: optionalString("description"),
});

const httpUrl = (label: string) =>
  z
    .string({ error: `The ${label} field must be a string.` })
    .trim()
    .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
      message: `The ${label} field must be a valid http or https URL.`,
    });

const DocumentInput = z.object({
  name: requiredString("name"),
  description: optionalString("description"),
  type: z.enum(["website", "pdf", "txt", "docx"], {
    error: (issue) =>
      issue.input === undefined || issue.input === null
        ? "The type field is required."
        : "The selected type is invalid: it must be one of website, pdf, txt, docx.",
  }),
  url: httpUrl("url").nullish(),
  links: z
    .array(z.object({ link: httpUrl("link") }, { error: "Each link must be an object with a link field." }), {
      error: "The links field must be a list of {link} objects.",
    })
    .min(1, "The links field must contain at least one link.")
    .max(MAX_WEBSITE_LINKS, `The links field must not contain more than ${MAX_WEBSITE_LINKS} links.`)
    .nullish(),
  relativeLinksLimit: z.coerce
    .number({ error: "The relative links limit field must be an integer." })
    .int("The relative links limit field must be an integer.")
    .min(1, "The relative links limit field must be between 1 and 50.")
    .max(50, "The relative links limit field must be between 1 and 50.")
    .nullish(),
  file: z
    .custom<UploadedFile>(isUploadedFile, {
      error: "The file field must be an uploaded file (multipart/form-data).",
    })
    .nullish(),
});

/** Plain fields of a new document (REST names in camelCase); `file` is a web File or Blob. */
export interface CreateDocumentInput {
  name?: unknown;
  description?: unknown;
  type?: unknown;
  url?: unknown;
  links?: unknown;
  relativeLinksLimit?: unknown;
  file?: unknown;
}

/** Fields an update may name; all but name and description are refused with a field message. */
export interface UpdateDocumentInput {
  name?: unknown;
  description?: unknown;
  type?: unknown;
  url?: unknown;
  links?: unknown;
  relativeLinksLimit?: unknown;
}

const IMMUTABLE_DOCUMENT_FIELDS = ["type", "url", "links", "relativeLinksLimit"] as const;

const MEDIA_TYPES: Record<FileDocumentType, string> = {
  pdf: "application/pdf",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  txt: "text/plain; charset=utf-8",
};

/**
 * Knowledge bases, their documents, background processing and retrieval. Every method is scoped to
 * an account: another account's knowledge base or document is not found.
 */
export class KnowledgeService implements Lifecycle {
  readonly embedder: Embedder;
  /** Uploaded files waiting for their document to be processed. */
  readonly uploads: UploadStore;
  private readonly ingestion: DocumentIngestion;
  private readonly retrieval: KnowledgeSearch;
  private sweepTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly jobs: JobQueue,
  ) {
    this.embedder = createEmbedder(deps.config);
    this.uploads = createUploadStore(deps.db);
    this.ingestion = new DocumentIngestion(deps, this.embedder, this.uploads, {
      markStage: (documentId, data) => this.recordProgress(documentId, data),
      finish: (documentId, outcome) => this.finishDocument(documentId, outcome),
    });
    this.retrieval = new KnowledgeSearch(deps.db, this.embedder);
    jobs.define(INGEST_TASK, {
      maxAttempts: MAX_PROCESSING_ATTEMPTS,
      run: (payload, context) => this.runIngestion(Number(payload.documentId), context),
    });
    jobs.define(REEMBED_TASK, {
      run: (payload, context) => this.ingestion.reembed(Number(payload.documentId), context.signal),
    });
  }

  // ------------------------------------------------------------ knowledge bases

  listKnowledgebases(accountId: number, query: { include?: Prisma.KnowledgebaseInclude } = {}) {
    return this.deps.db.prisma.knowledgebase.findMany({
      ...query,
      where: { accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  }

  async getKnowledgebase(
    accountId: number,
    id: number,
    query: { include?: Prisma.KnowledgebaseInclude } = {},
  ) {
    const knowledgebase = await this.deps.db.prisma.knowledgebase.findFirst({
      ...query,
      where: { id, accountId },
    });
    if (!knowledgebase) throw new NotFoundError("Knowledgebase");
    return knowledgebase;
  }

  async createKnowledgebase(accountId: number, input: { name?: unknown; description?: unknown }) {
    const { name, description } = parseInput(KnowledgebaseInput, input);
    const knowledgebase = await this.deps.db.prisma.knowledgebase.create({
      data: { accountId, name, description: description ?? "" },
    });
    this.deps.logger.info("knowledgebase created", { accountId, knowledgebaseId: knowledgebase.id });
    return knowledgebase;
  }

  async updateKnowledgebase(accountId: number, id: number, input: { name?: unknown; description?: unknown }) {
    const changes = parseInput(KnowledgebaseUpdate, input);
    await this.getKnowledgebase(accountId, id);
    return this.deps.db.prisma.knowledgebase.update({
      where: { id },
      data: {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
      },
    });
  }

  /** Deletes the knowledge base with its documents and passages; assistants using it lose the link. */
  async deleteKnowledgebase(accountId: number, id: number): Promise<void> {
    const waiting = await this.deps.db.prisma.document.findMany({
      where: { knowledgebaseId: id, accountId, status: "processing", type: { not: "website" } },
      select: { id: true },
    });
    const { count } = await this.deps.db.prisma.knowledgebase.deleteMany({ where: { id, accountId } });
    if (count === 0) throw new NotFoundError("Knowledgebase");
    for (const document of waiting) await this.uploads.delete(document.id);
    this.deps.logger.info("knowledgebase deleted", { accountId, knowledgebaseId: id });
  }

  // ------------------------------------------------------------ documents

  async listDocuments(accountId: number, knowledgebaseId: number) {
    await this.getKnowledgebase(accountId, knowledgebaseId);
    return this.deps.db.prisma.document.findMany({
      where: { knowledgebaseId, accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  }

  /** A document of the account; with `knowledgebaseId`, it must also belong to that knowledge base. */
  async getDocument(accountId: number, id: number, knowledgebaseId?: number): Promise<Document> {
    const document = await this.deps.db.prisma.document.findFirst({
      where: { id, accountId, ...(knowledgebaseId !== undefined ? { knowledgebaseId } : {}) },
    });
    if (!document) throw new NotFoundError("Document");
    return document;
  }

  /**
   * Records a new document and queues its processing; returns at once with status processing.
   * Files are checked here, from their content, so a mislabelled upload is refused immediately.
   */
  async createDocument(
    accountId: number,
    knowledgebaseId: number,
    input: CreateDocumentInput,
  ): Promise<Document> {
    await this.getKnowledgebase(accountId, knowledgebaseId);
    const parsed = parseInput(DocumentInput, input);
    const fields: Record<string, string[]> = {};
    const refuse = (field: string, message: string) => {
      fields[field] = [...(fields[field] ?? []), message];
    };
    let upload: { file: UploadedFile; fileName: string; mediaType: string } | null = null;

    if (parsed.type === "website") {
      if (!parsed.url && !parsed.links) refuse("url", "The url field is required when links is not present.");
      if (parsed.url && parsed.links) refuse("links", "Give either url or links, not both.");
      if (parsed.links && parsed.relativeLinksLimit != null) {
        refuse("relativeLinksLimit", "The relative links limit field applies only with url.");
      }
      if (parsed.file) refuse("file", "The file field is not allowed for websites.");
    } else {
      for (const field of ["url", "links", "relativeLinksLimit"] as const) {
        if (parsed[field] != null)
          refuse(field, `The ${fieldLabel(field)} field is allowed only for websites.`);
      }
      if (!parsed.file) refuse("file", `The file field is required for ${parsed.type} documents.`);
      else if (parsed.file.size > MAX_UPLOAD_BYTES) {
        throw new PayloadTooLargeError("The file must not be greater than 20 MB.");
      } else if (parsed.file.size === 0) refuse("file", "The file is empty.");
      else {
        const detected = await sniffFileType(parsed.file);
        if (detected !== parsed.type) {
          refuse(
            "file",
            `The file must be ${describeFileType(parsed.type)}; its content is ${detected ? describeFileType(detected) : "not a supported format"}.`,
          );
        }
        const fileName = parsed.file.name ?? "";
        upload = { file: parsed.file, fileName, mediaType: MEDIA_TYPES[parsed.type] };
      }
    }
    if (Object.keys(fields).length > 0) throw new ValidationError(fields);

    const document = await this.withKnowledgebaseLock(knowledgebaseId, async (tx) =>
      tx.document.create({
        data: {
          accountId,
          knowledgebaseId,
          name: parsed.name,
          description: parsed.description ?? "",
          type: parsed.type,
          status: "processing",
          stage: "queued",
          ...(parsed.type === "website"
            ? {
                url: parsed.url ?? null,
                links: parsed.links ? parsed.links.map(({ link }) => link) : undefined,
                relativeLinksLimit: parsed.url
                  ? (parsed.relativeLinksLimit ?? DEFAULT_RELATIVE_LINKS_LIMIT)
                  : null,
              }
            : {}),
          ...(upload
            ? {
                fileName: upload.fileName,
                mediaType: upload.mediaType,
                sizeBytes: upload.file.size,
              }
            : {}),
        },
      }),
    );
    if (upload) {
      try {
        await this.uploads.save(document.id, upload.file);
      } catch (error) {
        // Nothing was queued yet: take the document back rather than leave one that must fail.
        await this.withKnowledgebaseLock(knowledgebaseId, (tx) =>
          tx.document.deleteMany({ where: { id: document.id } }),
        );
        await this.uploads.delete(document.id);
        throw error;
      }
    }
    await this.jobs.enqueue(INGEST_TASK, { documentId: document.id }, { key: `document:${document.id}` });
    this.deps.logger.info("document created", { accountId, knowledgebaseId, documentId: document.id });
    await this.publish(document, await this.knowledgebaseStatus(knowledgebaseId));
    return document;
  }

  /** Renames or redescribes a document; its type and content cannot change (delete and recreate instead). */
  async updateDocument(
    accountId: number,
    id: number,
    input: UpdateDocumentInput,
    knowledgebaseId?: number,
  ): Promise<Document> {
    const refused: Record<string, string[]> = {};
    for (const field of IMMUTABLE_DOCUMENT_FIELDS) {
      if (input[field] !== undefined && input[field] !== null) {
        refused[field] = [
          `The ${fieldLabel(field)} field cannot be changed: delete the document and create a new one.`,
        ];
      }
    }
    if (Object.keys(refused).length > 0) throw new ValidationError(refused);
    const changes = parseInput(KnowledgebaseUpdate, { name: input.name, description: input.description });
    await this.getDocument(accountId, id, knowledgebaseId);
    return this.deps.db.prisma.document.update({
      where: { id },
      data: {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
      },
    });
  }

  /** Deletes a document and its passages at once, even while it is processing (the worker then stops). */
  async deleteDocument(accountId: number, id: number, knowledgebaseId?: number): Promise<void> {
    const document = await this.getDocument(accountId, id, knowledgebaseId);
    await this.withKnowledgebaseLock(document.knowledgebaseId, async (tx) => {
      await tx.document.deleteMany({ where: { id } });
    });
    await this.uploads.delete(id);
    this.deps.logger.info("document deleted", { accountId, documentId: id });
    await this.publish(document, await this.knowledgebaseStatus(document.knowledgebaseId), "deleted");
  }

  // ------------------------------------------------------------ retrieval

  /**
   * Ranked passages of a knowledge base for a question. `vector` compares embeddings, `keyword` uses
   * PostgreSQL full-text search, `hybrid` fuses both rankings (reciprocal rank fusion).
   */
  async search(
    accountId: number,
    knowledgebaseId: number,
    query: string,
    options: { limit?: number; mode?: SearchMode } = {},
  ): Promise<Passage[]> {
    const limit = options.limit ?? 5;
    const fields: Record<string, string[]> = {};
    if (!query.trim()) fields.query = ["The query field is required."];
    else if (query.length > 2000)
      fields.query = ["The query field must not be greater than 2000 characters."];
    if (!Number.isInteger(limit) || limit < 1 || limit > 50)
      fields.limit = ["The limit field must be between 1 and 50."];
    if (Object.keys(fields).length > 0) throw new ValidationError(fields);
    await this.getKnowledgebase(accountId, knowledgebaseId);
    return this.retrieval.search(knowledgebaseId, query.trim(), limit, options.mode ?? "hybrid");
  }

  // ------------------------------------------------------------ live status

  /**
   * The document's current state, then each change, ending after it is active, failed or deleted.
   * Ownership is checked before returning, so a subscription to someone else's document fails at once.
   */
  async watchDocument(accountId: number, documentId: number): Promise<AsyncGenerator<DocumentProgress>> {
    const document = await this.getDocument(accountId, documentId);
    const events = this.deps.pubsub.subscribe("document:status", document.knowledgebaseId);
    const current = async () =>
      progressOf(
        (await this.deps.db.prisma.document.findUnique({ where: { id: documentId } })) ?? document,
        await this.knowledgebaseStatus(document.knowledgebaseId),
      );
    return (async function* () {
      try {
        // Read after subscribing, so that a change between the two is not lost.
        const first = await current();
        yield first;
        if (first.status !== "processing") return;
        for await (const event of events) {
          if (event.documentId !== documentId) continue;
          yield event;
          if (event.status !== "processing") return;
        }
      } finally {
        await events.return?.();
      }
    })();
  }

  /** The knowledge base's current status, then one event per change of any of its documents. */
  async watchKnowledgebase(
    accountId: number,
    knowledgebaseId: number,
  ): Promise<AsyncGenerator<KnowledgebaseProgress>> {
    await this.getKnowledgebase(accountId, knowledgebaseId);
    const events = this.deps.pubsub.subscribe("document:status", knowledgebaseId);
    const status = () => this.knowledgebaseStatus(knowledgebaseId);
    return (async function* () {
      try {
        yield { knowledgebaseId, status: await status(), document: null };
        for await (const event of events) {
          yield { knowledgebaseId, status: event.knowledgebaseStatus, document: event };
        }
      } finally {
        await events.return?.();
      }
    })();
  }

  // ------------------------------------------------------------ lifecycle

  async start(): Promise<void> {
    await this.retrieval.ensureVectorIndex();
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
    const abandoned = await this.deps.db.prisma.document.findMany({
      where: { status: "processing", updatedAt: { lt: cutoff } },
      select: { id: true, attempts: true },
    });
    for (const document of abandoned) {
      if (document.attempts >= MAX_PROCESSING_ATTEMPTS) {
        await this.finishDocument(document.id, {
          status: "failed",
          failureReason: `Processing was interrupted ${document.attempts} times (the server stopped or crashed) and was given up.`,
        });
      } else {
        this.deps.logger.warn("resuming an abandoned document", { documentId: document.id });
        await this.deps.db.prisma.document.update({ where: { id: document.id }, data: { stage: "queued" } });
        await this.jobs.enqueue(INGEST_TASK, { documentId: document.id }, { key: `document:${document.id}` });
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

  // ------------------------------------------------------------ internals

  private async runIngestion(documentId: number, context: JobContext): Promise<void> {
    await this.ingestion.process(documentId, context);
  }

  private async recordProgress(
    documentId: number,
    data: Prisma.DocumentUpdateManyMutationInput,
  ): Promise<void> {
    const { count } = await this.deps.db.prisma.document.updateMany({
      where: { id: documentId, status: "processing" },
      data,
    });
    if (count === 0) return;
    const document = await this.deps.db.prisma.document.findUnique({ where: { id: documentId } });
    if (document) await this.publish(document, await this.knowledgebaseStatus(document.knowledgebaseId));
  }

  private async finishDocument(
    documentId: number,
    outcome: { status: "active"; chunkCount: number } | { status: "failed"; failureReason: string },
  ): Promise<void> {
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
      finished = await tx.document.findUnique({ where: { id: documentId } });
    });
    if (finished) {
      await this.uploads.delete(documentId);
      this.deps.logger.info("document processed", { documentId, status: outcome.status });
      await this.publish(finished, await this.knowledgebaseStatus(current.knowledgebaseId));
    }
  }

  /**
   * Runs a change to a knowledge base's documents and recomputes its status, holding a lock on the
   * knowledge base row: concurrent changes take turns, and each recount sees the others' results.
   */
  private async withKnowledgebaseLock<T>(
    knowledgebaseId: number,
    change: (tx: Prisma.TransactionClient) => Promise<T>,
  ): Promise<T> {
    return this.deps.db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT "id" FROM "knowledgebases" WHERE "id" = ${knowledgebaseId} FOR UPDATE`;
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

  private async knowledgebaseStatus(knowledgebaseId: number): Promise<KnowledgebaseStatusValue> {
    const knowledgebase = await this.deps.db.prisma.knowledgebase.findUnique({
      where: { id: knowledgebaseId },
      select: { status: true },
    });
    return knowledgebase?.status ?? "empty";
  }

  private async publish(
    document: Document,
    knowledgebaseStatus: KnowledgebaseStatusValue,
    override?: "deleted",
  ): Promise<void> {
    const progress = progressOf(document, knowledgebaseStatus);
    this.deps.pubsub.publish("document:status", document.knowledgebaseId, {
      ...progress,
      ...(override ? { status: override } : {}),
    });
  }
}

export function progressOf(
  document: Document,
  knowledgebaseStatus: KnowledgebaseStatusValue,
): DocumentProgress {
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

function fieldLabel(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}
