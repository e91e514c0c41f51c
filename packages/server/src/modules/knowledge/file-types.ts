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

/** A file from a multipart request: a web File, or the server fetch implementation's own File class. */
export interface UploadedFile {
  name?: string;
  size: number;
  arrayBuffer(): Promise<ArrayBuffer>;
}

export function isUploadedFile(value: unknown): value is UploadedFile {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as UploadedFile).arrayBuffer === "function" &&
    typeof (value as UploadedFile).size === "number"
  );
}
