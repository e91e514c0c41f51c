/**
 * Real PostgreSQL (with pgvector) and Redis servers for integration tests.
 *
 * Each start* call runs a fresh, throw-away server on a free 127.0.0.1 port and
 * returns its URL plus a stop() that shuts the server down and deletes its files.
 * Install the servers first with `.ci/install-services.sh` (Debian, as root).
 *
 * Node builtins only: this file must not depend on any npm package.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  accessSync,
  chownSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { connect, createServer, Socket } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";

export interface PostgresBinaries {
  initdb: string;
  pgCtl: string;
  postgres: string;
}

export interface RunningService {
  /** postgres://user:password@127.0.0.1:PORT/db or redis://127.0.0.1:PORT */
  url: string;
  /** Stops the server and removes its temporary directory. Safe to call twice. */
  stop(): Promise<void>;
  /** The server's main process (PostgreSQL's postmaster, whose backends are its children), for benchmarks. */
  pid: number;
  /**
   * Outage tests: `crash` ends the server at once (PostgreSQL's immediate stop, Redis killed), keeping
   * its data directory; `restart` starts it again on the same port.
   */
  crash(): Promise<void>;
  restart(): Promise<void>;
}

const PG_PREFERRED_MAJOR = "15";
const PG_DATABASE = "voxgate_test";
const PG_SUPERUSER = "postgres";
const PG_START_TIMEOUT_S = 60;
const REDIS_START_TIMEOUT_MS = 15_000;
const START_ATTEMPTS = 3; // a free port can be taken between probing and binding

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

function isExecutable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

function whichSync(name: string, extraDirs: readonly string[] = []): string | null {
  const dirs = [...(process.env.PATH ?? "").split(delimiter), ...extraDirs];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return null;
}

function isRoot(): boolean {
  return typeof process.getuid === "function" && process.getuid() === 0;
}

function tail(text: string, lines = 40): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

function readTail(file: string, lines = 40): string {
  try {
    return tail(readFileSync(file, "utf8"), lines);
  } catch {
    return "(no log written)";
  }
}

function randomHex(bytes: number): string {
  let out = "";
  for (let i = 0; i < bytes; i++) {
    out += Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, "0");
  }
  return out;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Environment without libpq variables that could redirect or alter connections. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("PG")) env[key] = value;
  }
  return env;
}

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

