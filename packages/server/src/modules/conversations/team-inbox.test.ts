import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { useChatTestApp } from "../../../test/fixtures/chat-app.ts";
import { subscribeSse } from "../../../test/support/subscriptions.ts";
import type { TestAccount } from "../../../test/support/test-app.ts";
import { summariseUserAgent } from "../message-pipeline/index.ts";

const SITE = "https://shop.example";
const CHROME_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

const chat = useChatTestApp({
  VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1000",
  VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "1000",
  VOXGATE_VISITOR_COUNTRY_HEADER: "CF-IPCountry",
});

/** A second member of `account` (a User row of the same account) with an API key of their own. */
async function teammate(account: TestAccount): Promise<TestAccount> {
  const email = `mate-${randomBytes(5).toString("hex")}@example.com`;
  const user = await chat.t.app.db.prisma.user.create({
    data: { accountId: account.accountId, email, name: "Teammate", passwordHash: "scrypt$unused" },
  });
  const { token } = await chat.t.app.services.apiKeys.create(
    { accountId: account.accountId, userId: user.id },
    { name: "teammate" },
  );
  return { ...account, userId: user.id, email, password: "", apiKey: token };
}

async function widgetConversation(uuid: string, headers: Record<string, string> = {}) {
  const started = await chat.t.gql<{ startWidgetConversation: { conversationId: string } }>(
    `mutation($uuid: String!) { startWidgetConversation(input: { assistantUuid: $uuid }) { conversationId } }`,
    { uuid },
    { headers: { origin: SITE, ...headers } },
  );
  expect(started.errors).toBeUndefined();
  return started.data!.startWidgetConversation.conversationId;
}

async function visitorSays(conversationId: string, message: string, extra: { pageUrl?: string } = {}) {
  const sent = await chat.t.gql(
    `mutation($id: ID!, $message: String!, $pageUrl: String) {
      sendWidgetMessage(input: { conversationId: $id, message: $message, pageUrl: $pageUrl }) { reply } }`,
    { id: conversationId, message, pageUrl: extra.pageUrl ?? null },
    { headers: { origin: SITE, "user-agent": CHROME_MAC, "cf-ipcountry": "de" } },
  );
  expect(sent.errors).toBeUndefined();
}

async function gql<T>(member: TestAccount, query: string, variables: Record<string, unknown> = {}) {
  const result = await chat.t.gql<T>(query, variables, { token: member.apiKey });
  return result;
}

async function ids(member: TestAccount, filters: string) {
  const result = await gql<{ conversations: { items: { id: string }[] } }>(
    member,
    `query { conversations(${filters}, perPage: 100) { items { id } } }`,
  );
  expect(result.errors).toBeUndefined();
  return result.data!.conversations.items.map((item) => item.id);
}

async function call(member: TestAccount, mutation: string, variables: Record<string, unknown>) {
  const result = await gql<Record<string, unknown>>(member, mutation, variables);
  expect(result.errors).toBeUndefined();
  return result.data!;
}

const ASSIGN = `mutation($id: ID!, $userId: Int) { assignConversation(id: $id, userId: $userId) { id assignee { id name } } }`;
const NOTE = `mutation($id: ID!, $content: String!) { addConversationNote(input: { conversationId: $id, content: $content }) { id content author { id } } }`;

