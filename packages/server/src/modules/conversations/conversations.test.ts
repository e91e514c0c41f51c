import { createClient } from "graphql-ws";
import { describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { useChatTestApp } from "../../../test/fixtures/chat-app.ts";

const SITE = "https://shop.example";
const SUBSCRIPTION_PROBE = "(subscription probe)";

const chat = useChatTestApp({
  VOXGATE_WIDGET_RATE_LIMIT_PER_MINUTE: "1000",
  VOXGATE_CONVERSATION_RATE_LIMIT_PER_MINUTE: "1000",
});

async function startConversation(uuid: string, body: unknown = {}, origin = SITE) {
  return chat.t.rest<Record<string, unknown>>("POST", `/api/widget/assistants/${uuid}/conversations`, {
    body,
    headers: { origin },
  });
}

describe("owner GraphQL", () => {
  it("lists and reads only the account's conversations; another account's id is NOT_FOUND", async () => {
    const assistant = await createAssistant(chat.t, chat.alice);
    const id = String((await startConversation(assistant.uuid)).body.conversation_id);
    await chat.t.rest("POST", `/api/conversations/${id}/messages`, { body: { message: "hello" } });

    const list = await chat.t.gql<{
      conversations: { items: { id: string; channel: string }[]; pageInfo: { total: number } };
    }>(
      `query($assistantId: Int) { conversations(assistantId: $assistantId, perPage: 10) { items { id channel } pageInfo { total } } }`,
      { assistantId: assistant.id },
      { token: chat.alice.apiKey },
    );
    expect(list.data?.conversations.items).toEqual([{ id, channel: "widget" }]);
    const bobList = await chat.t.gql<{ conversations: { items: { id: string }[] } }>(
      `{ conversations { items { id } } }`,
      {},
      { token: chat.bob.apiKey },
    );
    expect(bobList.data?.conversations.items.map((item) => item.id)).not.toContain(id);

    const single = await chat.t.gql<{ conversation: { messages: { role: string; content: string }[] } }>(
      `query($id: ID!) { conversation(id: $id) { messages { role content } } }`,
      { id },
      { token: chat.alice.apiKey },
    );
    expect(single.data?.conversation.messages).toEqual([
      { role: "user", content: "hello" },
      { role: "assistant", content: "Echo: hello" },
    ]);
    for (const query of [
      `query($id: ID!) { conversation(id: $id) { id } }`,
      `mutation($id: ID!) { takeOverConversation(id: $id) { id } }`,
      `mutation($id: ID!) { handBackConversation(id: $id) { id } }`,
      `mutation($id: ID!) { sendOperatorMessage(input: { conversationId: $id, content: "hi" }) { id } }`,
      `mutation($id: ID!) { sendTestMessage(input: { conversationId: $id, message: "hi" }) { reply } }`,
    ]) {
      const refused = await chat.t.gql(query, { id }, { token: chat.bob.apiKey });
      expect(refused.errors?.[0]?.extensions?.code, query).toBe("NOT_FOUND");
    }
    const anonymous = await chat.t.gql(`{ conversations { items { id } } }`);
    expect(anonymous.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("runs free test conversations for the owner, on their own assistants only", async () => {
    const account = await chat.t.createAccount({ balance: "0" });
    const assistant = await createAssistant(chat.t, account);
    const started = await chat.t.gql<{ startTestConversation: { id: string; channel: string } }>(
      `mutation($id: Int!) { startTestConversation(input: { assistantId: $id, variables: { plan: "gold" } }) { id channel } }`,
      { id: assistant.id },
      { token: account.apiKey },
    );
    expect(started.data?.startTestConversation.channel).toBe("test");
    const sent = await chat.t.gql<{
      sendTestMessage: { reply: string; aiDisabled: boolean; replyMessage: { role: string } };
    }>(
      `mutation($id: ID!) { sendTestMessage(input: { conversationId: $id, message: "try me" }) { reply aiDisabled replyMessage { role } } }`,
      { id: started.data?.startTestConversation.id },
      { token: account.apiKey },
    );
    expect(sent.data?.sendTestMessage).toEqual({
      reply: "Echo: try me",
      aiDisabled: false,
      replyMessage: { role: "assistant" },
    });
    expect(
      await chat.t.app.db.prisma.ledgerEntry.count({
        where: { accountId: account.accountId, kind: "message_debit" },
      }),
    ).toBe(0);

    const foreign = await chat.t.gql(
      `mutation($id: Int!) { startTestConversation(input: { assistantId: $id }) { id } }`,
      { id: assistant.id },
      { token: chat.bob.apiKey },
    );
    expect(foreign.errors?.[0]?.extensions?.code).toBe("ASSISTANT_NOT_FOUND");
    const tooLong = await chat.t.gql(
      `mutation($id: ID!) { sendTestMessage(input: { conversationId: $id, message: "${"x".repeat(2001)}" }) { reply } }`,
      { id: started.data?.startTestConversation.id },
      { token: account.apiKey },
    );
    expect(tooLong.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { message: ["The message field must not be greater than 2000 characters."] },
    });
  });

  it("streams the reply token by token and announces stored messages over graphql-ws; operator messages reach the widget", async () => {
    const assistant = await createAssistant(chat.t, chat.alice);
    const id = String((await startConversation(assistant.uuid)).body.conversation_id);
    const client = createClient({
      url: `${chat.t.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${chat.alice.apiKey}` },
    });
    // Probes are published through the server's own event bus (through Redis on the postgres
    // project) until each subscription has received one: from then on both are registered end to
    // end, however slow the machine. Probes are recognised by their text and kept out of the results.
    const probeConversation = String((await startConversation(assistant.uuid)).body.conversation_id);
    const probe = await chat.t.app.db.prisma.message.create({
      data: { conversationId: probeConversation, role: "operator", content: SUBSCRIPTION_PROBE },
    });
    const probed = { deltas: false, added: false };
    const deltas: string[] = [];
    const added: { role: string; content: string }[] = [];
    const stopDeltas = client.subscribe<{ conversationReplyStream: { text: string } }>(
      {
        query: `subscription($id: ID!) { conversationReplyStream(conversationId: $id) { text } }`,
        variables: { id },
      },
      {
        next: (value) => {
          const text = value.data?.conversationReplyStream.text;
          if (text === SUBSCRIPTION_PROBE) probed.deltas = true;
          else if (text !== undefined) deltas.push(text);
        },
        error: () => {},
        complete: () => {},
      },
    );
    const stopAdded = client.subscribe<{ conversationMessageAdded: { role: string; content: string } }>(
      {
        query: `subscription($id: ID!) { conversationMessageAdded(conversationId: $id) { role content } }`,
        variables: { id },
      },
      {
        next: (value) => {
          const message = value.data?.conversationMessageAdded;
          if (message?.content === SUBSCRIPTION_PROBE) probed.added = true;
          else if (message) added.push(message);
        },
        error: () => {},
        complete: () => {},
      },
    );
    try {
      await expect
        .poll(
          () => {
            if (!probed.deltas) {
              chat.t.app.pubsub.publish("conversation:reply-delta", id, {
                conversationId: id,
                text: SUBSCRIPTION_PROBE,
              });
            }
            if (!probed.added) {
              chat.t.app.pubsub.publish("conversation:message", id, {
                conversationId: id,
                messageId: probe.id,
                role: probe.role as "user",
              });
            }
            return probed.deltas && probed.added;
          },
          { timeout: 15_000, interval: 25 },
        )
        .toBe(true);
      // Pieces that arrive together are published together: these come apart, as a real model's do.
      chat.fake.enqueue({ content: "Your order ships tomorrow.", pieceDelayMs: 50 });
      await chat.t.rest("POST", `/api/conversations/${id}/messages`, { body: { message: "When?" } });
      const operator = await chat.t.gql(
        `mutation($id: ID!) { sendOperatorMessage(input: { conversationId: $id, content: "Jane here, I can help." }) { role } }`,
        { id },
        { token: chat.alice.apiKey },
      );
      expect(operator.errors).toBeUndefined();
      await expect.poll(() => added.length).toBe(3);
      expect(deltas.length).toBeGreaterThan(1);
      expect(deltas.join("")).toBe("Your order ships tomorrow.");
      expect(added).toEqual([
        { role: "user", content: "When?" },
        { role: "assistant", content: "Your order ships tomorrow." },
        { role: "operator", content: "Jane here, I can help." },
      ]);
      const history = await chat.t.rest<{ messages: { role: string }[] }>(
        "GET",
        `/api/conversations/${id}/messages`,
      );
      expect(history.body.messages.map((message) => message.role)).toEqual(["user", "assistant", "operator"]);

      const foreign = createClient({
        url: `${chat.t.url.replace("http", "ws")}/graphql`,
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${chat.bob.apiKey}` },
      });
      const errors: unknown[] = [];
      await new Promise<void>((resolve) => {
        foreign.subscribe(
          {
            query: `subscription($id: ID!) { conversationMessageAdded(conversationId: $id) { role } }`,
            variables: { id },
          },
          {
            next: (value) => {
              errors.push(...(value.errors ?? []));
              resolve();
            },
            error: (error) => {
              errors.push(error);
              resolve();
            },
            complete: resolve,
          },
        );
      });
      expect(JSON.stringify(errors)).toContain("NOT_FOUND");
      await foreign.dispose();
    } finally {
      stopDeltas();
      stopAdded();
      await client.dispose();
    }
  });
});