function run(
  command: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env ?? process.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      stderr += `\n(killed after ${options.timeoutMs} ms timeout)`;
    }, options.timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ${command}: ${error.message}`));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

function describe(command: string, args: readonly string[], result: RunResult): string {
  const status = result.code === null ? `signal ${result.signal}` : `exit code ${result.code}`;
  const output = tail(`${result.stdout}\n${result.stderr}`.trim(), 20);
  return `${[command, ...args].join(" ")} failed (${status})${output ? `:\n${output}` : ""}`;
}

/** A TCP port that was free on 127.0.0.1 a moment ago (bind port 0, read it, close). */
export function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address && typeof address === "object") {
        const { port } = address;
        server.close(() => resolve(port));
      } else {
        server.close(() => reject(new Error("could not determine a free port")));
      }
    });
  });
}

// Servers still running when the process exits are stopped synchronously.
const exitCleanups = new Set<() => void>();
let exitHookInstalled = false;
function onExit(cleanup: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.on("exit", () => {
      for (const fn of exitCleanups) {
        try {
          fn();
        } catch {
          // best effort
        }
      }
    });
  }
  exitCleanups.add(cleanup);
  return () => exitCleanups.delete(cleanup);
}

// ---------------------------------------------------------------------------
// PostgreSQL
// ---------------------------------------------------------------------------

function pgBinDirs(): string[] {
  const dirs: string[] = [];
  const override = process.env.VOXGATE_PG_BIN;
  if (override) dirs.push(override);
  const root = "/usr/lib/postgresql";
  try {
    const versions = readdirSync(root)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    // pgvector is built for PG 15 by .ci/install-services.sh: prefer it.
    versions.sort((a, b) => Number(b === PG_PREFERRED_MAJOR) - Number(a === PG_PREFERRED_MAJOR));
    for (const v of versions) dirs.push(join(root, v, "bin"));
  } catch {
    // not a Debian layout
  }
  for (const dir of (process.env.PATH ?? "").split(delimiter)) if (dir) dirs.push(dir);
  dirs.push("/usr/local/bin", "/usr/local/pgsql/bin");
  return dirs;
}

/** initdb, pg_ctl and postgres from one installation, or null if PostgreSQL is not installed. */
export function findPostgresBinaries(): PostgresBinaries | null {
  for (const dir of pgBinDirs()) {
    const initdb = join(dir, "initdb");
    const pgCtl = join(dir, "pg_ctl");
    const postgres = join(dir, "postgres");
    if (isExecutable(initdb) && isExecutable(pgCtl) && isExecutable(postgres)) {
      return { initdb, pgCtl, postgres };
    }
  }
  return null;
}

function passwdIds(user: string): { uid: number; gid: number } | null {
  try {
    for (const line of readFileSync("/etc/passwd", "utf8").split("\n")) {
      const fields = line.split(":");
      if (fields[0] === user && fields[2] !== undefined && fields[3] !== undefined) {
        return { uid: Number(fields[2]), gid: Number(fields[3]) };
      }
    }
  } catch {
    // fall through
  }
  return null;
}

/** PostgreSQL refuses to run as root: as root, run its tools as the "postgres" user. */
function pgRunner(): (command: string, args: readonly string[]) => [string, string[]] {
  if (!isRoot()) return (command, args) => [command, [...args]];
  const runuser = whichSync("runuser", ["/usr/sbin", "/sbin"]);
  if (!runuser)
    throw new Error("running as root but runuser(1) is not available to drop to the postgres user");
  return (command, args) => [runuser, ["-u", "postgres", "--", command, ...args]];
}

function findPsql(bins: PostgresBinaries): string {
  const psql = whichSync("psql", [dirname(bins.pgCtl)]);
  if (!psql) throw new Error("psql not found on PATH (install postgresql-client-15)");
  return psql;
}

async function psqlExec(psql: string, url: string, sql: string): Promise<void> {
  const args = ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-d", url, "-c", sql];
  const env = { ...cleanEnv(), PGCONNECT_TIMEOUT: "10" };
  const result = await run(psql, args, { env, timeoutMs: 60_000 });
  if (result.code !== 0) throw new Error(describe("psql", ["-c", JSON.stringify(sql)], result));
}

/**
 * initdb + start a fresh PostgreSQL cluster on a free 127.0.0.1 port, create the
 * database `voxgate_test` with the `vector` extension. Password (SCRAM) auth over TCP.
 */
/** `settings`: extra server settings (`name=value`), e.g. a bench's `shared_preload_libraries=pg_stat_statements`. */
export async function startPostgres(settings: readonly string[] = []): Promise<RunningService> {
  const bins = findPostgresBinaries();
  if (!bins) {
    throw new Error(
      "PostgreSQL is not installed (initdb/pg_ctl/postgres not found); run .ci/install-services.sh",
    );
  }
  const psql = findPsql(bins);
  const asPg = pgRunner();

  const dir = mkdtempSync(join(tmpdir(), "voxgate-pg-"));
  const dataDir = join(dir, "data");
  const socketDir = join(dir, "socket");
  const logFile = join(dir, "postgres.log");
  const pwFile = join(dir, "pwfile");
  const password = randomHex(12);
  const removeDir = () => rmSync(dir, { recursive: true, force: true });

  let started = false;
  const pgCtlStop = (mode: "fast" | "immediate"): [string, string[]] =>
    asPg(bins.pgCtl, ["-D", dataDir, "-m", mode, "-w", "-t", "30", "stop"]);
  const unregister = onExit(() => {
    if (started) {
      const [cmd, args] = pgCtlStop("immediate");
      spawnSync(cmd, args, { cwd: "/", stdio: "ignore", timeout: 10_000 });
    }
    removeDir();
  });

  try {
    mkdirSync(socketDir);
    writeFileSync(pwFile, `${password}\n`, { mode: 0o600 });
    if (isRoot()) {
      const ids = passwdIds("postgres");
      if (!ids) throw new Error('running as root but there is no "postgres" user to run PostgreSQL as');
      for (const path of [dir, socketDir, pwFile]) chownSync(path, ids.uid, ids.gid);
    }

    const [initCmd, initArgs] = asPg(bins.initdb, [
      "-D",
      dataDir,
      "-U",
      PG_SUPERUSER,
      `--pwfile=${pwFile}`,
      "--auth-local=trust",
      "--auth-host=scram-sha-256",
      "-E",
      "UTF8",
      "--locale=C",
      "--no-sync",
    ]);
    const init = await run(initCmd, initArgs, { cwd: dir, env: cleanEnv(), timeoutMs: 120_000 });
    rmSync(pwFile, { force: true });
    if (init.code !== 0) throw new Error(`initdb failed: ${describe(initCmd, initArgs, init)}`);

    let port = 0;
    let lastError = "";
    let startCommand: [string, string[]] = ["", []];
    for (let attempt = 1; attempt <= START_ATTEMPTS && !started; attempt++) {
      port = await getFreePort();
      const serverOptions = [
        `-p ${port}`,
        `-k "${socketDir}"`,
        "-c listen_addresses=127.0.0.1",
        "-c fsync=off",
        "-c synchronous_commit=off",
        "-c full_page_writes=off",
        "-c wal_level=minimal",
        "-c max_wal_senders=0",
        "-c autovacuum=off",
        "-c jit=off",
        // Test files run side by side, each with up to three apps of ten pooled connections, plus the
        // admin connections that copy and drop their databases: the default 100 is too close.
        "-c max_connections=300",
        ...settings.map((setting) => `-c ${setting}`),
      ].join(" ");
      const [startCmd, startArgs] = asPg(bins.pgCtl, [
        "-D",
        dataDir,
        "-l",
        logFile,
        "-o",
        serverOptions,
        "-w",
        "-t",
        String(PG_START_TIMEOUT_S),
        "start",
      ]);
      const result = await run(startCmd, startArgs, {
        cwd: dir,
        env: cleanEnv(),
        timeoutMs: (PG_START_TIMEOUT_S + 30) * 1000,
      });
      if (result.code === 0) {
        started = true;
        startCommand = [startCmd, startArgs];
        break;
      }
      const log = readTail(logFile);
      lastError =
        `PostgreSQL failed to start on 127.0.0.1:${port} (timeout ${PG_START_TIMEOUT_S}s): ` +
        `${describe("pg_ctl", ["start"], result)}\n--- server log (tail) ---\n${log}`;
      // make sure a half-started server is gone before retrying
      const [stopCmd, stopArgs] = pgCtlStop("immediate");
      await run(stopCmd, stopArgs, { cwd: dir, env: cleanEnv(), timeoutMs: 40_000 }).catch(() => undefined);
      if (!/could not (bind|create listen)|already in use/i.test(log)) break;
    }
    if (!started) throw new Error(lastError);

    const auth = `${PG_SUPERUSER}:${password}@127.0.0.1:${port}`;
    try {
      await psqlExec(psql, `postgres://${auth}/postgres`, `CREATE DATABASE ${PG_DATABASE}`);
      await psqlExec(psql, `postgres://${auth}/${PG_DATABASE}`, "CREATE EXTENSION IF NOT EXISTS vector");
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const hint = /extension "vector"|vector\.control/.test(message)
        ? "\npgvector is not installed for this PostgreSQL; run .ci/install-services.sh"
        : "";
      throw new Error(`${message}${hint}\n--- server log (tail) ---\n${readTail(logFile)}`);
    }

    let stopped: Promise<void> | null = null;
    const stop = (): Promise<void> => {
      stopped ??= (async () => {
        try {
          const [cmd, args] = pgCtlStop("fast");
          const result = await run(cmd, args, { cwd: "/", env: cleanEnv(), timeoutMs: 40_000 });
          if (result.code !== 0) {
            const [icmd, iargs] = pgCtlStop("immediate");
            await run(icmd, iargs, { cwd: "/", env: cleanEnv(), timeoutMs: 40_000 });
          }
          started = false;
        } finally {
          unregister();
          removeDir();
        }
      })();
      return stopped;
    };
    const crash = async () => {
      const [cmd, args] = pgCtlStop("immediate");
      const result = await run(cmd, args, { cwd: "/", env: cleanEnv(), timeoutMs: 40_000 });
      if (result.code !== 0) throw new Error(describe(cmd, args, result));
    };
    const restart = async () => {
      const [cmd, args] = startCommand;
      const result = await run(cmd, args, { cwd: dir, env: cleanEnv(), timeoutMs: 90_000 });
      if (result.code !== 0) throw new Error(`${describe(cmd, args, result)}\n${readTail(logFile)}`);
    };
    // The postmaster's pid is the first line of its pid file.
    const pid = Number(readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    return { url: `postgres://${auth}/${PG_DATABASE}`, stop, pid, crash, restart };
  } catch (error) {
    if (started) {
      const [cmd, args] = pgCtlStop("immediate");
      await run(cmd, args, { cwd: "/", env: cleanEnv(), timeoutMs: 40_000 }).catch(() => undefined);
      started = false;
    }
    unregister();
    removeDir();
    throw error;
  }
}

