import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gqlUpload, waitForDocument } from "../../../../test/fixtures/knowledge.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../../test/support/test-app.ts";

const CREATE_DOCUMENT = `mutation ($kb: Int!, $input: CreateDocumentInput!) {
  createDocument(knowledgebaseId: $kb, input: $input) { id }
}`;

const PASSAGES = `query ($id: Int!, $offset: Int, $limit: Int) {
  document(id: $id) { chunkCount passages(offset: $offset, limit: $limit) { ordinal content tokenCount source } }
}`;

/** Forty numbered sentences about a shop: long enough to need several passages at any size allowed. */
const TEXT = Array.from(
  { length: 40 },
  (_, index) =>
    `Rule ${index + 1}: the shop in Lisbon keeps its teapot number ${index + 1} on shelf ${index + 7} of the back room.`,
).join(" ");

interface Passage {
  ordinal: number;
  content: string;
  tokenCount: number;
  source: string | null;
}

describe("knowledge bases: passage sizes, passages and readable relevance", () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ logLevel: "error" });
    owner = await t.createAccount();
    stranger = await t.createAccount();
  });

  afterAll(async () => {
    await t.close();
  });

  const createKb = async (input: Record<string, unknown>) =>
    t.gql<{ createKnowledgebase: { id: number; chunkMaxTokens: number; chunkOverlapTokens: number } }>(
      `mutation ($input: KnowledgebaseInput!) { createKnowledgebase(input: $input) { id chunkMaxTokens chunkOverlapTokens } }`,
      { input },
      { token: owner.apiKey },
    );

  const addText = async (kb: number, name: string) => {
    const created = await gqlUpload<{ createDocument: { id: number } }>(
      t,
      owner.apiKey,
      CREATE_DOCUMENT,
      { kb, input: { name, type: "txt" } },
      { name: `${name}.txt`, content: new TextEncoder().encode(TEXT) },
    );
    expect(created.errors).toBeUndefined();
    const id = created.data!.createDocument.id;
    expect((await waitForDocument(t, owner.apiKey, id)).status).toBe("ACTIVE");
    return id;
  };

  const passages = async (id: number, token = owner.apiKey, page: { offset?: number; limit?: number } = {}) =>
    t.gql<{ document: { chunkCount: number; passages: Passage[] } }>(PASSAGES, { id, ...page }, { token });

  it("defaults to 300 tokens sharing 50, and refuses sizes out of range with field messages", async () => {
    const plain = await createKb({ name: "Default sizes" });
    expect(plain.errors).toBeUndefined();
    expect(plain.data!.createKnowledgebase).toMatchObject({ chunkMaxTokens: 300, chunkOverlapTokens: 50 });

    const tooSmall = await createKb({ name: "Tiny", chunkMaxTokens: 10 });
    expect(tooSmall.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: { chunkMaxTokens: ["The chunk max tokens field must be between 50 and 2000."] },
    });
    const overlapping = await createKb({ name: "Overlapping", chunkMaxTokens: 100, chunkOverlapTokens: 50 });
    expect(overlapping.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: {
        chunkOverlapTokens: [
          "The chunk overlap tokens field must be less than half of chunk max tokens (100).",
        ],
      },
    });
    // An update is checked against the stored size it keeps.
    const update = await t.gql(
      `mutation ($id: Int!) { updateKnowledgebase(id: $id, input: { chunkOverlapTokens: 150 }) { id } }`,
      { id: plain.data!.createKnowledgebase.id },
      { token: owner.apiKey },
    );
    expect(update.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: {
        chunkOverlapTokens: [
          "The chunk overlap tokens field must be less than half of chunk max tokens (300).",
        ],
      },
    });
  });

  it("cuts new documents at the knowledge base's size; stored ones keep their passages", async () => {
    const created = await createKb({ name: "Shelves" });
    const kb = created.data!.createKnowledgebase.id;
    const large = await addText(kb, "large");
    const before = (await passages(large)).data!.document;

    const updated = await t.gql<{
      updateKnowledgebase: { chunkMaxTokens: number; chunkOverlapTokens: number };
    }>(
      `mutation ($id: Int!) { updateKnowledgebase(id: $id, input: { chunkMaxTokens: 120, chunkOverlapTokens: 40 }) { chunkMaxTokens chunkOverlapTokens } }`,
      { id: kb },
      { token: owner.apiKey },
    );
    expect(updated.errors).toBeUndefined();
    expect(updated.data!.updateKnowledgebase).toEqual({ chunkMaxTokens: 120, chunkOverlapTokens: 40 });

    const small = await addText(kb, "small");
    const after = (await passages(small, owner.apiKey, { limit: 100 })).data!.document;
    expect(after.chunkCount).toBeGreaterThan(before.chunkCount);
    expect(after.passages).toHaveLength(after.chunkCount);
    for (const passage of after.passages) expect(passage.tokenCount).toBeLessThanOrEqual(120);
    expect(after.passages.map((passage) => passage.ordinal)).toEqual(after.passages.map((_, index) => index));
    // Consecutive passages share text: the last sentence of one opens the next.
    const [first, second] = after.passages as [Passage, Passage];
    const shared = first.content.split(". ").at(-1)!;
    expect(second.content.startsWith(shared.slice(0, 20))).toBe(true);

    // The document added before the change kept its passages.
    expect((await passages(large)).data!.document.chunkCount).toBe(before.chunkCount);
  });

  it("pages a document's passages, checks the page's bounds and hides them from other accounts", async () => {
    const kb = (await createKb({ name: "Paged", chunkMaxTokens: 60, chunkOverlapTokens: 0 })).data!
      .createKnowledgebase.id;
    const id = await addText(kb, "paged");
    const all = (await passages(id, owner.apiKey, { limit: 100 })).data!.document.passages;
    const page = (await passages(id, owner.apiKey, { offset: 2, limit: 3 })).data!.document.passages;
    expect(page).toEqual(all.slice(2, 5));
    // Without overlap, the passages hold the whole text once, in order.
    expect(all.map((passage) => passage.content).join(" ")).toBe(TEXT);

    const bad = await passages(id, owner.apiKey, { offset: -1, limit: 101 });
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: {
        offset: ["The offset field must be 0 or more."],
        limit: ["The limit field must be between 1 and 100."],
      },
    });
    const foreign = await passages(id, stranger.apiKey);
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("gives every search mode a relevance from 0 to 1; hybrid's best is 1 when first in both rankings", async () => {
    const kb = (await createKb({ name: "Relevance" })).data!.createKnowledgebase.id;
    await addText(kb, "relevance");
    for (const mode of ["VECTOR", "KEYWORD", "HYBRID"]) {
      const result = await t.gql<{ searchKnowledgebase: { score: number; relevance: number }[] }>(
        `query ($id: Int!, $mode: SearchMode!) { searchKnowledgebase(id: $id, query: "Which shelf holds teapot number 12?", mode: $mode) { score relevance } }`,
        { id: kb, mode },
        { token: owner.apiKey },
      );
      expect(result.errors, mode).toBeUndefined();
      const found = result.data!.searchKnowledgebase;
      expect(found.length, mode).toBeGreaterThan(0);
      for (const passage of found) {
        expect(passage.relevance, mode).toBeGreaterThanOrEqual(0);
        expect(passage.relevance, mode).toBeLessThanOrEqual(1);
      }
      // Ranked by score, so by relevance too.
      const relevances = found.map((passage) => passage.relevance);
      expect(relevances, mode).toEqual([...relevances].sort((a, b) => b - a));
      if (mode === "HYBRID") expect(found[0]!.relevance).toBeCloseTo(found[0]!.score * 30.5, 6);
    }
  });
});
