import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  PUBLIC_BASE_URL,
  startTestApp,
  type TestAccount,
  type TestApp,
} from "../../../test/support/test-app.ts";
import { hashToken } from "../auth/tokens.ts";

const FORMAT_A = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.createAccount(), t.createAccount()]);
});
afterAll(() => t?.close());

describe("REST /api/user/api-keys", () => {
  it("creates a key, shows its token once and stores only a hash", async () => {
    const created = await t.rest<{
      message: string;
      api_key: { name: string; token: string; created_at: string };
    }>("POST", "/api/user/api-keys", { token: alice.apiKey, body: { name: "Zapier" } });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("API key created successfully.");
    expect(Object.keys(created.body.api_key).sort()).toEqual(["created_at", "name", "token"]);
    expect(created.body.api_key.name).toBe("Zapier");
    expect(created.body.api_key.token).toMatch(/^vgk_[0-9A-Za-z]{44}$/);
    expect(created.body.api_key.created_at).toMatch(FORMAT_A);

    const token = created.body.api_key.token;
    const row = await t.app.db.prisma.apiKey.findFirstOrThrow({ where: { name: "Zapier" } });
    expect(row.tokenHash).toBe(hashToken(token));
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(token.slice(16));

    const listed = await t.rest<{ api_keys: Record<string, unknown>[] }>("GET", "/api/user/api-keys", {
      token: alice.apiKey,
    });
    expect(listed.status).toBe(200);
    expect(JSON.stringify(listed.body)).not.toContain(token);
    const entry = listed.body.api_keys.find((key) => key.name === "Zapier")!;
    expect(Object.keys(entry).sort()).toEqual(["created_at", "id", "last_used_at", "name"]);
    expect(entry.last_used_at).toBeNull();

    // The new key works, and its first use is recorded.
    const withNewKey = await t.rest("GET", "/api/user/api-keys", { token });
    expect(withNewKey.status).toBe(200);
    const afterUse = await t.rest<{ api_keys: Record<string, unknown>[] }>("GET", "/api/user/api-keys", {
      token: alice.apiKey,
    });
    expect(afterUse.body.api_keys.find((key) => key.name === "Zapier")!.last_used_at).toMatch(FORMAT_A);
  });

  it("refuses a missing, empty, too long or non-string name with 422 and field messages", async () => {
    for (const [body, message] of [
      [{}, "The name field is required."],
      [{ name: "   " }, "The name field is required."],
      [{ name: 42 }, "The name field must be a string."],
      [{ name: "x".repeat(256) }, "The name field must not be greater than 255 characters."],
    ] as const) {
      const response = await t.rest("POST", "/api/user/api-keys", { token: alice.apiKey, body });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ message, errors: { name: [message] } });
    }
  });

  it("answers malformed JSON with 400 and loses nothing", async () => {
    const response = await fetch(`${t.url}/api/user/api-keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${alice.apiKey}`, "content-type": "application/json" },
      body: "{name:",
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "The request body is not valid JSON." });
  });

  it("keeps accounts apart: another account's key is not found, and lists never mix", async () => {
    const bobKeys = await t.rest<{ api_keys: { id: number }[] }>("GET", "/api/user/api-keys", {
      token: bob.apiKey,
    });
    const bobKeyId = bobKeys.body.api_keys[0]!.id;
    const aliceKeys = await t.rest<{ api_keys: { id: number }[] }>("GET", "/api/user/api-keys", {
      token: alice.apiKey,
    });
    expect(aliceKeys.body.api_keys.map((key) => key.id)).not.toContain(bobKeyId);

    const deleteOthers = await t.rest("DELETE", `/api/user/api-keys/${bobKeyId}`, { token: alice.apiKey });
    expect(deleteOthers.status).toBe(404);
    expect(deleteOthers.body).toEqual({ message: "API key not found." });
    expect((await t.rest("GET", "/api/user/api-keys", { token: bob.apiKey })).status).toBe(200);

    const graphql = await t.gql(
      `mutation($id: Int!) { deleteApiKey(id: $id) { deletedId } }`,
      { id: bobKeyId },
      {
        token: alice.apiKey,
      },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("deletes a key, after which it is refused", async () => {
    const created = await t.gql<{ createApiKey: { token: string; apiKey: { id: number } } }>(
      `mutation { createApiKey(input: { name: "temporary" }) { token apiKey { id } } }`,
      {},
      { token: alice.apiKey },
    );
    const { token, apiKey } = created.data!.createApiKey;
    expect((await t.rest("GET", "/api/user/api-keys", { token })).status).toBe(200);
    const deleted = await t.rest("DELETE", `/api/user/api-keys/${apiKey.id}`, { token: alice.apiKey });
    expect(deleted).toMatchObject({ status: 200, body: { message: "API key deleted successfully." } });
    const refused = await t.rest("GET", "/api/user/api-keys", { token });
    expect(refused).toMatchObject({ status: 401, body: { message: "Unauthenticated." } });
  });

  it("answers unknown ids and non-numeric ids with 404 and wrong methods with 405", async () => {
    expect((await t.rest("DELETE", "/api/user/api-keys/999999", { token: alice.apiKey })).status).toBe(404);
    expect((await t.rest("DELETE", "/api/user/api-keys/abc", { token: alice.apiKey })).status).toBe(404);
    const wrongMethod = await t.rest("PATCH", "/api/user/api-keys", { token: alice.apiKey });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toBe("POST, GET");
  });
});

describe("GraphQL API keys", () => {
  it("lists keys newest first without tokens and returns the token only from createApiKey", async () => {
    const created = await t.gql<{
      createApiKey: { token: string; apiKey: { name: string; lastUsedAt: null } };
    }>(
      `mutation { createApiKey(input: { name: "graphql" }) { token apiKey { name lastUsedAt } } }`,
      {},
      { token: bob.apiKey },
    );
    expect(created.data!.createApiKey.apiKey).toEqual({ name: "graphql", lastUsedAt: null });
    const listed = await t.gql<{ apiKeys: { name: string }[] }>(
      `{ apiKeys { name } }`,
      {},
      { token: bob.apiKey },
    );
    expect(listed.data!.apiKeys[0]!.name).toBe("graphql");
    // There is no field through which a stored token could be read back.
    const introspection = await t.gql<{ __type: { fields: { name: string }[] } }>(
      `{ __type(name: "ApiKey") { fields { name } } }`,
    );
    expect(introspection.data!.__type.fields.map((field) => field.name).sort()).toEqual([
      "createdAt",
      "id",
      "lastUsedAt",
      "name",
    ]);
  });

  it("reports validation failures with a code and field messages", async () => {
    const response = await t.gql(
      `mutation { createApiKey(input: { name: "" }) { token } }`,
      {},
      { token: bob.apiKey },
    );
    expect(response.errors?.[0]?.extensions).toEqual({
      code: "VALIDATION_FAILED",
      fields: { name: ["The name field is required."] },
    });
  });
});

it("uses the public base URL, not the Host header, in the links it returns", async () => {
  const response = await fetch(`${t.url}/`);
  expect(await response.json()).toMatchObject({
    graphql: `${PUBLIC_BASE_URL}/graphql`,
    rest: `${PUBLIC_BASE_URL}/api`,
  });
});