describe("team inbox", () => {
  it("filters by status, waiting, assignee, assistant, channel and message text, server-side", async () => {
    const account = await chat.t.createAccount({ balance: "1" });
    const mate = await teammate(account);
    const shop = await createAssistant(chat.t, account, { allowedOrigins: [SITE] });
    const other = await createAssistant(chat.t, account, { allowedOrigins: [SITE] });
    const parcel = await widgetConversation(shop.uuid);
    const refund = await widgetConversation(shop.uuid);
    const elsewhere = await widgetConversation(other.uuid);
    await visitorSays(parcel, "Where is my PARCEL 100%?");
    await visitorSays(refund, "I want a refund");
    await visitorSays(elsewhere, "Hello");
    const test = (
      await call(account, `mutation($a: Int!) { startTestConversation(input: { assistantId: $a }) { id } }`, {
        a: shop.id,
      })
    ).startTestConversation as { id: string };

    await call(account, ASSIGN, { id: parcel, userId: account.userId });
    await call(account, ASSIGN, { id: refund, userId: mate.userId });
    await call(account, `mutation($id: ID!) { resolveConversation(id: $id) { status } }`, { id: refund });
    await chat.t.app.db.prisma.conversation.update({
      where: { id: elsewhere },
      data: { humanRequestedAt: new Date() },
    });

    expect(new Set(await ids(account, "status: open"))).toEqual(new Set([elsewhere, parcel, test.id]));
    expect(await ids(account, "status: resolved")).toEqual([refund]);
    expect(await ids(account, "waitingForHuman: true")).toEqual([elsewhere]);
    expect(await ids(account, "assignedToMe: true")).toEqual([parcel]);
    expect(await ids(mate, "assignedToMe: true")).toEqual([refund]);
    expect(await ids(account, `assigneeId: ${mate.userId}`)).toEqual([refund]);
    expect(new Set(await ids(account, "unassigned: true"))).toEqual(new Set([elsewhere, test.id]));
    expect(await ids(account, `assistantId: ${other.id}`)).toEqual([elsewhere]);
    expect(await ids(account, "channel: test")).toEqual([test.id]);
    expect(new Set(await ids(account, "channels: [widget, sms]"))).toEqual(
      new Set([parcel, refund, elsewhere]),
    );
    // Case-insensitive, over the customer's and the AI's words; % and _ are matched literally.
    expect(await ids(account, `search: "parcel"`)).toEqual([parcel]);
    expect(await ids(account, `search: "echo: i want"`)).toEqual([refund]);
    expect(await ids(account, `search: "100%"`)).toEqual([parcel]);
    expect(await ids(account, `search: "1_0"`)).toEqual([]);
    expect(await ids(account, `search: "parcel", status: resolved`)).toEqual([]);

    const tooShort = await gql(account, `query { conversations(search: "a") { items { id } } }`);
    expect(tooShort.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    const tooMany = await gql(account, `query { conversations(perPage: 101) { items { id } } }`);
    expect(tooMany.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
  });

  it("assigns only to members of the same account, and tells the inbox live", async () => {
    const account = await chat.t.createAccount({ balance: "1" });
    const mate = await teammate(account);
    const stranger = await chat.t.createAccount({ balance: "1" });
    const shop = await createAssistant(chat.t, account, { allowedOrigins: [SITE] });
    const id = await widgetConversation(shop.uuid);

    const feed = await subscribeSse<{
      conversationActivity: { kind: string; conversation: { id: string; assignee: { id: number } | null } };
    }>(chat.t.url, `subscription { conversationActivity { kind conversation { id assignee { id } } } }`, {
      headers: { authorization: `Bearer ${account.apiKey}` },
    });
    try {
      const refused = await gql(account, ASSIGN, { id, userId: stranger.userId });
      expect(refused.errors?.[0]?.extensions).toMatchObject({ code: "NOT_FOUND", resource: "User" });
      const foreign = await gql(stranger, ASSIGN, { id, userId: stranger.userId });
      expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");

      expect((await call(mate, ASSIGN, { id, userId: mate.userId })).assignConversation).toEqual({
        id,
        assignee: { id: mate.userId, name: "Teammate" },
      });
      expect((await feed.next()).data?.conversationActivity).toEqual({
        kind: "assignment",
        conversation: { id, assignee: { id: mate.userId } },
      });
      expect((await call(account, ASSIGN, { id, userId: null })).assignConversation).toEqual({
        id,
        assignee: null,
      });
      expect((await feed.next()).data?.conversationActivity.conversation.assignee).toBeNull();
    } finally {
      await feed.close();
    }
  });

  it("keeps notes from the customer, the model and the widget; shows them to every member live", async () => {
    const account = await chat.t.createAccount({ balance: "1" });
    const mate = await teammate(account);
    const shop = await createAssistant(chat.t, account, { allowedOrigins: [SITE] });
    const id = await widgetConversation(shop.uuid);
    await visitorSays(id, "My order is late");

    const widget = await subscribeSse<{ widgetConversationEvents: { role: string; content: string } }>(
      chat.t.url,
      `subscription($id: ID!) { widgetConversationEvents(conversationId: $id) { role content } }`,
      { variables: { id }, headers: { origin: SITE } },
    );
    const mateFeed = await subscribeSse<{
      conversationActivity: { kind: string; note: { content: string; author: { id: number } } | null };
    }>(chat.t.url, `subscription { conversationActivity { kind note { content author { id } } } }`, {
      headers: { authorization: `Bearer ${mate.apiKey}` },
    });
    try {
      const note = (await call(account, NOTE, { id, content: "VIP customer, refund without asking" }))
        .addConversationNote as { author: { id: number } };
      expect(note.author).toEqual({ id: account.userId });
      expect((await mateFeed.next()).data?.conversationActivity).toEqual({
        kind: "note",
        note: { content: "VIP customer, refund without asking", author: { id: account.userId } },
      });

      chat.fake.reset();
      await visitorSays(id, "Any news?");
      // The widget's next event is the AI's reply: the note was never pushed to it.
      expect((await widget.next()).data?.widgetConversationEvents).toEqual({
        role: "assistant",
        content: "Echo: Any news?",
      });
      expect(chat.fake.chatRequests).toHaveLength(1);
      expect(JSON.stringify(chat.fake.chatRequests)).not.toContain("VIP customer");
      const restored = await chat.t.gql(
        `query($id: ID!) { widgetConversation(id: $id) { messages { role content } } }`,
        { id },
        { headers: { origin: SITE } },
      );
      expect(JSON.stringify(restored.data)).not.toContain("VIP customer");

      const seen = await gql<{ conversation: { notes: { content: string }[]; messages: unknown[] } }>(
        mate,
        `query($id: ID!) { conversation(id: $id) { notes { content } messages { role } } }`,
        { id },
      );
      expect(seen.data?.conversation.notes).toEqual([{ content: "VIP customer, refund without asking" }]);
      expect(seen.data?.conversation.messages).toHaveLength(4);

      const empty = await gql(account, NOTE, { id, content: "   " });
      expect(empty.errors?.[0]?.extensions?.code).toBe("VALIDATION_FAILED");
    } finally {
      await widget.close();
      await mateFeed.close();
    }
  });

  it("keeps a read state per member; the badge counts open unread conversations", async () => {
    const account = await chat.t.createAccount({ balance: "1" });
    const mate = await teammate(account);
    const shop = await createAssistant(chat.t, account, { allowedOrigins: [SITE] });
    const first = await widgetConversation(shop.uuid);
    const second = await widgetConversation(shop.uuid);
    await visitorSays(first, "One");
    await visitorSays(second, "Two");
    const badge = async (member: TestAccount) =>
      (await gql<{ unreadConversationCount: number }>(member, `query { unreadConversationCount }`)).data
        ?.unreadConversationCount;

    expect([await badge(account), await badge(mate)]).toEqual([2, 2]);
    await call(account, `mutation($id: ID!) { markConversationRead(id: $id) { unread } }`, { id: first });
    expect([await badge(account), await badge(mate)]).toEqual([1, 2]);
    expect(await ids(account, "unreadOnly: true")).toEqual([second]);
    expect(new Set(await ids(mate, "unreadOnly: true"))).toEqual(new Set([first, second]));
    const unread = await gql<{ conversation: { unread: boolean } }>(
      mate,
      `query($id: ID!) { conversation(id: $id) { unread } }`,
      { id: first },
    );
    expect(unread.data?.conversation.unread).toBe(true);

    // A resolved conversation leaves the badge, whoever has read it.
    await call(mate, `mutation($id: ID!) { resolveConversation(id: $id) { status } }`, { id: second });
    expect([await badge(account), await badge(mate)]).toEqual([0, 1]);
  });

  it("reopens a resolved conversation when the customer writes again, not when a member does", async () => {
    const account = await chat.t.createAccount({ balance: "1" });
    const shop = await createAssistant(chat.t, account, { allowedOrigins: [SITE] });
    const id = await widgetConversation(shop.uuid);
    await visitorSays(id, "Hi");
    const resolved = await call(
      account,
      `mutation($id: ID!) { resolveConversation(id: $id) { status resolvedAt } }`,
      { id },
    );
    expect(resolved.resolveConversation).toMatchObject({
      status: "resolved",
      resolvedAt: expect.any(String),
    });
    await call(
      account,
      `mutation($id: ID!) { sendOperatorMessage(input: { conversationId: $id, content: "Bye!" }) { id } }`,
      { id },
    );
    expect(await ids(account, "status: resolved")).toEqual([id]);
    await visitorSays(id, "One more thing");
    const now = await gql<{ conversation: { status: string; resolvedAt: string | null } }>(
      account,
      `query($id: ID!) { conversation(id: $id) { status resolvedAt } }`,
      { id },
    );
    expect(now.data?.conversation).toEqual({ status: "open", resolvedAt: null });
    await call(account, `mutation($id: ID!) { resolveConversation(id: $id) { status } }`, { id });
    const reopened = await call(account, `mutation($id: ID!) { reopenConversation(id: $id) { status } }`, {
      id,
    });
    expect(reopened.reopenConversation).toEqual({ status: "open" });
  });

  it("captures the page, browser and trusted country of each widget message", async () => {
    const account = await chat.t.createAccount({ balance: "1" });
    const shop = await createAssistant(chat.t, account, { allowedOrigins: [SITE] });
    const id = await widgetConversation(shop.uuid, { "user-agent": CHROME_MAC });
    await visitorSays(id, "From the pricing page", { pageUrl: `${SITE}/pricing?plan=pro` });
    // Another site's page is the widget's claim, not where the visitor is: not kept.
    await visitorSays(id, "From elsewhere", { pageUrl: "https://evil.example/page" });

    const seen = await gql<{
      conversation: { visitor: unknown; messages: { role: string; visitor: unknown; createdAt: string }[] };
    }>(
      account,
      `query($id: ID!) { conversation(id: $id) { visitor { pageUrl browser country }
        messages { role createdAt visitor { pageUrl browser country } } } }`,
      { id },
    );
    const conversation = seen.data!.conversation;
    expect(conversation.visitor).toEqual({
      pageUrl: `${SITE}/pricing?plan=pro`,
      browser: "Chrome 131 on macOS",
      country: "DE",
    });
    expect(conversation.messages.map((message) => [message.role, message.visitor])).toEqual([
      ["user", { pageUrl: `${SITE}/pricing?plan=pro`, browser: "Chrome 131 on macOS", country: "DE" }],
      ["assistant", null],
      ["user", { pageUrl: null, browser: "Chrome 131 on macOS", country: "DE" }],
      ["assistant", null],
    ]);
    expect(conversation.messages.every((message) => !Number.isNaN(Date.parse(message.createdAt)))).toBe(true);
  });

  it("summarises user agents", () => {
    expect(
      summariseUserAgent(
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
      ),
    ).toBe("Safari 17 on iOS");
    expect(
      summariseUserAgent("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0"),
    ).toBe("Firefox 133 on Windows");
    expect(
      summariseUserAgent(
        "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36 EdgA/131.0.0.0",
      ),
    ).toBe("Edge 131 on Android");
    expect(summariseUserAgent("curl/8.5.0")).toBe("Other browser");
  });
});
