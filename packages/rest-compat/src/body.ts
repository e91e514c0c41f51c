import type { RestError } from "./errors.ts";
import { nestFields } from "./form-fields.ts";

/** How large a REST body may be, by kind; the server passes its limits to `createRestApi`. */
export interface BodyLimits {
  /** JSON, urlencoded forms and any other type (read as JSON). */
  bodyBytes: number;
  /** A whole multipart body: the upload plus the other form fields and framing. */
  multipartBytes: number;
  /** One uploaded file. */
  uploadBytes: number;
}

const tooLarge = (message: string): RestError => ({ status: 413, code: "PAYLOAD_TOO_LARGE", message });
const inMegabytes = (bytes: number) => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
const badRequest = (message: string): RestError => ({ status: 400, code: "BAD_REQUEST", message });

export type BodyResult = { value: Record<string, unknown> } | { error: RestError };

/**
 * Reads a REST body of any content type. Every body is counted while it streams and cut at its
 * type's limit, whether or not it declares a length (a chunked body declares none), so no body is
 * ever held in memory beyond that limit.
 */
export async function readBody(request: Request, limits: BodyLimits): Promise<BodyResult> {
  if (request.method === "GET" || request.method === "HEAD" || !request.body) return { value: {} };
  // The media type is case-insensitive, its parameters' values are not (RFC 9110 §8.3.1): a
  // browser's multipart boundary (`----WebKitFormBoundary7MA4YWxkTrZu0gW`) is read as sent.
  const type = request.headers.get("content-type") ?? "";
  const mediaType = type.split(";", 1)[0]!.trim().toLowerCase();
  const multipart = mediaType === "multipart/form-data";
  const uploadTooLarge = tooLarge(
    `The uploaded file is too large (limit ${inMegabytes(limits.uploadBytes)}).`,
  );
  const bytes = await readLimited(request, multipart ? limits.multipartBytes : limits.bodyBytes);
  if (bytes === null) {
    return {
      error: multipart
        ? uploadTooLarge
        : tooLarge(`The request body is too large (limit ${inMegabytes(limits.bodyBytes)}).`),
    };
  }

  if (multipart) return readMultipart(bytes, type, limits.uploadBytes, uploadTooLarge);
  if (mediaType === "application/x-www-form-urlencoded") {
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
async function readMultipart(
  bytes: Buffer,
  type: string,
  uploadBytes: number,
  uploadTooLarge: RestError,
): Promise<BodyResult> {
  let form: FormData;
  try {
    // Buffer.concat allocates a plain (never shared) ArrayBuffer.
    const body = bytes as Uint8Array<ArrayBuffer>;
    form = await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    return { error: badRequest("The multipart body could not be read.") };
  }
  const entries = [...form.entries()];
  if (entries.some(([, entry]) => typeof entry !== "string" && entry.size > uploadBytes)) {
    return { error: uploadTooLarge };
  }
  return nestFields(entries);
}

/**
 * Reads at most `limit` bytes, or null when the body is longer. A declared length over the limit
 * is refused before a byte is read; any other body is cut as soon as it passes the limit.
 */
export async function readLimited(request: Request, limit: number): Promise<Buffer | null> {
  if (Number(request.headers.get("content-length") ?? "0") > limit) return null;
  const reader = request.body!.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    // Left as it is, neither cancelled nor released: on node both end the request's async iterator,
    // which destroys the request half-read, and that connection could not serve the client's next
    // request. The HTTP server reads off the rest once the answer is sent.
    if (size > limit) return null;
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Whether `error` came of the client going away: node fails the body stream with ECONNRESET
 * ("aborted") when the connection closes mid-body, and the fetch adapter aborts the request's signal.
 */
export function clientWentAway(request: Request, error: unknown): boolean {
  return request.signal.aborted || (error as { code?: unknown } | null)?.code === "ECONNRESET";
}
