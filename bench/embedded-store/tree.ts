/**
 * The memory of `npm start`'s process tree while a document is ingested (issue #35), the server as it
 * runs in production: the compiled server (`node packages/server/dist/main.js`) in a process group of
 * its own on a fresh data directory, with the embedded database's process below it.
 *
 *   pnpm exec tsx bench/embedded-store/tree.ts [--text-mb=6] [--pdf-pages=2000] [--pdf-bytes=20000000]
 *     [--idle-seconds=10] [--after-seconds=60] [--env=NAME=VALUE,...] [--entry=dist/main.js]
 *
 * Prints the resident memory of each process of the group (server, database) and their sum: after the
 * first start, the peaks while the document is ingested (uploaded over REST, processed by the server's
 * job runner), and `--after-seconds` after it is active; beside it the latency of `{ viewer { email } }`
 * sent one at a time from this process, idle and while ingesting, and the load average. `--env` passes
 * settings to the server (e.g. `--env=VOXGATE_PGLITE_RECYCLE_MB=0` for the run without recycling);
 * `--entry` runs another build (a copy of `dist` under packages/server) for a before/after in one session.
 * Run `npm run build` first.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { getFreePort } from "../../packages/server/test/support/services.ts";
import { pdfFixture, proseTextFixture } from "../ingest/fixtures.ts";

const flags = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, ...value] = arg.replace(/^--/, "").split("=");
    return [key!, value.join("=")];
  }),
);
const TEXT_MB = flags.has("text-mb") ? Number(flags.get("text-mb")) : undefined;
const IDLE_SECONDS = Number(flags.get("idle-seconds") ?? 10);
const AFTER_SECONDS = Number(flags.get("after-seconds") ?? 60);
const EXTRA_ENV = Object.fromEntries(
  (flags.get("env") ?? "")
    .split(",")
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf("=");
      return [pair.slice(0, at), pair.slice(at + 1)] as [string, string];
    }),
);
const root = fileURLToPath(new URL("../../", import.meta.url));

/** Resident memory in MB of the processes of a group: the server and the embedded database's. */
function tree(pgid: number) {
  let server = 0;
  let database = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const mb = (Number(readFileSync(`/proc/${entry}/statm`, "utf8").split(" ")[1]) * 4096) / 1e6;
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes("pglite-worker")) database += mb;
      else server += mb;
    } catch {
      // Ended between listing and reading.
    }
  }
  return { server, database, sum: server + database };
}

const fixture =
  TEXT_MB === undefined
    ? await pdfFixture(Number(flags.get("pdf-pages") ?? 2000), Number(flags.get("pdf-bytes") ?? 20_000_000))
    : proseTextFixture(Math.round(TEXT_MB * 1e6));
const dataDir = mkdtempSync(join(tmpdir(), "vg-tree-"));
const port = await getFreePort();
const url = `http://127.0.0.1:${port}`;
let output = "";
const child = spawn(process.execPath, [flags.get("entry") || "dist/main.js"], {
  cwd: join(root, "packages/server"),
  env: {
    ...process.env,
    DATABASE_URL: "",
    REDIS_URL: "",
    NODE_ENV: "production",
    LOG_LEVEL: "info",
    PORT: String(port),
    PUBLIC_BASE_URL: url,
    VOXGATE_DATA_DIR: dataDir,
    VOXGATE_SEED_DEMO: "true",
    VOXGATE_WORKER_CONCURRENCY: "1",
    ...EXTRA_ENV,
  },
  detached: true,
  stdio: ["ignore", "pipe", "pipe"],
});
child.stdout!.on("data", (chunk) => {
  output += chunk;
});
child.stderr!.on("data", (chunk) => {
  output += chunk;
});
const loads = [loadavg()[0]!];
const mb = (value: number) => `${value.toFixed(0)} MB`;
const ms = (value: number) => `${value.toFixed(1)} ms`;

