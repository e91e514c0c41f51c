export type FileDocumentType = "pdf" | "docx" | "txt";

const PDF_MAGIC = Buffer.from("%PDF-");
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const DOCX_PART = Buffer.from("word/document.xml");
const TYPE_NAMES: Record<FileDocumentType, string> = {
  pdf: "a PDF",
  docx: "a DOCX document",
  txt: "UTF-8 text",
};

/**
 * What a file really is, judged from its bytes rather than its name: `%PDF-` at the start (within
 * the first KB, as readers allow), a zip archive holding `word/document.xml`, or valid UTF-8 text
 * without NUL bytes. Anything else is null.
 */
export function detectFileType(content: Uint8Array): FileDocumentType | null {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  if (bytes.subarray(0, 1024).includes(PDF_MAGIC)) return "pdf";
  if (bytes.subarray(0, 4).equals(ZIP_MAGIC)) return bytes.includes(DOCX_PART) ? "docx" : null;
  return decodeUtf8Text(bytes) === null ? null : "txt";
}

/** How much of an upload is read to tell a PDF or text from anything else. */
const SNIFF_BYTES = 64 * 1024;

/**
 * What an upload is, judged from its first bytes without reading it into memory: `%PDF-` within the
 * first KB, a zip whose entries name `word/document.xml` (entry names are scanned as the parts go by),
 * or UTF-8 text without NUL bytes in its first 64 KB. The worker checks the whole file again.
 */
export async function sniffFileType(file: UploadedFile): Promise<FileDocumentType | null> {
  const reader = file.stream().getReader();
  try {
    const head: Uint8Array[] = [];
    let headBytes = 0;
    let ended = false;
    while (headBytes < SNIFF_BYTES) {
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      head.push(value);
      headBytes += value.byteLength;
    }
    const read = Buffer.concat(head, headBytes);
    if (read.subarray(0, 1024).includes(PDF_MAGIC)) return "pdf";
    if (read.subarray(0, 4).equals(ZIP_MAGIC)) {
      if (read.includes(DOCX_PART)) return "docx";
      // The name may straddle two parts: keep the tail of the previous one.
      let tail = read.subarray(-DOCX_PART.length);
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return null;
        const window = Buffer.concat([tail, value]);
        if (window.includes(DOCX_PART)) return "docx";
        tail = window.subarray(-DOCX_PART.length);
      }
    }
    const start = read.subarray(0, SNIFF_BYTES);
    if (start.includes(0)) return null;
    try {
      // A character cut at the end of the sample is not an error unless the file ends there.
      new TextDecoder("utf-8", { fatal: true }).decode(start, { stream: !ended });
      return "txt";
    } catch {
      return null;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** The text of a UTF-8 file without its byte-order mark, or null when it is not UTF-8 text. */
export function decodeUtf8Text(bytes: Uint8Array): string | null {
  if (bytes.includes(0)) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

export function describeFileType(type: FileDocumentType): string {
  return TYPE_NAMES[type];
}

/**
 * A file from a multipart request: a web File, or the server fetch implementation's own File class
 * (which keeps the parts as received and cannot slice, but streams them without copying).
 */
export interface UploadedFile {
  name?: string;
  size: number;
  stream(): ReadableStream<Uint8Array>;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as UploadedFile).stream === "function" &&
    typeof (value as UploadedFile).size === "number"
  );
}
