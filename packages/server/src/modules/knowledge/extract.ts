import mammoth from "mammoth";
import { decodeUtf8Text, type FileDocumentType } from "./file-types.ts";
import { IngestionFailure } from "./ingestion-failure.ts";

/** A piece of a source with where it came from ("page 3", a URL): chunks keep it. */
export interface Section {
  source: string | null;
  text: string;
}

export type ExtractProgress = (pagesDone: number, pagesTotal: number) => Promise<void>;

/** `content` is handed over: a PDF's buffer may be detached by pdf.js, so callers must not reuse it. */
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

export async function extractPdf(
  content: Uint8Array,
  onProgress: ExtractProgress,
  signal: AbortSignal,
): Promise<Section[]> {
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const task = getDocument({
    // A plain Uint8Array view (pdf.js refuses Buffers): pdf.js takes a view of a whole buffer (as
    // read from the upload store) as it is, and copies a view of part of a shared one itself.
    data: new Uint8Array(content.buffer, content.byteOffset, content.byteLength),
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
    if (name === "PasswordException") throw new IngestionFailure("The PDF is password-protected.");
    throw new IngestionFailure("The PDF file is corrupt or unreadable.");
  }
  try {
    const sections: Section[] = [];
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      signal.throwIfAborted();
      const page = await pdf.getPage(pageNumber);
      const textContent = await page.getTextContent();
      let text = "";
      for (const item of textContent.items) {
        if (!("str" in item)) continue;
        text += item.str;
        text += item.hasEOL ? "\n" : item.str.endsWith(" ") ? "" : " ";
      }
      page.cleanup();
      if (text.trim()) sections.push({ source: `page ${pageNumber}`, text });
      await onProgress(pageNumber, pdf.numPages);
    }
    if (sections.length === 0) {
      throw new IngestionFailure(
        "The PDF has no extractable text: its pages are probably scanned images. Upload a PDF with a text layer.",
      );
    }
    return sections;
  } finally {
    await pdf.destroy();
  }
}

export async function extractDocx(content: Uint8Array): Promise<Section[]> {
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
