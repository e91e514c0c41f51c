import { z } from "zod";
import type { ServiceDeps } from "../../../deps.ts";
import { AppError, NotFoundError, PayloadTooLargeError, ValidationError } from "../../../errors.ts";
import type { Document } from "../../../generated/prisma/client.ts";
import { MAX_UPLOAD_BYTES } from "../../../limits.ts";
import { optionalString, parseInput, requiredString } from "../../../validation.ts";
import {
  describeFileType,
  type FileDocumentType,
  isUploadedFile,
  sniffFileType,
  type UploadedFile,
} from "../ingestion/file-types.ts";
import type { UploadStore } from "../ingestion/upload-store.ts";
import type { KnowledgebasesService } from "../knowledgebases/knowledgebases.service.ts";
import type { DocumentProgress, DocumentStates, KnowledgebaseProgress } from "./document-states.ts";

export const MAX_WEBSITE_LINKS = 50;
export const DEFAULT_RELATIVE_LINKS_LIMIT = 10;

const DocumentUpdate = z.object({
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

/** What accepting a document asks of ingestion. */
export interface IngestionQueue {
  queue(documentId: number): Promise<void>;
}

/**
 * The documents of knowledge bases: what a person asks of them (list, read, add, rename, delete,
 * watch). Status and progress are written by `DocumentStates` alone; this service reads them.
 * Every method is scoped to an account: another account's document is not found.
 */
export class DocumentsService {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly knowledgebases: KnowledgebasesService,
    private readonly states: DocumentStates,
    private readonly uploads: UploadStore,
    private readonly ingestion: IngestionQueue,
  ) {}

  async list(accountId: number, knowledgebaseId: number) {
    await this.knowledgebases.get(accountId, knowledgebaseId);
    return this.deps.db.prisma.document.findMany({
      where: { knowledgebaseId, accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  }

  /** A document of the account; with `knowledgebaseId`, it must also belong to that knowledge base. */
  async get(accountId: number, id: number, knowledgebaseId?: number): Promise<Document> {
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
  async create(accountId: number, knowledgebaseId: number, input: CreateDocumentInput): Promise<Document> {
    await this.knowledgebases.get(accountId, knowledgebaseId);
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

    const document = await this.states.insert({
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
    });
    if (upload) {
      try {
        await this.uploads.save(document.id, upload.file);
      } catch (error) {
        // Nothing was queued yet: take the document back rather than leave one that must fail.
        await this.states.discard(document);
        throw error;
      }
    }
    await this.ingestion.queue(document.id);
    this.deps.logger.info("document created", { accountId, knowledgebaseId, documentId: document.id });
    await this.states.announce(document);
    return document;
  }

  /** Renames or redescribes a document; its type and content cannot change (delete and recreate instead). */
  async update(
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
    const changes = parseInput(DocumentUpdate, { name: input.name, description: input.description });
    await this.get(accountId, id, knowledgebaseId);
    return this.deps.db.prisma.document.update({
      where: { id },
      data: {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
      },
    });
  }

  /**
   * Processes a failed document again from what it keeps: a website's addresses, or the uploaded file
   * (kept while a document is failed). Returns at once with status processing, like `create`.
   */
  async reprocess(accountId: number, id: number, knowledgebaseId?: number): Promise<Document> {
    const document = await this.get(accountId, id, knowledgebaseId);
    if (document.status !== "failed") {
      throw new AppError(
        "CONFLICT",
        `Only a failed document can be processed again; this one is ${document.status}.`,
        {
          reason: "DOCUMENT_NOT_FAILED",
        },
      );
    }
    if (document.type !== "website" && !(await this.uploads.has(id, document.sizeBytes ?? 0))) {
      throw new AppError(
        "CONFLICT",
        "The uploaded file of this document is no longer stored: upload it again as a new document.",
        { reason: "DOCUMENT_SOURCE_MISSING" },
      );
    }
    const restarted = await this.states.restart(document);
    if (!restarted) {
      throw new AppError("CONFLICT", "The document is already being processed again.", {
        reason: "DOCUMENT_NOT_FAILED",
      });
    }
    await this.ingestion.queue(id);
    this.deps.logger.info("document reprocessing", { accountId, documentId: id });
    await this.states.announce(restarted);
    return restarted;
  }

  /** Deletes a document and its passages at once, even while it is processing (the worker then stops). */
  async delete(accountId: number, id: number, knowledgebaseId?: number): Promise<void> {
    const document = await this.get(accountId, id, knowledgebaseId);
    await this.states.remove(document);
    this.deps.logger.info("document deleted", { accountId, documentId: id });
  }

  /**
   * The document's current state, then each change, ending after it is active, failed or deleted.
   * Ownership is checked before returning, so a subscription to someone else's document fails at once.
   */
  async watch(accountId: number, documentId: number): Promise<AsyncGenerator<DocumentProgress>> {
    const document = await this.get(accountId, documentId);
    const events = this.deps.pubsub.subscribe("document:status", document.knowledgebaseId);
    const states = this.states;
    return (async function* () {
      try {
        // Read after subscribing, so that a change between the two is not lost.
        const first = await states.progress(document);
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
    await this.knowledgebases.get(accountId, knowledgebaseId);
    const events = this.deps.pubsub.subscribe("document:status", knowledgebaseId);
    const status = () => this.states.knowledgebaseStatus(knowledgebaseId);
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
}

function fieldLabel(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
}
