import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  freshDatabase,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";
import { parseToken } from "./tokens.ts";

const VIEWER = `{ viewer { email } }`;
/** Far longer than any test: a credential refused here was dropped from the cache, not aged out. */
const LONG_TTL = { VOXGATE_CREDENTIAL_CACHE_SECONDS: "600" };

/** What a GraphQL request with this token answers: the viewer's email, or the refusal's reason. */
async function viewerOf(app: TestApp, token: string): Promise<string> {
  const response = await app.gql<{ viewer: { email: string } | null }>(VIEWER, {}, { token });
  if (response.data?.viewer) return response.data.viewer.email;
  return `refused: ${String(response.errors?.[0]?.extensions?.reason)}`;
}

async function login(app: TestApp, account: TestAccount): Promise<string> {
  const response = await app.gql<{ login: { token: string } }>(
    `mutation($input: LoginInput!) { login(input: $input) { token } }`,
    { input: { email: account.email, password: account.password } },
  );
  return response.data!.login.token;
}

async function deleteOwnKey(app: TestApp, token: string): Promise<void> {
  const listed = await app.gql<{ apiKeys: { id: number }[] }>(`{ apiKeys { id } }`, {}, { token });
  const deleted = await app.gql(
    `mutation($id: Int!) { deleteApiKey(id: $id) { deletedId } }`,
    { id: listed.data!.apiKeys[0]!.id },
    { token },
  );
  expect(deleted.errors).toBeUndefined();
}

describe("credential cache on one instance", () => {
  let cached: TestApp;
  let uncached: TestApp;

  beforeAll(async () => {
    [cached, uncached] = await Promise.all([
      startTestApp({ env: LONG_TTL }),
      startTestApp({ env: { VOXGATE_CREDENTIAL_CACHE_SECONDS: "0" } }),
    ]);
  });
  afterAll(() => Promise.all([cached?.close(), uncached?.close()]));

  it("serves a credential it has seen without the database, and not when turned off", async () => {
    for (const [app, afterRowGone] of [
      [cached, "cached"],
      [uncached, "refused: invalid"],
    ] as const) {
      const account = await app.createAccount();
      expect(await viewerOf(app, account.apiKey)).toBe(account.email);
      // Removed behind the server's back, announcing nothing: only a cached entry still answers.
      await app.app.db.prisma.apiKey.deleteMany({ where: { accountId: account.accountId } });
      const answer = await viewerOf(app, account.apiKey);
      expect(answer === account.email ? "cached" : answer).toBe(afterRowGone);
    }
  });

  it("refuses a cached API key as soon as it is deleted", async () => {
    const account = await cached.createAccount();
    expect(await viewerOf(cached, account.apiKey)).toBe(account.email);
    await deleteOwnKey(cached, account.apiKey);
    expect(await viewerOf(cached, account.apiKey)).toBe("refused: invalid");
  });

  it("refuses a cached session as soon as it logs out", async () => {
    const account = await cached.createAccount();
    const session = await login(cached, account);
    expect(await viewerOf(cached, session)).toBe(account.email);
    const logout = await cached.gql(`mutation { logout { revoked } }`, {}, { token: session });
    expect(logout.errors).toBeUndefined();
    expect(await viewerOf(cached, session)).toBe("refused: revoked");
  });

  it("never serves a cached session past its expiry", async () => {
    const account = await cached.createAccount();
    const session = await login(cached, account);
    const expiresAt = new Date(Date.now() + 1000);
    await cached.app.db.prisma.sessionToken.updateMany({
      where: { lookupId: parseToken(session)!.lookupId },
      data: { expiresAt },
    });
    expect(await viewerOf(cached, session)).toBe(account.email);
    // Waits for the expiry itself, not for a duration the server is assumed to take.
    while (Date.now() <= expiresAt.getTime()) await sleep(expiresAt.getTime() - Date.now() + 10);
    expect(await viewerOf(cached, session)).toBe("refused: expired");
  });
});

describe.skipIf(testDatabaseKind() !== "postgres")("credential cache across instances sharing Redis", () => {
  it("refuses a deleted key and a logged-out session on the other instance before the TTL", async () => {
    const database = await freshDatabase();
    const first = await startTestApp({ database: database.target, env: LONG_TTL });
    const second = await startTestApp({ database: database.target, env: LONG_TTL });
    try {
      const account = await first.createAccount();
      const session = await login(first, account);
      expect(await viewerOf(second, account.apiKey)).toBe(account.email);
      expect(await viewerOf(second, session)).toBe(account.email);

      // The revocation travels through Redis: the other instance hears it within moments, where
      // without it the entry would live for the whole TTL (ten minutes).
      await deleteOwnKey(first, account.apiKey);
      await expect.poll(() => viewerOf(second, account.apiKey), { timeout: 5000 }).toBe("refused: invalid");

      await first.gql(`mutation { logout { revoked } }`, {}, { token: session });
      await expect.poll(() => viewerOf(second, session), { timeout: 5000 }).toBe("refused: revoked");
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});
