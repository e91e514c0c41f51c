/**
 * The gateway's own cost per reply: generate-reply over real HTTP with knowledge-base retrieval on
 * (hybrid, passages in the prompt), against a zero-latency fake LLM, on each store: the embedded
 * PGlite and a real PostgreSQL (with Redis for limits and events, as a multi-instance deployment
 * runs). The fake LLM's raw latency is measured in the same run, right before each store's, so the
 * difference is what the gateway adds (auth, limits, charge, retrieval, prompt, storage, events).
 *
 *   pnpm exec tsx bench/reply/reply.bench.ts [requests=200] [concurrency=1,8] [options]
 *
 *   --store=pglite|postgres|both   default both (postgres is skipped when it is not installed)
 *   --postgres-url=postgres://...  use this (empty) database instead of starting a throw-away server
 *   --redis-url=redis://...        with --postgres-url: the Redis to use (none by default)
 *   --cpu-prof=<dir>               write a CPU profile of each gateway measurement (and nothing else:
 *                                  not start-up, not seeding) to <dir>, for Chrome DevTools
 */

import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type App, buildApp, createLogger, type DatabaseTarget, loadConfig } from "@voxgate/server";
import { createAssistant } from "../../packages/server/test/fixtures/assistants.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../packages/server/test/support/fake-openai.ts";
import {
  findPostgresBinaries,
  findRedisServer,
  type RunningService,
  startPostgres,
  startRedis,
} from "../../packages/server/test/support/services.ts";
import type { TestApp } from "../../packages/server/test/support/test-app.ts";

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

interface Measurement {
  label: string;
  concurrency: number;
  p50: number;
  p95: number;
  throughput: number;
  /** CPU time of this process (client, fake LLM and gateway alike) per request. */
  cpuMs: number;
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

async function measure(
  label: string,
  concurrency: number,
  run: (index: number) => Promise<void>,
): Promise<Measurement> {
  for (let i = 0; i < 10; i++) await run(-1 - i);
  const durations: number[] = [];
  let next = 0;
  const started = performance.now();
  const cpuStarted = cpuMsNow();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        const index = next++;
        const t0 = performance.now();
        await run(index);
        durations.push(performance.now() - t0);
      }
    }),
  );
  const cpuMs = (cpuMsNow() - cpuStarted) / requests;
  const seconds = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  return {
    label,
    concurrency,
    p50: percentile(durations, 50),
    p95: percentile(durations, 95),
    throughput: requests / seconds,
    cpuMs,
  };
}

const SUBJECTS = [
  "returns",
  "deliveries",
  "warranty repairs",
  "gift cards",
  "invoices",
  "store pickup",
  "custom engraving",
  "bulk orders",
  "loyalty points",
  "price matching",
];
const DETAILS = [
  "Customers can ask at the counter or write to the support team, who answer every message within one working day.",
  "The receipt or the order number is needed, and a photo helps when an item arrived damaged or incomplete.",
  "Opening hours are Monday to Friday from nine to six, Saturday from ten to four; the shop is closed on public holidays.",
  "Refunds go back to the card used for the purchase and appear on the statement after three to five banking days.",
  "Fees are waived for members of the loyalty programme and for orders above one hundred and fifty euros.",
  "Large parcels travel with a freight partner that calls the day before to agree on a two-hour delivery window.",
  "Anything bought in the seasonal sale follows the same rules, except that engraved items cannot be exchanged.",
  "The team keeps a written record of every request so that nobody has to explain the same thing twice.",
];

/**
 * A small business's handbook: 229 sections on ten subjects worded alike, which the chunker (300
 * tokens a passage) makes about 200 passages, so retrieval ranks among many similar passages as in a
 * real knowledge base rather than picking the only match of three.
 */
function handbook(sections = 229): string {
  return Array.from({ length: sections }, (_, i) => {
    const subject = SUBJECTS[i % SUBJECTS.length]!;
    const sentences = Array.from({ length: 9 }, (_, j) => DETAILS[(i + j * 3) % DETAILS.length]!);
    return (
      `Section ${i}: ${subject}, case ${i}. Request type ${i} about ${subject} is handled within ${(i % 9) + 1} days. ` +
      sentences.join(" ")
    );
  }).join("\n\n");
}

