import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { createKnowledgebase, restUpload, waitForDocument } from "../../../test/fixtures/knowledge.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { KNOWLEDGEBASE_MODES } from "../assistants/assistant-rules.ts";
import { FALLBACK_NOTICE, knowledgeStrategy } from "./reply-knowledge.ts";

const HANDBOOK = [
  "Opening hours: the shop opens Monday to Friday from 9:00 to 18:00 and is closed on Sundays.",
  "Returns: items can be returned within 30 days with the receipt for a full refund.",
].join("\n\n");

async function knowledgebaseWithHandbook(t: TestApp, owner: TestAccount): Promise<number> {
  const kb = await createKnowledgebase(t, owner.apiKey);
  const created = await restUpload<{ data: { id: number } }>(
    t,
    owner.apiKey,
    `/api/user/knowledgebases/${kb}/documents`,
    { name: "Handbook", type: "txt" },
    { name: "handbook.txt", content: new TextEncoder().encode(HANDBOOK), type: "text/plain" },
  );
  expect(created.status).toBe(201);
  expect((await waitForDocument(t, owner.apiKey, created.body.data.id)).status).toBe("ACTIVE");
  return kb;
}

describe("replies with a knowledge base", () => {
  let t: TestApp;
  let fake: FakeOpenAI;
  let owner: TestAccount;
  let kb: number;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    t = await startTestApp({ model: fake });
    owner = await t.createAccount({ balance: "1" });
    kb = await knowledgebaseWithHandbook(t, owner);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  it("puts the passages retrieved for the customer's message in the prompt (hybrid mode)", async () => {
    const assistant = await createAssistant(t, owner, { knowledgebaseId: kb, knowledgebaseMode: "hybrid" });
    fake.reset();
    const reply = await t.rest("POST", "/api/ai/generate-reply", {
      token: owner.apiKey,
      body: { assistant_id: assistant.id, customer_identifier: "kb", message: "When does the shop open?" },
    });
    expect(reply.status).toBe(200);
    const system = String(fake.chatRequests[0]!.messages[0]!.content);
    expect(system).toContain("knowledge-base passages");
    expect(system).toContain("Monday to Friday from 9:00 to 18:00");
    expect(fake.chatRequests[0]!.tools).toBeUndefined();
  });

  it("embeds a question asked again only once per account", async () => {
    const assistant = await createAssistant(t, owner, { knowledgebaseId: kb, knowledgebaseMode: "hybrid" });
    const question = "Are you open on Sundays?";
    const asked = () => fake.embeddingRequests.filter((request) => request.input.includes(question)).length;
    fake.reset();
    for (const customer of ["sunday-1", "sunday-2"]) {
      const reply = await t.rest("POST", "/api/ai/generate-reply", {
        token: owner.apiKey,
        body: { assistant_id: assistant.id, customer_identifier: customer, message: question },
      });
      expect(reply.status).toBe(200);
      expect(String(fake.chatRequests.at(-1)!.messages[0]!.content)).toContain("closed on Sundays");
    }
    expect(asked()).toBe(1);
    // Another account's search (refused: not its knowledge base) embeds the question anew.
    const other = await t.createAccount();
    await expect(t.app.services.knowledgebases.search(other.accountId, kb, question)).rejects.toThrow(
      "not found",
    );
    expect(asked()).toBe(2);
  });

  it("offers a search function the model calls in tool mode, reported in function_calls", async () => {
    const assistant = await createAssistant(t, owner, { knowledgebaseId: kb, knowledgebaseMode: "tool" });
    fake.reset();
    fake.enqueue({ toolCalls: [{ name: "search_knowledge_base", arguments: { query: "returns refund" } }] });
    fake.enqueue({ content: "You have 30 days." });
    const reply = await t.rest<{
      reply: string;
      function_calls: { name: string; result: { content: string }[]; error: null }[];
    }>("POST", "/api/ai/generate-reply", {
      token: owner.apiKey,
      body: { assistant_id: assistant.id, customer_identifier: "kb-tool", message: "Can I return this?" },
    });
    expect(reply.body.reply).toBe("You have 30 days.");
    expect(fake.chatRequests[0]!.tools?.map((tool) => tool.function.name)).toEqual(["search_knowledge_base"]);
    expect(String(fake.chatRequests[0]!.messages[0]!.content)).not.toContain("within 30 days");
    const call = reply.body.function_calls[0]!;
    expect(call.name).toBe("search_knowledge_base");
    expect(call.error).toBeNull();
    expect(call.result[0]!.content).toContain("returned within 30 days");
    const toolMessage = fake.chatRequests[1]!.messages.find((message) => message.role === "tool");
    expect(toolMessage?.content).toContain("returned within 30 days");
  });
});

describe("without any language model configured", () => {
  it("answers honestly from the greeting and the best passages, marked as not AI-generated, for free", async () => {
    const t = await startTestApp();
    try {
      const owner = await t.createAccount({ balance: "1" });
      const kb = await knowledgebaseWithHandbook(t, owner);
      const assistant = await createAssistant(t, owner, {
        knowledgebaseId: kb,
        initialMessage: "Hello from the shop!",
      });
      const started = await t.rest<{ conversation_id: string }>(
        "POST",
        `/api/widget/assistants/${assistant.uuid}/conversations`,
        { body: {} },
      );
      const sent = await t.rest<{ status: boolean; message: string }>(
        "POST",
        `/api/conversations/${started.body.conversation_id}/messages`,
        { body: { message: "What are your opening hours?" } },
      );
      expect(sent.status).toBe(200);
      expect(sent.body.message.startsWith(FALLBACK_NOTICE)).toBe(true);
      expect(sent.body.message).toContain("Hello from the shop!");
      expect(sent.body.message).toContain("Monday to Friday from 9:00 to 18:00");
      const account = await t.app.db.prisma.account.findUniqueOrThrow({ where: { id: owner.accountId } });
      expect(account.balance.toFixed(4)).toBe("1.0000");

      const bare = await createAssistant(t, owner, { initialMessage: "" });
      const reply = await t.rest<{ reply: string }>("POST", "/api/ai/generate-reply", {
        token: owner.apiKey,
        body: { assistant_id: bare.id, customer_identifier: "x", message: "hi" },
      });
      expect(reply.body.reply).toBe(`${FALLBACK_NOTICE}\n\nA member of our team will read your message.`);
    } finally {
      await t.close();
    }
  });
});

describe("knowledge modes", () => {
  it("maps every mode the assistants API accepts to its search, and keeps older stored values working", () => {
    expect(KNOWLEDGEBASE_MODES.map((mode) => knowledgeStrategy(mode))).toEqual([
      { kind: "prompt", mode: "hybrid" },
      { kind: "prompt", mode: "vector" },
      { kind: "prompt", mode: "keyword" },
      { kind: "tool" },
    ]);
    expect(knowledgeStrategy("vector")).toEqual({ kind: "prompt", mode: "vector" });
    expect(knowledgeStrategy("function")).toEqual({ kind: "tool" });
    expect(knowledgeStrategy("anything")).toEqual({ kind: "prompt", mode: "hybrid" });
  });
});
