/**
 * How fast a start answers and how much memory an idle server holds (issue #11).
 *
 *   pnpm exec tsx bench/start/run.ts [--store=pglite|postgres] [--rounds=3] [--idle=3] [--before]
 *     [--compare=<another installed checkout>]
 *
 * Starts, one after another, in interleaved rounds, each as a process group of its own on a loopback
 * port: bare graphql-yoga answering `{ __typename }` (bench/start/bare-yoga.mjs, the baseline), the
 * server from source under tsx (what `npm start` ran before), the compiled server (`node
 * packages/server/dist/main.js`) and `npm start` itself (installs and builds up to date, so it only
 * checks their fingerprints). Measures the time from spawn to the first 200 answer to
 * `{ __typename }` over HTTP; the resident memory after `--idle` seconds of idleness, of the server
 * process (the largest one in the group besides the embedded database's own), of that database
 * process and of the whole group; then again after a warm-up (300 authenticated
 * `{ viewer { email } }`, 100 REST `GET /api/user/api-keys`, 20 widget script downloads) and
 * another idle pause. Prints medians over the rounds. --before adds what `npm start`
 * ran before (install, builds and tsx on every start); --compare the server of another checkout
 * (e.g. an older commit) from source.
 *
 * The servers share one data directory (PGlite; created, migrated and seeded by an untimed first
 * start whose demo API key the warm-up uses) or, with --store=postgres, one throw-away PostgreSQL
 * (test/support/services.ts). Run `npm run build` first; the bench refuses to run on a stale build.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import {
  getFreePort,
  type RunningService,
  startPostgres,
} from "../../packages/server/test/support/services.ts";
import { isStale, steps } from "../../scripts/prepare.mjs";

const options = new Map(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, "").split("=");
    return [key!, value ?? ""];
  }),
);
const STORE = options.get("store") ?? "pglite";
const ROUNDS = Number(options.get("rounds") ?? 3);
const IDLE_SECONDS = Number(options.get("idle") ?? 3);
const BEFORE = options.has("before");
const COMPARE = options.get("compare");

const root = fileURLToPath(new URL("../../", import.meta.url));
const tsxCli = join(root, "node_modules/tsx/dist/cli.mjs");

interface Subject {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  /** Whether it is the full app (seeded, authenticated routes) rather than bare Yoga. */
  app: boolean;
}

const subjects: Subject[] = [
  {
    name: "bare graphql-yoga",
    command: process.execPath,
    args: ["bench/start/bare-yoga.mjs"],
    cwd: root,
    app: false,
  },
  {
    name: "server from source (tsx)",
    command: process.execPath,
    args: [tsxCli, "src/main.ts"],
    cwd: join(root, "packages/server"),
    app: true,
  },
  {
    name: "server compiled (node dist/main.js)",
    command: process.execPath,
    args: ["dist/main.js"],
    cwd: join(root, "packages/server"),
    app: true,
  },
  { name: "npm start", command: "npm", args: ["start", "--silent"], cwd: root, app: true },
];

/**
 * What `npm start` did before issue #11: `pnpm install --frozen-lockfile`, whose postinstall scripts
 * rebuilt the widget (two Vite builds and the manifest) and regenerated the Prisma client on every
 * start, then the server from source under tsx. Replayed command by command; the builds write the
 * same files again, so the fingerprints stay valid.
 */
const before: Subject = {
  name: "before: install + builds + tsx (old npm start)",
  command: "sh",
  args: [
    "-c",
    "node scripts/pnpm.mjs install --frozen-lockfile --ignore-scripts --silent" +
      " && (cd packages/widget && node ../../scripts/pnpm.mjs run --silent build)" +
      " && (cd packages/server && node ../../scripts/pnpm.mjs run --silent db:generate)" +
      ` && cd packages/server && exec node ${tsxCli} src/main.ts`,
  ],
  cwd: root,
  app: true,
};
if (BEFORE) subjects.push(before);
// Another checkout (installed), e.g. an older commit, its server from source under its own tsx.
if (COMPARE) {
  subjects.push({
    name: `server from source at ${COMPARE} (tsx)`,
    command: process.execPath,
    args: [join(COMPARE, "node_modules/tsx/dist/cli.mjs"), "src/main.ts"],
    cwd: join(COMPARE, "packages/server"),
    app: true,
  });
}

interface Sample {
  startMs: number;
  idleServerMb: number;
  idleGroupMb: number;
  idleDatabaseMb: number;
  warmServerMb: number;
  warmDatabaseMb: number;
  warmGroupMb: number;
}

