import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { uniqueUsNumber } from "../../../test/fixtures/telephony.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";

let t: TestApp;
let owner: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  owner = await t.createAccount();
});

afterAll(async () => {
  await t?.close();
});

interface Entry {
  id: number;
  action: string;
  actorKind: string;
  actorId: number | null;
  userId: number | null;
  targetType: string;
  targetId: string;
  details: Record<string, unknown>;
  ip: string | null;
  at: string;
}

const ENTRY_FIELDS = "id action actorKind actorId userId targetType targetId details ip at";

async function auditLog(
  token: string,
  args: { filter?: unknown; first?: number; after?: string | null } = {},
) {
  return t.gql<{ auditLog: { entries: Entry[]; nextCursor: string | null } }>(
    `query ($filter: AuditLogFilter, $first: Int, $after: String) {
      auditLog(filter: $filter, first: $first, after: $after) { entries { ${ENTRY_FIELDS} } nextCursor } }`,
    args,
    { token },
  );
}

async function ok<Data>(query: string, variables: Record<string, unknown>, token: string) {
  const response = await t.gql<Data>(query, variables, { token });
  expect(response.errors).toBeUndefined();
  return response.data!;
}

describe("audit log", () => {
  it("records logins, keys, settings and numbers with who did them and from where, never secrets", async () => {
    const { login } = await ok<{ login: { token: string } }>(
      "mutation ($input: LoginInput!) { login(input: $input) { token } }",
      { input: { email: owner.email, password: owner.password } },
      "",
    );
    const session = login.token;
    const { createApiKey } = await ok<{ createApiKey: { token: string; apiKey: { id: number } } }>(
      'mutation { createApiKey(input: { name: "ci" }) { token apiKey { id } } }',
      {},
      session,
    );
    await ok(
      "mutation ($id: Int!) { deleteApiKey(id: $id) { deletedId } }",
      { id: createApiKey.apiKey.id },
      session,
    );
    const assistant = await createAssistant(t, owner);
    await ok(
      'mutation ($id: Int!) { updateAssistant(id: $id, input: { name: "Front desk", record: true }) { id } }',
      { id: assistant.id },
      owner.apiKey,
    );
    await ok(
      'mutation { setTextQuietHours(input: { start: "21:00", end: "08:00" }) { start } }',
      {},
      owner.apiKey,
    );
    const phoneNumber = uniqueUsNumber();
    const { addPhoneNumber } = await ok<{ addPhoneNumber: { id: number } }>(
      "mutation ($input: AddPhoneNumberInput!) { addPhoneNumber(input: $input) { id } }",
      { input: { kind: "normal", phoneNumber } },
      owner.apiKey,
    );
    await ok(
      "mutation ($id: Int!) { releasePhoneNumber(id: $id) { releasedNow } }",
      { id: addPhoneNumber.id },
      owner.apiKey,
    );

    const { data } = await auditLog(owner.apiKey);
    const entries = data!.auditLog.entries;
    expect(entries.map((entry) => entry.action)).toEqual([
      "phone_number.released",
      "phone_number.purchased",
      "account.updated",
      "assistant.updated",
      "api_key.deleted",
      "api_key.created",
      "account.signed_in",
      // The test account's first key, made by the CLI's service: Voxgate itself.
      "api_key.created",
    ]);
    const byAction = (action: string) => entries.find((entry) => entry.action === action)!;
    expect(byAction("account.signed_in")).toMatchObject({
      actorKind: "user",
      actorId: owner.userId,
      userId: owner.userId,
      targetType: "session",
      details: { email: owner.email },
      ip: "127.0.0.1",
    });
    expect(byAction("api_key.deleted")).toMatchObject({
      actorKind: "user",
      actorId: owner.userId,
      targetType: "apiKey",
      targetId: String(createApiKey.apiKey.id),
      details: { name: "ci" },
    });
    expect(byAction("assistant.updated")).toMatchObject({
      actorKind: "apiKey",
      userId: owner.userId,
      targetId: String(assistant.id),
      details: { fields: ["name", "record"] },
    });
    expect(byAction("phone_number.purchased")).toMatchObject({
      targetType: "phoneNumber",
      targetId: String(addPhoneNumber.id),
      details: { phoneNumber, kind: "normal" },
    });
    expect(entries.at(-1)).toMatchObject({ actorKind: "system", actorId: null, userId: null, ip: null });
    // Tokens and passwords never reach the log.
    const stored = JSON.stringify(entries);
    for (const secret of [createApiKey.token, session, owner.apiKey, owner.password])
      expect(stored).not.toContain(secret);

    // Another account sees none of it.
    const stranger = await t.createAccount();
    const theirs = await auditLog(stranger.apiKey);
    expect(theirs.data!.auditLog.entries.map((entry) => entry.action)).toEqual(["api_key.created"]);
  });

  it("filters by action, actor and time, and pages newest first with a cursor", async () => {
    const { data: all } = await auditLog(owner.apiKey, { first: 200 });
    const everything = all!.auditLog.entries;
    expect(all!.auditLog.nextCursor).toBeNull();

    const seen: Entry[] = [];
    let after: string | null = null;
    do {
      const { data } = await auditLog(owner.apiKey, { first: 3, after });
      seen.push(...data!.auditLog.entries);
      after = data!.auditLog.nextCursor;
    } while (after);
    expect(seen).toEqual(everything);

    const byUser = await auditLog(owner.apiKey, { filter: { actorKind: "user" } });
    expect(new Set(byUser.data!.auditLog.entries.map((entry) => entry.actorKind))).toEqual(new Set(["user"]));
    const keys = await auditLog(owner.apiKey, { filter: { action: "api_key.created", actorKind: "user" } });
    expect(keys.data!.auditLog.entries).toHaveLength(1);
    const future = await auditLog(owner.apiKey, {
      filter: { from: new Date(Date.now() + 3_600_000).toISOString() },
    });
    expect(future.data!.auditLog.entries).toEqual([]);
    const past = await auditLog(owner.apiKey, { filter: { to: everything.at(-1)!.at } });
    expect(past.data!.auditLog.entries).toEqual([]);

    for (const bad of [
      { first: 0 },
      { first: 201 },
      { after: "not-a-cursor" },
      { filter: { actorKind: "robot" } },
    ]) {
      const refused = await auditLog(owner.apiKey, bad);
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "VALIDATION_FAILED" });
    }
    const anonymous = await t.gql("query { auditLog { nextCursor } }");
    expect(anonymous.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED" });
  });
});
