import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscribeSse, subscribeWs } from "../../../test/support/subscriptions.ts";
import {
  freshDatabase,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";

const BALANCE_CHANGED = `subscription { balanceChanged { id balance } }`;

let t: TestApp;
let alice: TestAccount;
let bob: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  [alice, bob] = await Promise.all([t.createAccount({ balance: "10" }), t.createAccount({ balance: "3.5" })]);
});
afterAll(() => t?.close());

describe("viewer", () => {
  it("shows the caller's own account and exact balance", async () => {
    const response = await t.gql<{
      viewer: { email: string; account: { id: number; balance: string; timezone: string } };
    }>(`{ viewer { email account { id balance timezone } } }`, {}, { token: bob.apiKey });
    expect(response.data?.viewer).toEqual({
      email: bob.email,
      account: { id: bob.accountId, balance: "3.5000", timezone: "UTC" },
    });
  });
});

describe("balanceChanged subscription", () => {
  it("delivers the caller's balance over graphql-ws, authenticated by connection_init", async () => {
    const subscription = await subscribeWs<{ balanceChanged: { id: number; balance: string } }>(
      t.url,
      BALANCE_CHANGED,
      {
        connectionParams: { authorization: `Bearer ${alice.apiKey}` },
      },
    );
    try {
      // Another account's credit is not delivered; the caller's own is.
      await t.app.services.billing.credit(bob.accountId, { amount: "1" });
      await t.app.services.billing.credit(alice.accountId, { amount: "2.25" });
      const event = await subscription.next();
      expect(event.data?.balanceChanged.id).toBe(alice.accountId);
      expect(event.data?.balanceChanged.balance).toBe("12.2500");
    } finally {
      await subscription.close();
    }
  });

  it("delivers over SSE, authenticated by the Authorization header", async () => {
    const subscription = await subscribeSse<{ balanceChanged: { id: number; balance: string } }>(
      t.url,
      BALANCE_CHANGED,
      {
        headers: { authorization: `Bearer ${bob.apiKey}` },
      },
    );
    try {
      expect(subscription.status).toBe(200);
      await t.app.services.billing.credit(bob.accountId, { amount: "0.5" });
      const event = await subscription.next();
      expect(event.data?.balanceChanged.id).toBe(bob.accountId);
    } finally {
      await subscription.close();
    }
  });

  it("closes a WebSocket whose connection_init carries a bad credential", async () => {
    const subscription = await subscribeWs(t.url, BALANCE_CHANGED, {
      connectionParams: { authorization: "Bearer vgk_000000000000000000000000000000000000000000000" },
    });
    expect(await subscription.closed).toBe(4401);
    await subscription.close();
  });

  it("refuses an anonymous subscription with UNAUTHENTICATED on both transports", async () => {
    const ws = await subscribeWs(t.url, BALANCE_CHANGED);
    const wsResult = await ws.next();
    expect(wsResult.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    await ws.close();
    const sse = await subscribeSse(t.url, BALANCE_CHANGED);
    const sseResult = await sse.next();
    expect(sseResult.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    await sse.close();
  });
});

describe.runIf(testDatabaseKind() === "postgres")("several instances (PostgreSQL + Redis)", () => {
  it("delivers an event raised on one instance to a subscriber on another", async () => {
    const database = await freshDatabase();
    const first = await startTestApp({ database: database.target });
    const second = await startTestApp({ database: database.target });
    try {
      const account = await first.createAccount();
      const subscription = await subscribeWs<{ balanceChanged: { balance: string } }>(
        first.url,
        BALANCE_CHANGED,
        {
          connectionParams: { authorization: `Bearer ${account.apiKey}` },
        },
      );
      await second.app.services.billing.credit(account.accountId, { amount: "5" });
      expect((await subscription.next()).data?.balanceChanged.balance).toBe("15.0000");
      await subscription.close();
    } finally {
      await second.close();
      await first.close();
      await database.drop();
    }
  });
});
