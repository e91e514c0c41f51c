import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKnowledgebase, restUpload, waitForDocument } from "../../../../test/fixtures/knowledge.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../../test/support/test-app.ts";

/** A paragraph of ordinary words with one word of its own, `marker<n>`, that no other paragraph has. */
function paragraph(n: number): string {
  return `Paragraph marker${n} describes the harbour, the lighthouse keeper and the ferry timetable for the winter season. ${"The lantern is cleaned every morning before the first boat leaves the quay. ".repeat(6)}`;
}

/**
 * On the embedded store the ingestion writer merges the full-text index's pending list itself, in
 * statements of its own between its INSERTs (worker.ts, `PGLITE_GIN_MERGE_TARGET_MS`), instead of leaving
 * it to the INSERT that fills it. What must hold whatever the sizes: every passage is found by a keyword
 * search, and an active document leaves nothing in the pending list.
 */
describe("full-text index upkeep during ingestion", () => {
  let t: TestApp;
  let owner: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ logLevel: "error" });
    owner = await t.createAccount();
  });

  afterAll(async () => {
    await t.close();
  });

  it("finds every passage by keyword once active, with the pending list merged", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const paragraphs = Array.from({ length: 240 }, (_, n) => paragraph(n));
    const created = await restUpload<{ data: { id: number } }>(
      t,
      owner.apiKey,
      `/api/user/knowledgebases/${kb}/documents`,
      { name: "Harbour", type: "txt" },
      { name: "harbour.txt", content: new TextEncoder().encode(paragraphs.join("\n\n")) },
    );
    expect(created.status).toBe(201);
    const document = await waitForDocument(t, owner.apiKey, created.body.data.id);
    expect(document.status).toBe("ACTIVE");
    // More passages than the first merge takes, so some were merged while others were still being written.
    expect(document.chunkCount).toBeGreaterThan(16);

    for (const n of [0, 120, 239]) {
      const result = await t.gql<{ searchKnowledgebase: { content: string }[] }>(
        `query ($id: Int!, $query: String!) { searchKnowledgebase(id: $id, query: $query, mode: KEYWORD, limit: 1) { content } }`,
        { id: kb, query: `marker${n}` },
        { token: owner.apiKey },
      );
      expect(result.errors).toBeUndefined();
      expect(result.data?.searchKnowledgebase[0]?.content).toContain(`marker${n} `);
    }

    if (t.app.db.kind === "pglite") {
      // Pages a merge takes from the list now: none were left (on PostgreSQL, autovacuum's to decide).
      const [left] = await t.app.db.prisma.$queryRawUnsafe<{ pages: bigint }[]>(
        `SELECT gin_clean_pending_list('"document_chunks_search_vector_gin"'::regclass) AS "pages"`,
      );
      expect(Number(left!.pages)).toBe(0);
    }
  });
});
