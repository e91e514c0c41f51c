import { parentPort, workerData } from "node:worker_threads";

/** What the PDF worker sends back to `extractPdf`, in this order: pages, then one `done` or `failure`. */
export type PdfWorkerMessage =
  | { kind: "page"; pageNumber: number; pagesTotal: number; text: string }
  | { kind: "done" }
  | { kind: "failure"; reason: string };

/** What `extractPdf` sends the worker: the number of pages it has taken so far. */
export interface PdfWorkerAck {
  pagesTaken: number;
}

export interface PdfWorkerInput {
  data: Uint8Array;
  /** Pages the worker may send ahead of what was taken: text waiting for a slower store stays bounded. */
  window: number;
}

function send(message: PdfWorkerMessage): void {
  parentPort!.postMessage(message);
}

/**
 * pdf.js keeps per-document caches (fonts, page dictionaries, colour spaces) that grow with every page
 * read; emptying them every so many pages keeps a long document's memory flat.
 */
const CLEANUP_EVERY_PAGES = 100;

async function extract({ data, window }: PdfWorkerInput): Promise<void> {
  let pagesTaken = 0;
  let wake: (() => void) | null = null;
  parentPort!.on("message", (ack: PdfWorkerAck) => {
    pagesTaken = ack.pagesTaken;
    wake?.();
  });
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = getDocument({
    data,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  let pdf: Awaited<typeof task.promise>;
  try {
    pdf = await task.promise;
  } catch (error) {
    const name = (error as Error).name;
    if (name === "PasswordException")
      return send({ kind: "failure", reason: "The PDF is password-protected." });
    return send({ kind: "failure", reason: "The PDF file is corrupt or unreadable." });
  }
  try {
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      while (pageNumber - 1 - pagesTaken >= window) {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
      const page = await pdf.getPage(pageNumber);
      const textContent = await page.getTextContent();
      let text = "";
      for (const item of textContent.items) {
        if (!("str" in item)) continue;
        text += item.str;
        text += item.hasEOL ? "\n" : item.str.endsWith(" ") ? "" : " ";
      }
      page.cleanup();
      if (pageNumber % CLEANUP_EVERY_PAGES === 0) await pdf.cleanup();
      send({ kind: "page", pageNumber, pagesTotal: pdf.numPages, text });
    }
    send({ kind: "done" });
  } finally {
    await pdf.destroy();
    parentPort!.removeAllListeners("message");
  }
}

await extract(workerData as PdfWorkerInput);
