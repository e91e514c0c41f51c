import { GraphQLError } from "graphql";
import { builder } from "../../builder.ts";
import { ValidationError } from "../../errors.ts";
import type { DocumentProgress, KnowledgebaseProgress } from "./index.ts";
import { isUploadedFile } from "./ingestion/file-types.ts";
import { DeletedPayload, KnowledgebaseStatus, STATUS_LABELS } from "./knowledge.schema.ts";

/** The most passages one page of `Document.passages` reads. */
const MAX_PASSAGES_PAGE = 100;

builder.scalarType("File", {
  description: "A file sent in a GraphQL multipart request (graphql-multipart-request-spec). Input only.",
  serialize: () => {
    throw new GraphQLError("File is an input-only type.");
  },
  parseValue: (value) => {
    // The server's fetch implementation has its own File class: recognise files by shape.
    if (isUploadedFile(value)) return value as File;
    throw new GraphQLError("File must be an uploaded file (a multipart request).");
  },
});

const DocumentType = builder.enumType("DocumentType", {
  values: {
    WEBSITE: { value: "website" },
    PDF: { value: "pdf" },
    TXT: { value: "txt" },
    DOCX: { value: "docx" },
  } as const,
});

const DocumentStage = builder.enumType("DocumentStage", {
  description: "Where a processing document is.",
  values: {
    QUEUED: { value: "queued", description: "Waiting for a worker." },
    FETCHING: { value: "fetching", description: "Websites: reading the pages." },
    PARSING: { value: "parsing", description: "Files: extracting the text." },
    CHUNKING: { value: "chunking", description: "Splitting the text into passages." },
    EMBEDDING: { value: "embedding", description: "Embedding and storing the passages." },
  } as const,
});

/** A stored stage is a plain column: one this schema does not know reads as none rather than failing. */
const STAGES = ["queued", "fetching", "parsing", "chunking", "embedding"] as const;
const stageOf = (stage: string | null) =>
  (STAGES as readonly string[]).includes(stage ?? "") ? (stage as (typeof STAGES)[number]) : null;

const DocumentStatus = builder.enumType("DocumentStatus", {
  values: {
    PROCESSING: { value: "processing", description: "Being read, split and embedded in the background." },
    ACTIVE: { value: "active", description: "Processed and searchable." },
    FAILED: { value: "failed", description: "Processing failed; failureReason says why." },
  } as const,
});

const DocumentEventStatus = builder.enumType("DocumentEventStatus", {
  values: {
    PROCESSING: { value: "processing" },
    ACTIVE: { value: "active" },
    FAILED: { value: "failed" },
    DELETED: { value: "deleted", description: "The document was deleted." },
  } as const,
});

const TYPE_LABELS: Record<string, string> = { website: "Website", pdf: "PDF", txt: "TXT", docx: "DOCX" };

const Document = builder.prismaObject("Document", {
  description: "A source of a knowledge base: a website, PDF, TXT or DOCX file.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    knowledgebaseId: t.exposeInt("knowledgebaseId"),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    type: t.expose("type", { type: DocumentType }),
    typeLabel: t.string({ resolve: (document) => TYPE_LABELS[document.type]! }),
    status: t.expose("status", { type: DocumentStatus }),
    statusLabel: t.string({ resolve: (document) => STATUS_LABELS[document.status]! }),
    stage: t.field({
      type: DocumentStage,
      nullable: true,
      description: "While processing: where it is; null otherwise.",
      resolve: (document) => stageOf(document.stage),
    }),
    pagesDone: t.exposeInt("pagesDone"),
    pagesTotal: t.exposeInt("pagesTotal", { nullable: true }),
    chunkCount: t.exposeInt("chunkCount", { description: "Passages stored for search." }),
    failureReason: t.exposeString("failureReason", { nullable: true }),
    url: t.exposeString("url", { nullable: true }),
    links: t.stringList({
      nullable: true,
      resolve: (document) => (document.links as string[] | null) ?? null,
    }),
    relativeLinksLimit: t.exposeInt("relativeLinksLimit", { nullable: true }),
    fileName: t.exposeString("fileName", { nullable: true }),
    sizeBytes: t.exposeInt("sizeBytes", { nullable: true }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
    passages: t.relation("chunks", {
      description: `The passages stored for search, in document order: \`limit\` (1 to ${MAX_PASSAGES_PAGE}, default 20) from \`offset\` (default 0). chunkCount says how many there are. Empty while processing.`,
      args: {
        offset: t.arg.int({ defaultValue: 0 }),
        limit: t.arg.int({ defaultValue: 20 }),
      },
      query: ({ offset, limit }) => {
        const fields: Record<string, string[]> = {};
        if (offset == null || !Number.isInteger(offset) || offset < 0)
          fields.offset = ["The offset field must be 0 or more."];
        if (limit == null || !Number.isInteger(limit) || limit < 1 || limit > MAX_PASSAGES_PAGE)
          fields.limit = [`The limit field must be between 1 and ${MAX_PASSAGES_PAGE}.`];
        if (Object.keys(fields).length > 0) throw new ValidationError(fields);
        return { orderBy: { ordinal: "asc" }, skip: offset ?? 0, take: limit ?? 20 };
      },
    }),
  }),
});

