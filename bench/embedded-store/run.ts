/**
 * Does a request wait behind the embedded database's work? (issue #11)
 *
 *   pnpm exec tsx bench/embedded-store/run.ts [--pdf-pages=2000] [--pdf-bytes=20000000] [--idle-seconds=10]
 *
 * Starts the app in this process on an in-memory PGlite (the embedded default), listening on a
 * loopback port, with an account and an API key. A worker thread (its own event loop) sends
 * authenticated `{ viewer { email } }` over real HTTP, one at a time, one every 20 ms (or right after
 * the previous answer when that took longer), and records each latency: first while the server is
 * idle (the baseline), then while the generated ~20 MB PDF (bench/ingest/fixtures.ts) is uploaded
 * through the documents service and ingested by the server's job runner, until the document is
 * active. Prints p50/p99/max of both phases, the longest event-loop stall of the server's thread in
 * each, and the ingestion rate. Figures only: nothing here asserts behaviour.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Worker } from "node:worker_threads";
import { buildApp, createLogger, loadConfig } from "@voxgate/server";
import { pdfFixture, proseTextFixture } from "../ingest/fixtures.ts";
import { GRAPHQL_POST_CLIENT } from "../support/graphql-post-client.ts";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key!, value ?? ""];
  }),
);
const PDF_PAGES = Number(flags.get("pdf-pages") ?? 2000);
/** A plain-text document of this many MB instead of the PDF (issue #35: text goes straight to chunk writes). */
const TEXT_MB = flags.has("text-mb") ? Number(flags.get("text-mb")) : undefined;
/** The embedded default keeps its data on disk (and only then replaces its process); `--memory` as before. */
const IN_MEMORY = flags.has("memory");
/** Memory is measured again after this long without requests or ingestion (issue #35: 60 s). */
const AFTER_SECONDS = Number(flags.get("after-seconds") ?? 60);
const PDF_BYTES = Number(flags.get("pdf-bytes") ?? 20_000_000);
const IDLE_SECONDS = Number(flags.get("idle-seconds") ?? 10);
const VIEWER = JSON.stringify({ query: "{ viewer { email } }" });

/** The client: sequential requests, paced, each latency recorded until the parent says stop. */
const CLIENT = `${GRAPHQL_POST_CLIENT}
const { intervalMs } = workerData;
let stopping = false;
parentPort.on("message", () => { stopping = true; });
(async () => {
  const latencies = [];
  const errors = [];
  while (!stopping) {
    const started = performance.now();
    try {
      await post();
      latencies.push(performance.now() - started);
    } catch (error) {
      errors.push(String(error && error.message));
    }
    const took = performance.now() - started;
    if (took < intervalMs) await new Promise((resolve) => setTimeout(resolve, intervalMs - took));
  }
  agent.destroy();
  parentPort.postMessage({ latencies, errors });
})().catch((error) => { throw error; });
`;

