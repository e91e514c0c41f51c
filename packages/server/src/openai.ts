import { lazyRequire } from "./lazy-require.ts";

/**
 * The OpenAI SDK, loaded when a model or embedding service is configured (its client is built) and
 * not otherwise. One copy (CommonJS) for the clients and the `instanceof` checks of their errors.
 */
export const openai = lazyRequire<typeof import("openai")>("openai");
