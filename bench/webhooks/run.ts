/**
 * How long an event takes to reach a healthy endpoint, and whether a dead endpoint of another
 * account delays it.
 *
 *   pnpm exec tsx bench/webhooks/run.ts [events]      (default 200)
 *
 * Runs on an in-memory PGlite, or on PostgreSQL when DATABASE_URL is set, the whole app in process
 * with a local receiver on loopback. Three rounds, printed side by side:
 * - baseline: the same number of signed POSTs sent straight to the receiver, 16 at a time (what
 *   HTTP alone costs here, measured in the same run);
 * - healthy: `events` webhook.test events of one account, from the moment each is recorded to its
 *   arrival (queue, claim, signing, delivery, log);
 * - beside a dead endpoint: the same while another account's 40 events go to an endpoint that
 *   never answers (each attempt waits for the 2 s timeout).
 * Target (docs/webhooks.md): the healthy account's p99 is not more than doubled by the dead one.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { buildApp, createLogger, loadConfig } from "@voxgate/server";

const EVENTS = Number(process.argv[2] ?? 200);
const DEAD_EVENTS = 40;

const base = loadConfig({
  ...process.env,
  VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1",
  VOXGATE_WEBHOOK_TIMEOUT_MS: "2000",
  // The bench sends its events as test webhooks: their per-account limit is lifted past what it sends.
  VOXGATE_TEST_WEBHOOK_RATE_LIMIT_PER_MINUTE: "100000",
});
const config = { ...base, logLevel: "silent" as const, seedDemo: false };
const app = await buildApp(config, {
  database: base.databaseUrl
    ? { kind: "postgres", url: base.databaseUrl }
    : { kind: "pglite", dataDir: undefined },
  logger: createLogger("silent"),
});
await app.listen(0, "127.0.0.1");

/** The rate-limit headers a GraphQL answer would carry: a bench has no answer to put them on. */
const ignoreLimits = () => {};
const arrivals = new Map<string, number>();
let onArrival: () => void = () => {};
const receiver = createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    arrivals.set(String(request.headers["webhook-id"] ?? Math.random()), performance.now());
    response.writeHead(200).end("{}");
    onArrival();
  });
});
// Accepts connections and never answers: every attempt runs into the timeout.
const blackHole = createServer(() => {});
const urlOf = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
};
const [healthyUrl, deadUrl] = [await urlOf(receiver), await urlOf(blackHole)];

async function account(label: string) {
  const { account } = await app.services.accounts.create({
    email: `bench-${label}-${Date.now()}@example.com`,
    password: "bench-password",
  });
  return account.id;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

async function waitFor(count: number) {
  while (arrivals.size < count) await new Promise<void>((resolve) => (onArrival = resolve));
}

async function baseline() {
  arrivals.clear();
  const sent = new Map<string, number>();
  let next = 0;
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < EVENTS) {
        const id = `base_${next++}`;
        sent.set(id, performance.now());
        await fetch(healthyUrl, { method: "POST", headers: { "webhook-id": id }, body: "{}" }).then((r) =>
          r.text(),
        );
      }
    }),
  );
  return [...sent].map(([id, at]) => arrivals.get(id)! - at);
}

async function viaWebhooks(accountId: number) {
  arrivals.clear();
  const sent = new Map<string, number>();
  for (let n = 0; n < EVENTS; n++) {
    const at = performance.now();
    const row = await app.services.webhooks.sendTest(accountId, { url: healthyUrl }, ignoreLimits);
    sent.set(row.messageId, at);
  }
  await waitFor(EVENTS);
  return [...sent].map(([id, at]) => arrivals.get(id)! - at);
}

const healthyAccount = await account("healthy");
const deadAccount = await account("dead");
const rounds: [string, number[]][] = [];
rounds.push(["baseline: direct POSTs", await baseline()]);
rounds.push(["healthy endpoint alone", await viaWebhooks(healthyAccount)]);
for (let n = 0; n < DEAD_EVENTS; n++)
  await app.services.webhooks.sendTest(deadAccount, { url: deadUrl }, ignoreLimits);
rounds.push([`beside ${DEAD_EVENTS} events to a dead endpoint`, await viaWebhooks(healthyAccount)]);

console.log(`${EVENTS} events, store ${base.databaseUrl ? "postgres" : "pglite"}`);
console.log("| round | p50 ms | p99 ms | max ms |\n|---|---|---|---|");
for (const [name, latencies] of rounds) {
  console.log(
    `| ${name} | ${percentile(latencies, 50).toFixed(1)} | ${percentile(latencies, 99).toFixed(1)} | ${Math.max(...latencies).toFixed(1)} |`,
  );
}
receiver.closeAllConnections();
blackHole.closeAllConnections();
receiver.close();
blackHole.close();
await app.close();
process.exit(0);
