/**
 * One benchmark case in its own process, so that its peak memory is its own: started by run.ts as
 * `child.ts <case> <json-args>`, it reports a CaseResult over IPC.
 */
import { openAsBlob, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { startCpuMeter } from "./cpu.ts";
import type { CaseResult, ChildArgs } from "./measure.ts";

const serverRequire = createRequire(new URL("../../packages/server/package.json", import.meta.url));

/** Peaks of process.memoryUsage() sampled every 10 ms (a blocked event loop delays samples: see loop delay). */
function startSampler() {
  const peak = { rss: 0, heapUsed: 0, external: 0 };
  /** The main thread's memory when RSS peaked: what is left of the peak is other threads' and native. */
  const atStart = process.memoryUsage();
  let atPeak = atStart;
  /** Peak RSS per stage of processing, to see which stage needs the memory. */
  const rssByStage: Record<string, number> = {};
  let stage = "start";
  const sample = () => {
    const usage = process.memoryUsage();
    if (usage.rss > peak.rss) atPeak = usage;
    peak.rss = Math.max(peak.rss, usage.rss);
    rssByStage[stage] = Math.max(rssByStage[stage] ?? 0, usage.rss);
    peak.heapUsed = Math.max(peak.heapUsed, usage.heapUsed);
    peak.external = Math.max(peak.external, usage.external + usage.arrayBuffers);
  };
  sample();
  const timer = setInterval(sample, 10);
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const stop = () => {
    clearInterval(timer);
    sample();
    loop.disable();
    return { ...peak, loopMaxMs: loop.max / 1e6, loopP99Ms: loop.percentile(99) / 1e6 };
  };
  const enterStage = (next: string) => {
    sample();
    stage = next;
  };
  const stagePeaks = () =>
    Object.entries(rssByStage)
      .map(([name, rss]) => `${name} ${(rss / 1024 / 1024).toFixed(0)} MB`)
      .join(", ");
  const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
  const makeup = (usage: NodeJS.MemoryUsage) =>
    `heap ${mb(usage.heapTotal)} (used ${mb(usage.heapUsed)}), external ${mb(usage.external)} (array buffers ${mb(usage.arrayBuffers)})`;
  const peakMakeup = () => `main thread at the start: ${makeup(atStart)}; at the peak: ${makeup(atPeak)}`;
  return Object.assign(stop, { enterStage, stagePeaks, peakMakeup });
}

async function rawPdf(args: ChildArgs): Promise<Partial<CaseResult>> {
  const { getDocument } = (await import(
    pathToFileURL(serverRequire.resolve("pdfjs-dist/legacy/build/pdf.mjs")).href
  )) as typeof import("pdfjs-dist");
  const data = new Uint8Array(readFileSync(args.pdfPath!));
  const idleRss = process.memoryUsage().rss;
  const stop = startSampler();
  const cpuStart = process.cpuUsage();
  const started = performance.now();
  const pdf = await getDocument({ data, isEvalSupported: false, disableFontFace: true, verbosity: 0 })
    .promise;
  let characters = 0;
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
    const page = await pdf.getPage(pageNumber);
    const content = await page.getTextContent();
    for (const item of content.items) if ("str" in item) characters += item.str.length;
    page.cleanup();
  }
  const pages = pdf.numPages;
  await pdf.destroy();
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  return {
    pages,
    seconds,
    idleRss,
    ...stop(),
    detail: `${(characters / 1e6).toFixed(1)} M characters; CPU ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`,
  };
}

async function rawSite(args: ChildArgs): Promise<Partial<CaseResult>> {
  const { parseHTML } = serverRequire("linkedom") as typeof import("linkedom");
  const { Readability } = serverRequire("@mozilla/readability") as typeof import("@mozilla/readability");
  const urls = args.batches!.flat();
  const idleRss = process.memoryUsage().rss;
  const stop = startSampler();
  const started = performance.now();
  let characters = 0;
  for (const url of urls) {
    const html = await (await fetch(url)).text();
    const { document } = parseHTML(html);
    const article = new Readability(document as unknown as Document, { charThreshold: 100 }).parse();
    characters += article?.textContent?.length ?? 0;
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    pages: urls.length,
    seconds,
    idleRss,
    ...stop(),
    detail: `${(characters / 1e6).toFixed(2)} M characters`,
  };
}

