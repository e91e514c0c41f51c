import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { hashPassword, verifyPassword } from "./password.ts";
import { hashToken, mintToken, parseToken, tokenMatches } from "./tokens.ts";

const FORMAT_A = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const VIEWER = `{ viewer { email account { id } } }`;

let t: TestApp;
let alice: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.createAccount();
});
afterAll(() => t?.close());

async function login(email: string, password: string) {
  return t.rest<{ token: string; token_type: string; expires_at: string; user: { email: string } }>(
    "POST",
    "/api/login",
    { body: { email, password } },
  );
}

/** Asserts that a credential is refused the same way over REST and GraphQL. */
async function expectRefused(authorization: string | undefined, reason: string) {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  const rest = await t.rest("GET", "/api/user/api-keys", { headers });
  expect(rest.status).toBe(401);
  expect(rest.headers.get("content-type")).toContain("application/json");
  expect(rest.body).toEqual({ message: "Unauthenticated." });
  const graphql = await t.gql(VIEWER, {}, { headers });
  expect(graphql.data).toBeNull();
  expect(graphql.errors?.[0]?.extensions).toEqual({ code: "UNAUTHENTICATED", reason });
}

describe("login and logout", () => {
  it("issues a session token over REST that works until logout revokes it", async () => {
    const response = await login(alice.email, alice.password);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      message: "Logged in successfully.",
      token_type: "Bearer",
      user: { email: alice.email },
    });
    expect(response.body.token).toMatch(/^vgs_[0-9A-Za-z]{44}$/);
    expect(response.body.expires_at).toMatch(FORMAT_A);
    const expiresIn = Date.parse(response.body.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(167 * 3_600_000);
    expect(expiresIn).toBeLessThanOrEqual(168 * 3_600_000);

    const session = response.body.token;
    const viewer = await t.gql<{ viewer: { email: string; account: { id: number } } }>(
      VIEWER,
      {},
      { token: session },
    );
    expect(viewer.data?.viewer).toEqual({ email: alice.email, account: { id: alice.accountId } });
    // A session may create API keys, as the spec requires.
    expect(
      (await t.rest("POST", "/api/user/api-keys", { token: session, body: { name: "from session" } })).status,
    ).toBe(201);

    const logout = await t.rest("POST", "/api/logout", { token: session });
    expect(logout).toMatchObject({ status: 200, body: { message: "Logged out successfully." } });
    await expectRefused(`Bearer ${session}`, "revoked");
  });

  it("logs in and out over GraphQL", async () => {
    const response = await t.gql<{ login: { token: string; tokenType: string; viewer: { email: string } } }>(
      `mutation($input: LoginInput!) { login(input: $input) { token tokenType viewer { email } } }`,
      { input: { email: alice.email.toUpperCase(), password: alice.password } },
    );
    expect(response.data?.login.viewer.email).toBe(alice.email);
    const session = response.data!.login.token;
    const logout = await t.gql<{ logout: { revoked: boolean } }>(
      `mutation { logout { revoked } }`,
      {},
      { token: session },
    );
    expect(logout.data?.logout.revoked).toBe(true);
    await expectRefused(`Bearer ${session}`, "revoked");
  });

  it("answers a wrong password and an unknown email alike", async () => {
    const wrongPassword = await login(alice.email, "not-the-password");
    const unknownEmail = await login("nobody@example.com", "whatever-password");
    for (const response of [wrongPassword, unknownEmail]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ message: "These credentials do not match our records." });
    }
    const graphql = await t.gql(
      `mutation { login(input: { email: "nobody@example.com", password: "x" }) { token } }`,
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe("INVALID_CREDENTIALS");
  });

  it("validates the login body field by field", async () => {
    const response = await t.rest("POST", "/api/login", { body: { email: "not-an-email" } });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ errors: { password: ["The password field is required."] } });
    const invalidEmail = await t.rest("POST", "/api/login", {
      body: { email: "not-an-email", password: "x" },
    });
    expect(invalidEmail.body).toEqual({
      message: "The email field must be a valid email address.",
      errors: { email: ["The email field must be a valid email address."] },
    });
  });

  it("refuses to log out an API key, which is revoked by deleting it", async () => {
    const response = await t.rest("POST", "/api/logout", { token: alice.apiKey });
    expect(response.status).toBe(400);
    expect((await t.rest("GET", "/api/user/api-keys", { token: alice.apiKey })).status).toBe(200);
  });
});

