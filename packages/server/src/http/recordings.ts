import { idOutOfRangeMessage, parseId } from "@voxgate/rest-compat";
import { AppError } from "../errors.ts";
import type { AuthService } from "../modules/auth/index.ts";
import type { Recordings } from "../modules/voice/index.ts";
import { bearerGet } from "./bearer-get.ts";

const PATH = /^\/recordings\/(\d+)\.wav$/;
/**
 * The credential travels in the Authorization header, never a cookie, so any origin may ask (as
 * /graphql): the console fetches a call's recording with its session token to play it.
 */
const CORS = {
  "access-control-allow-origin": "*",
  "access-control-expose-headers": "Content-Range, Accept-Ranges, Content-Length",
};

/**
 * Call recordings, `GET /recordings/<call id>.wav` (the call's `recording_url`): the owner's API
 * key or session token as a Bearer token; another account's call is 404 like a missing one. One
 * byte range (`Range: bytes=a-b`, `a-` or `-n`) is honoured, so players can seek. A call id past the
 * integer range answers 422, as the REST API does. Other paths answer null.
 */
export function createRecordingRoutes(deps: {
  auth: AuthService;
  recordings: Recordings;
}): (request: Request, url: URL) => Promise<Response | null> {
  return async (request, url) => {
    const match = PATH.exec(url.pathname);
    if (!match) return null;
    const response = await answer(request, match[1]!);
    for (const [name, value] of Object.entries(CORS)) response.headers.set(name, value);
    return response;
  };

  async function answer(request: Request, id: string): Promise<Response> {
    const viewer = await bearerGet(request, deps.auth, "Authorization, Range");
    if (viewer instanceof Response) return viewer;
    const callId = parseId(id);
    if (typeof callId !== "number") {
      const message = idOutOfRangeMessage("call id");
      return Response.json({ message, errors: { call_id: [message] } }, { status: 422 });
    }
    let recording: Awaited<ReturnType<Recordings["open"]>>;
    try {
      recording = await deps.recordings.open(viewer.accountId, callId);
    } catch (error) {
      if (error instanceof AppError && error.code === "NOT_FOUND") {
        return Response.json({ message: "Recording not found." }, { status: 404 });
      }
      throw error;
    }
    const headers: Record<string, string> = {
      "content-type": "audio/wav",
      "accept-ranges": "bytes",
      "cache-control": "private, no-store",
    };
    const range = byteRange(request.headers.get("range"), recording.size);
    if (range === "unsatisfiable") {
      return new Response(null, {
        status: 416,
        headers: { ...headers, "content-range": `bytes */${recording.size}` },
      });
    }
    const [start, end] = range ?? [0, recording.size - 1];
    headers["content-length"] = String(end - start + 1);
    if (range) headers["content-range"] = `bytes ${start}-${end}/${recording.size}`;
    const status = range ? 206 : 200;
    if (request.method === "HEAD" || recording.size === 0) return new Response(null, { status, headers });
    const pieces = recording.read(start, end)[Symbol.asyncIterator]();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await pieces.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value));
      },
      async cancel() {
        await pieces.return?.();
      },
    });
    return new Response(body, { status, headers });
  }
}

/** The one range asked for, clipped to the file; null for the whole file (no or an unsupported header). */
function byteRange(header: string | null, size: number): [number, number] | "unsatisfiable" | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === "" && match[2] === "")) return null;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    return suffix === 0 || size === 0 ? "unsatisfiable" : [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(match[1]);
  const end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  return start >= size || end < start ? "unsatisfiable" : [start, end];
}
