import { Worker } from "node:worker_threads";
import { EXTRACTION_LIMITS, EXTRACTION_WORKER_HEAP } from "../../../limits.ts";
import { type Chunk, type ChunkingOptions, DEFAULT_CHUNKING } from "./chunking-core.mjs";
import type {
  DocxWorkerInput,
  DocxWorkerMessage,
  ExpansionLimit,
  PdfWorkerAck,
  PdfWorkerInput,
  PdfWorkerMessage,
} from "./extraction-worker-messages.ts";
import { IngestionFailure } from "./failure.ts";
import { decodeUtf8Text, type FileDocumentType } from "./file-types.ts";
import { Inbox } from "./worker-inbox.ts";

/** A piece of a source with where it came from ("page 3", a URL): chunks keep it. */
export interface Section {
  source: string | null;
  text: string;
}

export type ExtractProgress = (pagesDone: number, pagesTotal: number) => Promise<void>;

/**
 * The sections of a DOCX or text file (a PDF is read as passages: `extractPdf`). `content` is handed over:
 * a DOCX's buffer is transferred to a worker thread, so callers must not reuse it.
 */
export async function extractFile(
  type: Exclude<FileDocumentType, "pdf">,
  content: Uint8Array,
  signal: AbortSignal,
): Promise<Section[]> {
  return type === "docx" ? extractDocx(content, signal) : extractText(content);
}

/**
 * Pages the PDF worker may parse ahead of the consumer. The consumer (chunking, embedding, storing) is
 * the slower side, so this is what bounds the text in memory; a few pages keep the worker busy.
 */
export const PDF_PAGES_AHEAD = 16;

/**
 * A PDF's passages, page by page as they are parsed, so that they are stored while later pages are still
 * parsed and no more than a few pages wait in memory. pdf.js parses a page synchronously for hundreds of
 * milliseconds at a time, which would stall every request the instance serves; so it runs in a worker
 * thread of its own, one per extraction, which also cuts each page into passages (`chunking-core.mjs`):
 * the tokenizer and the pages' text stay in that thread. It is terminated on abort (cancel, timeout, app
 * stop) or when the consumer stops reading. Progress counts the pages the consumer has taken. `content`
 * is transferred to the worker, so callers must not reuse it.
 */
export async function* extractPdf(
  content: Uint8Array,
  onProgress: ExtractProgress,
  signal: AbortSignal,
  {
    window = PDF_PAGES_AHEAD,
    chunking = DEFAULT_CHUNKING,
  }: { window?: number; chunking?: ChunkingOptions } = {},
): AsyncGenerator<Chunk> {
  const { worker, inbox } = startExtractionWorker<PdfWorkerMessage>(
    "./pdf-worker.mjs",
    content,
    (data) => ({ data, window, chunking, limits: EXTRACTION_LIMITS }) satisfies PdfWorkerInput,
    signal,
  );
  const progress = new ProgressRelay(onProgress);
  let failed: unknown = null;
  progress.onError((error) => {
    failed = error;
    inbox.fail(error);
  });
  let pagesWithText = 0;
  try {
    for (;;) {
      const message = await inbox.take();
      if (message.kind === "failure") throw new IngestionFailure(message.reason);
      if (message.kind === "refused") throw new IngestionFailure(refusal(message.limit));
      if (message.kind === "done") break;
      worker.postMessage({ pagesTaken: message.pageNumber } satisfies PdfWorkerAck);
      progress.report(message.pageNumber, message.pagesTotal);
      if (message.chunks.length === 0) continue;
      pagesWithText++;
      yield* message.chunks;
    }
    await progress.settled();
    if (failed) throw failed;
  } finally {
    await worker.terminate();
  }
  if (pagesWithText === 0) {
    throw new IngestionFailure(
      "The PDF has no extractable text: its pages are probably scanned images. Upload a PDF with a text layer.",
    );
  }
}

/**
 * A worker thread for one extraction, with `content` transferred to it and its messages in an inbox.
 * Transferring moves the upload without a copy; a view of part of a larger buffer (which may be Node's
 * shared Buffer pool) is copied instead. Workers are plain JavaScript, so they run as is with or without
 * a build step and without tsx's loader, which more than doubled the PDF worker's memory.
 */
