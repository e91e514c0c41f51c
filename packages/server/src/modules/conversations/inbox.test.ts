import { describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { useChatTestApp } from "../../../test/fixtures/chat-app.ts";
import { statementsDuring } from "../../../test/support/query-count.ts";
import { subscribeSse } from "../../../test/support/subscriptions.ts";
import type { TestAccount } from "../../../test/support/test-app.ts";

const SITE = "https://shop.example";

const chat = useChatTestApp({
  VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1000",
  VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "1000",
});

async function widgetConversation(uuid: string): Promise<string> {
  const started = await chat.t.gql<{ startWidgetConversation: { conversationId: string } }>(
    `mutation($uuid: String!) { startWidgetConversation(input: { assistantUuid: $uuid }) { conversationId } }`,
    { uuid },
    { headers: { origin: SITE } },
  );
  return started.data!.startWidgetConversation.conversationId;
}

async function visitorSays(conversationId: string, message: string) {
  const sent = await chat.t.gql(
    `mutation($id: ID!, $message: String!) { sendWidgetMessage(input: { conversationId: $id, message: $message }) { reply } }`,
    { id: conversationId, message },
    { headers: { origin: SITE } },
  );
  expect(sent.errors).toBeUndefined();
}

type InboxItem = { id: string; unread: boolean; lastMessage: { content: string } | null };

async function inbox(account: TestAccount, unreadOnly = false) {
  const list = await chat.t.gql<{ conversations: { items: InboxItem[] } }>(
    `query($unreadOnly: Boolean) { conversations(unreadOnly: $unreadOnly, perPage: 50) { items { id unread lastMessageAt lastMessage { content } } } }`,
    { unreadOnly },
    { token: account.apiKey },
  );
  expect(list.errors).toBeUndefined();
  return list.data!.conversations.items;
}

describe("conversations inbox", () => {
  it("reads a page's last messages in two statements, however many conversations it holds", async () => {
    const account = await chat.t.createAccount({ balance: "1" });
    const assistant = await createAssistant(chat.t, account, { allowedOrigins: [SITE] });
    const conversations = await Promise.all([1, 2, 3, 4].map(() => widgetConversation(assistant.uuid)));
    for (const [index, id] of conversations.entries()) await visitorSays(id, `Question ${index}`);

    let items: InboxItem[] = [];
    const statements = await statementsDuring(chat.t.app.db.pgPool, async () => {
      items = await inbox(account);
    });
    expect(items.map((item) => [item.id, item.lastMessage?.content])).toEqual(
      conversations.map((id, index) => [id, `Echo: Question ${index}`]).reverse(),
    );
    // One per conversation before (4 here); now the newest ids, then those messages.
    expect(statements.filter((sql) => /"messages"/.test(sql))).toHaveLength(2);
  });

  it("marks customer messages unread until read, previews the last message, filters unread", async () => {
    const assistant = await createAssistant(chat.t, chat.alice, { allowedOrigins: [SITE] });
    const first = await widgetConversation(assistant.uuid);
    const second = await widgetConversation(assistant.uuid);
    const silent = await widgetConversation(assistant.uuid);
    await visitorSays(first, "Where is my order?");
    await visitorSays(second, "Do you ship to Canada?");

    const items = await inbox(chat.alice);
    expect(items.map((item) => [item.id, item.unread, item.lastMessage?.content ?? null])).toEqual([
      [second, true, "Echo: Do you ship to Canada?"],
      [first, true, "Echo: Where is my order?"],
      [silent, false, null],
    ]);

    const read = await chat.t.gql<{ markConversationRead: { unread: boolean } }>(
      `mutation($id: ID!) { markConversationRead(id: $id) { unread } }`,
      { id: first },
      { token: chat.alice.apiKey },
    );
    expect(read.data?.markConversationRead.unread).toBe(false);
    expect((await inbox(chat.alice, true)).map((item) => item.id)).toEqual([second]);
    // An operator's or the AI's message is no reason to look again; a customer's is.
    await chat.t.gql(
      `mutation($id: ID!) { sendOperatorMessage(input: { conversationId: $id, content: "On its way." }) { id } }`,
      { id: first },
      { token: chat.alice.apiKey },
    );
    expect((await inbox(chat.alice, true)).map((item) => item.id)).toEqual([second]);
    await visitorSays(first, "Thanks!");
    expect((await inbox(chat.alice, true)).map((item) => item.id)).toEqual([first, second]);

    const foreign = await chat.t.gql(
      `mutation($id: ID!) { markConversationRead(id: $id) { id } }`,
      { id: second },
      { token: chat.bob.apiKey },
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    expect(await inbox(chat.bob)).toEqual([]);
  });

  it("streams the account's activity: messages and take-overs, nothing of other accounts", async () => {
    const assistant = await createAssistant(chat.t, chat.alice, { allowedOrigins: [SITE] });
    const other = await createAssistant(chat.t, chat.bob);
    const id = await widgetConversation(assistant.uuid);
    const bobs = await widgetConversation(other.uuid);
    const feed = await subscribeSse<{
      conversationActivity: {
        conversation: { id: string; aiDisabled: boolean; unread: boolean };
        message: { role: string; content: string } | null;
      };
    }>(
      chat.t.url,
      `subscription { conversationActivity { conversation { id aiDisabled unread } message { role content } } }`,
      { headers: { authorization: `Bearer ${chat.alice.apiKey}` } },
    );
    try {
      await chat.t.gql(
        `mutation($id: ID!) { takeOverConversation(id: $id) { id } }`,
        { id },
        { token: chat.alice.apiKey },
      );
      await visitorSays(bobs, "not for alice");
      await visitorSays(id, "Hello?");
      const events = [await feed.next(), await feed.next()].map((event) => event.data?.conversationActivity);
      expect(events).toEqual([
        { conversation: { id, aiDisabled: true, unread: false }, message: null },
        {
          conversation: { id, aiDisabled: true, unread: true },
          message: { role: "user", content: "Hello?" },
        },
      ]);
    } finally {
      await feed.close();
    }
  });

  it("pushes operator and AI messages to the visitor's widget, from allowed origins only", async () => {
    const assistant = await createAssistant(chat.t, chat.alice, { allowedOrigins: [SITE] });
    const id = await widgetConversation(assistant.uuid);
    const neighbour = await widgetConversation(assistant.uuid);
    const query = `subscription($id: ID!) { widgetConversationEvents(conversationId: $id) { role content } }`;

    const elsewhere = await subscribeSse(chat.t.url, query, {
      variables: { id },
      headers: { origin: "https://evil.example" },
    });
    expect(JSON.stringify(await elsewhere.next())).toContain("FORBIDDEN");
    await elsewhere.close();

    const widget = await subscribeSse<{ widgetConversationEvents: { role: string; content: string } }>(
      chat.t.url,
      query,
      { variables: { id }, headers: { origin: SITE } },
    );
    try {
      await visitorSays(neighbour, "someone else");
      await visitorSays(id, "Hi");
      await chat.t.gql(
        `mutation($id: ID!) { sendOperatorMessage(input: { conversationId: $id, content: "Jane here." }) { id } }`,
        { id },
        { token: chat.alice.apiKey },
      );
      const received = [await widget.next(), await widget.next()].map(
        (event) => event.data?.widgetConversationEvents,
      );
      expect(received).toEqual([
        { role: "assistant", content: "Echo: Hi" },
        { role: "operator", content: "Jane here." },
      ]);
    } finally {
      await widget.close();
    }
  });
});
