// @ts-check
// Plain JavaScript on purpose: it runs in the extraction workers (see extraction-worker-messages.ts).
import { Inflate, Unzlib } from "fflate";

/** @typedef {import("./extraction-worker-messages.ts").ExpansionLimits} ExpansionLimits */
/** @typedef {import("./extraction-worker-messages.ts").ExpansionLimit} ExpansionLimit */

/**
 * A file went past one of the expansion limits: its owner is told which (extract.ts words it).
 * Thrown from inside the readers (mammoth's, pdf.js's), which may catch and wrap it, so the guard also
 * keeps the first one it threw (`ExpansionBudget.exceeded`).
 */
export class ExpansionRefused extends Error {
  /** @param {ExpansionLimit} limit */
  constructor(limit) {
    super(`expansion limit: ${limit}`);
    this.name = "ExpansionRefused";
    this.limit = limit;
  }
}

/** The file is not a zip or DOCX that can be read (a corrupt archive, an unsupported zip feature). */
export class Unreadable extends Error {}

/**
 * What one document may expand to, counted as bytes come out of the decompressor (declared sizes can
 * lie), across all of its parts or streams.
 */
export class ExpansionBudget {
  /** @param {ExpansionLimits} limits */
  constructor(limits) {
    this.limits = limits;
    this.used = 0;
    /** @type {ExpansionRefused | null} */
    this.exceeded = null;
  }

  /** @param {ExpansionLimit} limit */
  refuse(limit) {
    this.exceeded ??= new ExpansionRefused(limit);
    return this.exceeded;
  }

  /**
   * Counts `bytes` more produced from `compressedBytes` of input by one part or stream, which has now
   * produced `producedByPart` in all; throws when the document's total or the part's ratio is past its limit.
   * @param {number} bytes
   * @param {number} producedByPart
   * @param {number} compressedBytes
   */
  take(bytes, producedByPart, compressedBytes) {
    this.used += bytes;
    if (this.used > this.limits.maxExpandedBytes) throw this.refuse("expanded");
    if (
      producedByPart > this.limits.ratioFreeBytes &&
      producedByPart > this.limits.maxRatio * compressedBytes
    )
      throw this.refuse("ratio");
  }
}

/** Compressed bytes handed to the inflater at a time: a step's output is at most ~1,032 times this. */
const INFLATE_STEP = 4096;

/**
 * A raw DEFLATE stream inflated in steps, each step's output counted against `budget` before the next
 * (so a bomb stops within one step's output of the limit), passed to `onData` as it comes. Pure
 * JavaScript (fflate): a native zlib handle in a thread that is terminated at an arbitrary point can
 * abort the whole process (see pdf-worker.mjs).
 * @param {Uint8Array} compressed
 * @param {ExpansionBudget} budget
 * @param {(chunk: Uint8Array) => void} onData
 * @returns {number} the bytes produced
 */
export function inflateCounted(compressed, budget, onData) {
  let produced = 0;
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    produced += chunk.byteLength;
    budget.take(chunk.byteLength, produced, compressed.byteLength);
    onData(chunk);
    if (final) ended = true;
  });
  try {
    if (compressed.byteLength === 0) inflater.push(compressed, true);
    for (let start = 0; start < compressed.byteLength && !ended; start += INFLATE_STEP) {
      const end = Math.min(compressed.byteLength, start + INFLATE_STEP);
      inflater.push(compressed.subarray(start, end), end === compressed.byteLength);
    }
  } catch (error) {
    if (error instanceof ExpansionRefused) throw error;
    throw new Unreadable("bad deflate data", { cause: error });
  }
  return produced;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const DASH = 0x2d;
const BRACKET_OPEN = 0x5b;
const BRACKET_CLOSE = 0x5d;
const QUOTE = 0x22;
const APOSTROPHE = 0x27;

const TEXT = 0;
const AFTER_LT = 1;
const OPEN_TAG = 2;
const ATTRIBUTE = 3;
const CLOSE_TAG = 4;
const AFTER_BANG = 5;
const COMMENT = 6;
const CDATA = 7;
const INSTRUCTION = 8;

/**
 * The element depth of an XML part, followed byte by byte as it is inflated, before any parser sees it:
 * mammoth's reader recurses once per level (a deep enough file overflows the stack or fills the heap).
 * A document type declaration is refused too: Word never writes one, and its entities are how XML
 * expands (the "billion laughs").
 */
export class XmlDepthGuard {
  /**
   * @param {number} maxDepth
   * @param {ExpansionBudget} budget
   */
  constructor(maxDepth, budget) {
    this.maxDepth = maxDepth;
    this.budget = budget;
    this.depth = 0;
    this.state = TEXT;
    this.quote = 0;
    /** Repeats of the byte that ends a comment (`-`) or CDATA section (`]`) just seen. */
    this.run = 0;
    this.previous = 0;
  }

