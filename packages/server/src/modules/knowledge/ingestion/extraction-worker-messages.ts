import type { Chunk, ChunkingOptions } from "./chunking-core.mjs";

/**
 * The messages between the extractors and their worker threads (`pdf-worker.mjs`, `docx-worker.mjs`),
 * which are plain JavaScript: a worker that loads tsx to run TypeScript cost ~390 MB more peak memory on
 * a 2,000-page PDF (bench/ingest).
 */

/**
 * What the PDF worker sends back to `extractPdf`, in this order: pages, then one `done` or `failure`. A page
 * comes as its passages, cut in the worker: its text never reaches the server's thread, nor the tokenizer
 * the server's thread would otherwise load.
 */
export type PdfWorkerMessage =
  | { kind: "page"; pageNumber: number; pagesTotal: number; chunks: Chunk[] }
  | { kind: "done" }
  | { kind: "refused"; limit: ExpansionLimit }
  | { kind: "failure"; reason: string };

/** What `extractPdf` sends the worker: the number of pages it has taken so far. */
export interface PdfWorkerAck {
  pagesTaken: number;
}

export interface PdfWorkerInput {
  data: Uint8Array;
  /** Pages the worker may send ahead of what was taken: text waiting for a slower store stays bounded. */
  window: number;
  chunking: ChunkingOptions;
  limits: ExpansionLimits;
}

export interface DocxWorkerInput {
  data: Uint8Array;
  limits: ExpansionLimits;
}

/** The document's raw text, that it went past an expansion limit, or that mammoth could not read it. */
export type DocxWorkerMessage =
  | { kind: "text"; text: string }
  | { kind: "refused"; limit: ExpansionLimit }
  | { kind: "failure" };

/** What a compressed document may expand to while it is read (`EXTRACTION_LIMITS` in limits.ts). */
export interface ExpansionLimits {
  /** Bytes out of the decompressor, all parts or streams of the document together. */
  maxExpandedBytes: number;
  /** Output to input of one part or stream, once it is past `ratioFreeBytes`. */
  maxRatio: number;
  ratioFreeBytes: number;
  maxZipEntries: number;
  maxXmlDepth: number;
}

/**
 * Which limit a document went past: `expanded`, `ratio`, `entries`, `depth`, an XML document type, or
 * the worker's heap (`memory`, when a part would not fit in what is left of it).
 */
export type ExpansionLimit = "expanded" | "ratio" | "entries" | "depth" | "doctype" | "memory";

/** What `chunkStream` starts the chunk worker (`chunk-worker.mjs`) with. */
export interface ChunkWorkerInput {
  /** Passages per message. */
  batch: number;
  /** Messages the worker may send ahead of what was taken: passages waiting for a slower store stay bounded. */
  window: number;
}

/** What `chunkStream` sends the chunk worker: a section to cut, or the number of messages taken so far. */
export type ChunkWorkerCommand =
  /** Cut with its document's knowledge base's passage size (a kept worker serves several documents). */
  | { kind: "section"; section: { source: string | null; text: string }; chunking: ChunkingOptions }
  | { kind: "taken"; messages: number };

/** A section's passages, a batch at a time; the last batch of a section (maybe empty) says so. */
export interface ChunkWorkerMessage {
  chunks: Chunk[];
  sectionDone: boolean;
}
