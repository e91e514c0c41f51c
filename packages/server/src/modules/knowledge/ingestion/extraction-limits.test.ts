import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  entityXml,
  gzip,
  makeBrokenPageTreePdf,
  makeDocxWith,
  makeObjectStreamPdf,
  makePdfWith,
  nestedXml,
  paragraphsXml,
  repeated,
} from "../../../../test/fixtures/bombs.ts";
import {
  createKnowledgebase,
  gqlUpload,
  makeDocx,
  makePdf,
  restUpload,
  waitForDocument,
} from "../../../../test/fixtures/knowledge.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../../test/support/test-app.ts";
import { EXTRACTION_LIMITS } from "../../../limits.ts";
import { extractText } from "./extract.ts";
import { IngestionFailure } from "./failure.ts";

const MB = 1024 * 1024;

const CREATE_DOCUMENT = `mutation ($kb: Int!, $input: CreateDocumentInput!) {
  createDocument(knowledgebaseId: $kb, input: $input) { id status }
}`;

describe("documents that expand past the extraction limits", () => {
  let t: TestApp;
  let owner: TestAccount;
  let kb: number;

  let site: Server;
  let siteUrl: string;

  beforeAll(async () => {
    // A page of 400 MB of HTML sent gzipped (about 400 KB on the wire), and an ordinary page.
    const bomb = await gzip(repeated("<p>all work and no play makes jack a dull boy</p>\n", 400 * MB));
    site = createServer((request, response) => {
      if (request.url === "/bomb") {
        response.writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" });
        return response.end(bomb);
      }
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<html><body><main><p>The museum is closed on Mondays.</p></main></body></html>");
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
    t = await startTestApp({ env: { VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1" }, logLevel: "error" });
    owner = await t.createAccount();
    kb = await createKnowledgebase(t, owner.apiKey);
  });

  afterAll(async () => {
    await t.close();
    site.closeAllConnections();
    site.close();
  });

  async function uploadDocx(name: string, content: Uint8Array<ArrayBuffer>) {
    const created = await gqlUpload<{ createDocument: { id: number; status: string } }>(
      t,
      owner.apiKey,
      CREATE_DOCUMENT,
      { kb, input: { name, type: "docx" } },
      { name: `${name}.docx`, content },
    );
    expect(created.errors).toBeUndefined();
    return waitForDocument(t, owner.apiKey, created.data!.createDocument.id, 60_000);
  }

  async function uploadPdf(name: string, content: Uint8Array<ArrayBuffer>) {
    const created = await restUpload<{ data: { id: number } }>(
      t,
      owner.apiKey,
      `/api/user/knowledgebases/${kb}/documents`,
      { name, type: "pdf" },
      { name: `${name}.pdf`, content },
    );
    expect(created.status).toBe(201);
    return waitForDocument(t, owner.apiKey, created.body.data.id, 60_000);
  }

  it("fails DOCX bombs with their reason, and the server goes on serving and ingesting", async () => {
    // 400 MB of document.xml in a file of about 1.6 MB: the upload that used to kill the process.
    const bomb = await makeDocxWith(() => paragraphsXml(400 * MB));
    expect(bomb.byteLength).toBeLessThan(2 * MB);
    expect(await uploadDocx("bomb", bomb)).toMatchObject({
      status: "FAILED",
      failureReason:
        "The document expands to more than 100 MB of text when decompressed; split it into smaller files.",
    });

    // The same part declaring 1 KB: its real size is counted as it inflates, and it stops past 1 KB.
    const lying = await makeDocxWith(() => paragraphsXml(400 * MB), { declaredSize: 1024 });
    expect((await uploadDocx("lying", lying)).failureReason).toBe("The DOCX file is corrupt or unreadable.");

    // Within the total but 50 MB out of half a megabyte.
    const dense = await makeDocxWith(() => paragraphsXml(50 * MB));
    expect((await uploadDocx("dense", dense)).failureReason).toBe(
      "The document is compressed more than 100 to 1, which real documents never are (a decompression bomb), and was refused.",
    );

    const deep = await makeDocxWith(() => nestedXml(EXTRACTION_LIMITS.maxXmlDepth + 10));
    expect((await uploadDocx("deep", deep)).failureReason).toBe(
      "The document's XML nests elements more than 256 deep and was refused.",
    );

    const entities = await makeDocxWith(entityXml);
    expect((await uploadDocx("entities", entities)).failureReason).toBe(
      "The document's XML declares a document type (entities), which Word documents never do, and was refused.",
    );

    const parts = await makeDocxWith(() => paragraphsXml(1), { extraParts: EXTRACTION_LIMITS.maxZipEntries });
    expect((await uploadDocx("parts", parts)).failureReason).toBe(
      "The DOCX file holds more than 2000 parts and was refused.",
    );

    // Nesting within the limit is read, through the same guarded reader.
    const nested = await uploadDocx("nested", await makeDocxWith(() => nestedXml(200)));
    expect(nested).toMatchObject({ status: "ACTIVE", failureReason: null });

    const real = await uploadDocx("real", await makeDocx(["The lighthouse opens to visitors at ten."]));
    expect(real).toMatchObject({ status: "ACTIVE", failureReason: null });
    const search = await t.gql<{ searchKnowledgebase: { content: string }[] }>(
      `query ($id: Int!) { searchKnowledgebase(id: $id, query: "When does the lighthouse open?") { content } }`,
      { id: kb },
      { token: owner.apiKey },
    );
    expect(search.data?.searchKnowledgebase.map((hit) => hit.content).join(" ")).toContain(
      "lighthouse opens",
    );
  });

  // Making each bomb deflates 400 MB (seconds of CPU each, tens on a loaded machine): a timeout of its own.
  it("fails PDF stream bombs (content, nested filters, object stream) with their reason", {
    timeout: 120_000,
  }, async () => {
    const bomb = await makePdfWith(() => repeated(" ", 400 * MB));
    expect(bomb.byteLength).toBeLessThan(MB);
    const ratio =
      "The document is compressed more than 100 to 1, which real documents never are (a decompression bomb), and was refused.";
    expect(await uploadPdf("bomb", bomb)).toMatchObject({ status: "FAILED", failureReason: ratio });

    // Text operators rather than spaces: pdf.js would turn each into a text item on the heap.
    const textBomb = await makePdfWith(() => repeated("BT (all work and no play) Tj ET\n", 400 * MB));
    expect((await uploadPdf("text-bomb", textBomb)).failureReason).toBe(ratio);

    // A bomb deflated again: the outer stream's ratio is 1, the inner one's is counted on its own input.
    const nested = await makePdfWith(() => repeated(" ", 400 * MB), { filters: 2 });
    expect((await uploadPdf("nested-bomb", nested)).failureReason).toBe(ratio);

    // The font's object stream padded with 400 MB: decoded when the page asks for its font.
    const objectStreamBomb = await makeObjectStreamPdf(() => repeated(" ", 400 * MB));
    expect((await uploadPdf("object-stream-bomb", objectStreamBomb)).failureReason).toBe(ratio);
  });

  it("still ingests real PDFs beside the bombs: an object stream, a stream deflated twice, plain text", async () => {
    expect(await uploadPdf("object-stream", await makeObjectStreamPdf(() => []))).toMatchObject({
      status: "ACTIVE",
      failureReason: null,
    });

    // Deflated twice but small: pdf.js needs a DecompressionStream for it, which the worker provides, counted.
    const twice = await makePdfWith(
      () => [Buffer.from("BT /F1 12 Tf 72 700 Td (The tram stops at the pier.) Tj ET\n")],
      {
        filters: 2,
      },
    );
    expect(await uploadPdf("twice", twice)).toMatchObject({ status: "ACTIVE", failureReason: null });

    const real = await uploadPdf("real", await makePdf([["The ferry leaves the harbour at noon."]]));
    expect(real).toMatchObject({ status: "ACTIVE", pagesDone: 1, failureReason: null });
  });
  it("fails a PDF that pdf.js cannot page through once, as unreadable, rather than retrying it", async () => {
    const document = await uploadPdf("broken", makeBrokenPageTreePdf());
    expect(document).toMatchObject({
      status: "FAILED",
      failureReason: "The PDF file is corrupt or unreadable.",
    });
    const row = await t.app.db.prisma.document.findUniqueOrThrow({ where: { id: document.id } });
    expect(row.attempts).toBe(1);
  });

  it("stops reading a gzip bomb of a web page at the page limit, counted after decompression", async () => {
    const created = await t.rest<{ data: { id: number } }>(
      "POST",
      `/api/user/knowledgebases/${kb}/documents`,
      {
        token: owner.apiKey,
        body: {
          name: "Pages",
          type: "website",
          links: [{ link: `${siteUrl}/bomb` }, { link: `${siteUrl}/museum` }],
        },
      },
    );
    expect(created.status).toBe(201);
    const document = await waitForDocument(t, owner.apiKey, created.body.data.id, 60_000);
    // The bomb is skipped like any page that cannot be read; the other page is kept.
    expect(document).toMatchObject({ status: "ACTIVE", failureReason: null });
    const alone = await t.rest<{ data: { id: number } }>("POST", `/api/user/knowledgebases/${kb}/documents`, {
      token: owner.apiKey,
      body: { name: "Bomb", type: "website", links: [{ link: `${siteUrl}/bomb` }] },
    });
    expect(await waitForDocument(t, owner.apiKey, alone.body.data.id, 60_000)).toMatchObject({
      status: "FAILED",
      failureReason: `The page ${siteUrl}/bomb is too large to read.`,
    });
  });
});

describe("extractText", () => {
  it("refuses text past the limit, as the other extractors do", () => {
    const text = new Uint8Array(EXTRACTION_LIMITS.maxExpandedBytes + 1).fill(0x61);
    expect(() => extractText(text)).toThrow(IngestionFailure);
    expect(() => extractText(text)).toThrow("expands to more than 100 MB of text");
  });
});
