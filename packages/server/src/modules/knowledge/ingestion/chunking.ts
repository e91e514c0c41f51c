import { setImmediate as nextTurn } from "node:timers/promises";
import { type Tokenizer, textTokenizer } from "../../../tokenizer.ts";
import type { Section } from "./extract.ts";

export interface Chunk {
  content: string;
  tokenCount: number;
  source: string | null;
}

/** The embedding model's tokens; replaceable so tests can watch what is tokenised. */
export type { Tokenizer };

export interface ChunkingOptions {
  maxTokens: number;
  overlapTokens: number;
  tokenizer?: Tokenizer;
}

export const DEFAULT_CHUNKING: ChunkingOptions = { maxTokens: 300, overlapTokens: 50 };

/**
 * The most text tokenised in one call. Byte-pair encoding merges within a "word" (a run of letters,
 * of punctuation, a CJK line) in time quadratic in its length: a 200 KB file of one letter took 74 s,
 * blocking the process. Tokenising bounded segments keeps the whole linear; a sentence up to this
 * long is tokenised whole, exactly as before.
 */
export const SEGMENT_CHARS = 256;
/**
 * The most text the sentence pattern reads in one step. A longer run without a sentence end is
 * taken in parts, which become passage boundaries like any cut of an overlong sentence.
 */
const SENTENCE_STEP_CHARS = 16_384;
const SENTENCE = new RegExp(
  `[^\\r\\n.!?。！？]{0,${SENTENCE_STEP_CHARS}}(?:[.!?。！？]{1,${SENTENCE_STEP_CHARS}}["'”’)\\]]{0,16}|[\\r\\n]{1,${SENTENCE_STEP_CHARS}})?`,
  "uy",
);

/**
 * Splits each section into passages of at most `maxTokens` tokens (the embedding model's tokens),
 * cutting at paragraph and sentence ends where it can. Consecutive passages share about
 * `overlapTokens` of text so that an answer straddling a cut is still found whole in one of them.
 * A passage never spans two sections, so it keeps its page or URL.
 */
export function chunkSections(sections: readonly Section[], options = DEFAULT_CHUNKING): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    for (const step of chunkSteps(section, options)) if (step) chunks.push(step);
  }
  return chunks;
}

/** Longest stretch of tokenising before other work on the event loop gets a turn. */
const TURN_MS = 10;

/**
 * `chunkSections` inside the server: passages are produced as sections arrive (a PDF's pages while later
 * ones are still parsed), yielding to the event loop every `TURN_MS`, also within a section (a text
 * file is one section), and stopping when `signal` aborts, so the document time limit and a stop
 * interrupt it. Tokenising a 2,000-page PDF takes seconds; in one go it stalled every request and
 * subscription of the instance (bench/ingest measured 3 to 5 s).
 */
export async function* chunkStream(
  sections: Iterable<Section> | AsyncIterable<Section>,
  signal: AbortSignal,
  options = DEFAULT_CHUNKING,
): AsyncGenerator<Chunk> {
  let turnStarted = performance.now();
  for await (const section of sections) {
    for (const step of chunkSteps(section, options)) {
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

interface Piece {
  text: string;
  tokens: number;
}

/** The passages of one section; `undefined` marks a bounded step of work done, where a caller may pause. */
function* chunkSteps(section: Section, options: ChunkingOptions): Generator<Chunk | undefined> {
  let current: Piece[] = [];
  let currentTokens = 0;
  // Pieces added since the last passage: the overlap carried over alone must not become a passage.
  let freshPieces = 0;
  const flush = (): Chunk | undefined => {
    const content = current
      .map((piece) => piece.text)
      .join(" ")
      .trim();
    const carried: Piece[] = [];
    let carriedTokens = 0;
    for (let index = current.length - 1; index > 0; index--) {
      const piece = current[index]!;
      if (carriedTokens + piece.tokens > options.overlapTokens) break;
      carried.unshift(piece);
      carriedTokens += piece.tokens;
    }
    const chunk = content ? { content, tokenCount: currentTokens, source: section.source } : undefined;
    current = carried;
    currentTokens = carriedTokens;
    freshPieces = 0;
    return chunk;
  };
  for (const piece of pieces(section.text, options)) {
    if (piece) {
      if (currentTokens + piece.tokens > options.maxTokens && current.length > 0) yield flush();
      current.push(piece);
      currentTokens += piece.tokens;
      freshPieces++;
    }
    yield undefined;
  }
  if (freshPieces > 0) yield flush();
}

/**
 * Sentences (or paragraph ends) with normalised spaces, each at most `maxTokens`; longer ones are
 * cut between segments, and a segment longer than `maxTokens` by tokens.
 */
function* pieces(text: string, options: ChunkingOptions): Generator<Piece | undefined> {
  const tokenizer = options.tokenizer ?? textTokenizer;
  for (let position = 0; position < text.length; ) {
    SENTENCE.lastIndex = position;
    const raw = SENTENCE.exec(text)![0];
    position += raw.length;
    const sentence = raw.replace(/[ \t\f\v\u00a0]+/g, " ").trim();
    if (!sentence) {
      yield undefined;
      continue;
    }
    if (sentence.length <= SEGMENT_CHARS) {
      const tokens = tokenizer.encode(sentence);
      if (tokens.length <= options.maxTokens) yield { text: sentence, tokens: tokens.length };
      else yield* tokenSlices(tokens, options.maxTokens, tokenizer);
      continue;
    }
    let pieceStart = 0;
    let pieceEnd = 0;
    let pieceTokens = 0;
    for (const [start, end] of segments(sentence)) {
      const tokens = tokenizer.encode(sentence.slice(start, end));
      if (pieceTokens > 0 && pieceTokens + tokens.length > options.maxTokens) {
        yield { text: sentence.slice(pieceStart, pieceEnd).trim(), tokens: pieceTokens };
        pieceStart = start;
        pieceTokens = 0;
      }
      if (tokens.length > options.maxTokens) {
        yield* tokenSlices(tokens, options.maxTokens, tokenizer);
        pieceStart = end;
        continue;
      }
      pieceEnd = end;
      pieceTokens += tokens.length;
      yield undefined;
    }
    if (pieceTokens > 0) yield { text: sentence.slice(pieceStart, pieceEnd).trim(), tokens: pieceTokens };
  }
}

function* tokenSlices(tokens: number[], maxTokens: number, tokenizer: Tokenizer): Generator<Piece> {
  for (let start = 0; start < tokens.length; start += maxTokens) {
    const slice = tokens.slice(start, start + maxTokens);
    yield { text: tokenizer.decode(slice), tokens: slice.length };
  }
}

/**
 * Bounds of consecutive segments of at most `SEGMENT_CHARS`, cut before a space where there is one
 * (a word keeps its leading space, as the tokenizer reads it) and never inside a surrogate pair.
 */
function* segments(text: string): Generator<[number, number]> {
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + SEGMENT_CHARS, text.length);
    if (end < text.length) {
      const space = text.slice(start + 1, end).lastIndexOf(" ");
      if (space >= 0) end = start + 1 + space;
      else if (isLowSurrogate(text.charCodeAt(end))) end--;
    }
    yield [start, end];
    start = end;
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
