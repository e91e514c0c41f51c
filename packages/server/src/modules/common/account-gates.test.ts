import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningService, startRedis } from "../../../test/support/services.ts";
import {
  freshDatabase,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";
import type { Logger } from "../../logger.ts";
import { INSIGHTS_CONCURRENCY } from "../insights/index.ts";

const OVERVIEW = `query ($period: InsightsPeriod!) { insights(period: $period) { from } }`;
const PERIOD = { from: "2026-11-01T00:00:00.000Z", to: "2026-11-08T00:00:00.000Z" };
const REFUSED_OVERVIEW = {
  code: "RATE_LIMITED",
  retryAfter: 1,
  message: `At most ${INSIGHTS_CONCURRENCY} overviews of an account are computed at once. Try again in a moment.`,
};
const REFUSED_EXPORT = {
  code: "RATE_LIMITED",
  message:
    "An export of this account's calls is already running: at most 1 at a time. Try again when it has finished.",
};

/** The Overview as the console asks for it: its start, or the refusal's code, retryAfter and message. */
async function overview(app: TestApp, account: TestAccount): Promise<string | Record<string, unknown>> {
  const answer = await app.gql<{ insights: { from: string } }>(
    OVERVIEW,
    { period: PERIOD },
    { token: account.apiKey },
  );
  if (answer.data?.insights) return answer.data.insights.from;
  const error = answer.errors?.[0];
  return {
    code: error?.extensions?.code,
    retryAfter: error?.extensions?.retryAfter,
    message: error?.message,
  };
}

/** An export started in process: its body is read only as it is asked for, so it holds its place meanwhile. */
function startExport(app: TestApp, account: TestAccount): Promise<Response> {
  return app.app.handle(
    new Request("http://voxgate.test/exports/calls.csv", {
      headers: { authorization: `Bearer ${account.apiKey}` },
    }),
  );
}

/** Polls until `holds`: Redis clients notice a lost or returned server, and leases expire, on their own schedule. */
async function eventually(holds: () => boolean | Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 300 && !(await holds()); attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("read gates without Redis", () => {
  it("keep an account's places in this process: the Overview's third at once is RATE_LIMITED", async () => {
    const t = await startTestApp({ env: { REDIS_URL: "" } });
    try {
      expect(t.app.services.readGates.store).toBe("memory");
      const account = await t.createAccount();
      const other = await t.createAccount();
      const gate = t.app.services.insightsGate;
      const held = await Promise.all([gate.enter(account.accountId), gate.enter(account.accountId)]);
      expect(held.every((release) => release !== null)).toBe(true);
      expect(await overview(t, account)).toEqual(REFUSED_OVERVIEW);
      expect(await overview(t, other)).toBe(PERIOD.from);
      held[0]!();
      held[0]!();
      expect(await overview(t, account)).toBe(PERIOD.from);
      held[1]!();
    } finally {
      await t.close();
    }
  });
});

// Two instances need one database: PGlite belongs to one process, so this is PostgreSQL's case (with the
// suite's Redis, which CI installs).
describe.runIf(testDatabaseKind() === "postgres")("read gates across instances sharing Redis", () => {
  /** Short, so that a dead instance's place comes back within the test; renewed every third of it. */
  const env = { VOXGATE_READ_LEASE_SECONDS: "3" };
  let database: Awaited<ReturnType<typeof freshDatabase>>;
  let a: TestApp;
  let b: TestApp;
  let account: TestAccount;
  let other: TestAccount;
  let redis: Redis;

  beforeAll(async () => {
    database = await freshDatabase();
    // Apps over one database are one deployment's instances: they share a Redis key prefix.
    a = await startTestApp({ database: database.target, env });
    b = await startTestApp({ database: database.target, env });
    account = await a.createAccount();
    other = await a.createAccount();
    redis = new Redis(a.app.config.redisUrl!);
  }, 60_000);
  afterAll(async () => {
    redis?.disconnect();
    await Promise.all([a?.close(), b?.close()]);
    await database?.drop();
  });

  it("the Overview's places are the account's on every instance", async () => {
    expect([a.app.services.readGates.store, b.app.services.readGates.local]).toEqual(["redis", false]);
    const gate = a.app.services.insightsGate;
    const held = [await gate.enter(account.accountId), await gate.enter(account.accountId)];
    expect(held.every((release) => release !== null)).toBe(true);
    expect(await gate.enter(account.accountId)).toBeNull();
    // Both places are taken on A: B refuses the account a third, as A would.
    expect(await overview(b, account)).toEqual(REFUSED_OVERVIEW);
    expect(await overview(a, account)).toEqual(REFUSED_OVERVIEW);
    expect(await overview(b, other)).toBe(PERIOD.from);
    held[0]!();
    held[0]!();
    expect(await overview(b, account)).toBe(PERIOD.from);
    expect(await overview(b, account)).toBe(PERIOD.from);
    held[1]!();
    const both = await Promise.all([overview(a, account), overview(b, account)]);
    expect(both).toEqual([PERIOD.from, PERIOD.from]);
  });

  it("a second export of an account on the other instance answers 429 with Retry-After until the first ends", async () => {
    const first = await startExport(a, account);
    expect(first.status).toBe(200);
    const refused = await b.rest("GET", "/exports/calls.csv", { token: account.apiKey });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("5");
    expect(refused.body).toEqual(REFUSED_EXPORT);
    expect((await b.rest("GET", "/exports/calls.csv", { token: other.apiKey })).status).toBe(200);
    await first.text();
    const next = await b.rest<string>("GET", "/exports/calls.csv", { token: account.apiKey });
    expect(next.status).toBe(200);
    expect(next.body.split("\r\n")[0]).toMatch(/^id,created_at,/);
  });

  it("a running export renews its lease; a dead instance's place stops counting once its lease expires", async () => {
    const key = `${a.app.config.redisKeyPrefix}:read-gate:call-exports:${account.accountId}`;
    const redisNow = async () => {
      const [seconds, micros] = await redis.time();
      return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    };
    const doomed = await startTestApp({ database: database.target, env });
    let closed = false;
    try {
      const held = await startExport(doomed, account);
      expect(held.status).toBe(200);
      const [lease, expiry] = await redis.zrange(key, 0, -1, "WITHSCORES");
      expect(lease).toBeDefined();
      // Past the lease's first expiry it still counts: the instance renewed it while the export ran.
      await eventually(async () => (await redisNow()) > Number(expiry));
      expect(await redisNow()).toBeGreaterThan(Number(expiry));
      expect((await a.rest("GET", "/exports/calls.csv", { token: account.apiKey })).status).toBe(429);
      expect(Number(await redis.zscore(key, lease!))).toBeGreaterThan(Number(expiry));

      // The instance goes away without giving its place back (its export never ends): no renewals.
      await doomed.close();
      closed = true;
      expect(await redis.zscore(key, lease!)).not.toBeNull();
      let status = 429;
      await eventually(async () => {
        status = (await a.rest("GET", "/exports/calls.csv", { token: account.apiKey })).status;
        return status !== 429;
      });
      expect(status).toBe(200);
      // Dropped by the acquire that found it expired; the export that took its place has ended too.
      expect(await redis.zcard(key)).toBe(0);
    } finally {
      if (!closed) await doomed.close();
    }
  });
});

// A Redis of its own: stopping it leaves the other files' Redis alone.
describe.runIf(testDatabaseKind() === "postgres")("read gates while Redis is away", () => {
  let redis: RunningService;
  let t: TestApp;
  let account: TestAccount;
  const lines: { level: string; message: string }[] = [];
  const logger: Logger = {
    debug: () => {},
    info: (message) => lines.push({ level: "info", message }),
    warn: (message) => lines.push({ level: "warn", message }),
    error: (message) => lines.push({ level: "error", message }),
  };
  const logged = (message: string) => lines.filter((line) => line.message.startsWith(message));

  beforeAll(async () => {
    redis = await startRedis();
    t = await startTestApp({ env: { REDIS_URL: redis.url }, logger });
    account = await t.createAccount();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it("admits in process at once when Redis hangs or stops, says so in the log, and counts in Redis again once back", async () => {
    const gates = t.app.services.readGates;
    expect(gates.local).toBe(false);
    expect(await overview(t, account)).toBe(PERIOD.from);

    // A Redis that does not answer: the read does not wait on it beyond one short command timeout.
    process.kill(redis.pid, "SIGSTOP");
    try {
      expect(await overview(t, account)).toBe(PERIOD.from);
    } finally {
      process.kill(redis.pid, "SIGCONT");
    }
    expect(logged("read gates: redis unavailable")).toEqual([
      {
        level: "warn",
        message: "read gates: redis unavailable; limits on expensive reads hold per instance",
      },
    ]);
    expect(await overview(t, account)).toBe(PERIOD.from);
    expect(logged("read gates: redis back")).toHaveLength(1);

    // A place held in Redis when it stops: giving it back fails quietly, and the lease expires there.
    const inRedis = await t.app.services.insightsGate.enter(account.accountId);
    expect(inRedis).not.toBeNull();
    await redis.crash();
    await eventually(() => gates.local);
    expect(gates.local).toBe(true);
    // An earlier read's release, sent after its answer, may meet the stopped Redis too and log its own line.
    const failedBefore = logged("read gates: release failed").length;
    inRedis!();
    await eventually(() => logged("read gates: release failed").length > failedBefore);
    expect(logged("read gates: release failed").length).toBeGreaterThan(failedBefore);

    // Not failing open: the in-process places still limit the account, and free places still serve.
    const held = [
      await t.app.services.insightsGate.enter(account.accountId),
      await t.app.services.insightsGate.enter(account.accountId),
    ];
    expect(held.every((release) => release !== null)).toBe(true);
    expect(await overview(t, account)).toEqual(REFUSED_OVERVIEW);
    for (const release of held) release!();
    expect(await overview(t, account)).toBe(PERIOD.from);
    const exported = await t.rest("GET", "/exports/calls.csv", { token: account.apiKey });
    expect(exported.status).toBe(200);
    expect(logged("read gates: redis unavailable")).toHaveLength(2);

    await redis.restart();
    await eventually(() => !gates.local);
    expect(gates.local).toBe(false);
    expect(await overview(t, account)).toBe(PERIOD.from);
    expect(logged("read gates: redis back")).toHaveLength(2);
    expect(logged("read gates: a running read lost its lease")).toEqual([]);
  });
});
