import { lazyRequire } from "./lazy-require.ts";

/** gpt-tokenizer (o200k) builds ~50 MB of tables when loaded: by the first count, not at start. */
export const gptTokenizer = lazyRequire<typeof import("gpt-tokenizer")>("gpt-tokenizer");
