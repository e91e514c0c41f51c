import { Worker } from "node:worker_threads";
import { workerEntry } from "../../../worker-entry.ts";
import { IngestionFailure } from "./failure.ts";
import { decodeUtf8Text, type FileDocumentType } from "./file-types.ts";
import type { PdfWorkerInput, PdfWorkerMessage } from "./pdf-worker.ts";

/** A piece of a source with where it came from ("page 3", a URL): chunks keep it. */
export interface Section {
  source: string | null;
  text: string;
}

export type ExtractProgress = (pagesDone: number, pagesTotal: number) => Promise<void>;

/** `content` is handed over: a PDF's buffer is transferred to a worker thread, so callers must not reuse it. */
export async function extractFile(
  type: FileDocumentType,
  content: Uint8Array,
  onProgress: ExtractProgress,
  signal: AbortSignal,
): Promise<Section[]> {
  if (type === "pdf") return extractPdf(content, onProgress, signal);
  if (type === "docx") return extractDocx(content);
  return extractText(content);
}

/**
 * pdf.js parses a page synchronously for hundreds of milliseconds at a time, which would stall every
 * request the instance serves; so it runs in a worker thread of its own, one per extraction, and is
 * terminated on abort (cancel, timeout, app stop). See `workerEntry` for how its entry module is found.
 */
export async function extractPdf(
  content: Uint8Array,
  onProgress: ExtractProgress,
  signal: AbortSignal,
): Promise<Section[]> {
  signal.throwIfAborted();
  const wholeBuffer =
    content.buffer instanceof ArrayBuffer &&
    content.byteOffset === 0 &&
    content.byteLength === content.buffer.byteLength;
  // Transferring moves the upload to the worker without a copy; a view of part of a larger buffer
  // (which may be Node's shared Buffer pool) is copied instead.
  const data = wholeBuffer ? new Uint8Array(content.buffer as ArrayBuffer) : content.slice();
  const worker = new Worker(workerEntry("pdf-worker", import.meta.url), {
    execArgv: [],
    workerData: { data } satisfies PdfWorkerInput,
    transferList: [data.buffer],
  });
  const sections: Section[] = [];
  const progress = new ProgressRelay(onProgress);
  try {
    const outcome = await new Promise<PdfWorkerMessage>((resolve, reject) => {
      const abort = () => reject(signal.reason);
      signal.addEventListener("abort", abort, { once: true });
      const settle = () => signal.removeEventListener("abort", abort);
      worker.on("message", (message: PdfWorkerMessage) => {
        if (message.kind === "page") {
          if (message.text.trim())
            sections.push({ source: `page ${message.pageNumber}`, text: message.text });
          progress.report(message.pageNumber, message.pagesTotal).catch((error: unknown) => {
            settle();
            reject(error);
          });
          return;
        }
        settle();
        resolve(message);
      });
      worker.on("error", (error) => {
        settle();
        reject(error);
      });
      worker.on("exit", (code) => {
        settle();
        reject(new Error(`The PDF worker exited with code ${code} before finishing.`));
      });
    });
    if (outcome.kind === "failure") throw new IngestionFailure(outcome.reason);
    await progress.settled();
  } finally {
    await worker.terminate();
  }
  if (sections.length === 0) {
    throw new IngestionFailure(
      "The PDF has no extractable text: its pages are probably scanned images. Upload a PDF with a text layer.",
    );
  }
  return sections;
}

/**
 * Passes page progress on one report at a time, since reports are database writes and the worker does
 * not wait for them: while one is being written, only the newest of the pages that arrive is kept.
 */
class ProgressRelay {
  private running: Promise<void> = Promise.resolve();
  private pending: [number, number] | null = null;
  private busy = false;

  constructor(private readonly onProgress: ExtractProgress) {}

  report(pagesDone: number, pagesTotal: number): Promise<void> {
    this.pending = [pagesDone, pagesTotal];
    if (!this.busy) this.running = this.drain();
    return this.running;
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

export async function extractDocx(content: Uint8Array): Promise<Section[]> {
  // Loaded on the first DOCX, not at start: most instances never see one.
  const { default: mammoth } = await import("mammoth");
  let value: string;
  try {
    ({ value } = await mammoth.extractRawText({ buffer: Buffer.from(content) }));
  } catch {
    throw new IngestionFailure("The DOCX file is corrupt or unreadable.");
  }
  if (!value.trim()) throw new IngestionFailure("The DOCX document contains no text.");
  return [{ source: null, text: value }];
}

export function extractText(content: Uint8Array): Section[] {
  const text = decodeUtf8Text(content);
  if (text === null) throw new IngestionFailure("The file is not UTF-8 text.");
  if (!text.trim()) throw new IngestionFailure("The text file is empty.");
  return [{ source: null, text }];
}
