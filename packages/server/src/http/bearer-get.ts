import type { AuthService, Viewer } from "../modules/auth/index.ts";

/**
 * The part every file route read with a Bearer credential shares (recordings, the calls' CSV export): a
 * cross-origin preflight, GET and HEAD only, the credential. Any origin may ask: the credential is a
 * header, never a cookie, so a page on another origin can only use one it already holds (the console
 * served from another origin than the API does). Answers the viewer, or the response that ends the
 * request (204, 405 or 401, in the REST API's JSON shape).
 */
export async function bearerGet(
  request: Request,
  auth: AuthService,
  allowHeaders: string,
): Promise<Viewer | Response> {
  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: {
        "access-control-allow-methods": "GET, HEAD",
        "access-control-allow-headers": allowHeaders,
        "access-control-max-age": "600",
      },
    });
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    return Response.json(
      { message: "Method not allowed." },
      { status: 405, headers: { allow: "GET, HEAD" } },
    );
  }
  const { viewer } = await auth.authenticate(request.headers.get("authorization"));
  if (!viewer) {
    return Response.json(
      { message: "Unauthenticated." },
      { status: 401, headers: { "www-authenticate": "Bearer" } },
    );
  }
  return viewer;
}
