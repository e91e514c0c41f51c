import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../src/app.ts";
import { openDatabase } from "../src/db/client.ts";
import { createLogger } from "../src/logger.ts";
import { type DurableDatabase, durableDatabase as durableFixture } from "./fixtures/durable-database.ts";
import { startTestApp, testConfig, testDatabaseKind } from "./support/test-app.ts";

const run = promisify(execFile);
/**
 * The CLI through Node with tsx's loader: one process per command, where the tsx wrapper starts a
 * second Node for each (as src/cli.test.ts does).
 */
const cliProcess = (args: string[], env: NodeJS.ProcessEnv) =>
  run(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], {
    cwd: join(import.meta.dirname, ".."),
    env,
  });
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A durable database for this test, dropped after it. */
async function durableDatabase(): Promise<DurableDatabase> {
  const database = await durableFixture();
  cleanups.push(() => database.drop());
  return database;
}

describe("restarts", () => {
  it("seeds the demo account once and keeps every record across a restart", async () => {
    const database = await durableDatabase();
    const config = testConfig({ VOXGATE_SEED_DEMO: "true" });
    const logger = createLogger("silent");

    const first = await buildApp(config, { database: database.first, logger });
    const demo = first.demo;
    expect(demo?.apiKey).toMatch(/^vgk_/);
    expect(await first.db.prisma.assistant.count()).toBe(1);
    expect(await first.db.prisma.phoneNumber.count()).toBe(1);
    expect(await first.db.prisma.voice.count({ where: { accountId: null } })).toBeGreaterThan(5);
    await first.close();

    const second = await buildApp(config, { database: database.next, logger });
    try {
      expect(second.demo).toBeNull();
      expect(await second.db.prisma.user.count()).toBe(1);
      expect(await second.db.prisma.apiKey.count()).toBe(1);
      const url = await second.listen(0, "127.0.0.1");
      const response = await fetch(`${url}/api/user/api-keys`, {
        headers: { authorization: `Bearer ${demo!.apiKey}` },
      });
      expect(response.status).toBe(200);
      expect(
        ((await response.json()) as { api_keys: { name: string }[] }).api_keys.map((key) => key.name),
      ).toEqual(["Demo key"]);
    } finally {
      await second.close();
    }
  });

  it.runIf(testDatabaseKind() === "pglite")(
    "refuses a second process on the same embedded data directory",
    async () => {
      const database = await durableDatabase();
      const app = await buildApp(testConfig(), { database: database.first, logger: createLogger("silent") });
      cleanups.push(() => app.close());
      const dataDir = (database.first as { dataDir: string }).dataDir;
      const cli = cliProcess(["accounts:list", "--json"], { ...process.env, VOXGATE_DATA_DIR: dataDir });
      const failure = (await cli.then(
        () => null,
        (error: { stdout: string }) => error,
      )) as { stdout: string } | null;
      expect(failure?.stdout).toContain(`is in use by process ${process.pid}`);
    },
  );
});

describe("operator CLI", () => {
  it("creates an account, issues a key that works, credits and lists, with --json output", async () => {
    const database = await durableDatabase();
    const { env } = database;
    // The CLI opens a database that is already migrated, as an operator's would be.
    await (await openDatabase(database.first)).close();
    const cli = async (...args: string[]) => {
      const { stdout } = await cliProcess([...args, "--json"], {
        ...process.env,
        ...env,
        LOG_LEVEL: "silent",
      });
      return JSON.parse(stdout);
    };
    const created = await cli(
      "accounts:create",
      "--email",
      "ops@example.com",
      "--password",
      "s3cret-pass",
      "--balance",
      "2.5",
    );
    expect(created.account).toMatchObject({ balance: "2.5000", timezone: "UTC" });
    const key = await cli("api-keys:create", "--email", "ops@example.com", "--name", "ops");
    expect(key.token).toMatch(/^vgk_/);
    const credited = await cli("balance:credit", "--email", "ops@example.com", "--amount", "0.75");
    expect(credited.account.balance).toBe("3.2500");
    const listed = await cli("accounts:list");
    expect(listed.accounts).toEqual([
      expect.objectContaining({ balance: "3.2500", owners: ["ops@example.com"] }),
    ]);

    const invalid = await cliProcess(
      ["balance:credit", "--email", "ops@example.com", "--amount=-3", "--json"],
      { ...process.env, ...env },
    ).then(
      () => null,
      (error: { stdout: string; code: number }) => error,
    );
    expect(invalid?.code).toBe(1);
    expect(JSON.parse(invalid!.stdout).error.code).toBe("VALIDATION_FAILED");

    const t = await startTestApp({ database: database.next });
    cleanups.push(() => t.close());
    const keys = await t.rest<{ api_keys: { name: string }[] }>("GET", "/api/user/api-keys", {
      token: key.token,
    });
    expect(keys.status).toBe(200);
    expect(keys.body.api_keys.map((entry) => entry.name)).toEqual(["ops"]);
  }, 120_000);
});
