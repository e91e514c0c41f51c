/**
 * What authentication costs a request, with the credential cache on and off (issue #11).
 *
 *   pnpm exec tsx bench/auth/run.ts [--store=pglite|postgres|both] [--seconds=5]
 *
 * Per store, starts two apps in this process, one with VOXGATE_CREDENTIAL_CACHE_SECONDS=30 and one
 * with 0, on loopback ports, each with an account and an API key: on an in-memory PGlite of its own,
 * or both on a throw-away PostgreSQL with Redis (test/support/services.ts; skipped when not
 * installed). A worker thread (its own event loop, so the client does not share the server's) keeps
 * 32 keep-alive requests in flight: authenticated `{ viewer { email } }` against anonymous
 * `{ __typename }` on the same app and on a bare graphql-yoga server (a one-field schema, default
 * options) in this process, one measurement at a time, in interleaved rounds. Prints the median
 * req/s and the ratios. Figures only; the behaviour is asserted by
 * packages/server/src/modules/auth/credential-cache.test.ts.
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Worker } from "node:worker_threads";
import { buildApp, createLogger, type DatabaseTarget, loadConfig } from "@voxgate/server";
import { createSchema, createYoga } from "graphql-yoga";
import {
  findPostgresBinaries,
  findRedisServer,
  startPostgres,
  startRedis,
} from "../../packages/server/test/support/services.ts";
import { GRAPHQL_POST_CLIENT } from "../support/graphql-post-client.ts";

const options = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key!, value ?? ""];
  }),
);
const STORE = options.get("store") ?? "both";
const SECONDS = Number(options.get("seconds") ?? 5);
const CONCURRENCY = 32;
const ROUNDS = 3;
const VIEWER = "{ viewer { email } }";

const base = loadConfig();

/** The load generator: bounded by time, loopback only, every response checked for its answer. */
const CLIENT = `${GRAPHQL_POST_CLIENT}
const { seconds, concurrency } = workerData;
(async () => {
  const until = Date.now() + seconds * 1000;
  let done = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < until) { await post(); done++; }
  }));
  agent.destroy();
  parentPort.postMessage(done / seconds);
})().catch((error) => { throw error; });
`;

function measure(url: string, query: string, expect: string, token?: string, seconds = SECONDS) {
  return new Promise<number>((resolve, reject) => {
    const worker = new Worker(CLIENT, {
      eval: true,
      workerData: {
        url,
        body: JSON.stringify({ query }),
        token,
        seconds,
        concurrency: CONCURRENCY,
        sockets: CONCURRENCY,
        expect,
      },
    });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

async function start(database: DatabaseTarget, redisUrl: string | undefined, cacheSeconds: number) {
  const config = {
    ...base,
    logLevel: "silent" as const,
    seedDemo: false,
    publicBaseUrl: "http://bench.local",
    redisUrl,
    credentialCacheSeconds: cacheSeconds,
  };
  const app = await buildApp(config, { database, logger: createLogger("silent") });
  const email = `bench-auth-${cacheSeconds}-${Date.now()}@example.com`;
  const { account, user } = await app.services.accounts.create({
    email,
    password: "bench-password-1",
    balance: "0",
    timezone: "UTC",
  });
  const { token } = await app.services.apiKeys.create(
    { accountId: account.id, userId: user.id },
    { name: "bench" },
  );
  return { app, email, token, url: await app.listen(0, "127.0.0.1") };
}

/** The baseline: what graphql-yoga alone answers over node:http in this process. */
async function startBareYoga() {
  const yoga = createYoga({
    schema: createSchema({ typeDefs: "type Query { hello: String }", resolvers: {} }),
    logging: false,
  });
  const server = createServer(yoga);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function benchStore(label: string, database: DatabaseTarget, redisUrl?: string) {
  const servers = {
    "off (0)": await start(database, redisUrl, 0),
    "on (30 s)": await start(database, redisUrl, 30),
  };
  const bare = await startBareYoga();
  try {
    const results = new Map(
      Object.keys(servers).map((name) => [
        name,
        { bare: [] as number[], typename: [] as number[], viewer: [] as number[] },
      ]),
    );
    for (const server of Object.values(servers)) {
      await measure(server.url, VIEWER, server.email, server.token, 1);
    }
    // Interleaved rounds, so that a neighbour's burst on the shared machine does not favour one side.
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, server] of Object.entries(servers)) {
        const result = results.get(name)!;
        result.bare.push(await measure(bare.url, "{ __typename }", "Query"));
        result.typename.push(await measure(server.url, "{ __typename }", "Query"));
        result.viewer.push(await measure(server.url, VIEWER, server.email, server.token));
      }
    }
    console.log(
      `\n${label}, concurrency ${CONCURRENCY}, medians of ${ROUNDS} rounds of ${SECONDS} s\n\n` +
        "| cache | bare Yoga `{ __typename }` req/s | app `{ __typename }` req/s | `{ viewer { email } }` req/s | viewer / bare Yoga | viewer / app typename |\n|---|---|---|---|---|---|",
    );
    const percent = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)} %`;
    for (const [name, result] of results) {
      const bareYoga = median(result.bare);
      const typename = median(result.typename);
      const viewer = median(result.viewer);
      console.log(
        `| ${name} | ${bareYoga.toFixed(0)} | ${typename.toFixed(0)} | ${viewer.toFixed(0)} | ${percent(viewer, bareYoga)} | ${percent(viewer, typename)} |`,
      );
    }
  } finally {
    await bare.close();
    await Promise.all(Object.values(servers).map((server) => server.app.close()));
  }
}

if (STORE !== "postgres") await benchStore("PGlite (in memory)", { kind: "pglite", dataDir: undefined });
if (STORE !== "pglite") {
  if (findPostgresBinaries() && findRedisServer()) {
    const [postgres, redis] = await Promise.all([startPostgres(), startRedis()]);
    try {
      await benchStore("PostgreSQL + Redis", { kind: "postgres", url: postgres.url }, redis.url);
    } finally {
      await Promise.all([postgres.stop(), redis.stop()]);
    }
  } else {
    console.log("PostgreSQL or Redis is not installed (see README): the PostgreSQL run is skipped.");
  }
}
