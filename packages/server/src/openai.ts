import type OpenAI from "openai";
import type { Config } from "./env.ts";
import { lazyRequire } from "./lazy-require.ts";

/**
 * The OpenAI SDK, loaded when a model or embedding service is configured (its client is built) and
 * not otherwise. One copy (CommonJS) for the clients and the `instanceof` checks of their errors.
 */
export const openai = lazyRequire<typeof import("openai")>("openai");

/**
 * A client of the deployment's model service (`config.openai`), or null when none is configured.
 * `maxRetries` is the caller's: a job that retries by itself wants none of the SDK's.
 */
export function deploymentModelClient(config: Pick<Config, "openai">, maxRetries: number): OpenAI | null {
  const { apiKey, baseUrl } = config.openai;
  if (!apiKey && !baseUrl) return null;
  return new (openai().OpenAI)({
    apiKey: apiKey ?? "unused",
    ...(baseUrl ? { baseURL: baseUrl } : {}),
    maxRetries,
  });
}
