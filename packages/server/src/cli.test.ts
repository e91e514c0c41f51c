import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { subscribeWs } from "../test/support/subscriptions.ts";
import {
  freshDatabase,
  ownRateLimitKeys,
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
