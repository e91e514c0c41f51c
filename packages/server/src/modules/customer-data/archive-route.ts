import { idOutOfRangeMessage, parseId } from "@voxgate/rest-compat";
import { AppError } from "../../errors.ts";
import type { AuthService } from "../auth/index.ts";
import type { CustomerDataService } from "./customer-data.service.ts";

const PATH = /^\/customer-data\/exports\/(\d+)\.zip$/;

/**
 * The console may be served from another origin (its api-base): it fetches archives with the
 * session token in the Authorization header, never a cookie, so any origin may ask (as /graphql).
 */
const CORS = { "access-control-allow-origin": "*", "access-control-expose-headers": "Content-Disposition" };

/**
 * Export archives, `GET /customer-data/exports/<job id>.zip` (the job's `downloadUrl`): the owner's
 * API key or session token as a Bearer token, until the job's `expiresAt`. Another account's job,
 * an unfinished or expired export answers 404 like a missing one. Other paths answer null.
 */
export function createArchiveRoutes(deps: {
  auth: AuthService;
  customerData: CustomerDataService;
}): (request: Request, url: URL) => Promise<Response | null> {
  return async (request, url) => {
    const match = PATH.exec(url.pathname);
    if (!match) return null;
    if (request.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          ...CORS,
          "access-control-allow-methods": "GET, HEAD",
          "access-control-allow-headers": "Authorization",
          "access-control-max-age": "600",
        },
      });
    }
    if (request.method !== "GET" && request.method !== "HEAD") {
      return Response.json(
        { message: "Method not allowed." },
        { status: 405, headers: { allow: "GET, HEAD", ...CORS } },
      );
    }
    const { viewer } = await deps.auth.authenticate(request.headers.get("authorization"));
    if (!viewer) {
      return Response.json(
        { message: "Unauthenticated." },
        { status: 401, headers: { "www-authenticate": "Bearer", ...CORS } },
      );
    }
    const jobId = parseId(match[1]!);
    if (typeof jobId !== "number") {
      const message = idOutOfRangeMessage("job id");
      return Response.json({ message, errors: { job_id: [message] } }, { status: 422, headers: CORS });
    }
    let archive: Awaited<ReturnType<CustomerDataService["archive"]>>;
    try {
      archive = await deps.customerData.archive(viewer.accountId, jobId);
    } catch (error) {
      if (error instanceof AppError && error.code === "NOT_FOUND") {
        return Response.json({ message: "Export archive not found." }, { status: 404, headers: CORS });
      }
      throw error;
    }
    const headers = {
      ...CORS,
      "content-type": "application/zip",
      "content-length": String(archive.size),
      "content-disposition": `attachment; filename="customer-data-${jobId}.zip"`,
      "cache-control": "private, no-store",
    };
    if (request.method === "HEAD") return new Response(null, { headers });
    const parts = archive.read();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await parts.next();
        if (next.done) controller.close();
        else controller.enqueue(new Uint8Array(next.value));
      },
      async cancel() {
        await parts.return?.(undefined);
      },
    });
    return new Response(body, { headers });
  };
}
