/**
 * The gateway's own cost per reply: generate-reply over real HTTP with knowledge-base retrieval on
 * (hybrid, passages in the prompt), against a zero-latency fake LLM. The fake LLM's raw latency is
 * measured in the same run, so the difference is what the gateway adds (auth, limits, charge,
 * retrieval, prompt, storage, events).
 *
 *   pnpm exec tsx bench/reply/reply.bench.ts [requests=200] [concurrency=4]
 */

import { buildApp } from "../../packages/server/src/app.ts";
import { loadConfig } from "../../packages/server/src/env.ts";
import { createLogger } from "../../packages/server/src/logger.ts";
import { createAssistant } from "../../packages/server/src/modules/conversations/conversations.fixtures.ts";
import { startFakeOpenAI } from "../../packages/server/test/support/fake-openai.ts";
import type { TestApp } from "../../packages/server/test/support/test-app.ts";

const requests = Number(process.argv[2] ?? 200);
const concurrency = Number(process.argv[3] ?? 4);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(label: string, run: (index: number) => Promise<void>) {
  for (let i = 0; i < 10; i++) await run(-1 - i);
  const durations: number[] = [];
  let next = 0;
  const started = performance.now();
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
  const seconds = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  return {
    label,
    p50: percentile(durations, 50),
    p95: percentile(durations, 95),
    throughput: requests / seconds,
  };
}

const fake = await startFakeOpenAI();
const config = loadConfig({
  PORT: "0",
  LOG_LEVEL: "silent",
  VOXGATE_SEED_DEMO: "false",
  VOXGATE_DATA_DIR: `/tmp/voxgate-bench-${process.pid}`,
  OPENAI_BASE_URL: fake.baseUrl,
  OPENAI_API_KEY: "sk-bench",
  VOXGATE_REPLY_RATE_LIMIT_PER_MINUTE: "1000000",
});
const app = await buildApp(config, {
  logger: createLogger("silent"),
  database: { kind: "pglite", dataDir: undefined },
});
const url = await app.listen(0, "127.0.0.1");
try {
  const { account, user } = await app.services.accounts.create({
    email: "bench@example.com",
    password: "benchmark-pw",
    balance: "100000",
  });
  const { token } = await app.services.apiKeys.create(
    { accountId: account.id, userId: user.id },
    { name: "bench" },
  );
  const kb = await app.services.knowledge.createKnowledgebase(account.id, { name: "Handbook" });
  const text = Array.from(
    { length: 40 },
    (_, i) => `Topic ${i}: the shop handles request type ${i} within ${i + 1} days, Monday to Friday.`,
  ).join("\n\n");
  const document = await app.services.knowledge.createDocument(account.id, kb.id, {
    name: "Handbook",
    type: "txt",
    file: new File([text], "handbook.txt", { type: "text/plain" }),
  } as never);
  for (let i = 0; i < 400; i++) {
    const state = await app.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
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
  console.log(
    `requests=${requests} concurrency=${concurrency} store=PGlite knowledge=hybrid (${await app.db.prisma.documentChunk.count()} chunks)`,
  );
  for (const row of [raw, gateway]) {
    console.log(
      `${row.label.padEnd(44)} p50 ${row.p50.toFixed(2).padStart(8)} ms  p95 ${row.p95.toFixed(2).padStart(8)} ms  ${row.throughput.toFixed(1).padStart(8)} req/s`,
    );
  }
  console.log(`gateway's own cost per reply (p50 difference): ${(gateway.p50 - raw.p50).toFixed(2)} ms`);
} finally {
  await app.close();
  await fake.close();
}
