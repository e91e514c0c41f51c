import type { Config } from "../../env.ts";
import { EMBEDDING_CALL } from "../../limits.ts";
import { ProviderEndpoint, ProviderError, readJson } from "../common/provider-http.ts";

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

  /**
   * Features are hashed as the characters go by, from the hash of their prefix ("w:" or "t:"), rather
   * than built as strings and looked up in a map: the same hashes and sums in the same order, so the
   * same vectors, at a fraction of the cost (this ran on the request thread for every passage stored).
   */
  embedOne(text: string): number[] {
    const counts = new Float64Array(this.dimensions);
    const add = (hash: number, weight: number) => {
      // A sign from the hash's high bit spreads collisions so they cancel out instead of piling up.
      counts[hash % this.dimensions]! += hash >>> 31 === 0 ? weight : -weight;
    };
    for (const word of words(text)) {
      if (STOP_WORDS.has(word)) continue;
      add(fnv1aFrom(WORD_PREFIX_HASH, word, 0, word.length), 1);
      // Trigrams of "^word$", the anchors standing for the word's start and end.
      const last = word.length + 2;
      for (let index = 0; index + 3 <= last; index++) {
        let hash = TRIGRAM_PREFIX_HASH;
        for (let position = index; position < index + 3; position++) {
          const code =
            position === 0 ? WORD_START : position === last - 1 ? WORD_END : word.charCodeAt(position - 1);
          hash = Math.imul(hash ^ code, 0x01000193);
        }
        add(hash >>> 0, 0.25);
      }
    }
    const vector = Array.from(counts, (value) => Math.sign(value) * Math.log1p(Math.abs(value)));
    const norm = Math.hypot(...vector);
    return norm === 0 ? vector : vector.map((value) => value / norm);
  }
}

/** 32-bit FNV-1a: fast and well spread, which is all feature hashing needs (not a cryptographic hash). */
function fnv1aFrom(seed: number, text: string, start: number, end: number): number {
  let hash = seed;
  for (let index = start; index < end; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

const FNV_OFFSET_BASIS = 0x811c9dc5;
const WORD_PREFIX_HASH = fnv1aFrom(FNV_OFFSET_BASIS, "w:", 0, 2);
const TRIGRAM_PREFIX_HASH = fnv1aFrom(FNV_OFFSET_BASIS, "t:", 0, 2);
const WORD_START = "^".charCodeAt(0);
const WORD_END = "$".charCodeAt(0);

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
  // Most passages are plain ASCII: no need to split them into words to find none.
  if (ASCII_ONLY.test(text)) return [];
  return [...new Set(words(text).filter((word) => [...word].some((char) => char.codePointAt(0)! > 0x7f)))];
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: the whole ASCII range, control characters included
const ASCII_ONLY = /^[\u0000-\u007f]*$/;

const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from how i in is it of on or the this to was what when where which who why will with you your".split(
    " ",
  ),
);

const OPENAI_BATCH_SIZE = 64;

/**
 * Embeddings from an OpenAI-compatible service (`POST {base}/embeddings`), in batches, through the
 * provider endpoint the chat client uses (`common/provider-http.ts`: kept-alive sockets, the SDK's
 * retries and backoff): a question's embedding is on every reply's path, where the SDK's fetch and
 * response wrappers cost more CPU than the call's own HTTP.
 */
