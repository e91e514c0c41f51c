/**
 * How long does an operator CLI command take? (issue #15: under 2 s)
 *
 *   pnpm exec tsx bench/cli/run.ts [--runs=5]
 *
 * Creates an embedded store in a temporary data directory with one account, then times
 * `pnpm voxgate balance:credit` (each run a fresh `node --import tsx src/cli.ts` process, as the
 * CLI runs) in two set-ups on the same machine and data: with no server (the CLI opens the store
 * itself, the only way before this change: the baseline), and with a server holding the store (the
 * CLI sends the command over the data directory's operator socket). Prints min/median/max of each.
 * Figures only: the behaviour is asserted by packages/server/src/operator-channel.test.ts.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { buildApp, createLogger, loadConfig } from "@voxgate/server";

const run = promisify(execFile);
const RUNS = Number(process.argv.find((arg) => arg.startsWith("--runs="))?.split("=")[1] ?? 5);
const serverDir = join(import.meta.dirname, "..", "..", "packages", "server");
const dataDir = mkdtempSync(join(tmpdir(), "voxgate-bench-cli-"));
const env = { VOXGATE_DATA_DIR: dataDir, VOXGATE_SEED_DEMO: "false", LOG_LEVEL: "silent", PORT: "0" };
const email = "bench@example.com";

async function timeCommand(): Promise<number> {
  const started = performance.now();
  await run(
    process.execPath,
    ["--import", "tsx", "src/cli.ts", "balance:credit", "--email", email, "--amount", "1", "--json"],
    { cwd: serverDir, env: { ...process.env, ...env, DATABASE_URL: "", REDIS_URL: "" } },
  );
  return performance.now() - started;
}

async function series(label: string): Promise<void> {
  const times: number[] = [];
  for (let index = 0; index < RUNS; index++) times.push(await timeCommand());
  times.sort((a, b) => a - b);
  const ms = (value: number) => `${Math.round(value)} ms`;
  console.log(
    `${label.padEnd(44)} min ${ms(times[0]!)}  median ${ms(times[Math.floor(times.length / 2)]!)}  max ${ms(times.at(-1)!)}`,
  );
}

try {
  const config = loadConfig({ ...env });
  const setup = await buildApp(config, { logger: createLogger("silent") });
  await setup.services.accounts.create({ email, password: "bench-password" });
  await setup.close();

  console.log(`balance:credit, ${RUNS} runs each (a fresh CLI process per run):`);
  await series("baseline: no server, the CLI opens the store");
  const server = await buildApp(config, { logger: createLogger("silent") });
  await server.listen(0, "127.0.0.1");
  try {
    await series("server running: through the operator socket");
  } finally {
    await server.close();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
