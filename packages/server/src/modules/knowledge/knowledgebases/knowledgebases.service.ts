import { z } from "zod";
import type { Lifecycle, ServiceDeps } from "../../../deps.ts";
import { NotFoundError, ValidationError } from "../../../errors.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { optionalString, parseInput, requiredString } from "../../../validation.ts";
import { DEFAULT_CHUNKING } from "../ingestion/chunking.ts";
import type { UploadStore } from "../ingestion/upload-store.ts";
import type { KnowledgeSearch, Passage, SearchMode } from "./search.ts";

/**
 * Passage sizes a knowledge base may choose. Below 50 tokens a passage rarely holds a whole answer;
 * above 2,000 it outgrows the context of small local embedding models and crowds the reply's prompt.
 */
export const CHUNK_LIMITS = { minTokens: 50, maxTokens: 2000 } as const;

const wholeNumber = (label: string, min: number, max: number) =>
  z
    .number({ error: `The ${label} field must be a whole number.` })
    .int(`The ${label} field must be a whole number.`)
    .min(min, `The ${label} field must be between ${min} and ${max}.`)
    .max(max, `The ${label} field must be between ${min} and ${max}.`)
    .nullish()
    .transform((value) => value ?? undefined);

const chunkFields = {
  chunkMaxTokens: wholeNumber("chunk max tokens", CHUNK_LIMITS.minTokens, CHUNK_LIMITS.maxTokens),
  chunkOverlapTokens: wholeNumber("chunk overlap tokens", 0, CHUNK_LIMITS.maxTokens),
};

const KnowledgebaseInput = z.object({
  name: requiredString("name"),
  description: optionalString("description"),
  ...chunkFields,
});

const KnowledgebaseUpdate = z.object({
  name: requiredString("name").optional(),
  description: optionalString("description"),
  ...chunkFields,
});

type KnowledgebaseFields = {
  name?: unknown;
  description?: unknown;
  chunkMaxTokens?: unknown;
  chunkOverlapTokens?: unknown;
};

/**
 * The overlap must stay under half a passage: consecutive passages would otherwise repeat more than
 * they add, and a document would be stored (and embedded, and paid for) about twice over.
 */
function checkOverlap(maxTokens: number, overlapTokens: number): void {
  if (overlapTokens * 2 >= maxTokens)
    throw new ValidationError({
      chunkOverlapTokens: [
        `The chunk overlap tokens field must be less than half of chunk max tokens (${maxTokens}).`,
      ],
    });
}

/**
 * Knowledge bases and retrieval from them. Every method is scoped to an account: another account's
 * knowledge base is not found.
 */
export class KnowledgebasesService implements Lifecycle {
  constructor(
    private readonly deps: ServiceDeps,
    private readonly retrieval: KnowledgeSearch,
    private readonly uploads: UploadStore,
  ) {}

  list(accountId: number, query: { include?: Prisma.KnowledgebaseInclude } = {}) {
    return this.deps.db.prisma.knowledgebase.findMany({
      ...query,
      where: { accountId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    });
  }

  async get(accountId: number, id: number, query: { include?: Prisma.KnowledgebaseInclude } = {}) {
    const knowledgebase = await this.deps.db.prisma.knowledgebase.findFirst({
      ...query,
      where: { id, accountId },
    });
    if (!knowledgebase) throw new NotFoundError("Knowledgebase");
    return knowledgebase;
  }

  async create(accountId: number, input: KnowledgebaseFields) {
    const { name, description, chunkMaxTokens, chunkOverlapTokens } = parseInput(KnowledgebaseInput, input);
    const chunking = {
      chunkMaxTokens: chunkMaxTokens ?? DEFAULT_CHUNKING.maxTokens,
      chunkOverlapTokens: chunkOverlapTokens ?? DEFAULT_CHUNKING.overlapTokens,
    };
    checkOverlap(chunking.chunkMaxTokens, chunking.chunkOverlapTokens);
    const knowledgebase = await this.deps.db.prisma.knowledgebase.create({
      data: { accountId, name, description: description ?? "", ...chunking },
    });
    this.deps.logger.info("knowledgebase created", { accountId, knowledgebaseId: knowledgebase.id });
    return knowledgebase;
  }

  /**
   * New chunk settings apply to documents processed from then on; documents already stored keep their
   * passages (re-cutting them means embedding them again, which the owner decides by adding them again).
   */
  async update(accountId: number, id: number, input: KnowledgebaseFields) {
    const changes = parseInput(KnowledgebaseUpdate, input);
    const current = await this.get(accountId, id);
    if (changes.chunkMaxTokens !== undefined || changes.chunkOverlapTokens !== undefined)
      checkOverlap(
        changes.chunkMaxTokens ?? current.chunkMaxTokens,
        changes.chunkOverlapTokens ?? current.chunkOverlapTokens,
      );
    return this.deps.db.prisma.knowledgebase.update({
      where: { id },
      data: {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.chunkMaxTokens !== undefined ? { chunkMaxTokens: changes.chunkMaxTokens } : {}),
        ...(changes.chunkOverlapTokens !== undefined
          ? { chunkOverlapTokens: changes.chunkOverlapTokens }
          : {}),
      },
    });
  }

  /** Deletes the knowledge base with its documents and passages; assistants using it lose the link. */
  async delete(accountId: number, id: number): Promise<void> {
    const waiting = await this.deps.db.prisma.document.findMany({
      where: { knowledgebaseId: id, accountId, status: "processing", type: { not: "website" } },
      select: { id: true },
    });
    const { count } = await this.deps.db.prisma.knowledgebase.deleteMany({ where: { id, accountId } });
    if (count === 0) throw new NotFoundError("Knowledgebase");
    for (const document of waiting) await this.uploads.delete(document.id);
    this.deps.logger.info("knowledgebase deleted", { accountId, knowledgebaseId: id });
  }

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
    const passages = await this.retrieval.search(
      { accountId, knowledgebaseId },
      query.trim(),
      limit,
      options.mode ?? "hybrid",
    );
    // The search is scoped to the account already; only an empty answer needs telling apart from
    // another account's knowledge base, which is not found.
    if (passages.length === 0) await this.get(accountId, knowledgebaseId);
    return passages;
  }

  async start(): Promise<void> {
    await this.retrieval.arrangeVectorIndexes();
  }

  stop(): void {}
}
