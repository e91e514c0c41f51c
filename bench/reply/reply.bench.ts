/**
 * The gateway's own cost per reply: generate-reply over real HTTP with knowledge-base retrieval on
 * (hybrid, passages in the prompt), against a zero-latency fake LLM, on each store: the embedded
 * PGlite and a real PostgreSQL (with Redis for limits and events, as a multi-instance deployment
 * runs). The fake LLM's raw latency is measured in the same run, right before each store's, so the
 * difference is what the gateway adds (auth, limits, charge, retrieval, prompt, storage, events).
 *
 * The fake LLM and the load generator run in processes of their own (fake-model.ts,
 * load-generator.ts), so that the CPU each process spends per reply is measured apart: the gateway
 * (this process), the database (PGlite's process, or PostgreSQL's postmaster and backends), Redis,
 * the fake model and the load generator. Each reply's stages (the `stages` of its access-log line:
 * authentication, rate limit, conversation and reservation, embedding, search, model, storage) are
 * averaged too, so the wall time of a reply is accounted for.
 *
 *   pnpm exec tsx bench/reply/reply.bench.ts [requests=200] [concurrency=1,8] [options]
 *
 *   --store=pglite|postgres|both   default both (postgres is skipped when it is not installed)
 *   --postgres-url=postgres://...  use this (empty) database instead of starting a throw-away server
 *   --redis-url=redis://...        with --postgres-url: the Redis to use (none by default)
 *   --embeddings=dense|sparse      the fake model's vectors: dense (default) like a real model's, or
 *                                  sparse (mostly zeros, as before 2026-11-24: PostgreSQL compresses them)
 *   --warm-up=<n>                  requests before each measured row, at its concurrency (default 200;
 *                                  10 before 2026-11-24's last change): warm-up questions name request
 *                                  types no measured question names (fixture.ts, `warmUpQuestion`)
 *   --cpu-prof=<dir>               write a CPU profile of each gateway measurement (and nothing else:
 *                                  not start-up, not seeding) to <dir>, for Chrome DevTools
 */