// ---------------------------------------------------------------------------
// Redis
// ---------------------------------------------------------------------------

/** Path of redis-server, or null if Redis is not installed. */
export function findRedisServer(): string | null {
  const override = process.env.VOXGATE_REDIS_SERVER;
  if (override && isExecutable(override)) return override;
  return whichSync("redis-server", ["/usr/bin", "/usr/local/bin", "/usr/sbin"]);
}

/** Resolves once the server answers PING with +PONG; rejects on timeout. */
function redisPing(port: number, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    let buffer = "";
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.setEncoding("utf8");
    socket.on("connect", () => socket.write("PING\r\n"));
    socket.on("data", (chunk: string) => {
      buffer += chunk;
      if (buffer.includes("\r\n")) done(buffer.startsWith("+PONG"));
    });
    socket.on("error", () => done(false));
    socket.on("close", () => done(false));
  });
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), timeoutMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Starts redis-server (no persistence) on a free 127.0.0.1 port as a child process. */
export async function startRedis(): Promise<RunningService> {
  const server = findRedisServer();
  if (!server) throw new Error("redis-server is not installed; run .ci/install-services.sh");

  let lastError = "";
  for (let attempt = 1; attempt <= START_ATTEMPTS; attempt++) {
    const dir = mkdtempSync(join(tmpdir(), "voxgate-redis-"));
    const port = await getFreePort();
    const args = [
      "--port",
      String(port),
      "--bind",
      "127.0.0.1",
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
      "--dir",
      dir,
      "--logfile",
      "",
    ];
    const child = spawn(server, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    const collect = (chunk: string) => {
      output = (output + chunk).slice(-20_000);
    };
    child.stdout.setEncoding("utf8").on("data", collect);
    child.stderr.setEncoding("utf8").on("data", collect);
    let spawnError = null as Error | null;
    child.on("error", (error) => {
      spawnError = error;
    });
    // Do not keep the test process alive because of the server; the exit hook kills it.
    child.unref();
    for (const stream of [child.stdout, child.stderr]) if (stream instanceof Socket) stream.unref();

    const kill = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    };
    const unregister = onExit(kill);

    const deadline = Date.now() + REDIS_START_TIMEOUT_MS;
    let ready = false;
    while (Date.now() < deadline) {
      if (spawnError || child.exitCode !== null || child.signalCode !== null) break;
      if (await redisPing(port, 1000)) {
        ready = true;
        break;
      }
      await sleep(50);
    }

    if (ready) {
      /** The running server: `restart` replaces it. */
      let current: ChildProcess = child;
      const unregisterRestarted = onExit(() => {
        if (current.exitCode === null && current.signalCode === null) current.kill("SIGKILL");
      });
      let stopped: Promise<void> | null = null;
      const stop = (): Promise<void> => {
        stopped ??= (async () => {
          try {
            if (current.exitCode === null && current.signalCode === null) {
              current.kill("SIGTERM");
              if (!(await waitForExit(current, 5000))) {
                current.kill("SIGKILL");
                await waitForExit(current, 5000);
              }
            }
          } finally {
            unregister();
            unregisterRestarted();
            rmSync(dir, { recursive: true, force: true });
          }
        })();
        return stopped;
      };
      const crash = async () => {
        current.kill("SIGKILL");
        await waitForExit(current, 5000);
      };
      const restart = async () => {
        current = spawn(server, args, { cwd: dir, stdio: "ignore" });
        current.unref();
        const until = Date.now() + REDIS_START_TIMEOUT_MS;
        while (!(await redisPing(port, 1000))) {
          if (Date.now() > until || current.exitCode !== null)
            throw new Error("redis-server did not restart");
          await sleep(50);
        }
      };
      return { url: `redis://127.0.0.1:${port}`, stop, pid: child.pid!, crash, restart };
    }

    const exited = child.exitCode !== null || child.signalCode !== null;
    kill();
    await waitForExit(child, 5000);
    unregister();
    const reason = spawnError
      ? `could not be run (${spawnError.message})`
      : exited
        ? `exited early (${child.exitCode !== null ? `exit code ${child.exitCode}` : `signal ${child.signalCode}`})`
        : `did not answer PING within ${REDIS_START_TIMEOUT_MS} ms`;
    lastError = `redis-server on 127.0.0.1:${port} ${reason}\n--- redis-server output (tail) ---\n${tail(output) || "(none)"}`;
    if (!/address already in use/i.test(output)) break;
  }
  throw new Error(lastError);
}

/** Whether a process (a server or database the suite started) still runs. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
