/**
 * The gateway's own cost per reply: generate-reply over real HTTP with knowledge-base retrieval on
 * (hybrid, passages in the prompt), against a zero-latency fake LLM, on each store: the embedded
 * PGlite and a real PostgreSQL (with Redis for limits and events, as a multi-instance deployment
 * runs). The fake LLM's raw latency is measured in the same run, right before each store's, so the
 * difference is what the gateway adds (auth, limits, charge, retrieval, prompt, storage, events).
 *
 *   pnpm exec tsx bench/reply/reply.bench.ts [requests=200] [concurrency=4] [options]
 *
 *   --store=pglite|postgres|both   default both (postgres is skipped when it is not installed)
 *   --postgres-url=postgres://...  use this (empty) database instead of starting a throw-away server
 *   --redis-url=redis://...        with --postgres-url: the Redis to use (none by default)
 */

import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
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
const concurrency = Number(positional[1] ?? 4);
const storeChoice = options.get("store") ?? "both";
if (!["pglite", "postgres", "both"].includes(storeChoice)) {
  throw new Error(`--store must be pglite, postgres or both, not ${storeChoice}`);
}

interface Measurement {
  label: string;
  p50: number;
  p95: number;
  throughput: number;
  /** CPU time of this process (client, fake LLM and gateway alike) per request. */
  cpuMs: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const cpuMsNow = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

async function measure(label: string, run: (index: number) => Promise<void>): Promise<Measurement> {
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
    p50: percentile(durations, 50),
    p95: percentile(durations, 95),
    throughput: requests / seconds,
    cpuMs,
  };
}

/** One store's run: an account, a knowledge base, an assistant, then the fake LLM alone and the gateway. */
async function benchStore(
  store: string,
  fake: FakeOpenAI,
  database: DatabaseTarget,
  redisUrl: string | undefined,
): Promise<{ store: string; chunks: number; raw: Measurement; gateway: Measurement }> {
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
    const text = Array.from(
      { length: 40 },
      (_, i) => `Topic ${i}: the shop handles request type ${i} within ${i + 1} days, Monday to Friday.`,
    ).join("\n\n");
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

    const raw = await measure("fake LLM alone (streamed completion)", async () => {
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
    const gateway = await measure("generate-reply through the gateway", async (index) => {
      const response = await fetch(`${url}/api/ai/generate-reply`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({
          assistant_id: assistant.id,
          customer_identifier: `c-${index % 20}`,
          message: `How long does request type ${Math.abs(index) % 40} take?`,
        }),
      });
      if (response.status !== 200) throw new Error(`status ${response.status}: ${await response.text()}`);
      await response.arrayBuffer();
    });
    const chunks = await app.db.prisma.documentChunk.count({ where: { knowledgebaseId: kb.id } });
    return { store, chunks, raw, gateway };
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

console.log(`requests=${requests} concurrency=${concurrency} knowledge=hybrid, passages in the prompt`);
for (const { store, chunks, raw, gateway } of results) {
  console.log(`\n${store}, ${chunks} chunks`);
  for (const row of [raw, gateway]) {
    console.log(
      `  ${row.label.padEnd(40)} p50 ${row.p50.toFixed(2).padStart(8)} ms  p95 ${row.p95.toFixed(2).padStart(8)} ms  ${row.throughput.toFixed(1).padStart(7)} req/s  CPU ${row.cpuMs.toFixed(2).padStart(6)} ms/req`,
    );
  }
  console.log(
    `  gateway's own cost per reply: p50 ${(gateway.p50 - raw.p50).toFixed(2)} ms, CPU in this process ${(gateway.cpuMs - raw.cpuMs).toFixed(2)} ms`,
  );
}