function startExtractionWorker<Message>(
  entry: string,
  content: Uint8Array,
  input: (data: Uint8Array) => { data: Uint8Array },
  signal: AbortSignal,
): { worker: Worker; inbox: Inbox<Message> } {
  signal.throwIfAborted();
  const wholeBuffer =
    content.buffer instanceof ArrayBuffer &&
    content.byteOffset === 0 &&
    content.byteLength === content.buffer.byteLength;
  const data = wholeBuffer ? new Uint8Array(content.buffer as ArrayBuffer) : content.slice();
  const worker = new Worker(new URL(entry, import.meta.url), {
    execArgv: [],
    workerData: input(data),
    transferList: [data.buffer],
    resourceLimits: EXTRACTION_WORKER_HEAP,
  });
  const inbox = new Inbox<Message>(signal);
  worker.on("message", (message: Message) => inbox.put(message));
  worker.on("error", (error) =>
    inbox.fail(
      (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY"
        ? new IngestionFailure(refusal("memory"))
        : error,
    ),
  );
  worker.on("exit", (code) =>
    inbox.fail(new Error(`The extraction worker exited with code ${code} before finishing.`)),
  );
  return { worker, inbox };
}

/**
 * Passes page progress on one report at a time, since reports are database writes and the worker does
 * not wait for them: while one is being written, only the newest of the pages that arrive is kept.
 */
class ProgressRelay {
  private running: Promise<void> = Promise.resolve();
  private pending: [number, number] | null = null;
  private busy = false;

  private handleError: (error: unknown) => void = () => {};

  constructor(private readonly onProgress: ExtractProgress) {}

  onError(handler: (error: unknown) => void): void {
    this.handleError = handler;
  }

  report(pagesDone: number, pagesTotal: number): void {
    this.pending = [pagesDone, pagesTotal];
    if (!this.busy) this.running = this.drain().catch((error: unknown) => this.handleError(error));
  }

  settled(): Promise<void> {
    return this.running;
  }

  private async drain(): Promise<void> {
    this.busy = true;
    try {
      while (this.pending) {
        const [pagesDone, pagesTotal] = this.pending;
        this.pending = null;
        await this.onProgress(pagesDone, pagesTotal);
      }
    } finally {
      this.busy = false;
    }
  }
}

/** mammoth reads the whole document synchronously: in a worker thread too, so requests go on meanwhile. */
export async function extractDocx(content: Uint8Array, signal: AbortSignal): Promise<Section[]> {
  const { worker, inbox } = startExtractionWorker<DocxWorkerMessage>(
    "./docx-worker.mjs",
    content,
    (data) => ({ data, limits: EXTRACTION_LIMITS }) satisfies DocxWorkerInput,
    signal,
  );
  let message: DocxWorkerMessage;
  try {
    message = await inbox.take();
  } finally {
    await worker.terminate();
  }
  if (message.kind === "refused") throw new IngestionFailure(refusal(message.limit));
  if (message.kind === "failure") throw new IngestionFailure("The DOCX file is corrupt or unreadable.");
  if (!message.text.trim()) throw new IngestionFailure("The DOCX document contains no text.");
  return [{ source: null, text: message.text }];
}

export function extractText(content: Uint8Array): Section[] {
  if (content.byteLength > EXTRACTION_LIMITS.maxExpandedBytes)
    throw new IngestionFailure(refusal("expanded"));
  const text = decodeUtf8Text(content);
  if (text === null) throw new IngestionFailure("The file is not UTF-8 text.");
  if (!text.trim()) throw new IngestionFailure("The text file is empty.");
  return [{ source: null, text }];
}

const MB = 1024 * 1024;

/** Why a document past an expansion limit (`EXTRACTION_LIMITS`) was refused, for its owner. */
export function refusal(limit: ExpansionLimit): string {
  const limits = EXTRACTION_LIMITS;
  switch (limit) {
    case "expanded":
      return `The document expands to more than ${limits.maxExpandedBytes / MB} MB of text when decompressed; split it into smaller files.`;
    case "ratio":
      return `The document is compressed more than ${limits.maxRatio} to 1, which real documents never are (a decompression bomb), and was refused.`;
    case "entries":
      return `The DOCX file holds more than ${limits.maxZipEntries} parts and was refused.`;
    case "depth":
      return `The document's XML nests elements more than ${limits.maxXmlDepth} deep and was refused.`;
    case "doctype":
      return "The document's XML declares a document type (entities), which Word documents never do, and was refused.";
    case "memory":
      return `The extractor ran out of memory reading the file (it may use ${EXTRACTION_WORKER_HEAP.maxOldGenerationSizeMb} MB); split it into smaller files.`;
  }
}