try {
  while (!output.includes("Voxgate is running")) {
    if (child.exitCode !== null) throw new Error(`the server exited:\n${output}`);
    await sleep(50);
  }
  const token = /API key\s+(vgk_\S+)/.exec(output)![1]!;
  const gql = async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: unknown };
    if (!body.data) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  /** Sequential `{ viewer { email } }`, one every 20 ms, until `until` settles. */
  const viewerLatencies = async (until: Promise<unknown>) => {
    let done = false;
    const stop = () => {
      done = true;
    };
    until.then(stop, stop);
    const latencies: number[] = [];
    let failed = 0;
    while (!done) {
      const started = performance.now();
      try {
        await gql("{ viewer { email } }");
        latencies.push(performance.now() - started);
      } catch {
        failed++;
      }
      const took = performance.now() - started;
      if (took < 20) await sleep(20 - took);
    }
    latencies.sort((a, b) => a - b);
    const at = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
    return { count: latencies.length, failed, p50: at(50), p99: at(99), max: latencies.at(-1)! };
  };

  await sleep(IDLE_SECONDS * 1000);
  const firstStart = tree(child.pid!);
  const idle = await viewerLatencies(sleep(IDLE_SECONDS * 1000));
  const { createKnowledgebase } = await gql<{ createKnowledgebase: { id: number } }>(
    `mutation ($input: KnowledgebaseInput!) { createKnowledgebase(input: $input) { id } }`,
    { input: { name: "Bench", description: "bench" } },
  );
  const before = tree(child.pid!);
  loads.push(loadavg()[0]!);
  const peak = { server: 0, database: 0, sum: 0 };
  const sampler = setInterval(() => {
    const now = tree(child.pid!);
    peak.server = Math.max(peak.server, now.server);
    peak.database = Math.max(peak.database, now.database);
    peak.sum = Math.max(peak.sum, now.sum);
  }, 100);
  const started = performance.now();
  const ingestion = (async () => {
    const form = new FormData();
    const pdf = TEXT_MB === undefined;
    form.set("name", "Report");
    form.set("type", pdf ? "pdf" : "txt");
    form.set(
      "file",
      new Blob([readFileSync(fixture.path)], { type: pdf ? "application/pdf" : "text/plain" }),
      pdf ? "report.pdf" : "report.txt",
    );
    const response = await fetch(`${url}/api/user/knowledgebases/${createKnowledgebase.id}/documents`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const created = (await response.json()) as { data?: { id: number } };
    if (!created.data) throw new Error(`upload: ${response.status} ${JSON.stringify(created)}`);
    for (;;) {
      const { document } = await gql<{
        document: { status: string; chunkCount: number; failureReason: string };
      }>("query ($id: Int!) { document(id: $id) { status chunkCount failureReason } }", {
        id: created.data.id,
      });
      if (document.status === "FAILED") throw new Error(`ingestion failed: ${document.failureReason}`);
      if (document.status === "ACTIVE") return document.chunkCount;
      await sleep(250);
    }
  })();
  const busy = await viewerLatencies(ingestion);
  const chunks = await ingestion;
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  loads.push(loadavg()[0]!);
  await sleep(AFTER_SECONDS * 1000);
  const after = tree(child.pid!);
  loads.push(loadavg()[0]!);

  console.log(
    `Node ${process.version}; compiled server on a fresh data directory; ` +
      `${TEXT_MB === undefined ? "PDF" : "plain text"} ${(fixture.bytes / 1e6).toFixed(1)} MB, ${chunks} chunks in ${seconds.toFixed(1)} s; ` +
      `settings: ${JSON.stringify(EXTRA_ENV)}; load average (1 min) ${loads.map((load) => load.toFixed(1)).join(" → ")}\n\n` +
      "| resident memory | server process | database process | sum |\n|---|---|---|---|\n" +
      `| ${IDLE_SECONDS} s after the first start | ${mb(firstStart.server)} | ${mb(firstStart.database)} | ${mb(firstStart.sum)} |\n` +
      `| before the upload | ${mb(before.server)} | ${mb(before.database)} | ${mb(before.sum)} |\n` +
      `| peak while ingesting (each its own peak) | ${mb(peak.server)} | ${mb(peak.database)} | ${mb(peak.sum)} |\n` +
      `| ${AFTER_SECONDS} s after the document is active | ${mb(after.server)} | ${mb(after.database)} | ${mb(after.sum)} |\n\n` +
      "| `{ viewer { email } }`, one at a time | answered | failed | p50 | p99 | max |\n|---|---|---|---|---|---|\n" +
      `| server idle | ${idle.count} | ${idle.failed} | ${ms(idle.p50)} | ${ms(idle.p99)} | ${ms(idle.max)} |\n` +
      `| while ingesting | ${busy.count} | ${busy.failed} | ${ms(busy.p50)} | ${ms(busy.p99)} | ${ms(busy.max)} |\n\n` +
      `p99 while ingesting / idle p99: ${(busy.p99 / idle.p99).toFixed(2)}×`,
  );
  for (const line of output.split("\n").filter((line) => line.includes("embedded database process replaced")))
    console.log(line);
} finally {
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    // Already gone.
  }
  await new Promise((resolve) =>
    child.exitCode === null ? child.once("exit", resolve) : resolve(undefined),
  );
  await sleep(500);
  rmSync(dataDir, { recursive: true, force: true });
}