export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly endpoint: ProviderEndpoint;
  private readonly model: string;

  constructor(options: { apiKey: string; baseUrl: string | undefined; model: string; dimensions: number }) {
    this.model = options.model;
    this.dimensions = options.dimensions;
    this.id = `openai:${options.model}:${options.dimensions}`;
    this.endpoint = new ProviderEndpoint("/embeddings", "application/json", {
      apiKey: options.apiKey,
      baseUrl: options.baseUrl,
      timeoutMs: EMBEDDING_CALL.timeoutMs,
      maxRetries: EMBEDDING_CALL.maxRetries,
    });
  }

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<number[][]> {
    const vectors: number[][] = [];
    for (let start = 0; start < texts.length; start += OPENAI_BATCH_SIZE) {
      const batch = texts.slice(start, start + OPENAI_BATCH_SIZE);
      // base64 (the bytes of float32s) is a third of the JSON's size and needs no number parsing: a
      // float's decimal text is ~20 bytes, each parsed into a double. A compatible server which
      // ignores the option and answers arrays of numbers is understood too.
      const payload = JSON.stringify({
        model: this.model,
        input: batch,
        dimensions: this.dimensions,
        encoding_format: "base64",
      });
      const response = (await this.endpoint.post(
        payload,
        readJson(EMBEDDING_CALL.responseMaxChars),
        signal,
      )) as { data?: unknown };
      if (!Array.isArray(response.data)) {
        throw new ProviderError("protocol", "the embedding service answered without embeddings.");
      }
      const ordered = (response.data as { index?: unknown; embedding?: unknown }[])
        .map((item) => ({ index: Number(item.index), embedding: decodeEmbedding(item.embedding) }))
        .sort((a, b) => a.index - b.index);
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

/** An embedding as sent: base64 of little-endian float32s, or (a server ignoring the option) numbers. */
function decodeEmbedding(embedding: unknown): number[] {
  if (Array.isArray(embedding) && embedding.every((value) => typeof value === "number")) return embedding;
  if (typeof embedding !== "string") {
    throw new ProviderError("protocol", "the embedding service sent an unreadable embedding.");
  }
  const bytes = Buffer.from(embedding, "base64");
  const vector = new Array<number>(bytes.length >> 2);
  for (let index = 0; index < vector.length; index++) vector[index] = bytes.readFloatLE(index * 4);
  return vector;
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

/**
 * A vector in pgvector's binary form (its `vector_recv`: dimensions and a reserved word as 16-bit integers,
 * then the float4s, big-endian). node-postgres sends a Buffer parameter as binary, so the database takes
 * the floats as they are instead of parsing 1,536 decimal numbers from text (~2 ms a search on the
 * embedded store), and this process writes 4 bytes a dimension instead of ~20 characters. Non-finite
 * values become 0, as in `toVectorLiteral`: pgvector rejects them.
 */
export function toVectorBinary(vector: readonly number[]): Buffer {
  const buffer = Buffer.allocUnsafe(vectorBinaryBytes(vector));
  writeVectorBinary(buffer, 0, vector);
  return buffer;
}

/**
 * A PostgreSQL array of vectors in binary form (`array_recv` of `vector_recv`), one parameter for a batch
 * of rows. `vectorOid` is the `vector` type's OID in this database (the extension's type has no fixed
 * one), which the array's header must name.
 */
export function toVectorArrayBinary(vectors: readonly (readonly number[])[], vectorOid: number): Buffer {
  // Array header: dimensions, has-nulls flag, element type, then the one dimension's length and lower bound.
  const HEADER = 20;
  let size = HEADER;
  for (const vector of vectors) size += 4 + vectorBinaryBytes(vector);
  const buffer = Buffer.allocUnsafe(size);
  let offset = buffer.writeInt32BE(1, 0);
  offset = buffer.writeInt32BE(0, offset);
  offset = buffer.writeUInt32BE(vectorOid, offset);
  offset = buffer.writeInt32BE(vectors.length, offset);
  offset = buffer.writeInt32BE(1, offset);
  for (const vector of vectors) {
    offset = buffer.writeInt32BE(vectorBinaryBytes(vector), offset);
    offset = writeVectorBinary(buffer, offset, vector);
  }
  return buffer;
}

function vectorBinaryBytes(vector: readonly number[]): number {
  return 4 + 4 * vector.length;
}

function writeVectorBinary(buffer: Buffer, start: number, vector: readonly number[]): number {
  let offset = buffer.writeInt16BE(vector.length, start);
  offset = buffer.writeInt16BE(0, offset);
  for (const value of vector) offset = buffer.writeFloatBE(Number.isFinite(value) ? value : 0, offset);
  return offset;
}

/** pgvector's text form of a vector. */
export function toVectorLiteral(vector: readonly number[]): string {
  return `[${vector.map((value) => (Number.isFinite(value) ? value : 0)).join(",")}]`;
}