describe("bad credentials", () => {
  it("refuses a missing credential", () => expectRefused(undefined, "missing"));

  it("refuses malformed headers and tokens", async () => {
    for (const header of [
      "Basic dXNlcjpwYXNz",
      "Bearer",
      "Bearer ",
      "Bearer not-a-token",
      `Token ${alice.apiKey}`,
    ]) {
      await expectRefused(header, "malformed");
    }
    await expectRefused(`Bearer ${alice.apiKey}x`, "malformed");
  });

  it("refuses well-formed tokens that were never issued", async () => {
    await expectRefused(`Bearer ${mintToken("apiKey").token}`, "invalid");
    await expectRefused(`Bearer ${mintToken("session").token}`, "invalid");
    // The right lookup id with a wrong secret must not pass.
    const forged = `${alice.apiKey.slice(0, 16)}${mintToken("apiKey").token.slice(16)}`;
    await expectRefused(`Bearer ${forged}`, "invalid");
  });

  it("refuses a deleted API key", async () => {
    const other = await t.createAccount();
    const key = await t.app.db.prisma.apiKey.findFirstOrThrow({ where: { accountId: other.accountId } });
    await t.rest("DELETE", `/api/user/api-keys/${key.id}`, { token: other.apiKey });
    await expectRefused(`Bearer ${other.apiKey}`, "invalid");
  });

  it("refuses an expired session", async () => {
    const session = (await login(alice.email, alice.password)).body.token;
    await t.app.db.prisma.sessionToken.updateMany({
      where: { lookupId: parseToken(session)!.lookupId },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    await expectRefused(`Bearer ${session}`, "expired");
  });
});

describe("credential bookkeeping", () => {
  it("records last use without writing on every request", async () => {
    const account = await t.createAccount();
    const keyRow = () => t.app.db.prisma.apiKey.findFirstOrThrow({ where: { accountId: account.accountId } });
    expect((await keyRow()).lastUsedAt).toBeNull();
    await t.rest("GET", "/api/user/api-keys", { token: account.apiKey });
    const firstUse = (await keyRow()).lastUsedAt;
    expect(firstUse).toBeInstanceOf(Date);

    // Clear it behind the server's back: requests within the next minute must not write it again.
    await t.app.db.prisma.apiKey.updateMany({
      where: { accountId: account.accountId },
      data: { lastUsedAt: null },
    });
    for (let i = 0; i < 3; i++) await t.rest("GET", "/api/user/api-keys", { token: account.apiKey });
    expect((await keyRow()).lastUsedAt).toBeNull();
  });
});

describe("token and password primitives", () => {
  it("mints recognisable, unique tokens and checks them against their hash only", () => {
    const tokens = Array.from({ length: 200 }, () => mintToken("apiKey"));
    expect(new Set(tokens.map((minted) => minted.token)).size).toBe(200);
    const { token, lookupId, tokenHash } = tokens[0]!;
    expect(parseToken(token)).toEqual({ kind: "apiKey", lookupId });
    expect(tokenHash).toBe(hashToken(token));
    expect(tokenMatches(token, tokenHash)).toBe(true);
    expect(tokenMatches(tokens[1]!.token, tokenHash)).toBe(false);
    expect(tokenMatches(token, "00")).toBe(false);
  });

  it("hashes passwords with salted scrypt", async () => {
    const first = await hashPassword("correct horse battery staple");
    const second = await hashPassword("correct horse battery staple");
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(await verifyPassword("correct horse battery staple", first)).toBe(true);
    expect(await verifyPassword("correct horse battery stapler", first)).toBe(false);
    expect(await verifyPassword("anything", "md5$abc")).toBe(false);
  });
});
