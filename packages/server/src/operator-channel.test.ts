import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscribeWs } from "../test/support/subscriptions.ts";
import {
  pgliteTemplate,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../test/support/test-app.ts";

const run = promisify(execFile);
const serverDir = join(import.meta.dirname, "..");

let dataDir: string;
let t: TestApp;
let alice: TestAccount;

/** The CLI as an operator runs it, in its own process, on the data directory the server holds. */
function cli(...args: string[]) {
  return run(process.execPath, ["--import", "tsx", "src/cli.ts", ...args, "--json"], {
    cwd: serverDir,
    env: { ...process.env, VOXGATE_DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" },
  }).then(
    ({ stdout }) => ({ code: 0, output: JSON.parse(stdout) as Record<string, never> }),
    (error: { code: number; stdout: string }) => ({
      code: error.code,
      output: JSON.parse(error.stdout) as Record<string, never>,
    }),
  );
}

// The embedded store's own behaviour: once, in the project that runs on it.
describe.runIf(testDatabaseKind() === "pglite")(
  "the CLI while a server holds the embedded store",
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), "voxgate-cli-"));
      // From the suite's migrated template: a fresh on-disk store would spend seconds migrating.
      const loadDataDir = pgliteTemplate();
      t = await startTestApp({ database: { kind: "pglite", dataDir, loadDataDir } });
      alice = await t.createAccount({ balance: "1" });
    });
    afterAll(async () => {
      await t?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("tops an account up through the running server, which announces the new balance", async () => {
      expect(statSync(join(dataDir, "operator")).mode & 0o777).toBe(0o700);
      expect(statSync(join(dataDir, "operator", "cli.sock")).mode & 0o777).toBe(0o600);
      const balance = await subscribeWs<{ balanceChanged: { balance: string } }>(
        t.url,
        `subscription { balanceChanged { balance } }`,
        { connectionParams: { authorization: `Bearer ${alice.apiKey}` } },
      );
      try {
        const credited = await cli("balance:credit", "--email", alice.email, "--amount", "4.5");
        expect(credited).toEqual({
          code: 0,
          output: { account: { id: alice.accountId, balance: "5.5000" } },
        });
        expect((await balance.next()).data?.balanceChanged.balance).toBe("5.5000");
      } finally {
        await balance.close();
      }

      const created = await cli(
        "accounts:create",
        "--email",
        "ops@example.com",
        "--password",
        "long-enough",
        "--operator",
      );
      expect(created.output).toMatchObject({
        account: { isOperator: true },
        user: { email: "ops@example.com" },
      });
      const ADMIN = `{ platformAccounts(search: "ops@example.com") { items { ownerEmail } } }`;
      expect((await t.gql(ADMIN, {}, { token: alice.apiKey })).errors?.[0]?.extensions?.code).toBe(
        "FORBIDDEN",
      );
      const granted = await cli("accounts:grant-operator", "--email", alice.email);
      expect(granted.output).toEqual({
        account: { id: alice.accountId, name: expect.any(String), isOperator: true },
      });
      const admitted = await t.gql(ADMIN, {}, { token: alice.apiKey });
      expect(admitted.data).toEqual({ platformAccounts: { items: [{ ownerEmail: "ops@example.com" }] } });
      const revoked = await cli("accounts:revoke-operator", "--email", alice.email);
      expect(revoked.output).toMatchObject({ account: { id: alice.accountId, isOperator: false } });
      // The same API key, cached by the server: the role is read on every call.
      expect((await t.gql(ADMIN, {}, { token: alice.apiKey })).errors?.[0]?.extensions?.code).toBe(
        "FORBIDDEN",
      );
      const unknown = await cli("accounts:grant-operator", "--email", "nobody@example.com");
      expect(unknown).toEqual({
        code: 1,
        output: { error: { code: "NOT_FOUND", message: "User not found." } },
      });

      const refused = await cli("balance:credit", "--email", alice.email);
      expect(refused).toEqual({
        code: 1,
        output: { error: { code: "VALIDATION_FAILED", message: "amount: --amount is required." } },
      });
    });
  },
);
