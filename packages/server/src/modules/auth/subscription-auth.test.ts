import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { subscribeSse, subscribeWs } from "../../../test/support/subscriptions.ts";
import {
  freshDatabase,
  startTestApp,
  type TestAccount,
  type TestApp,
  testDatabaseKind,
} from "../../../test/support/test-app.ts";

const CONVERSATION = "00000000-0000-4000-8000-000000000000";

/** Every subscription of the schema; none of them has anything for an anonymous caller. */
const SUBSCRIPTIONS: Record<string, string> = {
  balanceChanged: `subscription { balanceChanged { id } }`,
  conversationMessageAdded: `subscription { conversationMessageAdded(conversationId: "${CONVERSATION}") { id } }`,
  conversationReplyStream: `subscription { conversationReplyStream(conversationId: "${CONVERSATION}") { text } }`,
  callStatusChanged: `subscription { callStatusChanged { callId } }`,
  documentStatus: `subscription { documentStatus(id: 1) { status } }`,
  knowledgebaseStatus: `subscription { knowledgebaseStatus(id: 1) { status } }`,
};

const BALANCE_CHANGED = `subscription { balanceChanged { id balance } }`;

type Event = Awaited<ReturnType<Awaited<ReturnType<typeof subscribeWs>>["next"]>>;

const errorOf = (event: Event) => ({
  code: event.errors?.[0]?.extensions?.code,
  reason: event.errors?.[0]?.extensions?.reason,
});

let t: TestApp;
let alice: TestAccount;

beforeAll(async () => {
  t = await startTestApp();
  alice = await t.createAccount({ balance: "10" });
});
afterAll(() => t?.close());

async function login(app: TestApp, account: TestAccount): Promise<string> {
  const response = await app.gql<{ login: { token: string } }>(
    `mutation($input: LoginInput!) { login(input: $input) { token } }`,
    { input: { email: account.email, password: account.password } },
  );
  return response.data!.login.token;
}

async function apiKeyIdOf(app: TestApp, token: string): Promise<number> {
  const response = await app.gql<{ apiKeys: { id: number }[] }>(`{ apiKeys { id } }`, {}, { token });
  return response.data!.apiKeys[0]!.id;
}

/** Opens one subscription to the caller's balance on each transport. */
async function openBoth(app: TestApp, token: string) {
  const ws = await subscribeWs<{ balanceChanged: { balance: string } }>(app.url, BALANCE_CHANGED, {
    connectionParams: { authorization: `Bearer ${token}` },
  });
  const sse = await subscribeSse<{ balanceChanged: { balance: string } }>(app.url, BALANCE_CHANGED, {
    headers: { authorization: `Bearer ${token}` },
  });
  return { ws, sse, close: () => Promise.all([ws.close(), sse.close()]) };
}

/** Both streams deliver a balance event, then their last word after revocation, then nothing. */
async function expectEndedAfterRevocation(
  streams: Awaited<ReturnType<typeof openBoth>>,
  publisher: TestApp,
  accountId: number,
  reason: string,
) {
  for (const stream of [streams.ws, streams.sse]) {
    expect(errorOf(await stream.next())).toEqual({ code: "UNAUTHENTICATED", reason });
  }
  publisher.app.pubsub.publish("account:balance", accountId, { accountId });
  for (const stream of [streams.ws, streams.sse]) {
    await expect(stream.next(500)).rejects.toThrow(/no subscription event/);
  }
}

describe("subscriptions without a credential", () => {
  it.each(Object.keys(SUBSCRIPTIONS))("%s answers UNAUTHENTICATED over graphql-ws", async (name) => {
    const subscription = await subscribeWs(t.url, SUBSCRIPTIONS[name]!);
    try {
      expect(errorOf(await subscription.next())).toEqual({ code: "UNAUTHENTICATED", reason: "missing" });
    } finally {
      await subscription.close();
    }
  });

  it.each(Object.keys(SUBSCRIPTIONS))("%s answers UNAUTHENTICATED over SSE", async (name) => {
    const subscription = await subscribeSse(t.url, SUBSCRIPTIONS[name]!);
    try {
      expect(errorOf(await subscription.next())).toEqual({ code: "UNAUTHENTICATED", reason: "missing" });
    } finally {
      await subscription.close();
    }
  });
});

