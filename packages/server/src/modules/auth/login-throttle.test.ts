import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freshDatabase,
  ownRateLimitKeys,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";

const LIMITS = {
  VOXGATE_LOGIN_FAILURES_PER_EMAIL: "3",
  VOXGATE_LOGIN_FAILURES_PER_ADDRESS: "8",
  VOXGATE_LOGIN_WINDOW_SECONDS: "900",
};
const THROTTLED = { message: "Too many failed login attempts. Please try again later." };
const LOGIN = `mutation($input: LoginInput!) { login(input: $input) { token } }`;

// Each test gets its own app: the per-address budget (every request comes from 127.0.0.1) is what they spend.
const apps: TestApp[] = [];
async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const started = await startTestApp({ env: { ...LIMITS, ...env } });
  apps.push(started);
  return started;
}
afterAll(async () => {
  for (const started of apps) await started.close();
});

const login = (t: TestApp, email: string, password: string) =>
  t.rest<Record<string, unknown>>("POST", "/api/login", { body: { email, password } });

const unknownEmail = () => `nobody-${randomBytes(4).toString("hex")}@example.com`;

// Every login hashes a password with scrypt (tens of MB, CPU-bound): a test makes up to a dozen, one
// after another, which on a loaded two-core machine passes the default 30 s without anything being wrong.
const SCRYPT_BOUND = { timeout: 120_000 };

describe("login throttling", SCRYPT_BOUND, () => {
  let t: TestApp;
  let alice: TestAccount;
  beforeAll(async () => {
    t = await app();
    alice = await t.createAccount();
  });

  it("refuses an email after its failures with 429 and Retry-After, even with the right password", async () => {
    for (let i = 0; i < 3; i++) expect((await login(t, alice.email, "wrong")).status).toBe(401);
    const refused = await login(t, alice.email, alice.password);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(THROTTLED);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(900);
    // The email's case does not give a fresh budget.
    expect((await login(t, alice.email.toUpperCase(), alice.password)).status).toBe(429);

    const graphql = await fetch(`${t.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: LOGIN, variables: { input: { email: alice.email, password: "x" } } }),
    });
    const body = (await graphql.json()) as { errors: { message: string; extensions: unknown }[] };
    expect(body.errors[0]).toMatchObject({
      message: THROTTLED.message,
      extensions: { code: "RATE_LIMITED", retryAfter: expect.any(Number) },
    });
    expect(Number(graphql.headers.get("retry-after"))).toBeGreaterThan(0);
  });
});

describe("login throttling budgets", SCRYPT_BOUND, () => {
  it("clears an email's failures on success, but not the address's", async () => {
    const t = await app();
    const bob = await t.createAccount();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < 2; i++) expect((await login(t, bob.email, "wrong")).status).toBe(401);
      expect((await login(t, bob.email, bob.password)).status).toBe(200);
    }
    // Four failures so far from this address, whose budget is 8: four more are answered, then 429.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await login(t, unknownEmail(), "wrong")).status);
    expect(statuses).toEqual([401, 401, 401, 401, 429]);
    expect((await login(t, bob.email, bob.password)).status).toBe(429);
  });

  it("counts parallel guesses: no more are checked than the budget allows", async () => {
    const t = await app();
    const carol = await t.createAccount();
    const statuses = await Promise.all(
      Array.from({ length: 12 }, async () => (await login(t, carol.email, "wrong")).status),
    );
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(9);
  });

  it("lets the owner back in once the window has passed", async () => {
    const t = await app({ VOXGATE_LOGIN_WINDOW_SECONDS: "2" });
    const dave = await t.createAccount();
    // Four guesses at once against a budget of three: all are counted (before any password check)
    // within the 2 s window, however slow each answer is. One after another, on a loaded machine,
    // each window could end before the third failure and nothing would ever be refused.
    let refused: Awaited<ReturnType<typeof login>> | undefined;
    for (let round = 0; round < 5 && !refused; round++) {
      const responses = await Promise.all(Array.from({ length: 4 }, () => login(t, dave.email, "wrong")));
      refused = responses.find((response) => response.status === 429);
    }
    expect(refused).toBeDefined();
    const retryAfter = Number(refused!.headers.get("retry-after"));
    await new Promise((resolve) => setTimeout(resolve, (retryAfter + 1) * 1000));
    expect((await login(t, dave.email, dave.password)).status).toBe(200);
  });

  it("holds across instances sharing Redis (postgres project)", async () => {
    if (testDatabaseKind() === "pglite") return;
    const database = await freshDatabase();
    const sharedKeys = ownRateLimitKeys();
    const env = { ...LIMITS, ...sharedKeys };
    const first = await startTestApp({ env, database: database.target });
    const second = await startTestApp({ env, database: database.target });
    try {
      const erin = await first.createAccount();
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) {
        statuses.push((await login(i % 2 === 0 ? first : second, erin.email, "wrong")).status);
      }
      expect(statuses).toEqual([401, 401, 401, 429]);
      expect((await login(first, erin.email, erin.password)).status).toBe(429);
      expect((await login(second, erin.email, erin.password)).status).toBe(429);
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});
