import { readLimited } from "@voxgate/rest-compat";

/**
 * A GraphQL request whose body is at most `limit` bytes, or null when it is larger. The body is
 * read as it streams and reading stops at the limit, so an oversized body (declared or chunked) is
 * never buffered whole. Requests without a body and multipart uploads, which keep their own
 * per-file limits, pass through untouched.
 */
export async function readBoundedBody(
  request: Request,
  limit: number,
  RequestCtor: typeof Request,
): Promise<Request | null> {
  if (!request.body || request.method === "GET" || request.method === "HEAD") return request;
  if (request.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data")) return request;
  const body = await readLimited(request, limit);
  if (body === null) return null;
  // The signal goes along: SSE subscriptions end when the client goes away.
  return new RequestCtor(request.url, {
    method: request.method,
    headers: request.headers,
    body: new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength),
    signal: request.signal,
  });
}

/** The 413 of an oversized GraphQL request, shaped like any GraphQL error. */
export function payloadTooLarge(limit: number): Response {
  return Response.json(
    {
      errors: [
        {
          message: `The request body is larger than ${limit} bytes.`,
          extensions: { code: "PAYLOAD_TOO_LARGE", limit },
        },
      ],
    },
    { status: 413 },
  );
}
