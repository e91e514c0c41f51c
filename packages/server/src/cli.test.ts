import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createAssistant } from "../test/fixtures/assistants.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../test/support/fake-openai.ts";
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

// `voxgate test` is a client of a running server (an owner's CI): its exit code gates a deploy.
describe("voxgate test --suite", () => {
  let t: TestApp;
  let model: FakeOpenAI;
  let owner: TestAccount;
  let directory: string;
  let passingSuite: number;
  let failingSuite: number;

  beforeAll(async () => {
    model = await startFakeOpenAI();
    // Phone scenarios' test calls run on the simulated carrier's clock.
    t = await startTestApp({ model, env: { VOXGATE_CALL_CLOCK_SPEED: "20" } });
    owner = await t.createAccount();
    directory = await mkdtemp(join(tmpdir(), "voxgate-cli-test-"));
    const assistant = await createAssistant(t, owner);
    const scenarios = t.app.services.testScenarios;
    // The fake model echoes: "Echo: <the customer's message>".
    const greets = await scenarios.create(owner.accountId, {
      assistantId: assistant.id,
      name: "Greets back",
      script: ["Hello"],
      checks: [{ kind: "transcript_contains", phrase: "Echo: Hello" }],
    });
    const farewell = await scenarios.create(owner.accountId, {
      assistantId: assistant.id,
      name: "Says <goodbye> & means it",
      script: ["Bye"],
      checks: [{ kind: "transcript_contains", phrase: "Goodbye" }],
    });
    // The same, as a test call through the voice engine.
    const greetsByPhone = await scenarios.create(owner.accountId, {
      assistantId: assistant.id,
      name: "Greets back by phone",
      channel: "phone",
      script: ["Hello"],
      checks: [
        { kind: "transcript_contains", phrase: "Echo: Hello" },
        { kind: "ended_by", by: "customer" },
      ],
    });
    passingSuite = (
      await scenarios.createSuite(owner.accountId, {
        name: "Green",
        scenarioIds: [greets.id, greetsByPhone.id],
      })
    ).id;
    failingSuite = (
      await scenarios.createSuite(owner.accountId, { name: "Red", scenarioIds: [greets.id, farewell.id] })
    ).id;
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await model?.close();
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  /** Runs the CLI; resolves with its exit code and output whatever the code. */
  async function voxgateTest(args: string[]) {
    try {
      const { stdout } = await run(process.execPath, ["--import", "tsx", "src/cli.ts", "test", ...args], {
        cwd: serverDir,
        env: { ...process.env, VOXGATE_URL: t.url, VOXGATE_API_KEY: owner.apiKey },
      });
      return { code: 0, stdout };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  it("exits 0 when every scenario passed, and writes a JUnit report", async () => {
    const junit = join(directory, "green.xml");
    const result = await voxgateTest(["--suite", String(passingSuite), "--junit", junit, "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).run).toMatchObject({ status: "passed", total: 2, passed: 2 });
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain(`<testsuites name="voxgate" tests="2" failures="0" errors="0"`);
    expect(xml).toMatch(/<testcase classname="voxgate\.suite\d+" name="Greets back" time="[\d.]+"\/>/);
    expect(xml).toMatch(
      /<testcase classname="voxgate\.suite\d+" name="Greets back by phone" time="[\d.]+"\/>/,
    );
  }, 60_000);

  it("exits 1 on a failed scenario, and the JUnit report says which check failed and why", async () => {
    const junit = join(directory, "red.xml");
    const result = await voxgateTest(["--suite", String(failingSuite), "--junit", junit]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("failed: Says <goodbye> & means it");
    const xml = await readFile(junit, "utf8");
    expect(xml).toContain(`tests="2" failures="1" errors="0"`);
    expect(xml).toContain(`name="Greets back"`);
    expect(xml).toContain(`name="Says &lt;goodbye&gt; &amp; means it"`);
    expect(xml).toContain(
      `<failure message="assistant's lines contain &quot;Goodbye&quot;: not found" type="failed">`,
    );
    expect(xml).toContain("customer: Bye\nassistant: Echo: Bye");
  }, 60_000);

  it("refuses without a suite or a key, with exit code 1 and what to set", async () => {
    const result = await voxgateTest([]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("--suite takes the suite's id.");
  }, 60_000);
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

  it("audit:export writes the account's whole audit log as JSON lines, oldest first, past one batch", async () => {
    const email = "audited@example.com";
    const { account } = await t.app.services.accounts.create({ email, password: "an-audited-password" });
    expect((await login(email, "an-audited-password")).data?.login.token).toEqual(expect.any(String));
    // Past one batch (AUDIT_PAGE_MAX) of the export; another account's entries stay out of it.
    const start = Date.now() - 3_600_000;
    await t.app.db.prisma.auditEntry.createMany({
      data: Array.from({ length: 450 }, (_, index) => ({
        accountId: account.id,
        actorKind: "system",
        action: "retention.swept",
        targetType: "Account",
        targetId: String(account.id),
        details: { index },
        at: new Date(start + index * 1000),
      })),
    });
    const other = await t.app.services.accounts.create({
      email: "other-audited@example.com",
      password: "x-password-1",
    });
    await login("other-audited@example.com", "x-password-1");
    const file = join(dataDir, "audit.jsonl");
    const written = await cli("audit:export", "--account", String(account.id), "--out", file);
    expect(written).toEqual({ code: 0, output: { entries: 451, file } });
    const lines = (await readFile(file, "utf8")).trimEnd().split("\n");
    const entries = lines.map(
      (line) =>
        JSON.parse(line) as {
          id: number;
          accountId: number;
          action: string;
          at: string;
          details: { index?: number };
        },
    );
    expect(entries).toHaveLength(451);
    expect(entries.every((entry) => entry.accountId === account.id)).toBe(true);
    expect(entries[0]).toMatchObject({ action: "account.signed_in", actorKind: "user" });
    expect(entries.slice(1).map((entry) => entry.details.index)).toEqual(
      Array.from({ length: 450 }, (_, i) => i),
    );
    const ids = entries.map((entry) => entry.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(451);

    const refused = await cli("audit:export", "--account", String(other.account.id + 1000));
    expect(refused).toEqual({
      code: 1,
      output: { error: { code: "NOT_FOUND", message: "Account not found." } },
    });
  });
});
