import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { openPglite } from "../src/db/client.ts";
import { getFreePort, isAlive } from "./support/services.ts";
import { pgliteTemplate, testDatabaseKind } from "./support/test-app.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));

// What Docker and systemd do to `npm start`: one SIGTERM to the top process. Once, on PGlite.
describe.skipIf(testDatabaseKind() === "postgres")("npm start under a supervisor", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "voxgate-npm-start-"));
  /** The server under test: stopped here too when an assertion fails before the test stops it. */
  let server: number | undefined;
  afterAll(() => {
    if (server !== undefined && isAlive(server)) process.kill(server, "SIGTERM");
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("stops the server on SIGTERM to npm, releases the data directory and exits 0 without noise", async () => {
    await (await openPglite(dataDir, pgliteTemplate())).close();
    const port = await getFreePort();
    const npm = spawn("npm", ["start"], {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        VOXGATE_DATA_DIR: dataDir,
        PORT: String(port),
        LOG_LEVEL: "warn",
        VOXGATE_SEED_DEMO: "true",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    npm.stdout!.on("data", (chunk) => {
      output += chunk;
    });
    npm.stderr!.on("data", (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => npm.once("exit", (code) => resolve(code)));
    await expect
      .poll(() => output.includes("Voxgate is running") || npm.exitCode !== null, { timeout: 110_000 })
      .toBe(true);
    expect(output).toContain("Voxgate is running");
    expect(existsSync(join(dataDir, "pglite.pid"))).toBe(true);
    // start.mjs forks the database's process before it loads the server, which takes it over: one
    // database process, not a spare one beside the server's own.
    const servers = descendantsOf(npm.pid!).filter((pid) =>
      commandOf(pid).split("\0").includes("scripts/start.mjs"),
    );
    server = servers[0];
    expect(servers).toHaveLength(1);
    expect(childrenOf(servers[0]!).filter((pid) => commandOf(pid).includes("pglite-worker"))).toHaveLength(1);
    // The banner's widget demo opens the demo assistant.
    expect(output).toMatch(/Widget demo\s+\S+\/widget\/demo\?assistant=[0-9a-f-]{36}/);

    npm.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, "pglite.pid")), "the server let go of the data directory").toBe(false);
    expect(output).not.toMatch(/ERR_PNPM|npm error|ELIFECYCLE/);
    // Nothing holds the port any more.
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  }, 120_000);
});

/** Processes whose parent is `pid` (Linux's /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        // Fields after the command name (which may contain spaces) start at the last ')'.
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

function descendantsOf(pid: number): number[] {
  return childrenOf(pid).flatMap((child) => [child, ...descendantsOf(child)]);
}

function commandOf(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8");
}
