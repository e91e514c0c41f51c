import { readFileSync } from "node:fs";
import { openApiDocument, referencePage, routes } from "@voxgate/rest-compat";
import type { Config } from "../env.ts";

const { version } = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
  version: string;
};

/**
 * What /api itself answers beside the routes: an index of entry points, the OpenAPI document built
 * from the route table and its reference page; other paths answer null. The document is built on
 * its first request and kept (the table is fixed): building it converts every route's schemas to
 * JSON Schema, a few hundred milliseconds that a start would otherwise spend before it can answer.
 */
export function createApiIndex(config: Config): (request: Request, url: URL) => Response | null {
  const base = `${config.publicBaseUrl}/api`;
  let document: string | undefined;
  const page = referencePage(`${base}/openapi.json`);
  return (request, url) => {
    if (request.method !== "GET" && request.method !== "HEAD") return null;
    switch (url.pathname) {
      case "/api":
      case "/api/":
        return Response.json({
          name: "Voxgate REST API",
          version,
          docs: `${base}/docs`,
          openapi: `${base}/openapi.json`,
          graphql: `${config.publicBaseUrl}/graphql`,
          health: `${config.publicBaseUrl}/readyz`,
        });
      case "/api/openapi.json":
        document ??= JSON.stringify(openApiDocument({ routes, serverUrl: base, version }));
        return new Response(document, {
          headers: { "content-type": "application/json", "access-control-allow-origin": "*" },
        });
      case "/api/docs":
      case "/api/docs/":
        return new Response(page, { headers: { "content-type": "text/html; charset=utf-8" } });
      default:
        return null;
    }
  };
}
