// The language models behind replies (OpenAI's API or a server speaking it): chat, embeddings, evaluation,
// and the work around them (document ingestion's limit, the cache of assistants' reply settings).
import { z } from "zod";
import { cacheSeconds, emptyAsUndefined, httpUrl, positiveInt } from "./validators.ts";

export const modelsEnv = z.object({
  OPENAI_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  OPENAI_BASE_URL: z.preprocess(emptyAsUndefined, httpUrl.optional()),
  VOXGATE_ASSISTANT_CACHE_SECONDS: cacheSeconds,
  OPENAI_MODEL: z.string().min(1).default("gpt-4o-mini"),
  OPENAI_TIMEOUT_SECONDS: positiveInt.max(600, "must be at most 600").default(60),
  OPENAI_EMBEDDING_MODEL: z.string().min(1).default("text-embedding-3-small"),
  OPENAI_EMBEDDING_DIMENSIONS: positiveInt.max(4000, "must be at most 4000").default(1536),
  VOXGATE_DOCUMENT_TIMEOUT_SECONDS: positiveInt.default(300),
  VOXGATE_EVALUATION_TIMEOUT_MS: positiveInt.max(600_000, "must be at most 600000").default(60_000),
  VOXGATE_EVALUATION_MAX_ATTEMPTS: positiveInt.max(10, "must be at most 10").default(4),
  VOXGATE_EVALUATION_RETRY_BASE_MS: positiveInt.max(3_600_000, "must be at most 3600000").default(30_000),
});

export type ModelsEnv = z.output<typeof modelsEnv>;

export interface ModelsSettings {
  openai: {
    apiKey: string | undefined;
    baseUrl: string | undefined;
    model: string;
    embeddingModel: string;
    embeddingDimensions: number;
    /** How long one chat completion may take before the reply fails (and is not charged). */
    timeoutSeconds: number;
  };
  /**
   * How long an instance reuses an assistant's reply settings without a database lookup; 0 turns the
   * cache off. Changes through the API reach every instance's cache at once, so this only bounds
   * staleness for changes that announce nothing.
   */
  assistantCacheSeconds: number;
  documentTimeoutSeconds: number;
  /** Post-call evaluation: the model's time per attempt, attempts, and the first retry's delay (doubling). */
  evaluation: { timeoutMs: number; maxAttempts: number; retryBaseMs: number };
}

export function modelsSettings(env: ModelsEnv): ModelsSettings {
  return {
    openai: {
      apiKey: env.OPENAI_API_KEY,
      baseUrl: env.OPENAI_BASE_URL,
      model: env.OPENAI_MODEL,
      embeddingModel: env.OPENAI_EMBEDDING_MODEL,
      embeddingDimensions: env.OPENAI_EMBEDDING_DIMENSIONS,
      timeoutSeconds: env.OPENAI_TIMEOUT_SECONDS,
    },
    assistantCacheSeconds: env.VOXGATE_ASSISTANT_CACHE_SECONDS,
    documentTimeoutSeconds: env.VOXGATE_DOCUMENT_TIMEOUT_SECONDS,
    evaluation: {
      timeoutMs: env.VOXGATE_EVALUATION_TIMEOUT_MS,
      maxAttempts: env.VOXGATE_EVALUATION_MAX_ATTEMPTS,
      retryBaseMs: env.VOXGATE_EVALUATION_RETRY_BASE_MS,
    },
  };
}