builder.prismaObject("DocumentChunk", {
  name: "DocumentPassage",
  description:
    "A passage of a document as stored for search (the text an assistant is given when it matches).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    ordinal: t.exposeInt("ordinal", { description: "Its place in the document, from 0." }),
    content: t.exposeString("content"),
    tokenCount: t.exposeInt("tokenCount", { description: "Its length in the embedding model's tokens." }),
    source: t.exposeString("source", {
      nullable: true,
      description: 'Where it is: "page 3", a page URL, or null.',
    }),
  }),
});

// ---------------------------------------------------------------- documents

builder.queryField("documents", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: [Document],
    description: "The documents of one knowledge base, newest first.",
    args: { knowledgebaseId: t.arg.int({ required: true }) },
    resolve: (_query, _root, { knowledgebaseId }, context) =>
      context.services.documents.list(context.viewer.accountId, knowledgebaseId),
  }),
);

builder.queryField("document", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: Document,
    description: "One document; with knowledgebaseId, it must belong to that knowledge base.",
    args: { id: t.arg.int({ required: true }), knowledgebaseId: t.arg.int() },
    resolve: (_query, _root, { id, knowledgebaseId }, context) =>
      context.services.documents.get(context.viewer.accountId, id, knowledgebaseId ?? undefined),
  }),
);

const DocumentLinkInput = builder.inputType("DocumentLinkInput", {
  fields: (t) => ({ link: t.string({ required: true }) }),
});

const CreateDocumentInput = builder.inputType("CreateDocumentInput", {
  fields: (t) => ({
    name: t.string({ description: "At most 255 characters." }),
    description: t.string({ description: "At most 255 characters." }),
    type: t.string({ description: "website, pdf, txt or docx." }),
    url: t.string({ description: "Websites: the main URL to read (or give links)." }),
    links: t.field({
      type: [DocumentLinkInput],
      description: "Websites: exactly these pages (or give url).",
    }),
    relativeLinksLimit: t.int({
      description: "Websites with url: same-site links to follow, 1 to 50 (default 10).",
    }),
    file: t.field({ type: "File", description: "pdf, txt, docx: the file, at most 20 MB." }),
  }),
});

builder.mutationField("createDocument", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: Document,
    description:
      "Adds a document; it is processed in the background (status PROCESSING, then ACTIVE or FAILED).",
    args: {
      knowledgebaseId: t.arg.int({ required: true }),
      input: t.arg({ type: CreateDocumentInput, required: true }),
    },
    resolve: (_query, _root, { knowledgebaseId, input }, context) =>
      context.services.documents.create(context.viewer.accountId, knowledgebaseId, input),
  }),
);

