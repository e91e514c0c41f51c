import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makePdf, waitForDocument } from "../../../../test/fixtures/knowledge.ts";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.ts";
import { textTokenizer } from "../../../tokenizer.ts";
import { chunkSections } from "./chunking.ts";

describe("PDF ingestion", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it("stores the passages cut in the PDF worker, without the server's thread tokenising", async () => {
    const account = await t.createAccount();
    const kb = await t.app.services.knowledgebases.create(account.accountId, { name: "Manuals" });
    const pages = [
      Array.from({ length: 30 }, (_, line) => `The ferry number ${line + 1} leaves the harbour at seven.`),
      ["Bicycles travel free of charge."],
    ];
    const encode = vi.spyOn(textTokenizer, "encode");
    try {
      const created = await t.app.services.documents.create(account.accountId, kb.id, {
        name: "Ferry",
        type: "pdf",
        file: new File([await makePdf(pages)], "ferry.pdf"),
      });
      const document = await waitForDocument(t, account.apiKey, created.id, 60_000);
      expect(document).toMatchObject({ status: "ACTIVE", pagesTotal: 2 });
      expect(encode).not.toHaveBeenCalled();
      const stored = await t.app.db.prisma.documentChunk.findMany({
        where: { documentId: created.id },
        orderBy: { ordinal: "asc" },
        select: { content: true, tokenCount: true, source: true },
      });
      const expected = chunkSections(
        pages.map((lines, page) => ({ source: `page ${page + 1}`, text: lines.join("\n") })),
      );
      expect(expected.length).toBeGreaterThan(2);
      expect(stored).toEqual(expected);
    } finally {
      encode.mockRestore();
    }
  });
});