describe("revoking a credential ends its live streams", () => {
  it("ends WebSocket and SSE streams of a deleted API key", async () => {
    const account = await t.createAccount();
    const streams = await openBoth(t, account.apiKey);
    try {
      t.app.pubsub.publish("account:balance", account.accountId, { accountId: account.accountId });
      for (const stream of [streams.ws, streams.sse]) expect((await stream.next()).data).toBeDefined();

      const id = await apiKeyIdOf(t, account.apiKey);
      const deleted = await t.gql(
        `mutation($id: Int!) { deleteApiKey(id: $id) { deletedId } }`,
        { id },
        {
          token: account.apiKey,
        },
      );
      expect(deleted.errors).toBeUndefined();
      await expectEndedAfterRevocation(streams, t, account.accountId, "revoked");
    } finally {
      await streams.close();
    }
  });

  it("ends WebSocket and SSE streams of a logged-out session, and only those", async () => {
    const session = await login(t, alice);
    const streams = await openBoth(t, session);
    const byKey = await subscribeWs<{ balanceChanged: { balance: string } }>(t.url, BALANCE_CHANGED, {
      connectionParams: { authorization: `Bearer ${alice.apiKey}` },
    });
    try {
      const logout = await t.gql(`mutation { logout { revoked } }`, {}, { token: session });
      expect(logout.errors).toBeUndefined();
      await expectEndedAfterRevocation(streams, t, alice.accountId, "revoked");
      expect((await byKey.next()).data?.balanceChanged).toBeDefined();
    } finally {
      await Promise.all([streams.close(), byKey.close()]);
    }
  });

  it("ends the streams of a session when it expires", async () => {
    const session = await login(t, alice);
    await t.app.db.prisma.sessionToken.updateMany({
      where: { userId: alice.userId, revokedAt: null, expiresAt: { gt: new Date() } },
      // Far enough ahead that both streams are open before it (a stream opened after it is refused
      // at the door, a different path); under load, opening them took over 1.5 s.
      data: { expiresAt: new Date(Date.now() + 4000) },
    });
    const streams = await openBoth(t, session);
    try {
      for (const stream of [streams.ws, streams.sse]) {
        expect(errorOf(await stream.next(20_000))).toEqual({ code: "UNAUTHENTICATED", reason: "expired" });
      }
    } finally {
      await streams.close();
    }
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "ends streams on another instance sharing Redis (postgres project)",
    async () => {
      const database = await freshDatabase();
      const first = await startTestApp({ database: database.target });
      const second = await startTestApp({ database: database.target });
      try {
        // Two accounts, so that the balance event of one check does not reach the other's streams.
        const [account, other] = await Promise.all([first.createAccount(), first.createAccount()]);
        const session = await login(first, other);
        const keyStreams = await openBoth(second, account.apiKey);
        const sessionStreams = await openBoth(second, session);
        try {
          const id = await apiKeyIdOf(first, account.apiKey);
          await first.gql(
            `mutation($id: Int!) { deleteApiKey(id: $id) { deletedId } }`,
            { id },
            {
              token: account.apiKey,
            },
          );
          await expectEndedAfterRevocation(keyStreams, first, account.accountId, "revoked");
          await first.gql(`mutation { logout { revoked } }`, {}, { token: session });
          await expectEndedAfterRevocation(sessionStreams, first, other.accountId, "revoked");
        } finally {
          await Promise.all([keyStreams.close(), sessionStreams.close()]);
        }
      } finally {
        await first.close();
        await second.close();
        await database.drop();
      }
    },
  );
});

describe("a stream opened while its credential is being revoked", () => {
  it("ends even though the revocation was announced before the stream was watched", async () => {
    const account = await t.createAccount();
    const { viewer } = await t.app.services.auth.authenticate(`Bearer ${account.apiKey}`);
    await t.app.services.apiKeys.delete(account.accountId, viewer!.credential.id);
    const source = t.app.pubsub.subscribe("account:balance", account.accountId)[Symbol.asyncIterator]();
    const stream = t.app.services.credentialStreams.watch<unknown>(viewer!, source, (reason) => reason);
    expect(await stream.next()).toEqual({ done: false, value: "revoked" });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });
});