/** The real path: an app over the given database, documents created through the documents service, processed by its worker. */
async function ingest(args: ChildArgs): Promise<Partial<CaseResult>> {
  const { buildApp, createLogger, loadConfig } = await import("@voxgate/server");
  const config = loadConfig({
    PORT: "0",
    LOG_LEVEL: "silent",
    VOXGATE_SEED_DEMO: "false",
    VOXGATE_DATA_DIR: `/tmp/voxgate-bench-ingest-${process.pid}`,
    VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
    VOXGATE_WORKER_CONCURRENCY: "1",
  });
  const app = await buildApp(config, {
    logger: createLogger("silent"),
    database: args.databaseUrl
      ? { kind: "postgres", url: args.databaseUrl }
      : { kind: "pglite", dataDir: undefined },
  });
  await app.listen(0, "127.0.0.1");
  try {
    const { knowledgebases, documents } = app.services;
    const { account } = await app.services.accounts.create({
      email: `bench-${process.pid}@example.com`,
      password: "benchmark-pw",
    });
    const kb = await knowledgebases.create(account.id, { name: "Benchmark" });
    const filePath = args.pdfPath ?? args.textPath;
    // Read from disk as the documents service streams it, as an upload arrives: a copy of the file in this
    // process (and another in a Blob) would count in the app's peak (40 MB for the 20 MB PDF).
    const fileBytes = filePath ? await openAsBlob(filePath) : null;
    const idleRss = process.memoryUsage().rss;
    const cpu = await startCpuMeter(args.databaseUrl);
    const stop = startSampler();
    const stageSeconds: Record<string, number> = {};
    let pages = 0;
    let chunks = 0;
    /** Each is a write of the document (an update, a read and a publication) on the app's side. */
    let events = 0;
    const started = performance.now();
    const inputs = fileBytes
      ? [
          args.textPath
            ? { name: "Text", type: "txt", file: new File([fileBytes], "text.txt", { type: "text/plain" }) }
            : {
                name: "Report",
                type: "pdf",
                file: new File([fileBytes], "report.pdf", { type: "application/pdf" }),
              },
        ]
      : args.batches!.map((links, index) => ({
          name: `Site part ${index + 1}`,
          type: "website",
          links: links.map((link) => ({ link })),
        }));
    for (const input of inputs) {
      stop.enterStage("create");
      const document = await documents.create(account.id, kb.id, input);
      let stage = "queued";
      stop.enterStage(stage);
      let stageStarted = performance.now();
      for await (const event of await documents.watch(account.id, document.id)) {
        events++;
        const nextStage = event.status === "processing" ? (event.stage ?? stage) : event.status;
        if (nextStage !== stage) {
          const now = performance.now();
          stageSeconds[stage] = (stageSeconds[stage] ?? 0) + (now - stageStarted) / 1000;
          stage = nextStage;
          stageStarted = now;
          stop.enterStage(stage);
        }
        if (event.status === "failed") throw new Error(`document failed: ${event.failureReason}`);
        if (event.status === "active") {
          pages += event.pagesTotal ?? 0;
          chunks += event.chunkCount;
        }
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const { processSeconds, databaseSeconds } = await cpu();
    const stages = Object.entries(stageSeconds)
      .map(([name, value]) => `${name} ${value.toFixed(1)} s`)
      .join(", ");
    const peaks = stop();
    return {
      pages,
      seconds,
      idleRss,
      ...peaks,
      detail: [
        `${chunks} chunks, ${events} document events (progress writes); time by stage: ${stages}`,
        `peak RSS by stage: ${stop.stagePeaks()}`,
        stop.peakMakeup(),
        `CPU: this process ${processSeconds.toFixed(1)} s (main thread and PDF worker), database ${databaseSeconds.toFixed(1)} s`,
      ].join(`\n${"".padEnd(51)}`),
    };
  } finally {
    await app.close();
  }
}

const cases = {
  "pdf-raw": rawPdf,
  "pdf-ingest": ingest,
  "site-raw": rawSite,
  "site-ingest": ingest,
  "text-ingest": ingest,
};
const [name, json] = process.argv.slice(2) as [keyof typeof cases, string];
const partial = await cases[name](JSON.parse(json) as ChildArgs);
const result = { ...partial, peakRssOs: process.resourceUsage().maxRSS * 1024 } as CaseResult;
process.send!(result, () => process.exit(0));