const UpdateDocumentInput = builder.inputType("UpdateDocumentInput", {
  description:
    "Only name and description can change. The other fields are accepted only to be refused with a clear message: to change content, delete the document and create a new one.",
  fields: (t) => ({
    name: t.string(),
    description: t.string(),
    type: t.string(),
    url: t.string(),
    links: t.field({ type: [DocumentLinkInput] }),
    relativeLinksLimit: t.int(),
  }),
});

builder.mutationField("updateDocument", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: Document,
    args: {
      id: t.arg.int({ required: true }),
      knowledgebaseId: t.arg.int({ description: "When given, the document must belong to it." }),
      input: t.arg({ type: UpdateDocumentInput, required: true }),
    },
    resolve: (_query, _root, { id, knowledgebaseId, input }, context) =>
      context.services.documents.update(context.viewer.accountId, id, input, knowledgebaseId ?? undefined),
  }),
);

builder.mutationField("reprocessDocument", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: Document,
    description:
      "Processes a FAILED document again from its stored source (a website's addresses, or the uploaded file, kept while the document is failed); returns it PROCESSING. CONFLICT with `extensions.reason` DOCUMENT_NOT_FAILED, or DOCUMENT_SOURCE_MISSING when its file is no longer stored (failed before files were kept).",
    args: { id: t.arg.int({ required: true }), knowledgebaseId: t.arg.int() },
    resolve: (_query, _root, { id, knowledgebaseId }, context) =>
      context.services.documents.reprocess(context.viewer.accountId, id, knowledgebaseId ?? undefined),
  }),
);

builder.mutationField("deleteDocument", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DeletedPayload,
    description: "Deletes a document and its passages, even while it is processing.",
    args: { id: t.arg.int({ required: true }), knowledgebaseId: t.arg.int() },
    resolve: async (_root, { id, knowledgebaseId }, context) => {
      await context.services.documents.delete(context.viewer.accountId, id, knowledgebaseId ?? undefined);
      return { deletedId: id };
    },
  }),
);

// ---------------------------------------------------------------- live status

const DocumentProgressRef = builder.objectRef<DocumentProgress>("DocumentProgress").implement({
  description: "The processing state of a document at one moment.",
  fields: (t) => ({
    documentId: t.exposeInt("documentId"),
    knowledgebaseId: t.exposeInt("knowledgebaseId"),
    status: t.expose("status", { type: DocumentEventStatus }),
    stage: t.field({
      type: DocumentStage,
      nullable: true,
      description: "While processing: where it is; null otherwise.",
      resolve: (progress) => stageOf(progress.stage),
    }),
    pagesDone: t.exposeInt("pagesDone"),
    pagesTotal: t.exposeInt("pagesTotal", { nullable: true }),
    chunkCount: t.exposeInt("chunkCount"),
    failureReason: t.exposeString("failureReason", { nullable: true }),
    knowledgebaseStatus: t.expose("knowledgebaseStatus", { type: KnowledgebaseStatus }),
  }),
});

const KnowledgebaseProgressRef = builder.objectRef<KnowledgebaseProgress>("KnowledgebaseProgress").implement({
  fields: (t) => ({
    knowledgebaseId: t.exposeInt("knowledgebaseId"),
    status: t.expose("status", { type: KnowledgebaseStatus }),
    document: t.field({
      type: DocumentProgressRef,
      nullable: true,
      description: "The document whose change caused the event; null on the first event (the current state).",
      resolve: (event) => event.document,
    }),
  }),
});

builder.subscriptionField("documentStatus", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DocumentProgressRef,
    description:
      "The document's current state, then each change; completes once it is active, failed or deleted.",
    args: { id: t.arg.int({ required: true }) },
    subscribe: (_root, { id }, context) => context.services.documents.watch(context.viewer.accountId, id),
    resolve: (event) => event,
  }),
);

builder.subscriptionField("knowledgebaseStatus", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: KnowledgebaseProgressRef,
    description:
      "The knowledge base's current status, then an event for each change of any of its documents.",
    args: { id: t.arg.int({ required: true }) },
    subscribe: (_root, { id }, context) =>
      context.services.documents.watchKnowledgebase(context.viewer.accountId, id),
    resolve: (event) => event,
  }),
);
