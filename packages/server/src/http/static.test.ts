import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PUBLIC_BASE_URL, startTestApp, type TestApp } from "../../test/support/test-app.ts";

const widgetFile = readFileSync(new URL("../../../widget/dist/voxgate-chat.js", import.meta.url));
const widgetHash = createHash("sha256").update(widgetFile).digest("hex").slice(0, 12);

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * A GET over plain node:http, which (unlike fetch) neither decompresses nor normalises the path,
 * so tests see the bytes on the wire and can send paths as an attacker would.
 */
function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((done, reject) => {
    const request = httpRequest(`${base}${path}`, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        done({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end();
  });
}

describe("the widget's static files", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("serves brotli when accepted, gzip otherwise, and identity without Accept-Encoding", async () => {
    const br = await rawGet(t.url, "/widget/voxgate-chat.js", { "accept-encoding": "gzip, deflate, br" });
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("Accept-Encoding");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["access-control-allow-origin"]).toBe("*");
    expect(Number(br.headers["content-length"])).toBe(br.body.byteLength);
    expect(br.body.byteLength).toBeLessThan(widgetFile.byteLength / 2);
    expect(brotliDecompressSync(br.body).equals(widgetFile)).toBe(true);

    const gzip = await rawGet(t.url, "/widget/voxgate-chat.js", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(Number(gzip.headers["content-length"])).toBe(gzip.body.byteLength);
    expect(gunzipSync(gzip.body).equals(widgetFile)).toBe(true);

    // br refused by q=0 leaves gzip; everything refused leaves identity.
    const noBr = await rawGet(t.url, "/widget/voxgate-chat.js", { "accept-encoding": "br;q=0, *" });
    expect(noBr.headers["content-encoding"]).toBe("gzip");
    const refused = await rawGet(t.url, "/widget/voxgate-chat.js", { "accept-encoding": "br;q=0, gzip;q=0" });
    expect(refused.headers["content-encoding"]).toBeUndefined();
    expect(refused.body.equals(widgetFile)).toBe(true);

    const identity = await rawGet(t.url, "/widget/voxgate-chat.js");
    expect(identity.status).toBe(200);
    expect(identity.headers["content-encoding"]).toBeUndefined();
    expect(identity.headers.vary).toBe("Accept-Encoding");
    expect(Number(identity.headers["content-length"])).toBe(widgetFile.byteLength);
    expect(identity.body.equals(widgetFile)).toBe(true);

    // Each representation has its own strong ETag, the same on every request.
    const etags = [br, gzip, identity].map((response) => response.headers.etag);
    expect(new Set(etags).size).toBe(3);
    for (const etag of etags) expect(etag).toMatch(/^"[0-9a-z-]+"$/);
    const again = await rawGet(t.url, "/widget/voxgate-chat.js", { "accept-encoding": "br" });
    expect(again.headers.etag).toBe(br.headers.etag);
    expect(again.body.equals(br.body)).toBe(true);
  });

  it("answers 304 to If-None-Match naming the representation's ETag, 200 to another", async () => {
    const br = await rawGet(t.url, "/widget/voxgate-chat.js", { "accept-encoding": "br" });
    const etag = br.headers.etag as string;

    const notModified = await rawGet(t.url, "/widget/voxgate-chat.js", {
      "accept-encoding": "br",
      "if-none-match": `"something-else", ${etag}`,
    });
    expect(notModified.status).toBe(304);
    expect(notModified.body.byteLength).toBe(0);
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.headers["cache-control"]).toBe("public, max-age=300");
    expect(notModified.headers.vary).toBe("Accept-Encoding");

    // The brotli ETag does not name the identity bytes a client without brotli receives.
    const otherEncoding = await rawGet(t.url, "/widget/voxgate-chat.js", { "if-none-match": etag });
    expect(otherEncoding.status).toBe(200);
    expect(otherEncoding.body.equals(widgetFile)).toBe(true);
  });

  it("sends a browser opening the root URL to the console, and answers the index to API clients", async () => {
    const browser = await rawGet(t.url, "/", {
      accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    });
    expect(browser.status).toBe(302);
    expect(browser.headers.location).toBe("/console/");
    const client = await rawGet(t.url, "/", { accept: "application/json" });
    expect(client.status).toBe(200);
    expect(JSON.parse(client.body.toString("utf8"))).toMatchObject({
      console: `${PUBLIC_BASE_URL}/console/`,
    });
    expect((await rawGet(t.url, "/")).status).toBe(200);
  });

  it("names the content-hash URL in the index, which serves the same bytes as immutable", async () => {
    const index = await t.rest<{ widgetScript: string; widgetDemo: string }>("GET", "/");
    expect(index.body.widgetScript).toBe(`${PUBLIC_BASE_URL}/widget/voxgate-chat.${widgetHash}.js`);
    const hashedPath = index.body.widgetScript.slice(PUBLIC_BASE_URL.length);

    const hashed = await rawGet(t.url, hashedPath, { "accept-encoding": "br" });
    expect(hashed.status).toBe(200);
    expect(hashed.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(hashed.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(hashed.headers["access-control-allow-origin"]).toBe("*");
    expect(hashed.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(hashed.body).equals(widgetFile)).toBe(true);
    const hashedIdentity = await rawGet(t.url, hashedPath);
    expect(hashedIdentity.body.equals(widgetFile)).toBe(true);

    const stable = await rawGet(t.url, "/widget/voxgate-chat.js", { "accept-encoding": "br" });
    expect(stable.headers["cache-control"]).toBe("public, max-age=300");
    expect(stable.headers.etag).toBe(hashed.headers.etag);
  });

  it("answers 404 to a stale content hash and to paths that leave the widget's files", async () => {
    const stale = [...widgetHash].map((digit) => (digit === "0" ? "1" : "0")).join("");
    expect((await rawGet(t.url, `/widget/voxgate-chat.${stale}.js`)).status).toBe(404);
    expect((await rawGet(t.url, `/widget/missing.${widgetHash}.js`)).status).toBe(404);

    for (const path of [
      "/widget/..%2f..%2fserver%2fpackage.json",
      "/widget/%2e%2e/%2e%2e/server/package.json",
      "/widget/../../server/package.json",
      `/widget/..%2f..%2fserver%2fpackage.${widgetHash}.json`,
      "/widget/voxgate-chat.js%00",
      "/widget/",
    ]) {
      const response = await rawGet(t.url, path, { "accept-encoding": "br" });
      expect(response.status, path).toBe(404);
      expect(JSON.parse(response.body.toString("utf8")), path).toEqual({ message: "Not found." });
    }
  });

  it("serves the console's page for revalidation and its hashed assets as immutable", async () => {
    const page = await rawGet(t.url, "/console/", { "accept-encoding": "gzip" });
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["cache-control"]).toBe("no-cache");
    const html = gunzipSync(page.body).toString("utf8");
    expect(html).toContain("<voxgate-console>");
    expect((await rawGet(t.url, "/console")).status).toBe(200);

    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await rawGet(t.url, script!, { "accept-encoding": "br" });
    expect(asset.status).toBe(200);
    expect(asset.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const entry = brotliDecompressSync(asset.body).toString("utf8");
    expect(entry).toContain("voxgate-console");

    // Each screen is a chunk the entry imports on demand, beside it: same origin, same headers.
    const chunk = /import\(`\.\/([\w-]+\.js)`\)/.exec(entry)?.[1];
    expect(chunk).toBeDefined();
    const lazy = await rawGet(t.url, `/console/assets/${chunk}`, { "accept-encoding": "gzip" });
    expect(lazy.status).toBe(200);
    expect(lazy.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(lazy.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(gunzipSync(lazy.body).toString("utf8")).toMatch(/export\s*\{[^}]*\bas Vx\w+/);

    for (const path of ["/console/..%2f..%2fserver%2fpackage.json", "/console/assets/missing.js"]) {
      expect((await rawGet(t.url, path)).status, path).toBe(404);
    }
  });
});
