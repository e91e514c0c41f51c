import type OpenAI from "openai";
import type { Config } from "../../env.ts";
import { openai } from "../../openai.ts";

/** Turns passages into vectors. `id` names the model and dimension: vectors of different ids never mix. */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]>;
}

export const LOCAL_EMBEDDING_DIMENSIONS = 384;

/**
 * The offline embedder: feature hashing of words and character trigrams into a fixed dimension,
 * log-scaled and normalised. It knows no synonyms, but passages sharing words and word pieces with
 * a question land close to it, which is what retrieval needs when no embedding service is set up.
 */
export class LocalHashEmbedder implements Embedder {
  readonly id = `local:hash:${LOCAL_EMBEDDING_DIMENSIONS}`;
  readonly dimensions = LOCAL_EMBEDDING_DIMENSIONS;

  async embed(texts: readonly string[]): Promise<number[][]> {
    return texts.map((text) => this.embedOne(text));
  }

  embedOne(text: string): number[] {
    const counts = new Map<number, number>();
    const add = (feature: string, weight: number) => {
      const hash = fnv1a(feature);
      const bucket = hash % this.dimensions;
      // A sign from the hash's high bit spreads collisions so they cancel out instead of piling up.
      const sign = hash >>> 31 === 0 ? 1 : -1;
      counts.set(bucket, (counts.get(bucket) ?? 0) + sign * weight);
    };
    for (const word of words(text)) {
      if (STOP_WORDS.has(word)) continue;
      add(`w:${word}`, 1);
      const padded = `^${word}$`;
      for (let index = 0; index + 3 <= padded.length; index++)
        add(`t:${padded.slice(index, index + 3)}`, 0.25);
    }
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const [bucket, value] of counts) vector[bucket] = Math.sign(value) * Math.log1p(Math.abs(value));
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }
}

/** 32-bit FNV-1a: fast and well spread, which is all feature hashing needs (not a cryptographic hash). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

export function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .normalize("NFKC")
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * Words outside ASCII, for full-text search. PostgreSQL's text parser follows the database locale,
 * and under the C locale it drops non-Latin letters; these words are indexed as exact lexemes instead.
 */
export function nonAsciiWords(text: string): string[] {
  return [...new Set(words(text).filter((word) => [...word].some((char) => char.codePointAt(0)! > 0x7f)))];
}

const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from how i in is it of on or the this to was what when where which who why will with you your".split(
    " ",
  ),
);

const OPENAI_BATCH_SIZE = 64;

/** Embeddings from an OpenAI-compatible service, in batches, with the client's retries and backoff. */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly client: OpenAI;
  private readonly model: string;

  constructor(options: { apiKey: string; baseUrl: string | undefined; model: string; dimensions: number }) {
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.id = `openai:${options.model}:${options.dimensions}`;
    this.client = new (openai().OpenAI)({
      apiKey: options.apiKey,
      ...(options.baseUrl ? { baseURL: options.baseUrl } : {}),
      maxRetries: 4,
      timeout: 60_000,
    });
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += OPENAI_BATCH_SIZE) {
      const batch = texts.slice(start, start + OPENAI_BATCH_SIZE);
      const response = await this.client.embeddings.create(
        { model: this.model, input: [...batch], dimensions: this.dimensions, encoding_format: "float" },
        signal ? { signal } : {},
      );
      const ordered = [...response.data].sort((a, b) => a.index - b.index);
      if (ordered.length !== batch.length) {
        throw new Error(
          `The embedding service returned ${ordered.length} vectors for ${batch.length} passages.`,
        );
      }
      for (const item of ordered) {
        if (item.embedding.length !== this.dimensions) {
          throw new Error(
            `The embedding service returned ${item.embedding.length} dimensions, expected ${this.dimensions}.`,
          );
        }
        vectors.push(item.embedding);
      }
    }
    return vectors;
  }
}

/** The OpenAI embedder when a key or base URL is configured, otherwise the offline one. */
export function createEmbedder(config: Config): Embedder {
  const { apiKey, baseUrl, embeddingModel, embeddingDimensions } = config.openai;
  if (!apiKey && !baseUrl) return new LocalHashEmbedder();
  return new OpenAIEmbedder({
    // A self-hosted compatible server may need no key, but the client insists on one.
    apiKey: apiKey ?? "not-needed",
    baseUrl,
    model: embeddingModel,
    dimensions: embeddingDimensions,
  });
}

/** pgvector's text form of a vector. */
export function toVectorLiteral(vector: readonly number[]): string {
  return `[${vector.map((value) => (Number.isFinite(value) ? value : 0)).join(",")}]`;
}
