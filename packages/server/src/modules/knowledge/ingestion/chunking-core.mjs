// @ts-check
// Plain JavaScript, so that the PDF worker thread (which runs without a TypeScript loader, compiled or
// not) cuts passages with the very code the server uses for other sources; types in chunking-core.d.mts,
// the server's entry points in chunking.ts.

/** @typedef {import("./chunking-core.d.mts").Chunk} Chunk */
/** @typedef {import("./chunking-core.d.mts").ChunkingOptions} ChunkingOptions */
/** @typedef {import("./chunking-core.d.mts").Tokenizer} Tokenizer */
/** @typedef {{ source: string | null; text: string }} Section */
/** @typedef {{ text: string; tokens: number }} Piece */

export const DEFAULT_CHUNKING = Object.freeze({ maxTokens: 300, overlapTokens: 50 });

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
 * The passages of one section: at most `maxTokens` tokens each (the embedding model's tokens), cut at
 * paragraph and sentence ends where possible, consecutive ones sharing about `overlapTokens` of text so
 * that an answer straddling a cut is still found whole in one of them. `undefined` marks a bounded step
 * of work done, where a caller may pause.
 * @param {Section} section
 * @param {ChunkingOptions} options
 * @param {Tokenizer} tokenizer
 * @returns {Generator<Chunk | undefined>}
 */
export function* chunkSteps(section, options, tokenizer) {
  /** @type {Piece[]} */
  let current = [];
  let currentTokens = 0;
  // Pieces added since the last passage: the overlap carried over alone must not become a passage.
  let freshPieces = 0;
  const flush = () => {
    const content = current
      .map((piece) => piece.text)
      .join(" ")
      .trim();
    /** @type {Piece[]} */
    const carried = [];
    let carriedTokens = 0;
    for (let index = current.length - 1; index > 0; index--) {
      const piece = /** @type {Piece} */ (current[index]);
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
  for (const piece of pieces(section.text, options, tokenizer)) {
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
 * @param {string} text
 * @param {ChunkingOptions} options
 * @param {Tokenizer} tokenizer
 * @returns {Generator<Piece | undefined>}
 */
function* pieces(text, options, tokenizer) {
  for (let position = 0; position < text.length; ) {
    SENTENCE.lastIndex = position;
    const raw = /** @type {RegExpExecArray} */ (SENTENCE.exec(text))[0];
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

/**
 * @param {number[]} tokens
 * @param {number} maxTokens
 * @param {Tokenizer} tokenizer
 * @returns {Generator<Piece>}
 */
function* tokenSlices(tokens, maxTokens, tokenizer) {
  for (let start = 0; start < tokens.length; start += maxTokens) {
    const slice = tokens.slice(start, start + maxTokens);
    yield { text: tokenizer.decode(slice), tokens: slice.length };
  }
}

/**
 * Bounds of consecutive segments of at most `SEGMENT_CHARS`, cut before a space where there is one
 * (a word keeps its leading space, as the tokenizer reads it) and never inside a surrogate pair.
 * @param {string} text
 * @returns {Generator<[number, number]>}
 */
function* segments(text) {
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

/** @param {number} code */
function isLowSurrogate(code) {
  return code >= 0xdc00 && code <= 0xdfff;
}
