import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.ts";

describe("upload store (files beside PGlite, parts in PostgreSQL)", () => {
  let t: TestApp;
  let accountId: number;
  let knowledgebaseId: number;

  beforeAll(async () => {
    t = await startTestApp();
    accountId = (await t.createAccount()).accountId;
    knowledgebaseId = (await t.app.services.knowledgebases.create(accountId, { name: "Store" })).id;
  });
  afterAll(() => t.close());

  /** A document row to hang an upload on, left processing so nothing counts its upload as orphaned. */
  const documentRow = (sizeBytes: number) =>
    t.app.db.prisma.document.create({
      data: { accountId, knowledgebaseId, name: "Scan", type: "pdf", status: "processing", sizeBytes },
    });

  it("gives back a multi-megabyte binary upload byte for byte, sent as many small stream chunks", async () => {
    const content = randomBytes(2_500_000 + 17);
    const chunks = Array.from({ length: Math.ceil(content.length / 65_536) }, (_, index) =>
      content.subarray(index * 65_536, (index + 1) * 65_536),
    );
    const document = await documentRow(content.length);
    const uploads = t.app.services.ingestion.uploads;
    await uploads.save(document.id, new File(chunks, "scan.pdf"));

    expect((await uploads.read(document.id, content.length))?.equals(content)).toBe(true);
    // A size that does not match what was stored means an interrupted save: treated as missing.
    expect(await uploads.read(document.id, content.length + 1)).toBeNull();
    expect(await uploads.storedDocumentIds()).toContain(document.id);

    await uploads.delete(document.id);
    expect(await uploads.read(document.id, content.length)).toBeNull();
    expect(await uploads.storedDocumentIds()).not.toContain(document.id);
  });

  it("removes uploads of active or deleted documents and keeps those processing or failed", async () => {
    const uploads = t.app.services.ingestion.uploads;
    const [waiting, finished, deleted, failed] = await Promise.all([
      documentRow(5),
      documentRow(5),
      documentRow(5),
      documentRow(5),
    ]);
    for (const document of [waiting, finished, deleted, failed])
      await uploads.save(document.id, new File(["hello"], "note.txt"));
    await t.app.db.prisma.document.update({ where: { id: finished.id }, data: { status: "active" } });
    await t.app.db.prisma.document.update({ where: { id: failed.id }, data: { status: "failed" } });
    await t.app.db.prisma.document.delete({ where: { id: deleted.id } });

    await uploads.removeOrphans();

    const stored = await uploads.storedDocumentIds();
    expect(stored).toContain(waiting.id);
    expect(stored).toContain(failed.id);
    expect(await uploads.has(failed.id, 5)).toBe(true);
    expect(await uploads.has(finished.id, 5)).toBe(false);
    expect(stored).not.toContain(finished.id);
    expect(stored).not.toContain(deleted.id);
    expect((await uploads.read(waiting.id, 5))?.toString()).toBe("hello");
  });
});
