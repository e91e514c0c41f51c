import { afterEach, describe, expect, it } from "vitest";
import { createAssistant } from "../../../test/fixtures/assistants.ts";
import { createKnowledgebase, gqlUpload, waitForDocument } from "../../../test/fixtures/knowledge.ts";
import { type FakeOpenAI, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { startTestApp, type TestApp } from "../../../test/support/test-app.ts";
import { FALLBACK_NOTICE } from "../message-pipeline/index.ts";

interface Readiness {
  status: string;
  model: { configured: boolean; chat: string | null; embeddings: string; notice: string | null };
}

describe("the deployment's model, reported and used", () => {
  let t: TestApp | undefined;
  let fake: FakeOpenAI | undefined;

  afterEach(async () => {
    await t?.close();
    await fake?.close();
    t = undefined;
    fake = undefined;
  });

  it("says in /readyz that no model is configured, what answers meanwhile and what to set", async () => {
    t = await startTestApp();
    const ready = await t.rest<Readiness>("GET", "/readyz");
    // Still ready: the fallback answers.
    expect(ready.status).toBe(200);
    expect(ready.body.status).toBe("ready");
    expect(ready.body.model).toEqual({
      configured: false,
      chat: null,
      embeddings: "local:hash:384",
      notice: expect.stringContaining("No chat model is configured: assistants answer with a fixed fallback"),
    });
    for (const words of ["OPENAI_API_KEY", "OPENAI_BASE_URL", "docs/self-hosted-models.md"])
      expect(ready.body.model.notice).toContain(words);
  });

  it("answers and embeds through a keyless OpenAI-compatible server as docs/self-hosted-models.md sets it up (Ollama)", async () => {
    fake = await startFakeOpenAI();
    // The Ollama configuration of the guide: its /v1 endpoint, no key, its model names and dimensions.
    t = await startTestApp({
      env: {
        OPENAI_BASE_URL: fake.baseUrl,
        OPENAI_MODEL: "llama3.1:8b",
        OPENAI_EMBEDDING_MODEL: "nomic-embed-text",
        OPENAI_EMBEDDING_DIMENSIONS: "768",
      },
    });
    const ready = await t.rest<Readiness>("GET", "/readyz");
    expect(ready.body.model).toEqual({
      configured: true,
      chat: "llama3.1:8b",
      embeddings: "openai:nomic-embed-text:768",
      notice: null,
    });

    const owner = await t.createAccount({ balance: "1" });
    const assistant = await createAssistant(t, owner);
    const reply = await t.rest<{ reply: string }>("POST", "/api/ai/generate-reply", {
      token: owner.apiKey,
      body: { assistant_id: assistant.id, customer_identifier: "x", message: "Do you open on Sundays?" },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.reply.startsWith(FALLBACK_NOTICE)).toBe(false);
    expect(reply.body.reply).toContain("Do you open on Sundays?");
    const chat = fake.chatRequests.at(-1)!;
    expect(chat.model).toBe("llama3.1:8b");

    const kb = await createKnowledgebase(t, owner.apiKey);
    const created = await gqlUpload<{ createDocument: { id: number } }>(
      t,
      owner.apiKey,
      `mutation ($kb: Int!, $input: CreateDocumentInput!) { createDocument(knowledgebaseId: $kb, input: $input) { id } }`,
      { kb, input: { name: "Hours", type: "txt" } },
      { name: "hours.txt", content: new TextEncoder().encode("The shop opens on Sundays from ten to four.") },
    );
    expect((await waitForDocument(t, owner.apiKey, created.data!.createDocument.id)).status).toBe("ACTIVE");
    expect(fake.embeddingRequests.map((request) => request.model)).toContain("nomic-embed-text");
    const [stored] = await t.app.db.prisma.$queryRaw<{ dims: number; embedder: string }[]>`
      SELECT vector_dims("embedding") AS "dims", "embedder" FROM "document_chunks" WHERE "knowledgebaseId" = ${kb}`;
    expect({ dims: Number(stored!.dims), embedder: stored!.embedder }).toEqual({
      dims: 768,
      embedder: "openai:nomic-embed-text:768",
    });
  });
});
