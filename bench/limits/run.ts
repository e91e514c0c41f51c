/**
 * How long the server takes to refuse abusive GraphQL requests, and how a cheap request fares while
 * they are refused.
 *
 *   pnpm --filter @voxgate/server exec tsx ../../bench/limits/run.ts
 *
 * Starts the app on an in-memory PGlite on a loopback port and talks real HTTP. Prints, per request,
 * the status, the error code and the median time of 5 runs, then the median time of a cheap
 * `{ __typename }` alone and while 4 alias floods are in flight. Figures only, no target: the
 * regression tests assert behaviour (test/transport.test.ts).
 */
import { performance } from "node:perf_hooks";
import { buildApp, createLogger, loadConfig } from "@voxgate/server";

const RUNS = 5;
const UUID = "00000000-0000-4000-8000-000000000000";

const config = {
  ...loadConfig(),
  logLevel: "silent" as const,
  seedDemo: false,
  publicBaseUrl: "http://bench.local",
};
const app = await buildApp(config, {
  database: { kind: "pglite", dataDir: undefined },
  logger: createLogger("silent"),
});
const url = await app.listen(0, "127.0.0.1");

const aliasFlood = `{ ${Array.from({ length: 5000 }, (_, i) => `a${i}: widgetAssistant(uuid: "${UUID}") { name }`).join(" ")} }`;
const requests: Record<string, string> = {
  "cheap { __typename }": "{ __typename }",
  "5,000 aliases of widgetAssistant (250 kB)": aliasFlood,
  "1.3 M __typename aliases (25 MB body)": `{ ${"a:__typename ".repeat(1_300_000)}}`,
  "3,000-deep selection": `{ ${"a { ".repeat(3000)}b${" }".repeat(3000)} }`,
};

async function post(query: string) {
  const started = performance.now();
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query }),
  });
  const body = (await response.json()) as { errors?: { extensions?: { code?: string } }[] };
  return {
    ms: performance.now() - started,
    status: response.status,
    code: body.errors?.[0]?.extensions?.code ?? "-",
  };
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

console.log("| request | status | code | median ms |\n|---|---|---|---|");
for (const [name, query] of Object.entries(requests)) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await post(query));
  const last = runs.at(-1)!;
  console.log(
    `| ${name} | ${last.status} | ${last.code} | ${median(runs.map((run) => run.ms)).toFixed(1)} |`,
  );
}

const underLoad = [];
for (let i = 0; i < RUNS; i++) {
  const floods = Array.from({ length: 4 }, () => post(aliasFlood));
  underLoad.push((await post("{ __typename }")).ms);
  await Promise.all(floods);
}
console.log(
  `| cheap { __typename } while 4 alias floods are in flight | 200 | - | ${median(underLoad).toFixed(1)} |`,
);

await app.close();
