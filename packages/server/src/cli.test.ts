import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { subscribeWs } from "../test/support/subscriptions.ts";
import {
  freshDatabase,
  ownRateLimitKeys,
  pgliteTemplate,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../test/support/test-app.ts";

const run = promisify(execFile);
const serverDir = join(import.meta.dirname, "..");

// On PostgreSQL the CLI opens the database itself, beside the running servers, and reaches their
// subscribers through Redis (the embedded store's case, through the server, is operator-channel.test.ts).
describe.runIf(testDatabaseKind() === "postgres")("the CLI beside running servers on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let t: TestApp;
  let alice: TestAccount;
  const deployment = ownRateLimitKeys();

  beforeAll(async () => {
    database = await freshDatabase();
    t = await startTestApp({ database: database.target, env: deployment });
    alice = await t.createAccount({ balance: "1" });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  it("balance:credit announces the new balance to a running instance's subscribers", async () => {
    if (database.target.kind !== "postgres") throw new Error("a PostgreSQL database was expected");
    const balance = await subscribeWs<{ balanceChanged: { balance: string } }>(
      t.url,
      `subscription { balanceChanged { balance } }`,
      { connectionParams: { authorization: `Bearer ${alice.apiKey}` } },
    );
    try {
      const { stdout } = await run(
        process.execPath,
        [
          "--import",
          "tsx",
          "src/cli.ts",
          "balance:credit",
          "--email",
          alice.email,
          "--amount",
          "4.5",
          "--json",
        ],
        {
          cwd: serverDir,
          env: {
            ...process.env,
            DATABASE_URL: database.target.url,
            REDIS_URL: inject("redisUrl") ?? "",
            ...deployment,
          },
        },
      );
      expect(JSON.parse(stdout)).toEqual({ account: { id: alice.accountId, balance: "5.5000" } });
      // The CLI has exited: its event left before it did.
      expect((await balance.next(15_000)).data?.balanceChanged.balance).toBe("5.5000");
    } finally {
      await balance.close();
    }
  }, 120_000);
});

describe("the CLI's usage text", () => {
  it("shows the npm form and every command, set-password included", async () => {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "src/cli.ts", "--help"], {
      cwd: serverDir,
    });
    expect(stdout).toMatch(/^Usage: npm run voxgate -- <command> \[options\] \[--json\]/);
    for (const command of ["migrate", "accounts:create", "accounts:set-password", "balance:credit"])
      expect(stdout).toContain(`  ${command}`);
  });
});

describe.runIf(testDatabaseKind() === "pglite")("accounts:set-password", { timeout: 120_000 }, () => {
  let dataDir: string;
  let t: TestApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "voxgate-cli-"));
    t = await startTestApp({ database: { kind: "pglite", dataDir, loadDataDir: pgliteTemplate() } });
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const LOGIN = `mutation($email: String!, $password: String!) { login(input: { email: $email, password: $password }) { token } }`;
  const login = (email: string, password: string) =>
    t.gql<{ login: { token: string } }>(LOGIN, { email, password });
  const cli = (...args: string[]) =>
    run(process.execPath, ["--import", "tsx", "src/cli.ts", ...args, "--json"], {
      cwd: serverDir,
      env: { ...process.env, VOXGATE_DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" },
    }).then(
      ({ stdout }) => ({ code: 0, output: JSON.parse(stdout) as unknown }),
      (error: { code: number; stdout: string }) => ({ code: error.code, output: JSON.parse(error.stdout) }),
    );

  it("sets a new password and ends the user's open sessions", async () => {
    const email = "reset-me@example.com";
    await t.app.services.accounts.create({ email, password: "the-old-password" });
    const session = (await login(email, "the-old-password")).data!.login.token;
    const viewer = () => t.gql("{ viewer { email } }", {}, { token: session });
    expect((await viewer()).data).toEqual({ viewer: { email } });

    const tooShort = await cli("accounts:set-password", "--email", email, "--password", "short");
    expect(tooShort).toEqual({
      code: 1,
      output: {
        error: {
          code: "VALIDATION_FAILED",
          message: "password: The password field must be at least 8 characters.",
        },
      },
    });
    const reset = await cli("accounts:set-password", "--email", email, "--password", "a-new-password");
    expect(reset).toEqual({
      code: 0,
      output: { user: { id: expect.any(Number), email }, sessionsEnded: 1 },
    });
    expect((await viewer()).errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    expect((await login(email, "the-old-password")).errors?.[0]?.extensions?.code).toBe(
      "INVALID_CREDENTIALS",
    );
    expect((await login(email, "a-new-password")).data?.login.token).toEqual(expect.any(String));
    const unknown = await cli(
      "accounts:set-password",
      "--email",
      "nobody@example.com",
      "--password",
      "whatever-1",
    );
    expect(unknown).toEqual({
      code: 1,
      output: { error: { code: "NOT_FOUND", message: "User not found." } },
    });
  });
});