import { type ChildProcess, fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import os, { tmpdir } from "node:os";
import { join } from "node:path";
import { type App, buildApp, type DatabaseTarget, type Logger, loadConfig } from "@voxgate/server";
import { createAssistant } from "../../packages/server/test/fixtures/assistants.ts";
import {
  findPostgresBinaries,
  findRedisServer,
  type RunningService,
  startPostgres,
  startRedis,
} from "../../packages/server/test/support/services.ts";
import type { TestApp } from "../../packages/server/test/support/test-app.ts";
import { benchConfig, handbook, question as handbookQuestion, treeCpuMs, warmUpQuestion } from "./fixture.ts";
import type { LoadMessage, LoadRun } from "./load-generator.ts";

const positional = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const options = new Map(
  process.argv
    .slice(2)
    .filter((arg) => arg.startsWith("--"))
    .map((arg) => {
      const [name, ...value] = arg.slice(2).split("=");
      return [name!, value.join("=")] as const;
    }),
);
const requests = Number(positional[0] ?? 200);
/** Each store is measured at every one of these (comma-separated), c=1 for latency, c=8 for throughput. */
const concurrencies = (positional[1] ?? "1,8").split(",").map(Number);
const storeChoice = options.get("store") ?? "both";
if (!["pglite", "postgres", "both"].includes(storeChoice)) {
  throw new Error(`--store must be pglite, postgres or both, not ${storeChoice}`);
}
/**
 * Requests before each measured row. Ten left the measured requests running on a cold process: the
 * first few hundred replies are slower while V8 compiles the hot paths and each pooled database
 * connection fills its caches and plans its statements (PostgreSQL plans a prepared statement five
 * times per connection before it settles on a plan), which no steady server pays.
 */
const warmUp = Number(options.get("warm-up") ?? 200);
if (!Number.isInteger(warmUp) || warmUp < 0) throw new Error(`--warm-up must be a count, not ${warmUp}`);
/**
 * PGlite on disk (as `npm start` runs it) instead of in memory, and the resident memory of the gateway and
 * the database's process measured after the rows and again after this many seconds without requests
 * (issue #35: the database's process is replaced once it has grown and is quiet).
 */
const memoryAfter = options.has("memory-after") ? Number(options.get("memory-after") || 60) : undefined;
const embeddings = options.get("embeddings") ?? "dense";
if (!["dense", "sparse"].includes(embeddings)) {
  throw new Error(`--embeddings must be dense or sparse, not ${embeddings}`);
}

/** CPU per request of each process taking part, in milliseconds. */
type ProcessCpu = Record<string, number>;

interface Measurement {
  label: string;
  concurrency: number;
  p50: number;
  p95: number;
  throughput: number;
  /** CPU of the gateway's process (this one) per request. */
  cpuMs: number;
  /** CPU of every process per request: gateway, database, Redis, fake model, load generator. */
  processes: ProcessCpu;
  /** Mean wall time per request of each stage the server recorded (`stages` of its access log). */
  stages: Record<string, number>;
}

const profileDir = options.get("cpu-prof");

/** Runs `work` under the V8 profiler when --cpu-prof is given, writing `<dir>/<name>.cpuprofile`. */
async function profiled<T>(name: string, work: () => Promise<T>): Promise<T> {
  if (!profileDir) return work();
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  try {
    return await work();
  } finally {
    const { profile } = await session.post("Profiler.stop");
    mkdirSync(profileDir, { recursive: true });
    writeFileSync(join(profileDir, `${name}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const cpuMsNow = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** The processes of a run besides this one, by name. */
type Processes = Record<string, number>;

function cpuSnapshot(processes: Processes): ProcessCpu {
  return { gateway: cpuMsNow(), ...treeCpuMs(processes) };
}

/** The server's access-log lines of generate-reply, while `recording` is on: their stages. */
class StageLog implements Logger {
  recording = false;
  readonly requests: Record<string, number>[] = [];

  debug() {}
  info(message: string, fields?: Record<string, unknown>) {
    if (!this.recording || message !== "request" || fields?.path !== "/api/ai/generate-reply") return;
    this.requests.push({
      ...(fields.stages as Record<string, number> | undefined),
      "server total": fields.durationMs as number,
    });
  }
  warn(message: string, fields?: Record<string, unknown>) {
    console.warn(message, fields);
  }
  error(message: string, fields?: Record<string, unknown>) {
    console.error(message, fields);
  }

  take(): Record<string, number> {
    const sums: Record<string, number> = {};
    for (const request of this.requests) {
      for (const [stage, ms] of Object.entries(request)) sums[stage] = (sums[stage] ?? 0) + ms;
    }
    const count = this.requests.length;
    this.requests.length = 0;
    return Object.fromEntries(Object.entries(sums).map(([stage, ms]) => [stage, ms / count]));
  }
}

/** Runs `run` on the load generator, measuring every process's CPU over the measured part. */
async function measure(
  label: string,
  run: Omit<LoadRun, "requests">,
  load: ChildProcess,
  processes: Processes,
  stageLog: StageLog | null,
): Promise<Measurement> {
  const next = () =>
    new Promise<LoadMessage>((resolve) => load.once("message", (message: LoadMessage) => resolve(message)));
  let answer = next();
  load.send({ ...run, requests } satisfies LoadRun);
  let message = await answer;
  if (message.kind === "failed") throw new Error(message.message);
  const before = cpuSnapshot(processes);
  if (stageLog) stageLog.recording = true;
  answer = next();
  load.send({ kind: "go" });
  message = await answer;
  if (stageLog) stageLog.recording = false;
  const after = cpuSnapshot(processes);
  if (message.kind !== "done") throw new Error(message.kind === "failed" ? message.message : "no result");
  const durations = message.durations.sort((a, b) => a - b);
  const perRequest = Object.fromEntries(
    Object.entries(after).map(([name, ms]) => [name, (ms - before[name]!) / requests]),
  );
  return {
    label,
    concurrency: run.concurrency,
    p50: percentile(durations, 50),
    p95: percentile(durations, 95),
    throughput: requests / message.seconds,
    cpuMs: perRequest.gateway!,
    processes: perRequest,
    stages: stageLog?.take() ?? {},
  };
}

/** Starts a child process of this bench (under the same TypeScript loader). */
function child(file: string, args: string[] = []): ChildProcess {
  return fork(new URL(file, import.meta.url), args, { stdio: ["ignore", "inherit", "inherit", "ipc"] });
}

/** One store's run: an account, a knowledge base, an assistant, then the fake LLM alone and the gateway. */
async function benchStore(
  store: string,
  fake: { baseUrl: string; pid: number },
  load: ChildProcess,
  database: DatabaseTarget,
  services: { redisUrl?: string; processes: Processes },
): Promise<{ store: string; chunks: number; rows: { raw: Measurement; gateway: Measurement }[] }> {
  const dataDir = join(tmpdir(), `voxgate-bench-${process.pid}-${randomBytes(4).toString("hex")}`);
  const config = benchConfig(fake.baseUrl, dataDir, {
    VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE: "1000000",
    VOXGATE_REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString("hex")}`,
    ...(services.redisUrl ? { REDIS_URL: services.redisUrl } : {}),
  });
  const stageLog = new StageLog();
  const app: App = await buildApp(config, { logger: stageLog, database });
  const embedded = (app.db as { process?: ChildProcess }).process;
  const processes: Processes = {
    ...(embedded?.pid ? { "database (PGlite)": embedded.pid } : {}),
    ...services.processes,
    "fake model": fake.pid,
    "load generator": load.pid!,
  };
  const url = await app.listen(0, "127.0.0.1");
  try {
    const { account, user } = await app.services.accounts.create({
      email: `bench-${randomBytes(4).toString("hex")}@example.com`,
      password: "benchmark-pw",
      balance: "100000",
    });
    const { token } = await app.services.apiKeys.create(
      { accountId: account.id, userId: user.id },
      { name: "bench" },
    );
    const kb = await app.services.knowledgebases.create(account.id, { name: "Handbook" });
    const text = handbook();
    const document = await app.services.documents.create(account.id, kb.id, {
      name: "Handbook",
      type: "txt",
      file: new File([text], "handbook.txt", { type: "text/plain" }),
    } as never);
    for (let i = 0; i < 600; i++) {
      const state = await app.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
      if (state.status === "failed")
        throw new Error(`the handbook failed to process: ${state.failureReason}`);
      if (state.status !== "processing") break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const owner = { accountId: account.id, userId: user.id, email: "", password: "", apiKey: token };
    const assistant = await createAssistant({ app } as TestApp, owner, {
      knowledgebaseId: kb.id,
      knowledgebaseMode: "hybrid",
    });

    const question = (index: number, ask = handbookQuestion) =>
      JSON.stringify({
        assistant_id: assistant.id,
        customer_identifier: `c-${index % 20}`,
        message: ask(index),
      });
    const fakeBody = JSON.stringify({
      model: "m",
      stream: true,
      messages: [{ role: "user", content: "How long does it take?" }],
    });
    const fakeAlone = (concurrency: number) =>
      measure(
        "fake LLM alone (streamed completion)",
        {
          warmUp,
          concurrency,
          url: `${fake.baseUrl}/chat/completions`,
          headers: { authorization: "Bearer sk-bench" },
          bodies: [fakeBody],
          warmUpBodies: [fakeBody],
        },
        load,
        processes,
        null,
      );
    const throughGateway = (concurrency: number) =>
      measure(
        "generate-reply through the gateway",
        {
          warmUp,
          concurrency,
          url: `${url}/api/ai/generate-reply`,
          headers: { authorization: `Bearer ${token}` },
          bodies: Array.from({ length: requests }, (_, index) => question(index)),
          warmUpBodies: Array.from({ length: 20 }, (_, index) => question(index, warmUpQuestion)),
        },
        load,
        processes,
        stageLog,
      );
    const rows = [];
    for (const concurrency of concurrencies) {
      const raw = await fakeAlone(concurrency);
      const gateway = await profiled(`${database.kind}-c${concurrency}`, () => throughGateway(concurrency));
      rows.push({ raw, gateway });
    }
    const chunks = await app.db.prisma.documentChunk.count({ where: { knowledgebaseId: kb.id } });
    if (memoryAfter !== undefined) {
      const rss = (pid: number | undefined) => {
        if (!pid) return 0;
        try {
          return (Number(readFileSync(`/proc/${pid}/statm`, "utf8").split(" ")[1]) * 4096) / 1e6;
        } catch {
          return 0;
        }
      };
      const tree = () => {
        const gateway = rss(process.pid);
        const database = rss((app.db as { process?: ChildProcess }).process?.pid);
        return `gateway ${gateway.toFixed(0)} MB + database ${database.toFixed(0)} MB = ${(gateway + database).toFixed(0)} MB`;
      };
      const recycles: string[] = [];
      app.db.onRecycle((outcome) =>
        recycles.push(
          `${outcome.beforeMb.toFixed(0)} → ${outcome.afterMb.toFixed(0)} MB, connections held ${outcome.pausedMs.toFixed(0)} ms`,
        ),
      );
      console.log(`\n${store}: resident memory right after the rows: ${tree()}`);
      await new Promise((resolve) => setTimeout(resolve, memoryAfter * 1000));
      console.log(`${store}: after ${memoryAfter} s without requests: ${tree()}`);
      for (const recycle of recycles) console.log(`${store}: database process replaced: ${recycle}`);
    }
    return { store, chunks, rows };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A short path: the database's socket lives in it. */
const pgliteDir = mkdtempSync(join(tmpdir(), "vg-reply-"));
const fakeProcess = child("./fake-model.ts", [embeddings]);
const fake = {
  baseUrl: await new Promise<string>((resolve, reject) => {
    fakeProcess.once("message", (message: { baseUrl: string }) => resolve(message.baseUrl));
    fakeProcess.once("exit", () => reject(new Error("the fake model did not start")));
  }),
  pid: fakeProcess.pid!,
};
const load = child("./load-generator.ts");
const services: RunningService[] = [];
const results: Awaited<ReturnType<typeof benchStore>>[] = [];
try {
  if (storeChoice !== "postgres") {
    results.push(
      await benchStore(
        "PGlite (embedded)",
        fake,
        load,
        memoryAfter === undefined
          ? { kind: "pglite", dataDir: undefined }
          : { kind: "pglite", dataDir: pgliteDir, tuning: loadConfig({}).pglite },
        { processes: {} },
      ),
    );
  }
  if (storeChoice !== "pglite") {
    const givenUrl = options.get("postgres-url");
    const redisUrl = options.get("redis-url");
    if (givenUrl) {
      results.push(
        await benchStore(
          "PostgreSQL",
          fake,
          load,
          { kind: "postgres", url: givenUrl },
          {
            ...(redisUrl ? { redisUrl } : {}),
            processes: {},
          },
        ),
      );
    } else if (findPostgresBinaries() && findRedisServer()) {
      const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
      services.push(postgres, redis);
      results.push(
        await benchStore(
          "PostgreSQL + Redis",
          fake,
          load,
          { kind: "postgres", url: postgres.url },
          {
            redisUrl: redis.url,
            processes: { "database (PostgreSQL)": postgres.pid, Redis: redis.pid },
          },
        ),
      );
    } else {
      console.log("PostgreSQL or Redis is not installed (see README): the PostgreSQL run is skipped.");
    }
  }
} finally {
  rmSync(pgliteDir, { recursive: true, force: true });
  await Promise.all(services.map((service) => service.stop()));
  fakeProcess.send("close");
  load.send({ kind: "stop" });
}

const fixed = (ms: number | undefined) => (ms ?? 0).toFixed(2);
console.log(
  `requests=${requests} (after ${warmUp} warm-up requests per row) knowledge=hybrid, passages in the prompt`,
);
for (const { store, chunks, rows } of results) {
  console.log(`\n${store}, ${chunks} chunks`);
  for (const { raw, gateway } of rows) {
    for (const row of [raw, gateway]) {
      console.log(
        `  c=${String(row.concurrency).padEnd(2)} ${row.label.padEnd(40)} p50 ${row.p50.toFixed(2).padStart(8)} ms  p95 ${row.p95.toFixed(2).padStart(8)} ms  ${row.throughput.toFixed(1).padStart(7)} req/s  gateway CPU ${row.cpuMs.toFixed(2).padStart(6)} ms/req`,
      );
    }
    console.log(
      `  c=${String(gateway.concurrency).padEnd(2)} gateway's own cost per reply: p50 ${(gateway.p50 - raw.p50).toFixed(2)} ms`,
    );
    const cpu = Object.entries(gateway.processes);
    const cpuTotal = cpu.reduce((sum, [, ms]) => sum + ms, 0);
    console.log(
      `       CPU per reply by process (ms): ${cpu.map(([name, ms]) => `${name} ${fixed(ms)}`).join(", ")}; all ${fixed(cpuTotal)} ` +
        `(so ${String(Math.round((os.availableParallelism() * 1000) / cpuTotal))} replies/s would fill ${os.availableParallelism()} cores)`,
    );
    const { "server total": serverTotal, ...stages } = gateway.stages;
    const staged = Object.values(stages).reduce((sum, ms) => sum + ms, 0);
    console.log(
      `       stages, mean wall ms per reply: ${Object.entries(stages)
        .map(([name, ms]) => `${name} ${fixed(ms)}`)
        .join(
          ", ",
        )}; rest of the server's ${fixed(serverTotal)} ms ${fixed((serverTotal ?? 0) - staged)} (HTTP, GraphQL, REST, JSON, events)`,
    );
  }
}
