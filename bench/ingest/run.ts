/**
 * Ingestion and retrieval benchmark of the knowledge module, each result beside a baseline measured
 * in the same run:
 *   pdf        a ~20 MB PDF through the real worker path vs pdf.js text extraction alone
 *   site       a 200-page local website through the real crawler path vs fetch + Readability alone
 *   retrieval  vector / keyword / hybrid search over 100,000 chunks on PostgreSQL (HNSW, GIN) vs the
 *              same queries with index scans disabled (exact scans); HNSW recall against exact
 *   text       adversarial TXT files (one endless "word") through the real path: time and the longest
 *              event-loop stall; run on its own, it is not part of the default set
 *
 *   pnpm exec tsx bench/ingest/run.ts [pdf] [site] [retrieval] [text] [--store=postgres|pglite]
 *     [--pdf-pages=2000] [--pdf-bytes=20000000] [--chunks=100000] [--queries=20] [--text-mb=20]
 *
 * With no part named, pdf, site and retrieval run. Ingestion cases run in child processes (one per case) so that
 * each reports its own peak memory.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { startPostgres } from "../../packages/server/test/support/services.ts";
import { adversarialTextFixture, pdfFixture, sitePages } from "./fixtures.ts";
import { printCases, runCase } from "./measure.ts";
import { runRetrievalBenchmark } from "./retrieval.ts";

const flags = new Map(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith("--"))
    .map((arg) => {
      const [name, value = ""] = arg.slice(2).split("=");
      return [name!, value];
    }),
);
const named = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const parts = new Set(named.length > 0 ? named : ["pdf", "site", "retrieval"]);
for (const part of parts) {
  if (!["pdf", "site", "retrieval", "text"].includes(part))
    throw new Error(`unknown part ${part}: use pdf, site, retrieval, text`);
}
const store = flags.get("store") ?? "postgres";
const numberFlag = (name: string, fallback: number) => Number(flags.get(name) ?? fallback);

const needsPostgres =
  parts.has("retrieval") ||
  (store === "postgres" && (parts.has("pdf") || parts.has("site") || parts.has("text")));
const postgres = needsPostgres ? await startPostgres() : null;
const databaseUrl = store === "postgres" ? postgres?.url : undefined;
console.log(
  `Node ${process.version}, ${(await import("node:os")).cpus().length} cores; ingestion store: ${store}; offline embedder (local:hash:384)`,
);

try {
  if (parts.has("pdf")) {
    const pdf = await pdfFixture(numberFlag("pdf-pages", 2000), numberFlag("pdf-bytes", 20_000_000));
    const raw = await runCase("pdf-raw", { pdfPath: pdf.path });
    const ingest = await runCase("pdf-ingest", { pdfPath: pdf.path, databaseUrl });
    printCases(`PDF: ${(pdf.bytes / 1e6).toFixed(1)} MB, ${pdf.pages} pages (${pdf.path})`, [
      ["baseline: pdf.js text extraction alone", raw],
      ["ingestion (worker: extract, chunk, embed, store)", ingest],
    ]);
  }

  if (parts.has("site")) {
    const pages = sitePages(200);
    const server = createServer((request, response) => {
      if (request.url === "/robots.txt") {
        response.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
        return;
      }
      const html = pages.get(request.url ?? "");
      if (!html) response.writeHead(404).end();
      else response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(html);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // relative_links_limit is at most 50, so 200 pages take four documents of 50 explicit links each.
    const urls = [...pages.keys()].map((path) => `${origin}${path}`);
    const batches = [0, 1, 2, 3].map((index) => urls.slice(index * 50, index * 50 + 50));
    try {
      const raw = await runCase("site-raw", { batches });
      const ingest = await runCase("site-ingest", { batches, databaseUrl });
      printCases(`Website: 200 pages on ${origin}, 4 documents of 50 links, processed one after another`, [
        ["baseline: fetch + Readability alone", raw],
        ["ingestion (worker: crawl, chunk, embed, store)", ingest],
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  if (parts.has("text")) {
    const large = Math.round(numberFlag("text-mb", 20) * 1_000_000);
    const rows: [string, Awaited<ReturnType<typeof runCase>>][] = [];
    for (const [label, kind, bytes] of [
      ['200 KB of "a"', "one-letter", 200_000],
      [`${large / 1e6} MB of "a"`, "one-letter", large],
      ["2 MB of random letters, no space", "random-letters", 2_000_000],
    ] as const) {
      const file = adversarialTextFixture(kind, bytes);
      rows.push([label, await runCase("text-ingest", { textPath: file.path, databaseUrl })]);
    }
    printCases("Adversarial TXT: one endless word, ingested (create to active)", rows);
  }

  if (parts.has("retrieval") && postgres) {
    await runRetrievalBenchmark(postgres.url, {
      chunks: numberFlag("chunks", 100_000),
      queries: numberFlag("queries", 20),
    });
  }
} finally {
  await postgres?.stop();
}
