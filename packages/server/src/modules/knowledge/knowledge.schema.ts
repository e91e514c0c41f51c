import { builder } from "../../builder.ts";
import type { Passage, SearchMode } from "./index.ts";

export const KnowledgebaseStatus = builder.enumType("KnowledgebaseStatus", {
  values: {
    EMPTY: { value: "empty", description: "No documents." },
    PROCESSING: { value: "processing", description: "At least one document is being processed." },
    ACTIVE: { value: "active", description: "Every document is processed and ready." },
    FAILED: { value: "failed", description: "Nothing is processing and at least one document failed." },
  } as const,
});

const SearchModeEnum = builder.enumType("SearchMode", {
  values: {
    VECTOR: { value: "vector", description: "Semantic similarity of embeddings." },
    KEYWORD: { value: "keyword", description: "PostgreSQL full-text search." },
    HYBRID: { value: "hybrid", description: "Both rankings fused (reciprocal rank fusion)." },
  } as const,
});

export const STATUS_LABELS: Record<string, string> = {
  empty: "Empty",
  processing: "Processing",
  active: "Active",
  failed: "Failed",
};
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

export const DeletedPayload = builder.objectRef<{ deletedId: number }>("DeleteKnowledgePayload").implement({
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
