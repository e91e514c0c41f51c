/**
 * The embed script on the wire: bytes a browser downloads for `/widget/voxgate-chat.js` with no
 * Accept-Encoding, with gzip and with brotli, beside the raw file size in the same run; then the
 * cost of a revalidation (ETag → 304) and of the first (compressing) request against later ones.
 * Against a real server on loopback, each request on a fresh connection so that its bytes are counted
 * alone (status line and headers included).
 *
 *   pnpm exec tsx bench/widget-wire/wire.bench.ts [runs=20]
 */

import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { buildApp, createLogger, loadConfig } from "@voxgate/server";

const runs = Number(process.argv[2] ?? 20);
const widgetFile = await readFile(new URL("../../packages/widget/dist/voxgate-chat.js", import.meta.url));

interface Measured {
  status: number;
  etag: string;
  body: number;
  wire: number;
  ms: number;
}

function get(base: string, path: string, headers: Record<string, string>): Promise<Measured> {
  const started = performance.now();
  return new Promise((done, reject) => {
    const request = httpRequest(`${base}${path}`, { headers, agent: false }, (response) => {
      let body = 0;
      response.on("data", (chunk: Buffer) => {
        body += chunk.byteLength;
      });
      response.on("end", () =>
        done({
          status: response.statusCode ?? 0,
          etag: String(response.headers.etag),
          body,
          wire: response.socket.bytesRead,
          ms: performance.now() - started,
        }),
      );
    });
    request.on("error", reject);
    request.end();
  });
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(2)} KB`.padStart(9);
const pct = (bytes: number) => `${((100 * bytes) / widgetFile.byteLength).toFixed(1)}%`.padStart(6);

const app = await buildApp(
  loadConfig({ NODE_ENV: "test", PORT: "0", LOG_LEVEL: "silent", VOXGATE_SEED_DEMO: "false" }),
  { database: { kind: "pglite", dataDir: undefined }, logger: createLogger("silent") },
);
const base = await app.listen(0, "127.0.0.1");
const path = "/widget/voxgate-chat.js";
const variants: { label: string; headers: Record<string, string> }[] = [
  { label: "identity (no Accept-Encoding)", headers: {} },
  { label: "gzip", headers: { "accept-encoding": "gzip" } },
  { label: "br (Chrome's Accept-Encoding)", headers: { "accept-encoding": "gzip, deflate, br, zstd" } },
];

console.log(
  `GET ${path}, raw file ${kb(widgetFile.byteLength)} (${widgetFile.byteLength} B), ${runs} runs each`,
);
console.log(`${"".padEnd(32)}     body   of raw   on wire   1st req  median later`);
for (const variant of variants) {
  const first = await get(base, path, variant.headers);
  const later: Measured[] = [];
  for (let run = 0; run < runs; run++) later.push(await get(base, path, variant.headers));
  const last = later.at(-1)!;
  const ms = (value: number) => `${value.toFixed(1).padStart(7)} ms`;
  const sizes = `${kb(last.body)} ${pct(last.body)} ${kb(last.wire)}`;
  console.log(`  ${variant.label.padEnd(30)} ${sizes} ${ms(first.ms)} ${ms(median(later.map((m) => m.ms)))}`);
  const revalidated = await get(base, path, { ...variant.headers, "if-none-match": last.etag });
  console.log(`    revalidation with its ETag: ${revalidated.status}, ${kb(revalidated.wire)} on the wire`);
}
const index = (await (await fetch(`${base}/`)).json()) as { widgetScript: string };
console.log(`content-hash URL (immutable): ${new URL(index.widgetScript).pathname}`);
await app.close();
