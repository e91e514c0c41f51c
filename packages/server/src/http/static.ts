import { readFile } from "node:fs/promises";
import { extname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../env.ts";

const exampleDir = new URL("../../../../examples/", import.meta.url);
const widgetDistDir = fileURLToPath(new URL("../../../widget/dist/", import.meta.url));

const CONTENT_TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".map": "application/json",
  ".json": "application/json",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".png": "image/png",
};

export function notFound(): Response {
  return Response.json({ message: "Not found." }, { status: 404 });
}

/** Serves a file from `root`; paths that leave it, or files that do not exist, are 404. */
async function serveStatic(root: string, relative: string): Promise<Response> {
  const path = resolve(root, relative);
  if (!path.startsWith(root) || relative.includes("\0")) return notFound();
  try {
    const body = await readFile(path);
    return new Response(body, {
      headers: {
        "content-type": CONTENT_TYPES[extname(path)] ?? "application/octet-stream",
        "access-control-allow-origin": "*",
        "cache-control": "public, max-age=300",
      },
    });
  } catch {
    return notFound();
  }
}

/** The widget's built files, its demo page and the index of entry points; other paths answer null. */
export function createStaticFiles(config: Config): (url: URL) => Promise<Response | null> {
  return async (url) => {
    if (url.pathname.startsWith("/widget/") && !url.pathname.startsWith("/widget/demo")) {
      return serveStatic(widgetDistDir, url.pathname.slice("/widget/".length));
    }
    if (url.pathname === "/widget/demo" || url.pathname === "/widget/demo/") {
      const html = await readFile(new URL("widget/index.html", exampleDir), "utf8");
      return new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (url.pathname === "/") {
      return Response.json({
        name: "Voxgate",
        graphql: `${config.publicBaseUrl}/graphql`,
        rest: `${config.publicBaseUrl}/api`,
        widgetDemo: `${config.publicBaseUrl}/widget/demo`,
      });
    }
    return null;
  };
}
