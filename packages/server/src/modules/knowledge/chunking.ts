import { setImmediate as nextTurn } from "node:timers/promises";
import { decode, encode } from "gpt-tokenizer";
import type { Section } from "./extract.ts";

export interface Chunk {
  content: string;
  tokenCount: number;
  source: string | null;
}

export interface ChunkingOptions {
  maxTokens: number;
  overlapTokens: number;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { maxTokens: 300, overlapTokens: 50 };

/**
 * Splits each section into passages of at most `maxTokens` tokens (the embedding model's tokens),
 * cutting at paragraph and sentence ends where it can. Consecutive passages share about
 * `overlapTokens` of text so that an answer straddling a cut is still found whole in one of them.
 * A passage never spans two sections, so it keeps its page or URL.
 */
export function chunkSections(sections: readonly Section[], options = DEFAULT_CHUNKING): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    const pieces = splitIntoPieces(normaliseWhitespace(section.text), options.maxTokens);
    let current: Piece[] = [];
    let currentTokens = 0;
    // Pieces added since the last passage: the overlap carried over alone must not become a passage.
    let freshPieces = 0;
    const flush = () => {
      const content = current
        .map((piece) => piece.text)
        .join(" ")
        .trim();
      if (content) chunks.push({ content, tokenCount: currentTokens, source: section.source });
      const carried: Piece[] = [];
      let carriedTokens = 0;
      for (let index = current.length - 1; index > 0; index--) {
        const piece = current[index]!;
        if (carriedTokens + piece.tokens > options.overlapTokens) break;
        carried.unshift(piece);
        carriedTokens += piece.tokens;
      }
      current = carried;
      currentTokens = carriedTokens;
      freshPieces = 0;
    };
    for (const piece of pieces) {
      if (currentTokens + piece.tokens > options.maxTokens && current.length > 0) flush();
      current.push(piece);
      currentTokens += piece.tokens;
      freshPieces++;
    }
    if (freshPieces > 0) flush();
  }
  return chunks;
}

/** Longest stretch of tokenising before other work on the event loop gets a turn. */
const TURN_MS = 20;

/**
 * `chunkSections` inside the server: one section at a time, yielding to the event loop every
 * `TURN_MS`, and stopping when `signal` aborts. Tokenising a 2,000-page PDF takes seconds; in one
 * go it stalled every request and subscription of the instance (bench/ingest measured 3 to 5 s).
 * The passages are the same, since a passage never spans two sections.
 */
export async function chunkSectionsInTurns(
  sections: readonly Section[],
  signal: AbortSignal,
  options = DEFAULT_CHUNKING,
): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  let turnStarted = performance.now();
  for (const section of sections) {
    signal.throwIfAborted();
    for (const chunk of chunkSections([section], options)) chunks.push(chunk);
    if (performance.now() - turnStarted >= TURN_MS) {
      await nextTurn();
      turnStarted = performance.now();
    }
  }
  return chunks;
}

interface Piece {
  text: string;
  tokens: number;
}

function normaliseWhitespace(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/\n\s*\n+/g, "\n\n")
    .trim();
}

/** Sentences (or paragraph ends), each at most `maxTokens`; longer ones are cut by tokens. */
function splitIntoPieces(text: string, maxTokens: number): Piece[] {
  const sentences = text.match(/[^\n.!?。！？]*(?:[.!?。！？]+["'”’)\]]*|\n+|$)/gu) ?? [];
  const pieces: Piece[] = [];
  for (const raw of sentences) {
    const sentence = raw.trim();
    if (!sentence) continue;
    const tokens = encode(sentence);
    if (tokens.length <= maxTokens) {
      pieces.push({ text: sentence, tokens: tokens.length });
      continue;
    }
    for (let start = 0; start < tokens.length; start += maxTokens) {
      const slice = tokens.slice(start, start + maxTokens);
      pieces.push({ text: decode(slice), tokens: slice.length });
    }
  }
  return pieces;
}