/** One store's run: an account, a knowledge base, an assistant, then the fake LLM alone and the gateway. */
async function benchStore(
  store: string,
  fake: FakeOpenAI,
  database: DatabaseTarget,
  redisUrl: string | undefined,
): Promise<{ store: string; chunks: number; rows: { raw: Measurement; gateway: Measurement }[] }> {
  const dataDir = join(tmpdir(), `voxgate-bench-${process.pid}-${randomBytes(4).toString("hex")}`);
  const config = loadConfig({
    PORT: "0",
    LOG_LEVEL: "silent",
    VOXGATE_SEED_DEMO: "false",
    VOXGATE_DATA_DIR: dataDir,
    OPENAI_BASE_URL: fake.baseUrl,
    OPENAI_API_KEY: "sk-bench",
    VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE: "1000000",
    VOXGATE_REDIS_KEY_PREFIX: `bench-${randomBytes(4).toString("hex")}`,
    ...(redisUrl ? { REDIS_URL: redisUrl } : {}),
  });
  const app: App = await buildApp(config, { logger: createLogger("silent"), database });
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

    const fakeAlone = (concurrency: number) =>
      measure("fake LLM alone (streamed completion)", concurrency, async () => {
        const response = await fetch(`${fake.baseUrl}/chat/completions`, {
          method: "POST",
          headers: { authorization: "Bearer sk-bench", "content-type": "application/json" },
          body: JSON.stringify({
            model: "m",
            stream: true,
            messages: [{ role: "user", content: "How long does it take?" }],
          }),
        });
        await response.text();
      });
    const throughGateway = (concurrency: number) =>
      measure("generate-reply through the gateway", concurrency, async (index) => {
        const response = await fetch(`${url}/api/ai/generate-reply`, {
          method: "POST",
          headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
          body: JSON.stringify({
            assistant_id: assistant.id,
            customer_identifier: `c-${index % 20}`,
            message: `How long does request type ${Math.abs(index) % 200} about ${SUBJECTS[Math.abs(index) % SUBJECTS.length]} take?`,
          }),
        });
        if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
        await response.arrayBuffer();
      });
    const rows = [];
    for (const concurrency of concurrencies) {
      const raw = await fakeAlone(concurrency);
      const gateway = await profiled(`${database.kind}-c${concurrency}`, () => throughGateway(concurrency));
      rows.push({ raw, gateway });
    }
    const chunks = await app.db.prisma.documentChunk.count({ where: { knowledgebaseId: kb.id } });
    return { store, chunks, rows };
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fake = await startFakeOpenAI();
const services: RunningService[] = [];
const results: Awaited<ReturnType<typeof benchStore>>[] = [];
try {
  if (storeChoice !== "postgres") {
    results.push(
      await benchStore("PGlite (embedded)", fake, { kind: "pglite", dataDir: undefined }, undefined),
    );
  }
  if (storeChoice !== "pglite") {
    const givenUrl = options.get("postgres-url");
    if (givenUrl) {
      results.push(
        await benchStore("PostgreSQL", fake, { kind: "postgres", url: givenUrl }, options.get("redis-url")),
      );
    } else if (findPostgresBinaries() && findRedisServer()) {
      const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
      services.push(postgres, redis);
      results.push(
        await benchStore("PostgreSQL + Redis", fake, { kind: "postgres", url: postgres.url }, redis.url),
      );
    } else {
      console.log("PostgreSQL or Redis is not installed (see README): the PostgreSQL run is skipped.");
    }
  }
} finally {
  await Promise.all(services.map((service) => service.stop()));
  await fake.close();
}

console.log(`requests=${requests} knowledge=hybrid, passages in the prompt`);
for (const { store, chunks, rows } of results) {
  console.log(`\n${store}, ${chunks} chunks`);
  for (const { raw, gateway } of rows) {
    for (const row of [raw, gateway]) {
      console.log(
        `  c=${String(row.concurrency).padEnd(2)} ${row.label.padEnd(40)} p50 ${row.p50.toFixed(2).padStart(8)} ms  p95 ${row.p95.toFixed(2).padStart(8)} ms  ${row.throughput.toFixed(1).padStart(7)} req/s  CPU ${row.cpuMs.toFixed(2).padStart(6)} ms/req`,
      );
    }
    console.log(
      `  c=${String(gateway.concurrency).padEnd(2)} gateway's own cost per reply: p50 ${(gateway.p50 - raw.p50).toFixed(2)} ms, CPU in this process ${(gateway.cpuMs - raw.cpuMs).toFixed(2)} ms`,
    );
  }
}
