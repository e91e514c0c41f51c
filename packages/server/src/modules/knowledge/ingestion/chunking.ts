import { setImmediate as nextTurn } from "node:timers/promises";
import { type Tokenizer, textTokenizer } from "../../../tokenizer.ts";
import { type Chunk, type ChunkingOptions, chunkSteps, DEFAULT_CHUNKING } from "./chunking-core.mjs";
import type { Section } from "./extract.ts";

// The cutting itself is chunking-core.mjs, shared with the PDF worker thread (pdf-worker.mjs), which
// cuts a PDF's pages where it parses them.
export { type Chunk, type ChunkingOptions, DEFAULT_CHUNKING, SEGMENT_CHARS } from "./chunking-core.mjs";
/** The embedding model's tokens; replaceable so tests can watch what is tokenised. */
export type { Tokenizer };

export interface ChunkOptions extends ChunkingOptions {
  tokenizer?: Tokenizer;
}

/**
 * Splits each section into passages of at most `maxTokens` tokens (the embedding model's tokens),
 * cutting at paragraph and sentence ends where it can. Consecutive passages share about
 * `overlapTokens` of text so that an answer straddling a cut is still found whole in one of them.
 * A passage never spans two sections, so it keeps its page or URL.
 */
export function chunkSections(
  sections: readonly Section[],
  options: ChunkOptions = DEFAULT_CHUNKING,
): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    for (const step of chunkSteps(section, options, options.tokenizer ?? textTokenizer))
      if (step) chunks.push(step);
  }
  return chunks;
}

/** Longest stretch of tokenising before other work on the event loop gets a turn. */
const TURN_MS = 10;

/**
 * `chunkSections` inside the server: passages are produced as sections arrive, yielding to the event
 * loop every `TURN_MS`, also within a section (a text file is one section), and stopping when `signal`
 * aborts, so the document time limit and a stop interrupt it. Tokenising a long document takes seconds;
 * in one go it stalled every request and subscription of the instance (bench/ingest measured 3 to 5 s).
 */
export async function* chunkStream(
  sections: Iterable<Section> | AsyncIterable<Section>,
  signal: AbortSignal,
  options: ChunkOptions = DEFAULT_CHUNKING,
): AsyncGenerator<Chunk> {
  let turnStarted = performance.now();
  for await (const section of sections) {
    for (const step of chunkSteps(section, options, options.tokenizer ?? textTokenizer)) {
      if (step) yield step;
      if (performance.now() - turnStarted >= TURN_MS) {
        await nextTurn();
        signal.throwIfAborted();
        turnStarted = performance.now();
      }
    }
    signal.throwIfAborted();
  }
}
