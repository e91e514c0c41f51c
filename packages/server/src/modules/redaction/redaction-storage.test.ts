import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../../../test/support/webhook-receiver.ts";

/**
 * What an assistant's redaction changes where content is stored and sent onwards: the setting
 * through GraphQL, a conversation's messages (the model still reads the real words), a call's
 * turns, transcript and evaluation, and the webhooks built from them.
 */

const CARD = "4111 1111 1111 1111";
const EMAIL = "jane.doe@example.com";
const SAID = `My card is ${CARD} and my email is ${EMAIL}, order 123456 for $12.50.`;
const REDACTED = "My card is [card number] and my email is [email], order 123456 for $12.50.";

const UPDATE = /* GraphQL */ `
  mutation ($id: Int!, $input: UpdateAssistantInput!) {
    updateAssistant(id: $id, input: $input) { id redactPii redactRecordings }
  }`;

let t: TestApp;
let fake: FakeOpenAI;
let receiver: WebhookReceiver;
let owner: TestAccount;
let assistantId: number;

beforeAll(async () => {
  [fake, receiver] = await Promise.all([startFakeOpenAI(), startWebhookReceiver()]);
  t = await startTestApp({
    model: fake,
    env: { VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1", VOXGATE_WEBHOOK_RETRY_BASE_MS: "20" },
  });
  owner = await t.createAccount({ balance: "5" });
  const assistant = await t.app.services.assistants.create(owner, {
    name: "Careful",
    isWebhookActive: true,
    webhookUrl: receiver.url,
  });
  assistantId = assistant.id;
  const updated = await t.gql<{ updateAssistant: { redactPii: string[]; redactRecordings: boolean } }>(
    UPDATE,
    {
      id: assistantId,
      input: { redactPii: ["card_number", "email", "card_number"], redactRecordings: true },
    },
    { token: owner.apiKey },
  );
  expect(updated.errors).toBeUndefined();
  expect(updated.data!.updateAssistant).toMatchObject({
    redactPii: ["card_number", "email"],
    redactRecordings: true,
  });
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
  await receiver?.close();
});

describe("the redaction setting", () => {
  it("is read back, refuses unknown categories and is cleared by null", async () => {
    const read = await t.gql<{ assistant: { redactPii: string[] } }>(
      "query ($id: Int!) { assistant(id: $id) { redactPii } }",
      { id: assistantId },
      { token: owner.apiKey },
    );
    expect(read.data!.assistant.redactPii).toEqual(["card_number", "email"]);
    const refused = await t.gql(
      UPDATE,
      { id: assistantId, input: { redactPii: ["passport"] } },
      { token: owner.apiKey },
    );
    expect(refused.errors?.[0]?.message).toContain("passport");
    const other = await t.app.services.assistants.create(owner, { name: "Plain", redactPii: ["email"] });
    const cleared = await t.gql<{ updateAssistant: { redactPii: string[] } }>(
      UPDATE,
      { id: other.id, input: { redactPii: null } },
      { token: owner.apiKey },
    );
    expect(cleared.data!.updateAssistant.redactPii).toEqual([]);
  });
});

describe("conversations", () => {
  it("store and send onwards redacted messages; the live reply and the model keep the real words", async () => {
    const conversations = t.app.services.conversations;
    const conversation = await conversations.startTest(owner.accountId, { assistantId });
    const outcome = await conversations.sendTestMessage(owner.accountId, {
      conversationId: conversation.id,
      message: SAID,
    });
    // The echo model was sent the real words, and the customer is answered with them.
    expect(fake.chatRequests.at(-1)!.messages.at(-1)).toMatchObject({ role: "user", content: SAID });
    expect(outcome.reply).toBe(`Echo: ${SAID}`);

    const stored = await t.app.db.prisma.message.findMany({
      where: { conversationId: conversation.id },
      orderBy: { id: "asc" },
    });
    expect(stored.map((message) => [message.role, message.content])).toEqual([
      ["user", REDACTED],
      ["assistant", `Echo: ${REDACTED}`],
    ]);
    const webhook = await receiver.waitFor(
      (request) =>
        request.json.type === "conversation.message" &&
        request.json.data.conversation_id === conversation.id &&
        (request.json.data.message as { role: string }).role === "assistant",
    );
    expect(webhook.body).not.toContain("4111");
    expect(webhook.body).not.toContain(EMAIL);
    expect((webhook.json.data.message as { content: string }).content).toBe(`Echo: ${REDACTED}`);

    // The next turn's history is read from storage: the model sees the placeholders there.
    await conversations.sendTestMessage(owner.accountId, {
      conversationId: conversation.id,
      message: "thanks",
    });
    const history = fake.chatRequests.at(-1)!.messages.map((message) => message.content ?? "");
    expect(history).toContain(REDACTED);
    expect(history.join("\n")).not.toContain(EMAIL);
  });
});

describe("calls", () => {
  it("store turns, transcript and evaluation redacted, and send them on redacted", async () => {
    const call = await t.app.services.callStarts.start(owner.accountId, { assistantId, type: "web" });
    const turn = { interrupted: false, timings: null, startMs: 1_000, endMs: 4_000 };
    await t.app.services.callTurns.record(call, {
      ...turn,
      speaker: "customer",
      text: SAID,
      heardText: SAID,
    });
    const answer = `Thanks, I will mail ${EMAIL}.`;
    await t.app.services.callTurns.record(call, {
      ...turn,
      speaker: "assistant",
      text: answer,
      heardText: answer,
    });
    const turns = await t.app.services.callTurns.list(owner.accountId, call.id);
    expect(turns.map((row) => [row.speaker, row.text, row.heardText])).toEqual([
      ["customer", REDACTED, REDACTED],
      ["assistant", "Thanks, I will mail [email].", "Thanks, I will mail [email]."],
    ]);

    await t.app.services.callAnnotations.recordEvaluation(call.id, {
      status: "done",
      evaluation: { contact: EMAIL, summary: `Paid with ${CARD}`, items: 3 },
    });
    const stored = await t.app.db.prisma.call.findUniqueOrThrow({ where: { id: call.id } });
    expect(stored.transcript).toBe(`Customer: ${REDACTED}\nAssistant: Thanks, I will mail [email].`);
    expect(stored.evaluation).toEqual({ contact: "[email]", summary: "Paid with [card number]", items: 3 });

    const webhook = await receiver.waitFor(
      (request) => request.json.type === "call.evaluated" && request.json.data.id === call.id,
    );
    expect(webhook.body).not.toContain("4111");
    expect(webhook.body).not.toContain(EMAIL);
    expect(webhook.json.data).toMatchObject({
      transcript: stored.transcript,
      evaluation: { contact: "[email]", summary: "Paid with [card number]", items: 3 },
    });
  });
});
