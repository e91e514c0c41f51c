import { readLimited } from "@voxgate/rest-compat";

/** The request bodies of /graphql that are read at all, and their bounds. */
export interface BodyLimits {
  /** A JSON (or other non-multipart) body: read whole, so at most this many bytes. */
  bytes: number;
  /** A multipart body (an upload): streamed to the form parser, and cut off past this many bytes. */
  multipartBytes: number;
}

/** A request ready for the GraphQL server, and whether its streamed multipart body passed its limit. */
export interface BoundedRequest {
  request: Request;
  /** True once a multipart body streamed past `multipartBytes` (the form parser then failed on it). */
  overLimit(): boolean;
}

/**
 * A GraphQL request whose body is within `limits`, or null when a body that is read whole is larger
 * (or a multipart one declares a larger length). A body is read as it streams and reading stops at the
 * limit, so an oversized body (declared or chunked) is never buffered whole. A multipart upload is not
 * read here: the form parser bounds each file and field, and its body stream fails once the whole
 * passes `multipartBytes` (200 fields of 1 MB are allowed one by one); `overLimit` tells the caller.
 */
export async function readBoundedBody(
  request: Request,
  limits: BodyLimits,
  RequestCtor: typeof Request,
): Promise<BoundedRequest | null> {
  if (!request.body || request.method === "GET" || request.method === "HEAD")
    return { request, overLimit: () => false };
  if (isMultipart(request)) {
    const declared = Number(request.headers.get("content-length") ?? 0);
    if (declared > limits.multipartBytes) return null;
    return withStreamLimit(request, limits.multipartBytes, RequestCtor);
  }
  const body = await readLimited(request, limits.bytes);
  if (body === null) return null;
  // The signal goes along: SSE subscriptions end when the client goes away.
  const bounded = new RequestCtor(request.url, {
    method: request.method,
    headers: request.headers,
    body: new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength),
    signal: request.signal,
  });
  return { request: bounded, overLimit: () => false };
}

export function isMultipart(request: Request): boolean {
  return request.headers.get("content-type")?.toLowerCase().startsWith("multipart/form-data") ?? false;
}

function withStreamLimit(request: Request, limit: number, RequestCtor: typeof Request): BoundedRequest {
  const reader = request.body!.getReader();
  let received = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) return controller.close();
      received += value.byteLength;
      if (received > limit)
        return controller.error(new Error(`The request body is larger than ${limit} bytes.`));
      controller.enqueue(value);
    },
    // The parser gives up at its limits. Cancelling the request's own stream would destroy the socket
    // before the 413 is written; the HTTP server drops what is left once it is (server.ts).
    cancel: () => {},
  });
  const limited = new RequestCtor(request.url, {
    method: request.method,
    headers: request.headers,
    body,
    signal: request.signal,
    duplex: "half",
  } as RequestInit);
  return { request: limited, overLimit: () => received > limit };
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