function startClient(url: string, token: string, email: string) {
  const worker = new Worker(CLIENT, {
    eval: true,
    workerData: { url, body: VIEWER, token, expect: email, intervalMs: 20 },
  });
  const outcome = new Promise<{ latencies: number[]; errors: string[] }>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    stop: async () => {
      worker.postMessage("stop");
      const result = await outcome;
      await worker.terminate();
      return result;
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Phase {
  requests: number;
  /** Requests that failed (a reset connection, a wrong answer): counted, not timed. */
  errors: string[];
  p50: number;
  p99: number;
  max: number;
  loopMaxMs: number;
}

/** Runs `during` with the client sending and the server thread's event-loop delay monitored. */
async function phase(url: string, token: string, email: string, during: () => Promise<void>): Promise<Phase> {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const client = startClient(url, token, email);
  await during();
  const { latencies: unsorted, errors } = await client.stop();
  const latencies = unsorted.toSorted((a, b) => a - b);
  loop.disable();
  return {
    requests: latencies.length,
    errors,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1)!,
    loopMaxMs: loop.max / 1e6,
  };
}

/** Resident memory of a process in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  try {
    return (Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * 4096) / 1e6;
  } catch {
    return 0;
  }
}

/** This process (the server, with the bench's own code beside it) and the database's process. */
function tree(): { server: number; database: number; sum: number } {
  const server = rssMb(process.pid);
  const database =
    app.db.kind === "pglite" && "process" in app.db ? rssMb((app.db.process as { pid: number }).pid) : 0;
  return { server, database, sum: server + database };
}

/** Peaks of each process and of their sum, sampled every 100 ms while it runs. */
function sampleTree() {
  const peak = { server: 0, database: 0, sum: 0 };
  const sample = () => {
    const now = tree();
    peak.server = Math.max(peak.server, now.server);
    peak.database = Math.max(peak.database, now.database);
    peak.sum = Math.max(peak.sum, now.sum);
  };
  sample();
  const timer = setInterval(sample, 100);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

const loadAverages = [loadavg()[0]!];
const pdf = TEXT_MB === undefined ? await pdfFixture(PDF_PAGES, PDF_BYTES) : null;
const text = TEXT_MB === undefined ? null : proseTextFixture(Math.round(TEXT_MB * 1e6));
const dataDir = IN_MEMORY ? undefined : mkdtempSync(join(tmpdir(), "vg-bench-es-"));
const recycles: { beforeMb: number; afterMb: number; pausedMs: number }[] = [];
const config = loadConfig({
  PORT: "0",
  LOG_LEVEL: "silent",
  VOXGATE_SEED_DEMO: "false",
  VOXGATE_WORKER_CONCURRENCY: "1",
});
const app = await buildApp(config, {
  logger: createLogger("silent"),
  database: { kind: "pglite", dataDir, tuning: loadConfig({}).pglite },
});
app.db.onRecycle((outcome) => recycles.push(outcome));
app.db.onCrash?.((error) => console.error(error));
const url = await app.listen(0, "127.0.0.1");
try {
  const email = `bench-embedded-${process.pid}@example.com`;
  const { account, user } = await app.services.accounts.create({ email, password: "bench-password-1" });
  const { token } = await app.services.apiKeys.create(
    { accountId: account.id, userId: user.id },
    { name: "bench" },
  );
  const kb = await app.services.knowledgebases.create(account.id, { name: "Benchmark" });
  const bytes = readFileSync((pdf ?? text)!.path);

  // Warm-up: the first requests compile queries and fill caches on both sides.
  await phase(url, token, email, () => new Promise((resolve) => setTimeout(resolve, 2_000)));
  const idle = await phase(
    url,
    token,
    email,
    () => new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1_000)),
  );

  let pages = 0;
  let chunks = 0;
  let failure: string | null = null;
  const before = tree();
  const started = performance.now();
  const stopSampling = sampleTree();
  loadAverages.push(loadavg()[0]!);
  const busy = await phase(url, token, email, async () => {
    const document = await app.services.documents.create(account.id, kb.id, {
      name: "Report",
      ...(pdf
        ? { type: "pdf" as const, file: new File([bytes], "report.pdf", { type: "application/pdf" }) }
        : { type: "txt" as const, file: new File([bytes], "report.txt", { type: "text/plain" }) }),
    });
    for await (const event of await app.services.documents.watch(account.id, document.id)) {
      // The latencies are the figure; a document stopped by the processing time limit on a slow
      // machine still loaded the server until then.
      if (event.status === "failed") failure = event.failureReason ?? "failed";
      if (event.status === "active") {
        pages = event.pagesTotal ?? 0;
        chunks = event.chunkCount;
      }
    }
  });
  const seconds = (performance.now() - started) / 1000;
  const peak = stopSampling();
  loadAverages.push(loadavg()[0]!);
  // No requests now: the database's process may be replaced once quiet (VOXGATE_PGLITE_RECYCLE_*).
  await new Promise((resolve) => setTimeout(resolve, AFTER_SECONDS * 1000));
  const after = tree();
  loadAverages.push(loadavg()[0]!);

  const ms = (value: number) => `${value.toFixed(1)} ms`;
  console.log(
    `Node ${process.version}, ${cpus().length} cores; embedded PGlite (${dataDir ? "data directory" : "in memory"}); ` +
      (pdf
        ? `PDF ${(pdf.bytes / 1e6).toFixed(1)} MB, ${pdf.pages} pages`
        : `plain text ${(text!.bytes / 1e6).toFixed(1)} MB`) +
      `; offline embedder; load average (1 min) ${loadAverages.map((load) => load.toFixed(1)).join(" → ")}\n\n` +
      "| `{ viewer { email } }`, one at a time | answered | failed | p50 | p99 | max | server event-loop max stall |\n" +
      "|---|---|---|---|---|---|---|",
  );
  for (const [label, result] of [
    ["baseline: server idle", idle],
    [pdf ? "while the PDF is ingested" : "while the text is ingested", busy],
  ] as const) {
    console.log(
      `| ${label} | ${result.requests} | ${result.errors.length} | ${ms(result.p50)} | ${ms(result.p99)} | ${ms(result.max)} | ${ms(result.loopMaxMs)} |`,
    );
  }
  console.log(`\np99 while ingesting / idle p99 of this run: ${(busy.p99 / idle.p99).toFixed(2)}×`);
  for (const error of new Set([...idle.errors, ...busy.errors])) console.log(`failed request: ${error}`);
  const mb = (value: number) => `${value.toFixed(0)} MB`;
  console.log(
    "\n| resident memory | server process (with the bench client) | database process | sum |\n|---|---|---|---|\n" +
      `| before the upload | ${mb(before.server)} | ${mb(before.database)} | ${mb(before.sum)} |\n` +
      `| peak while ingesting (each its own peak) | ${mb(peak.server)} | ${mb(peak.database)} | ${mb(peak.sum)} |\n` +
      `| ${AFTER_SECONDS} s after the document is active | ${mb(after.server)} | ${mb(after.database)} | ${mb(after.sum)} |`,
  );
  for (const recycle of recycles) {
    console.log(
      `database process replaced: ${mb(recycle.beforeMb)} → ${mb(recycle.afterMb)}, connections held ${recycle.pausedMs.toFixed(0)} ms`,
    );
  }
  console.log(
    failure
      ? `\nIngestion failed after ${seconds.toFixed(1)} s: ${failure}`
      : `\nIngestion: ${pages} pages, ${chunks} chunks in ${seconds.toFixed(1)} s (${(pages / seconds).toFixed(1)} pages/s)`,
  );
} finally {
  await app.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
