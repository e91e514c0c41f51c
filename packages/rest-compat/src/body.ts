import type { RestError } from "./errors.ts";
import { nestFields } from "./form-fields.ts";

const MB = 1024 * 1024;
/** JSON, urlencoded forms and any other type (read as JSON): far above any legacy request. */
export const BODY_LIMIT_BYTES = 1 * MB;
/** A 20 MB file plus room for the other form fields and multipart framing. */
export const MULTIPART_BODY_LIMIT_BYTES = 21 * MB;
export const MAX_UPLOAD_BYTES = 20 * MB;

const BODY_TOO_LARGE: RestError = {
  status: 413,
  code: "PAYLOAD_TOO_LARGE",
  message: "The request body is too large (limit 1 MB).",
};
const UPLOAD_TOO_LARGE: RestError = {
  status: 413,
  code: "PAYLOAD_TOO_LARGE",
  message: "The uploaded file is too large (limit 20 MB).",
};
const badRequest = (message: string): RestError => ({ status: 400, code: "BAD_REQUEST", message });

export type BodyResult = { value: Record<string, unknown> } | { error: RestError };

/**
 * Reads a REST body of any content type. Every body is counted while it streams and cut at its
 * type's limit, whether or not it declares a length (a chunked body declares none), so no body is
 * ever held in memory beyond that limit.
 */
export async function readBody(request: Request): Promise<BodyResult> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return { value: {} };
  const type = request.headers.get("content-type")?.toLowerCase() ?? "";
  const multipart = type.includes("multipart/form-data");
  const bytes = await readLimited(request, multipart ? MULTIPART_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES);
  if (bytes === null) return { error: multipart ? UPLOAD_TOO_LARGE : BODY_TOO_LARGE };

  if (multipart) return readMultipart(bytes, type);
  if (type.includes("application/x-www-form-urlencoded")) {
    return nestFields(new URLSearchParams(bytes.toString("utf8")));
  }
  const text = bytes.toString("utf8");
  if (text.trim() === "") return { value: {} };
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
      return { error: badRequest("The request body must be a JSON object.") };
    }
    return { value: parsed as Record<string, unknown> };
  } catch {
    return { error: badRequest("The request body is not valid JSON.") };
  }
}

/** Multipart bodies (document uploads): file fields become web `File`s; names nest like form fields. */
async function readMultipart(bytes: Buffer, type: string): Promise<BodyResult> {
  let form: FormData;
  try {
    // Buffer.concat allocates a plain (never shared) ArrayBuffer.
    const body = bytes as Uint8Array<ArrayBuffer>;
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    return { error: badRequest("The multipart body could not be read.") };
  }
  const entries = [...form.entries()];
  if (entries.some(([, entry]) => typeof entry !== "string" && entry.size > MAX_UPLOAD_BYTES)) {
    return { error: UPLOAD_TOO_LARGE };
  }
  return nestFields(entries);
}

/**
 * Reads at most `limit` bytes, or null when the body is longer. A declared length over the limit
 * is refused before a byte is read; any other body is cut as soon as it passes the limit.
 */
async function readLimited(request: Request, limit: number): Promise<Buffer | null> {
  if (Number(request.headers.get("content-length") ?? "0") > limit) return null;
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
