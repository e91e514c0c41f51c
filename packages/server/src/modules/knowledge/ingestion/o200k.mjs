// @ts-check
// Plain JavaScript: loaded by the worker threads that cut passages (pdf-worker.mjs, chunk-worker.mjs).
import { createRequire } from "node:module";

/** @type {import("./chunking-core.d.mts").Tokenizer | null} */
let tokenizer = null;

/**
 * The o200k tokenizer as src/tokenizer.ts builds it (special-token spellings are text), loaded by the
 * thread's first passage: its tables (~60–85 MB, 0.8 s of synchronous work on an idle core) live in the
 * worker thread, which ends with the document, never in the server's thread.
 * @returns {import("./chunking-core.d.mts").Tokenizer}
 */
export function o200k() {
  if (tokenizer) return tokenizer;
  /** @type {typeof import("gpt-tokenizer")} */
  const gpt = createRequire(import.meta.url)("gpt-tokenizer");
  const asText = { disallowedSpecial: new Set() };
  tokenizer = { encode: (text) => gpt.encode(text, asText), decode: (tokens) => gpt.decode(tokens) };
  return tokenizer;
}
