import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { statementsDuring } from "../../../test/support/query-count.ts";
import { subscribeWs } from "../../../test/support/subscriptions.ts";
import type { TestAccount, TestApp } from "../../../test/support/test-app.ts";
import { startTestApp } from "../../../test/support/test-app.ts";

let t: TestApp;
let operator: TestAccount;
let alice: TestAccount;

const ADMIN_OPERATIONS = [
  `{ platformAccounts { items { id } } }`,
  `mutation { createPlatformAccount(input: { email: "x-forbidden@example.com", password: "long-enough" }) { id } }`,
  `mutation($id: Int!) { creditAccount(accountId: $id, amount: "5") { id } }`,
  `mutation($id: Int!) { suspendAccount(accountId: $id, suspended: true) { id } }`,
];

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.createAccount({ balance: "1" });
  const { account, user } = await t.app.services.accounts.create({
    email: `ops-${alice.accountId}@example.com`,
    password: "operator-pass",
    operator: true,
  });
  const { token } = await t.app.services.apiKeys.create(
    { accountId: account.id, userId: user.id },
    { name: "ops" },
  );
  operator = { accountId: account.id, userId: user.id, email: user.email, password: "", apiKey: token };
});
afterAll(async () => {
  await t?.close();
});

describe("platform administration", () => {
  it("refuses every operation to a non-operator (FORBIDDEN) and to an anonymous caller", async () => {
    for (const query of ADMIN_OPERATIONS) {
      const refused = await t.gql(query, { id: operator.accountId }, { token: alice.apiKey });
      expect(refused.errors?.[0]?.extensions?.code, query).toBe("FORBIDDEN");
      const anonymous = await t.gql(query, { id: alice.accountId });
      expect(anonymous.errors?.[0]?.extensions?.code, query).toBe("UNAUTHENTICATED");
    }
    const operatorAccount = await t.app.services.accounts.get(operator.accountId);
    expect(operatorAccount.balance.toFixed(4)).toBe("0.0000");
    expect(operatorAccount.suspendedAt).toBeNull();
  });

  it("lists and searches accounts, creates one that can sign in, credits it with a ledger entry", async () => {
    const viewer = await t.gql<{ viewer: { account: { isOperator: boolean; suspended: boolean } } }>(
      `{ viewer { account { isOperator suspended } } }`,
      {},
      { token: operator.apiKey },
    );
    expect(viewer.data?.viewer.account).toEqual({ isOperator: true, suspended: false });

    const created = await t.gql<{
      createPlatformAccount: { id: number; isOperator: boolean; ownerEmail: string };
    }>(
      `mutation { createPlatformAccount(input: { email: "New.Customer@Example.com", password: "s3cret-pass", name: "New Customer" }) { id isOperator ownerEmail } }`,
      {},
      { token: operator.apiKey },
    );
    expect(created.errors).toBeUndefined();
    expect(created.data?.createPlatformAccount).toMatchObject({
      isOperator: false,
      ownerEmail: "new.customer@example.com",
    });
    const newId = created.data!.createPlatformAccount.id;
    const login = await t.gql<{ login: { token: string } }>(
      `mutation { login(input: { email: "new.customer@example.com", password: "s3cret-pass" }) { token } }`,
    );
    expect(login.data?.login.token).toBeTruthy();

    const invalid = await t.gql(
      `mutation { createPlatformAccount(input: { email: "not-an-email", password: "short" }) { id } }`,
      {},
      { token: operator.apiKey },
    );
    expect(invalid.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    expect(Object.keys(invalid.errors?.[0]?.extensions?.fields as object).sort()).toEqual([
      "email",
      "password",
    ]);

    const found = await t.gql<{
      platformAccounts: { items: { id: number; name: string }[]; pageInfo: { total: number } };
    }>(
      `{ platformAccounts(search: "NEW.customer", perPage: 5) { items { id name } pageInfo { total } } }`,
      {},
      { token: operator.apiKey },
    );
    expect(found.data?.platformAccounts).toEqual({
      items: [{ id: newId, name: "New Customer" }],
      pageInfo: { total: 1 },
    });
    let owners:
      | { platformAccounts: { items: { id: number; ownerEmail: string | null }[] } }
      | null
      | undefined;
    const statements = await statementsDuring(t.app.db.pgPool, async () => {
      owners = (
        await t.gql<NonNullable<typeof owners>>(
          `{ platformAccounts(perPage: 5) { items { id ownerEmail } } }`,
          {},
          {
            token: operator.apiKey,
          },
        )
      ).data;
    });
    expect(owners?.platformAccounts.items).toContainEqual({ id: alice.accountId, ownerEmail: alice.email });
    expect(owners?.platformAccounts.items).toContainEqual({
      id: operator.accountId,
      ownerEmail: operator.email,
    });
    // One statement for the page's owners, not one per account (beside the caller's own role check).
    const ownerReads = statements.filter(
      (sql) => /FROM "users"|"public"\."users"/.test(sql) && !sql.startsWith('SELECT "role" FROM "users"'),
    );
    expect(ownerReads).toHaveLength(1);
    const all = await t.gql<{ platformAccounts: { pageInfo: { total: number } } }>(
      `{ platformAccounts(perPage: 1) { pageInfo { total } } }`,
      {},
      { token: operator.apiKey },
    );
    expect(all.data?.platformAccounts.pageInfo.total).toBeGreaterThanOrEqual(3);

    const credited = await t.gql<{ creditAccount: { balance: string } }>(
      `mutation($id: Int!) { creditAccount(accountId: $id, amount: "12.5", note: "Goodwill") { balance } }`,
      { id: newId },
      { token: operator.apiKey },
    );
    expect(credited.data?.creditAccount.balance).toBe("12.5000");
    const entries = await t.app.db.prisma.ledgerEntry.findMany({ where: { accountId: newId } });
    expect(entries.map((entry) => [entry.amount.toFixed(2), entry.description])).toEqual([
      ["12.50", "Goodwill"],
    ]);
    for (const [amount, code] of [
      ["-3", "VALIDATION_FAILED"],
      ["0", "VALIDATION_FAILED"],
    ] as const) {
      const refused = await t.gql(
        `mutation($id: Int!, $amount: Decimal!) { creditAccount(accountId: $id, amount: $amount) { id } }`,
        { id: newId, amount },
        { token: operator.apiKey },
      );
      expect(refused.errors?.[0]?.extensions?.code, amount).toBe(code);
    }
    const missing = await t.gql(
      `mutation { creditAccount(accountId: 999999, amount: "1") { id } }`,
      {},
      { token: operator.apiKey },
    );
    expect(missing.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("suspends an account: its key, session, live stream and widget stop at once; lifting restores them", async () => {
    const victim = await t.createAccount({ balance: "1" });
    const assistant = await createAssistant(t, victim);
    const session = await t.gql<{ login: { token: string } }>(
      `mutation($email: String!, $password: String!) { login(input: { email: $email, password: $password }) { token } }`,
      { email: victim.email, password: victim.password },
    );
    const sessionToken = session.data!.login.token;
    // Cached by the first use: the suspension must reach the credential cache too.
    for (const token of [victim.apiKey, sessionToken]) {
      const before = await t.gql(`{ viewer { id } }`, {}, { token });
      expect(before.errors).toBeUndefined();
    }
    const stream = await subscribeWs<{ balanceChanged: { id: number } }>(
      t.url,
      `subscription { balanceChanged { id } }`,
      { connectionParams: { authorization: `Bearer ${sessionToken}` } },
    );

    const suspended = await t.gql<{ suspendAccount: { suspended: boolean } }>(
      `mutation($id: Int!) { suspendAccount(accountId: $id, suspended: true) { suspended } }`,
      { id: victim.accountId },
      { token: operator.apiKey },
    );
    expect(suspended.data?.suspendAccount.suspended).toBe(true);

    for (const token of [victim.apiKey, sessionToken]) {
      const after = await t.gql(`{ viewer { id } }`, {}, { token });
      expect(after.errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHENTICATED", reason: "suspended" });
    }
    const ended = await stream.next();
    expect(JSON.stringify(ended)).toMatch(/revoked|UNAUTHENTICATED/);
    await stream.close();
    const login = (password: string) =>
      t.gql(
        `mutation($email: String!, $password: String!) { login(input: { email: $email, password: $password }) { token } }`,
        { email: victim.email, password },
      );
    const refusedLogin = await login(victim.password);
    expect(refusedLogin.data).toBeNull();
    expect(refusedLogin.errors?.[0]?.extensions?.code).toBe("ACCOUNT_SUSPENDED");
    // A wrong password is told nothing about the suspension.
    expect((await login("not-the-password")).errors?.[0]?.extensions?.code).toBe("INVALID_CREDENTIALS");
    const restLogin = await t.rest<{ message: string }>("POST", "/api/login", {
      body: { email: victim.email, password: victim.password },
    });
    expect(restLogin.status).toBe(403);
    const widget = await t.gql(
      `mutation($uuid: String!) { startWidgetConversation(input: { assistantUuid: $uuid }) { conversationId } }`,
      { uuid: assistant.uuid },
    );
    expect(widget.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const line = await t.app.db.prisma.phoneNumber.create({
      data: {
        accountId: victim.accountId,
        phoneNumber: `+1415555${String(victim.accountId).padStart(4, "0")}`,
        countryCode: "US",
        kind: "normal",
        label: "Suspended line",
        subscriptionStatus: "active",
        billingPeriodStart: new Date(),
        billingPeriodEnd: new Date(Date.now() + 86_400_000),
        providerName: "embedded",
        providerRef: `suspended-${victim.accountId}`,
      },
    });
    await t.app.db.prisma.assistant.update({ where: { id: assistant.id }, data: { phoneNumberId: line.id } });
    const inbound = await t.app.services.inboundCalls.receiveInbound({
      carrier: "simulated",
      providerCallId: `suspended-call-${victim.accountId}`,
      to: line.phoneNumber,
      from: "+14155550100",
    });
    expect(inbound.accepted).toBe(false);
    const self = await t.gql(
      `mutation($id: Int!) { suspendAccount(accountId: $id, suspended: true) { id } }`,
      { id: operator.accountId },
      { token: operator.apiKey },
    );
    expect(self.errors?.[0]?.extensions?.code).toBe("BAD_REQUEST");

    await t.gql(
      `mutation($id: Int!) { suspendAccount(accountId: $id, suspended: false) { suspended } }`,
      { id: victim.accountId },
      { token: operator.apiKey },
    );
    const restored = await t.gql(`{ viewer { id } }`, {}, { token: victim.apiKey });
    expect(restored.errors).toBeUndefined();
    expect((await login(victim.password)).errors).toBeUndefined();
  });
});
