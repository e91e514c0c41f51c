import { lazyRequire } from "./lazy-require.ts";

/**
 * gpt-tokenizer (o200k) builds ~60–85 MB of tables, synchronously, when loaded (0.8 s on an idle
 * core): only by the first exact count, never at start. Replies rarely need one (`tokenUpperBound`).
 */
const gptTokenizer = lazyRequire<typeof import("gpt-tokenizer")>("gpt-tokenizer");

/**
 * Special-token spellings such as `<|endoftext|>` in a customer's message or a document are
 * ordinary text: gpt-tokenizer's default throws on them, which failed every later reply of that
 * conversation and the document's ingestion.
 */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

export interface Tokenizer {
  encode(text: string): number[];
  decode(tokens: number[]): string;
}

/** The o200k tokenizer, loaded by its first use. */
export const textTokenizer: Tokenizer = {
  encode: (text) => gptTokenizer().encode(text, AS_TEXT),
  decode: (tokens) => gptTokenizer().decode(tokens),
};

/** The exact o200k token count; loads the tokenizer. */
export function countTokens(text: string): number {
  return textTokenizer.encode(text).length;
}

/**
 * A count o200k never exceeds, without the tokenizer: byte-level BPE makes no token of less than
 * one UTF-8 byte. About four times the real count for English, so a budget fits most texts by it alone.
 */
export function tokenUpperBound(text: string): number {
  return Buffer.byteLength(text, "utf8");
}
