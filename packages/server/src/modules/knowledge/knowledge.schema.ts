import { GraphQLError } from "graphql";
import { builder } from "../../builder.ts";
import { ValidationError } from "../../errors.ts";
import type { DocumentProgress, KnowledgebaseProgress, Passage, SearchMode } from "./index.ts";
import { isUploadedFile } from "./ingestion/file-types.ts";

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

const KnowledgebaseStatus = builder.enumType("KnowledgebaseStatus", {
  values: {
    EMPTY: { value: "empty", description: "No documents." },
    PROCESSING: { value: "processing", description: "At least one document is being processed." },
    ACTIVE: { value: "active", description: "Every document is processed and ready." },
    FAILED: { value: "failed", description: "Nothing is processing and at least one document failed." },
  } as const,
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

const SearchModeEnum = builder.enumType("SearchMode", {
  values: {
    VECTOR: { value: "vector", description: "Semantic similarity of embeddings." },
    KEYWORD: { value: "keyword", description: "PostgreSQL full-text search." },
    HYBRID: { value: "hybrid", description: "Both rankings fused (reciprocal rank fusion)." },
  } as const,
});

const STATUS_LABELS: Record<string, string> = {
  empty: "Empty",
  processing: "Processing",
  active: "Active",
  failed: "Failed",
};
const TYPE_LABELS: Record<string, string> = { website: "Website", pdf: "PDF", txt: "TXT", docx: "DOCX" };

const Knowledgebase = builder.prismaObject("Knowledgebase", {
  description: "A set of documents that gives assistants context.",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    status: t.expose("status", { type: KnowledgebaseStatus }),
    statusLabel: t.string({ resolve: (knowledgebase) => STATUS_LABELS[knowledgebase.status]! }),
    chunkMaxTokens: t.exposeInt("chunkMaxTokens", {
      description:
        "Passages of documents processed from now on are at most this many tokens; stored documents keep theirs until added again.",
    }),
    chunkOverlapTokens: t.exposeInt("chunkOverlapTokens", {
      description: "Consecutive passages of documents processed from now on share about this many tokens.",
    }),
    documentsCount: t.relationCount("documents"),
    assistantsCount: t.relationCount("assistants", {
      description: "Assistants that use this knowledge base.",
    }),
    documents: t.relation("documents", { query: { orderBy: [{ createdAt: "desc" }, { id: "desc" }] } }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

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

// ---------------------------------------------------------------- knowledge bases

builder.queryField("knowledgebases", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: [Knowledgebase],
    description: "The account's knowledge bases, newest first (not paginated).",
    resolve: (query, _root, _args, context) =>
      context.services.knowledgebases.list(context.viewer.accountId, query),
  }),
);

builder.queryField("knowledgebase", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: Knowledgebase,
    args: { id: t.arg.int({ required: true }) },
    resolve: (query, _root, { id }, context) =>
      context.services.knowledgebases.get(context.viewer.accountId, id, query),
  }),
);

const KnowledgebaseInput = builder.inputType("KnowledgebaseInput", {
  fields: (t) => ({
    name: t.string({ description: "At most 255 characters; required on create." }),
    description: t.string({ description: "At most 255 characters." }),
    chunkMaxTokens: t.int({
      description:
        "Passages are cut at most this many tokens long, 50 to 2000 (default 300). Applies to documents processed afterwards.",
    }),
    chunkOverlapTokens: t.int({
      description:
        "Consecutive passages share about this many tokens, 0 to less than half of chunkMaxTokens (default 50).",
    }),
  }),
});

builder.mutationField("createKnowledgebase", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: Knowledgebase,
    args: { input: t.arg({ type: KnowledgebaseInput, required: true }) },
    resolve: (_query, _root, { input }, context) =>
      context.services.knowledgebases.create(context.viewer.accountId, input),
  }),
);

builder.mutationField("updateKnowledgebase", (t) =>
  t.withAuth({ authenticated: true }).prismaField({
    type: Knowledgebase,
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: KnowledgebaseInput, required: true }) },
    resolve: (_query, _root, { id, input }, context) =>
      context.services.knowledgebases.update(context.viewer.accountId, id, input),
  }),
);

const DeletedPayload = builder.objectRef<{ deletedId: number }>("DeleteKnowledgePayload").implement({
  fields: (t) => ({ deletedId: t.exposeInt("deletedId") }),
});

builder.mutationField("deleteKnowledgebase", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: DeletedPayload,
    description: "Deletes the knowledge base with all its documents; assistants using it are detached.",
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, { id }, context) => {
      await context.services.knowledgebases.delete(context.viewer.accountId, id);
      return { deletedId: id };
    },
  }),
);

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

// ---------------------------------------------------------------- retrieval

const PassageRef = builder.objectRef<Passage>("KnowledgePassage").implement({
  description: "A passage of a document, ranked for a query.",
  fields: (t) => ({
    chunkId: t.exposeInt("chunkId"),
    content: t.exposeString("content"),
    source: t.exposeString("source", {
      nullable: true,
      description: 'Where it is: "page 3", a page URL, or null.',
    }),
    score: t.exposeFloat("score", { description: "Higher ranks first; the scale depends on the mode." }),
    relevance: t.exposeFloat("relevance", {
      description:
        "The score from 0 to 1 on one scale for every mode, for people: vector, the cosine similarity; keyword, rank / (rank + 1); hybrid, the fused score over the best possible (first in both rankings is 1, first in one only is 0.5).",
    }),
    documentId: t.exposeInt("documentId"),
    documentName: t.exposeString("documentName"),
    document: t.prismaField({
      type: "Document",
      resolve: (query, passage, _args, context) =>
        context.prisma.document.findUniqueOrThrow({ ...query, where: { id: passage.documentId } }),
    }),
  }),
});

builder.queryField("searchKnowledgebase", (t) =>
  t.withAuth({ authenticated: true }).field({
    type: [PassageRef],
    description: "The passages of a knowledge base that best answer `query`, best first.",
    args: {
      id: t.arg.int({ required: true }),
      query: t.arg.string({ required: true }),
      limit: t.arg.int({ defaultValue: 5, description: "1 to 50." }),
      mode: t.arg({ type: SearchModeEnum, defaultValue: "hybrid" }),
    },
    resolve: (_root, { id, query, limit, mode }, context) =>
      context.services.knowledgebases.search(context.viewer.accountId, id, query, {
        limit: limit ?? 5,
        mode: (mode ?? "hybrid") as SearchMode,
      }),
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
