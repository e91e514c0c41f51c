import { createRequire } from "node:module";

type GptTokenizer = typeof import("gpt-tokenizer");

let loaded: GptTokenizer | undefined;

/**
 * gpt-tokenizer (o200k) builds its tables when loaded, ~50 MB that an instance which never replies
 * nor ingests should not hold: it is loaded by the first count, synchronously (its CommonJS build),
 * so that counting stays a plain function call.
 */
export function gptTokenizer(): GptTokenizer {
  loaded ??= createRequire(import.meta.url)("gpt-tokenizer") as GptTokenizer;
  return loaded;
}