/** /proc/<pid>/statm counts pages; 4 KiB on the x86-64 and arm64 Linux this runs on. */
const PAGE_BYTES = 4096;

/** Resident memory in MB of each process of a process group, from /proc (Linux). */
function groupRss(pgid: number): { mb: number; database: boolean }[] {
  const sizes: { mb: number; database: boolean }[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name (which may contain spaces) start at the last ')'.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid) continue;
      const [, resident] = readFileSync(`/proc/${entry}/statm`, "utf8").split(" ");
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      sizes.push({ mb: (Number(resident) * PAGE_BYTES) / 1e6, database: command.includes("pglite-worker") });
    } catch {
      // The process ended between listing and reading.
    }
  }
  return sizes;
}

/** The server is the largest process of the group that is not the embedded database's own. */
function memory(pgid: number) {
  const sizes = groupRss(pgid);
  return {
    server: Math.max(...sizes.filter((size) => !size.database).map((size) => size.mb)),
    database: sizes.filter((size) => size.database).reduce((sum, size) => sum + size.mb, 0),
    group: sizes.reduce((sum, size) => sum + size.mb, 0),
  };
}

async function post(url: string, query: string, token?: string) {
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, text: await response.text() };
}

async function waitForAnswer(url: string, child: ChildProcess, output: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}:\n${output()}`);
    try {
      const { status, text } = await post(url, "{ __typename }");
      if (status === 200 && text.includes("Query")) return;
    } catch {
      // Not listening yet.
    }
    await sleep(10);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  process.kill(-child.pid!, "SIGTERM");
  const timeout = sleep(15_000).then(() => "timeout");
  if ((await Promise.race([exited, timeout])) === "timeout") {
    process.kill(-child.pid!, "SIGKILL");
    await exited;
  }
  // npm and sh may exit before the server below them: wait until the whole group is gone.
  while (groupRss(child.pid!).length > 0) await sleep(50);
}

async function launch(subject: Subject, env: NodeJS.ProcessEnv) {
  const port = await getFreePort();
  const url = `http://127.0.0.1:${port}`;
  let out = "";
  const started = performance.now();
  const child = spawn(subject.command, subject.args, {
    cwd: subject.cwd,
    env: { ...env, PORT: String(port), PUBLIC_BASE_URL: url },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => {
    out += chunk;
  });
  child.stderr!.on("data", (chunk) => {
    out += chunk;
  });
  try {
    await waitForAnswer(url, child, () => out);
  } catch (error) {
    await stop(child);
    throw error;
  }
  return { child, url, startMs: performance.now() - started, output: () => out };
}

async function warmUp(url: string, token: string) {
  for (let i = 0; i < 300; i++) {
    const { status, text } = await post(url, "{ viewer { email } }", token);
    if (status !== 200 || !text.includes("email")) throw new Error(`viewer: ${status} ${text.slice(0, 200)}`);
  }
  for (let i = 0; i < 100; i++) {
    const response = await fetch(`${url}/api/user/api-keys`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`REST: ${response.status}`);
  }
  for (let i = 0; i < 20; i++) {
    const response = await fetch(`${url}/widget/voxgate-chat.js`);
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`widget: ${response.status}`);
  }
}