  /** @param {Uint8Array} bytes */
  feed(bytes) {
    let { depth, state, quote, run, previous } = this;
    for (let index = 0; index < bytes.length; index++) {
      const byte = /** @type {number} */ (bytes[index]);
      switch (state) {
        case TEXT:
          if (byte === LT) state = AFTER_LT;
          break;
        case AFTER_LT:
          if (byte === SLASH) state = CLOSE_TAG;
          else if (byte === BANG) state = AFTER_BANG;
          else if (byte === QUESTION) state = INSTRUCTION;
          else {
            if (++depth > this.maxDepth) throw this.budget.refuse("depth");
            state = OPEN_TAG;
          }
          break;
        case OPEN_TAG:
          if (byte === QUOTE || byte === APOSTROPHE) {
            quote = byte;
            state = ATTRIBUTE;
          } else if (byte === GT) {
            if (previous === SLASH) depth--;
            state = TEXT;
          }
          break;
        case ATTRIBUTE:
          if (byte === quote) state = OPEN_TAG;
          break;
        case CLOSE_TAG:
          if (byte === GT) {
            depth--;
            state = TEXT;
          }
          break;
        case AFTER_BANG:
          if (byte === DASH) state = COMMENT;
          else if (byte === BRACKET_OPEN) state = CDATA;
          else throw this.budget.refuse("doctype");
          run = 0;
          break;
        case COMMENT:
          if (byte === GT && run >= 2) state = TEXT;
          run = byte === DASH ? run + 1 : 0;
          break;
        case CDATA:
          if (byte === GT && run >= 2) state = TEXT;
          run = byte === BRACKET_CLOSE ? run + 1 : 0;
          break;
        case INSTRUCTION:
          if (byte === GT && previous === QUESTION) state = TEXT;
          break;
      }
      previous = byte;
    }
    Object.assign(this, { depth, state, quote, run, previous });
  }
}

/**
 * Called by pdf.js's decoders (Flate, LZW, Brotli, RunLength, their chains...) before a stream's buffer
 * grows to hold `requested` bytes (patches/pdfjs-dist@5.6.205.patch): pdf.js keeps a stream's whole
 * output in one buffer outside the heap, which no heap limit bounds. One stream may not decode past the
 * document's limit, nor, past the ratio-free size, to more than the ratio times the input it has read
 * so far: the file's bytes (a stream of them, from `start`), or the output of the decoder before it in a
 * chain. Counting what was read, not the input's declared length, stops a bomb within its first pages
 * of output rather than when the buffer reaches the ratio times the whole stream.
 * @param {ExpansionBudget} budget
 * @param {{ stream?: { pos?: number; start?: number } }} stream
 * @param {number} requested
 */
export function guardDecodedStream(budget, stream, requested) {
  const input = stream.stream;
  const read = typeof input?.pos === "number" ? input.pos - (input.start ?? 0) : null;
  guardStream(budget, requested, read);
}

/**
 * One stream's output so far against the limits: the document's total, and, past the ratio-free size,
 * the ratio to the input read so far (when it is known).
 * @param {ExpansionBudget} budget
 * @param {number} produced
 * @param {number | null} read
 */
function guardStream(budget, produced, read) {
  const { limits } = budget;
  if (produced > limits.maxExpandedBytes) throw budget.refuse("expanded");
  if (read !== null && produced > limits.ratioFreeBytes && produced > limits.maxRatio * read)
    throw budget.refuse("ratio");
}

/**
 * A `DecompressionStream` for pdf.js ("deflate" only; it falls back to its own decoders for anything
 * else), in JavaScript (fflate) and counted like its decoders. pdf.js decodes some streams through it
 * when there is one, and without one it cannot decode a stream deflated twice (`[/FlateDecode
 * /FlateDecode]`: the inner stream gets no bytes). Node's own would use native zlib handles, which this
 * thread must not hold (see pdf-worker.mjs).
 * @param {ExpansionBudget} budget
 */
export function countingDecompressionStream(budget) {
  return class DecompressionStream {
    /** @param {string} format */
    constructor(format) {
      if (format !== "deflate") throw new TypeError(`Unsupported format: ${format}`);
      let read = 0;
      let produced = 0;
      /** @type {TransformStreamDefaultController<Uint8Array> | null} */
      let output = null;
      const inflater = new Unzlib((chunk) => {
        produced += chunk.byteLength;
        guardStream(budget, produced, read);
        output?.enqueue(chunk);
      });
      const { readable, writable } = new TransformStream({
        start(controller) {
          output = controller;
        },
        transform(chunk) {
          const bytes = /** @type {Uint8Array} */ (chunk);
          for (let start = 0; start < bytes.byteLength; start += INFLATE_STEP) {
            const slice = bytes.subarray(start, start + INFLATE_STEP);
            read += slice.byteLength;
            inflater.push(slice);
          }
        },
        flush() {
          inflater.push(new Uint8Array(0), true);
        },
      });
      this.readable = readable;
      this.writable = writable;
    }
  };
}
