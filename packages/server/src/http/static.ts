import { readFile } from "node:fs/promises";
import { basename, dirname, extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../env.ts";
import { etagMatches, FileRepresentations, negotiateEncoding } from "./file-representations.ts";

const exampleDir = new URL("../../../../examples/", import.meta.url);
const widgetDistDir = fileURLToPath(new URL("../../../widget/dist/", import.meta.url));
/** The operator console's single-page build (packages/console, `vite build`). */
const consoleDistDir = fileURLToPath(new URL("../../../console/dist/", import.meta.url));
/** The embed script websites load with one tag. */
const WIDGET_SCRIPT = "voxgate-chat.js";

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".map": "application/json",
  ".json": "application/json",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".png": "image/png",
};
/** Text compresses well; images are compressed already. */
const COMPRESSIBLE = new Set([".js", ".mjs", ".map", ".json", ".css", ".html"]);

/**
 * Stable URLs are embedded in websites that cannot change them each release: a short max-age, then
 * a revalidation with the ETag. A content-hash URL names these exact bytes forever.
 */
const STABLE_CACHE = "public, max-age=300";
const IMMUTABLE_CACHE = "public, max-age=31536000, immutable";
/** The console's page names its scripts by content hash; the page itself is checked on every load. */
const REVALIDATE = "no-cache";

/** `name.<first 12 hex of sha256>.ext`: the content-hash URL of `name.ext`. */
const HASHED_NAME = /^(.+)\.([0-9a-f]{12})(\.[a-z0-9]+)$/;
const HASH_LENGTH = 12;

export function notFound(): Response {
  return Response.json({ message: "Not found." }, { status: 404 });
}

/**
 * The widget's built files, its demo page, the operator console and the index of entry points;
 * other paths answer null.
 */
export function createStaticFiles(config: Config): (request: Request, url: URL) => Promise<Response | null> {
  const files = new FileRepresentations();

  /**
   * Serves a file from `root`, compressed as the client accepts; paths that leave `root`, or files
   * that do not exist, are 404. `name.<hash>.ext` serves `name.ext` while its content hash starts
   * with `<hash>`; a stale hash is 404 rather than a redirect, because the URL promises these exact
   * bytes (a page may pin them with Subresource Integrity) and newer ones would break that promise.
   */
  async function serveStatic(
    request: Request,
    root: string,
    relative: string,
    cacheFor: (path: string) => string = () => STABLE_CACHE,
  ): Promise<Response> {
    const path = resolve(root, relative);
    if (!path.startsWith(root) || relative.includes("\0")) return notFound();
    const compressible = COMPRESSIBLE.has(extname(path));
    let version = await files.get(path, compressible);
    let cacheControl = cacheFor(relative);
    if (!version) {
      const hashed = HASHED_NAME.exec(basename(path));
      if (!hashed) return notFound();
      const [, name, hash, ext] = hashed;
      const original = join(dirname(path), `${name}${ext}`);
      version = await files.get(original, COMPRESSIBLE.has(ext ?? ""));
      if (!version?.sha256.startsWith(hash ?? "")) return notFound();
      cacheControl = IMMUTABLE_CACHE;
    }

    const encoding = compressible ? negotiateEncoding(request.headers.get("accept-encoding")) : "identity";
    const representation = await version.representation(encoding);
    const headers = new Headers({
      "content-type": CONTENT_TYPES[extname(path)] ?? "application/octet-stream",
      "access-control-allow-origin": "*",
      "cache-control": cacheControl,
      etag: representation.etag,
    });
    if (compressible) headers.set("vary", "Accept-Encoding");
    if (etagMatches(request.headers.get("if-none-match"), representation.etag)) {
      return new Response(null, { status: 304, headers });
    }
    if (representation.encoding !== "identity") headers.set("content-encoding", representation.encoding);
    headers.set("content-length", String(representation.body.byteLength));
    return new Response(representation.body, { headers });
  }

  /** The embed script's content-hash URL, or its stable one while the widget is not built. */
  async function widgetScriptUrl(): Promise<string> {
    const version = await files.get(join(widgetDistDir, WIDGET_SCRIPT), true);
    const name = version
      ? WIDGET_SCRIPT.replace(/\.js$/, `.${version.sha256.slice(0, HASH_LENGTH)}.js`)
      : WIDGET_SCRIPT;
    return `${config.publicBaseUrl}/widget/${name}`;
  }

  return async (request, url) => {
    if (url.pathname.startsWith("/widget/") && !url.pathname.startsWith("/widget/demo")) {
      return serveStatic(request, widgetDistDir, url.pathname.slice("/widget/".length));
    }
    if (
      url.pathname === "/console" ||
      url.pathname === "/console/" ||
      url.pathname === "/console/index.html"
    ) {
      return serveStatic(request, consoleDistDir, "index.html", () => REVALIDATE);
    }
    if (url.pathname.startsWith("/console/")) {
      // Vite names everything under assets/ by content hash: these bytes never change under that URL.
      return serveStatic(request, consoleDistDir, url.pathname.slice("/console/".length), (path) =>
        path.startsWith("assets/") ? IMMUTABLE_CACHE : STABLE_CACHE,
      );
    }
    if (url.pathname === "/widget/demo" || url.pathname === "/widget/demo/") {
      const html = await readFile(new URL("widget/index.html", exampleDir), "utf8");
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (url.pathname === "/") {
      // A browser opening the server's address lands in the console; API clients keep the index.
      if (request.headers.get("accept")?.includes("text/html"))
        return new Response(null, { status: 302, headers: { location: "/console/" } });
      return Response.json({
        name: "Voxgate",
        graphql: `${config.publicBaseUrl}/graphql`,
        rest: `${config.publicBaseUrl}/api`,
        widgetScript: await widgetScriptUrl(),
        widgetDemo: `${config.publicBaseUrl}/widget/demo`,
        console: `${config.publicBaseUrl}/console/`,
      });
    }
    return null;
  };
}