async function measureOnce(subject: Subject, env: NodeJS.ProcessEnv, token: string): Promise<Sample> {
  const { child, url, startMs } = await launch(subject, env);
  try {
    await sleep(IDLE_SECONDS * 1000);
    const idle = memory(child.pid!);
    if (subject.app) await warmUp(url, token);
    else for (let i = 0; i < 420; i++) await post(url, "{ __typename }");
    await sleep(IDLE_SECONDS * 1000);
    const warm = memory(child.pid!);
    return {
      startMs,
      idleServerMb: idle.server,
      idleGroupMb: idle.group,
      idleDatabaseMb: idle.database,
      warmServerMb: warm.server,
      warmDatabaseMb: warm.database,
      warmGroupMb: warm.group,
    };
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  const stale = steps.filter((step) => isStale(root, step).stale).map((step) => step.name);
  if (stale.length > 0) throw new Error(`out of date: ${stale.join(", ")}; run \`npm run build\` first`);

  let postgres: RunningService | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), "voxgate-bench-start-"));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    LOG_LEVEL: "warn",
    VOXGATE_DATA_DIR: dataDir,
    VOXGATE_SEED_DEMO: "true",
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  try {
    if (STORE === "postgres") {
      postgres = await startPostgres();
      env.DATABASE_URL = postgres.url;
    }
    // Creates the schema and the demo account, whose key the warm-up uses; on PGlite its memory is
    // measured (issue #35), beside the same first start without the embedded store's memory
    // measures (process recycled after migrating, PGlite on the baseline compiler) on a data
    // directory of its own.
    const compiled = subjects[2]!;
    const firstStarts: [string, { server: number; database: number; group: number }][] = [];
    let token: string | undefined;
    const firstStart = async (label: string, extra: NodeJS.ProcessEnv, dir: string) => {
      const first = await launch(compiled, { ...env, ...extra, VOXGATE_DATA_DIR: dir });
      // The banner is written just after the server starts listening.
      while (first.child.exitCode === null && !first.output().includes("Voxgate is running")) await sleep(20);
      token ??= /API key\s+(vgk_\S+)/.exec(first.output())?.[1];
      await sleep(IDLE_SECONDS * 1000);
      firstStarts.push([label, memory(first.child.pid!)]);
      await stop(first.child);
    };
    await firstStart("first start (this code)", {}, dataDir);
    if (STORE !== "postgres") {
      const other = mkdtempSync(join(tmpdir(), "voxgate-bench-start-"));
      try {
        await firstStart(
          "first start, no recycle, optimizing compiler (before #35)",
          { VOXGATE_PGLITE_RECYCLE_MB: "0", VOXGATE_PGLITE_OPTIMIZING_COMPILER: "true" },
          other,
        );
      } finally {
        rmSync(other, { recursive: true, force: true });
      }
    }
    if (!token) throw new Error("no demo key in the first start's output");

    const samples = new Map(subjects.map((subject) => [subject.name, [] as Sample[]]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const subject of subjects) {
        const sample = await measureOnce(subject, env, token);
        samples.get(subject.name)!.push(sample);
        process.stderr.write(`round ${round + 1}: ${subject.name}: ${sample.startMs.toFixed(0)} ms\n`);
      }
    }

    console.log(
      `\nload average ${loadavg()
        .map((load) => load.toFixed(1))
        .join(" / ")} (1 / 5 / 15 min)\n\nFirst start on a fresh data directory (compiled server), ` +
        `RSS after ${IDLE_SECONDS} s idle:\n\n` +
        "| first start | server process | database process | server + database |\n|---|---|---|---|",
    );
    for (const [label, rss] of firstStarts) {
      console.log(
        `| ${label} | ${rss.server.toFixed(0)} MB | ${rss.database.toFixed(0)} MB | ${(rss.server + rss.database).toFixed(0)} MB |`,
      );
    }
    const bare = samples.get(subjects[0]!.name)!;
    const bareStart = median(bare.map((s) => s.startMs));
    const bareIdle = median(bare.map((s) => s.idleServerMb));
    console.log(
      `\nstore: ${STORE === "postgres" ? "PostgreSQL (DATABASE_URL)" : "PGlite (data directory)"}; ` +
        `medians of ${ROUNDS} rounds; memory after ${IDLE_SECONDS} s idle\n\n` +
        "| subject | spawn → first answer | × bare | server RSS idle | database process RSS idle | server + database idle | group RSS idle | server RSS after warm-up | database RSS after warm-up | server + database after warm-up | group RSS after warm-up | server idle × bare |\n" +
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    );
    for (const [name, list] of samples) {
      const start = median(list.map((s) => s.startMs));
      const idle = median(list.map((s) => s.idleServerMb));
      console.log(
        `| ${name} | ${start.toFixed(0)} ms | ${(start / bareStart).toFixed(1)} | ${idle.toFixed(0)} MB | ` +
          `${median(list.map((s) => s.idleDatabaseMb)).toFixed(0)} MB | ` +
          `${median(list.map((s) => s.idleServerMb + s.idleDatabaseMb)).toFixed(0)} MB | ` +
          `${median(list.map((s) => s.idleGroupMb)).toFixed(0)} MB | ${median(list.map((s) => s.warmServerMb)).toFixed(0)} MB | ` +
          `${median(list.map((s) => s.warmDatabaseMb)).toFixed(0)} MB | ` +
          `${median(list.map((s) => s.warmServerMb + s.warmDatabaseMb)).toFixed(0)} MB | ` +
          `${median(list.map((s) => s.warmGroupMb)).toFixed(0)} MB | ${(idle / bareIdle).toFixed(1)} |`,
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    await postgres?.stop();
  }
}

await main();
