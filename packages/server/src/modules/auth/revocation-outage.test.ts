import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startRedis } from "../../../test/support/services.ts";
import { subscribeWs } from "../../../test/support/subscriptions.ts";
import {
  freshDatabase,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";

const BALANCE_CHANGED = `subscription { balanceChanged { id balance } }`;
/** Far longer than the test: a credential refused here was not served from a cache. */
const LONG_TTL = { VOXGATE_CREDENTIAL_CACHE_SECONDS: "600" };

/** Polls until `holds`: Redis clients notice a lost or returned server on their own schedule. */
async function eventually(holds: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 300 && !(await holds()); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function viewerOf(app: TestApp, token: string): Promise<string> {
  const response = await app.gql<{ viewer: { email: string } | null }>(`{ viewer { email } }`, {}, { token });
  if (response.data?.viewer) return response.data.viewer.email;
  return `refused: ${String(response.errors?.[0]?.extensions?.reason)}`;
}

// Two instances need one database: PGlite belongs to one process, so this is PostgreSQL's case.
describe.runIf(testDatabaseKind() === "postgres")("revocations while Redis is down (two instances)", () => {
  let redis: RunningService;
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let revoked: TestAccount;
  let other: TestAccount;
  /** Events A could not hand to Redis (its client gives up on them after a few reconnect attempts). */
  let lostOnA = 0;

  beforeAll(async () => {
    // A Redis of its own: stopping it leaves the other files' Redis alone.
    redis = await startRedis();
    database = await freshDatabase();
    const env = { REDIS_URL: redis.url, ...LONG_TTL };
    const silent = () => {};
    a = await startTestApp({
      database: database.target,
      env,
      logger: {
        debug: silent,
        info: silent,
        warn: silent,
        error: (message) => {
          if (message === "redis event delivery failed") lostOnA++;
        },
      },
    });
    b = await startTestApp({ database: database.target, env });
    revoked = await a.createAccount();
    other = await a.createAccount();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await database?.drop();
    await redis?.stop();
  });

  it("refuses a key deleted elsewhere at once, ends its stream on return, and carries events again", async () => {
    // B has the key cached, and streams with it and with another account's key.
    expect(await viewerOf(b, revoked.apiKey)).toBe(revoked.email);
    const stream = await subscribeWs<{ balanceChanged: { balance: string } }>(b.url, BALANCE_CHANGED, {
      connectionParams: { authorization: `Bearer ${revoked.apiKey}` },
    });
    const otherStream = await subscribeWs<{ balanceChanged: { balance: string } }>(b.url, BALANCE_CHANGED, {
      connectionParams: { authorization: `Bearer ${other.apiKey}` },
    });

    await redis.crash();
    await eventually(() => !a.app.eventBus.up && !b.app.eventBus.up);
    expect([a.app.eventBus.up, b.app.eventBus.up]).toEqual([false, false]);

    // Ready, and saying what runs locally meanwhile (a fleet is not drained at once).
    const ready = await b.rest("GET", "/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      status: "degraded",
      checks: { server: "ok", database: "ok", redis: "down" },
      degraded: { rateLimits: expect.stringMatching(/^local/) },
    });
    // Rate-limited operations still answer, counted in memory.
    expect(b.app.services.rateLimits.local).toBe(true);
    const login = await b.gql(`mutation($input: LoginInput!) { login(input: $input) { token } }`, {
      input: { email: revoked.email, password: "wrong" },
    });
    expect(login.errors?.[0]?.extensions?.code).toBe("INVALID_CREDENTIALS");

    // Deleted on A: the announcement cannot reach B, which must not trust its cache meanwhile.
    const keys = await a.gql<{ apiKeys: { id: number }[] }>(
      `{ apiKeys { id } }`,
      {},
      { token: revoked.apiKey },
    );
    const deleted = await a.gql(
      `mutation($id: Int!) { deleteApiKey(id: $id) { deletedId } }`,
      { id: keys.data!.apiKeys[0]!.id },
      { token: revoked.apiKey },
    );
    expect(deleted.errors).toBeUndefined();
    expect(await viewerOf(b, revoked.apiKey)).toBe("refused: invalid");
    // The announcement is lost for good (not merely queued until Redis returns): only B's own
    // reconciliation can end the stream.
    await eventually(() => lostOnA > 0);
    expect(lostOnA).toBeGreaterThan(0);

    await redis.restart();
    await eventually(() => a.app.eventBus.up && b.app.eventBus.up);
    expect([a.app.eventBus.up, b.app.eventBus.up]).toEqual([true, true]);

    // B reconciled on the bus's return: the revoked key's stream ended with why.
    const last = await stream.next(30_000);
    expect(last.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED", reason: "revoked" });

    // Events cross instances again, to a stream opened before the outage.
    a.app.pubsub.publish("account:balance", other.accountId, { accountId: other.accountId });
    const event = await otherStream.next(30_000);
    expect(event.data?.balanceChanged.balance).toBeDefined();
    const readyAgain = async () => ((await b.rest("GET", "/readyz")).body as { status: string }).status;
    await eventually(async () => (await readyAgain()) === "ready");
    expect(await readyAgain()).toBe("ready");

    await Promise.all([stream.close(), otherStream.close()]);
  }, 120_000);
});
