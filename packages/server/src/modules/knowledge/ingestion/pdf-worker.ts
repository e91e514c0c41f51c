import { parentPort, workerData } from "node:worker_threads";

/** What the PDF worker sends back to `extractPdf`, in this order: pages, then one `done` or `failure`. */
export type PdfWorkerMessage =
  | { kind: "page"; pageNumber: number; pagesTotal: number; text: string }
  | { kind: "done" }
  | { kind: "failure"; reason: string };

export interface PdfWorkerInput {
  data: Uint8Array;
}

function send(message: PdfWorkerMessage): void {
  parentPort!.postMessage(message);
}

async function extract({ data }: PdfWorkerInput): Promise<void> {
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
      const page = await pdf.getPage(pageNumber);
      const textContent = await page.getTextContent();
      let text = "";
      for (const item of textContent.items) {
        if (!("str" in item)) continue;
        text += item.str;
        text += item.hasEOL ? "\n" : item.str.endsWith(" ") ? "" : " ";
      }
      page.cleanup();
      send({ kind: "page", pageNumber, pagesTotal: pdf.numPages, text });
    }
    send({ kind: "done" });
  } finally {
    await pdf.destroy();
  }
}

await extract(workerData as PdfWorkerInput);
