import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  createKnowledgebase,
  gqlUpload,
  makeDocx,
  makeImageOnlyPdf,
  makePdf,
  restUpload,
  waitForDocument,
} from "../../../test/fixtures/knowledge.ts";
import { subscribeSse, subscribeWs } from "../../../test/support/subscriptions.ts";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.ts";
import { textTokenizer } from "../../tokenizer.ts";
import { chunkSections } from "./ingestion/chunking.ts";

const CREATE_DOCUMENT = `mutation ($kb: Int!, $input: CreateDocumentInput!) {
  createDocument(knowledgebaseId: $kb, input: $input) { id status stage }
}`;

/** A small local site: pages linking to each other, a robots.txt, a redirect to the metadata address. */
async function startSite(): Promise<{
  server: Server;
  url: string;
  hits: string[];
  pages: Record<string, string>;
}> {
  const hits: string[] = [];
  const pages: Record<string, string> = {
    "/": `<html><head><title>Acme Help</title></head><body><nav><a href="/shipping">Shipping</a> <a href="/returns#top">Returns</a> <a href="/private/admin">Admin</a> <a href="https://elsewhere.example/">Out</a></nav>
      <main><h1>Acme Help Centre</h1><p>Acme sells handmade ceramic teapots from its workshop in Lisbon. Our support team answers every message within one business day.</p></main></body></html>`,
    "/shipping": `<html><head><title>Shipping</title></head><body><article><h1>Shipping</h1><p>Parcels to the European Union arrive in three to five working days. Shipping is free for orders above eighty euros.</p></article></body></html>`,
    "/returns": `<html><head><title>Returns</title></head><body><article><h1>Returns</h1><p>Unused teapots may be returned within thirty days for a full refund. Broken items are replaced at no cost.</p></article></body></html>`,
    "/private/admin": `<html><body><p>Secret admin dashboard password hunter2.</p></body></html>`,
  };
  const server = createServer((request, response) => {
    const path = request.url ?? "/";
    hits.push(path);
    if (path === "/robots.txt") {
      response.writeHead(200, { "content-type": "text/plain" });
      return response.end("User-agent: *\nDisallow: /private/\n");
    }
    if (path === "/to-metadata") {
      response.writeHead(302, { location: "http://169.254.169.254/latest/meta-data/" });
      return response.end();
    }
    const page = pages[path.split("#")[0]!];
    if (!page) {
      response.writeHead(404, { "content-type": "text/html" });
      return response.end("<p>not found</p>");
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, pages };
}

describe("knowledge bases and documents", () => {
  let t: TestApp;
  let owner: TestAccount;
  let stranger: TestAccount;
  let site: Awaited<ReturnType<typeof startSite>>;

  beforeAll(async () => {
    site = await startSite();
    t = await startTestApp({ env: { VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1" }, logLevel: "error" });
    owner = await t.createAccount();
    stranger = await t.createAccount();
  });

  afterAll(async () => {
    await t.close();
    site.server.closeAllConnections();
    site.server.close();
  });

  it("creates, lists, updates and deletes knowledge bases, scoped to the account", async () => {
    const id = await createKnowledgebase(t, owner.apiKey, "Support");
    const invalid = await t.gql(
      `mutation { createKnowledgebase(input: { name: "", description: "${"x".repeat(256)}" }) { id } }`,
      {},
      { token: owner.apiKey },
    );
    expect(invalid.errors?.[0]?.extensions).toMatchObject({
      code: "VALIDATION_FAILED",
      fields: {
        name: ["The name field is required."],
        description: ["The description field must not be greater than 255 characters."],
      },
    });

    const renamed = await t.gql<{ updateKnowledgebase: { name: string; status: string } }>(
      `mutation ($id: Int!) { updateKnowledgebase(id: $id, input: { name: "Support FAQ" }) { name status } }`,
      { id },
      { token: owner.apiKey },
    );
    expect(renamed.data?.updateKnowledgebase).toEqual({ name: "Support FAQ", status: "EMPTY" });

    const listed = await t.rest<{ data: Record<string, unknown>[] }>("GET", "/api/user/knowledgebases", {
      token: owner.apiKey,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.data.find((knowledgebase) => knowledgebase.id === id)).toMatchObject({
      name: "Support FAQ",
      description: "test",
      status: "empty",
      status_label: "Empty",
      documents_count: 0,
      assistants_count: 0,
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000Z$/),
    });

    for (const query of [
      `query ($id: Int!) { knowledgebase(id: $id) { id } }`,
      `mutation ($id: Int!) { updateKnowledgebase(id: $id, input: { name: "x" }) { id } }`,
      `mutation ($id: Int!) { deleteKnowledgebase(id: $id) { deletedId } }`,
      `query ($id: Int!) { searchKnowledgebase(id: $id, query: "x") { content } }`,
      `query ($id: Int!) { documents(knowledgebaseId: $id) { id } }`,
    ]) {
      const result = await t.gql(query, { id }, { token: stranger.apiKey });
      expect(result.errors?.[0]?.extensions?.code, query).toBe("NOT_FOUND");
    }
    const strangerList = await t.rest<{ data: unknown[] }>("GET", "/api/user/knowledgebases", {
      token: stranger.apiKey,
    });
    expect(strangerList.body.data).toEqual([]);
    expect(
      (await t.rest("GET", `/api/user/knowledgebases/${id}/documents`, { token: stranger.apiKey })).status,
    ).toBe(404);

    const deleted = await t.gql(
      `mutation ($id: Int!) { deleteKnowledgebase(id: $id) { deletedId } }`,
      { id },
      {
        token: owner.apiKey,
      },
    );
    expect(deleted.data).toEqual({ deleteKnowledgebase: { deletedId: id } });
    const gone = await t.gql(
      `query ($id: Int!) { knowledgebase(id: $id) { id } }`,
      { id },
      { token: owner.apiKey },
    );
    expect(gone.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("processes a multi-page PDF uploaded over REST, keeping page numbers", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const pages = [
      ["Chapter one. The espresso machine needs descaling every month."],
      ["Chapter two. The milk frother must be rinsed after each use."],
      ["Chapter three. The warranty covers the boiler for five years."],
    ];
    const pdf = await makePdf(pages);
    // A PDF is cut into passages in its worker thread: the server's thread never tokenises it.
    const encode = vi.spyOn(textTokenizer, "encode");
    const created = await restUpload<{ message: string; data: Record<string, unknown> }>(
      t,
      owner.apiKey,
      `/api/user/knowledgebases/${kb}/documents`,
      { name: "Manual", description: "Machine manual", type: "pdf" },
      { name: "manual.pdf", content: pdf },
    );
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      message: "Document created successfully.",
      data: {
        name: "Manual",
        type: "pdf",
        type_label: "PDF",
        status: "processing",
        status_label: "Processing",
      },
    });
    const id = created.body.data.id as number;
    const document = await waitForDocument(t, owner.apiKey, id).finally(() => encode.mockRestore());
    expect(document).toMatchObject({ status: "ACTIVE", pagesDone: 3, pagesTotal: 3, failureReason: null });
    expect(encode).not.toHaveBeenCalled();
    // The worker's passages are those chunking.ts cuts from the pages' text.
    const stored = await t.app.db.prisma.documentChunk.findMany({
      where: { documentId: id },
      orderBy: { ordinal: "asc" },
      select: { content: true, tokenCount: true, source: true },
    });
    expect(stored).toEqual(
      chunkSections(pages.map((lines, page) => ({ source: `page ${page + 1}`, text: lines.join("\n") }))),
    );
    // The upload is removed once the finished status is committed, a moment after it shows.
    await expect.poll(() => t.app.services.ingestion.uploads.storedDocumentIds()).not.toContain(id);

    const search = await t.gql<{
      searchKnowledgebase: { content: string; source: string; documentId: number }[];
    }>(
      `query ($id: Int!) { searchKnowledgebase(id: $id, query: "how long does the boiler warranty last", limit: 3) { content source documentId } }`,
      { id: kb },
      { token: owner.apiKey },
    );
    expect(search.data?.searchKnowledgebase[0]).toMatchObject({ source: "page 3", documentId: id });
    expect(search.data?.searchKnowledgebase[0]?.content).toContain("five years");

    const single = await t.rest<{ data: Record<string, unknown> }>(
      "GET",
      `/api/user/knowledgebases/${kb}/documents/${id}`,
      { token: owner.apiKey },
    );
    expect(single.body.data).toMatchObject({
      id,
      status: "active",
      status_label: "Active",
      failure_reason: null,
    });
    const list = await t.rest<{ data: Record<string, unknown>[] }>("GET", "/api/user/knowledgebases", {
      token: owner.apiKey,
    });
    expect(list.body.data.find((item) => item.id === kb)).toMatchObject({
      status: "active",
      documents_count: 1,
    });
  });

  it("processes DOCX and non-Latin UTF-8 text uploaded over GraphQL multipart", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    // They are cut into passages in a worker thread too: the server's thread never tokenises them.
    const encode = vi.spyOn(textTokenizer, "encode");
    const docx = await gqlUpload<{ createDocument: { id: number; status: string } }>(
      t,
      owner.apiKey,
      CREATE_DOCUMENT,
      { kb, input: { name: "Policy", type: "docx" } },
      {
        name: "policy.docx",
        content: await makeDocx(["Remote work is allowed on Fridays.", "Lunch is served at noon."]),
      },
    );
    expect(docx.data?.createDocument.status).toBe("PROCESSING");
    const text = await gqlUpload<{ createDocument: { id: number } }>(
      t,
      owner.apiKey,
      CREATE_DOCUMENT,
      { kb, input: { name: "Русский", type: "txt" } },
      {
        name: "notes.txt",
        content: new TextEncoder().encode(
          "Столица Франции — Париж.\n\n東京は日本の首都です。\n\nThe office cat is named Biscuit.",
        ),
      },
    );
    expect((await waitForDocument(t, owner.apiKey, docx.data!.createDocument.id)).status).toBe("ACTIVE");
    expect(
      (
        await waitForDocument(t, owner.apiKey, text.data!.createDocument.id).finally(() =>
          encode.mockRestore(),
        )
      ).status,
    ).toBe("ACTIVE");
    expect(encode).not.toHaveBeenCalled();

    const ask = async (query: string, mode: string) => {
      const result = await t.gql<{ searchKnowledgebase: { content: string; documentName: string }[] }>(
        `query ($id: Int!, $query: String!, $mode: SearchMode!) { searchKnowledgebase(id: $id, query: $query, mode: $mode, limit: 1) { content documentName } }`,
        { id: kb, query, mode },
        { token: owner.apiKey },
      );
      expect(result.errors).toBeUndefined();
      return result.data!.searchKnowledgebase[0];
    };
    for (const mode of ["VECTOR", "KEYWORD", "HYBRID"]) {
      expect((await ask("Which day is remote work allowed?", mode))?.content, mode).toContain("Fridays");
      expect((await ask("столица Франции", mode))?.content, mode).toContain("Париж");
    }
  });

  it("refuses files whose content does not match their type, before storing anything", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const path = `/api/user/knowledgebases/${kb}/documents`;
    const textAsPdf = await restUpload<{ errors: Record<string, string[]> }>(
      t,
      owner.apiKey,
      path,
      { name: "Fake", type: "pdf" },
      { name: "fake.pdf", content: new TextEncoder().encode("just text") },
    );
    expect(textAsPdf.status).toBe(422);
    expect(textAsPdf.body.errors.file).toEqual(["The file must be a PDF; its content is UTF-8 text."]);

    const binaryAsText = await restUpload<{ errors: Record<string, string[]> }>(
      t,
      owner.apiKey,
      path,
      { name: "Binary", type: "txt" },
      { name: "image.txt", content: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 0xff]) },
    );
    expect(binaryAsText.status).toBe(422);
    expect(binaryAsText.body.errors.file?.[0]).toContain("not a supported format");

    const missing = await restUpload<{ errors: Record<string, string[]> }>(t, owner.apiKey, path, {
      name: "x".repeat(256),
      type: "spreadsheet",
    });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toMatchObject({
      name: ["The name field must not be greater than 255 characters."],
      type: ["The selected type is invalid: it must be one of website, pdf, txt, docx."],
    });

    const website = async (body: Record<string, unknown>) => {
      const response = await t.rest<{ errors: Record<string, string[]> }>("POST", path, {
        token: owner.apiKey,
        body: { name: "Site", type: "website", ...body },
      });
      expect(response.status).toBe(422);
      return response.body.errors;
    };
    expect(await website({})).toEqual({ url: ["The url field is required when links is not present."] });
    expect(await website({ url: "https://example.com", relative_links_limit: 51 })).toEqual({
      relative_links_limit: ["The relative links limit field must be between 1 and 50."],
    });
    expect(await website({ url: "ftp://example.com/" })).toEqual({
      url: ["The url field must be a valid http or https URL."],
    });
    expect(await website({ links: [{ link: "https://example.com" }], url: "https://example.com" })).toEqual({
      links: ["Give either url or links, not both."],
    });

    const documents = await t.rest<{ data: unknown[] }>("GET", path, { token: owner.apiKey });
    expect(documents.body.data).toEqual([]);
    expect(await t.app.services.ingestion.uploads.storedDocumentIds()).toEqual([]);
  });

  it("judges a file from its first 64 KB at upload and checks the whole file in the worker", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const text = new TextEncoder().encode("The ferry timetable changes in winter. ".repeat(2_000));
    // Valid UTF-8 for the first 78 KB, then a byte that can never appear in UTF-8.
    const content = new Uint8Array([...text, 0xff, ...new TextEncoder().encode(" More text.")]);
    const created = await restUpload<{ data: { id: number } }>(
      t,
      owner.apiKey,
      `/api/user/knowledgebases/${kb}/documents`,
      { name: "Timetable", type: "txt" },
      { name: "timetable.txt", content },
    );
    expect(created.status).toBe(201);
    expect(await waitForDocument(t, owner.apiKey, created.body.data.id)).toMatchObject({
      status: "FAILED",
      failureReason: "The file is not a valid TXT file.",
    });
  });

  it("fails a corrupt PDF and an image-only PDF with a readable reason", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const corrupt = new TextEncoder().encode("%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage without xref");
    const upload = async (name: string, content: Uint8Array<ArrayBuffer>) => {
      const result = await gqlUpload<{ createDocument: { id: number } }>(
        t,
        owner.apiKey,
        CREATE_DOCUMENT,
        { kb, input: { name, type: "pdf" } },
        { name: `${name}.pdf`, content },
      );
      return waitForDocument(t, owner.apiKey, result.data!.createDocument.id);
    };
    expect(await upload("corrupt", corrupt)).toMatchObject({
      status: "FAILED",
      failureReason: "The PDF file is corrupt or unreadable.",
    });
    const scanned = await upload("scanned", await makeImageOnlyPdf());
    expect(scanned.status).toBe("FAILED");
    expect(scanned.failureReason).toContain("no extractable text");
    const knowledgebase = await t.gql<{ knowledgebase: { status: string } }>(
      `query ($id: Int!) { knowledgebase(id: $id) { status } }`,
      { id: kb },
      { token: owner.apiKey },
    );
    expect(knowledgebase.data?.knowledgebase.status).toBe("FAILED");
  });

  it("reads a local website with same-site links, obeying robots.txt", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const created = await t.rest<{ data: { id: number } }>(
      "POST",
      `/api/user/knowledgebases/${kb}/documents`,
      {
        token: owner.apiKey,
        body: { name: "Help site", type: "website", url: `${site.url}/`, relative_links_limit: 5 },
      },
    );
    expect(created.status).toBe(201);
    const document = await waitForDocument(t, owner.apiKey, created.body.data.id);
    expect(document.status).toBe("ACTIVE");
    expect(site.hits).toContain("/shipping");
    expect(site.hits).toContain("/returns");
    expect(site.hits).not.toContain("/private/admin");

    const search = await t.gql<{ searchKnowledgebase: { content: string; source: string }[] }>(
      `query ($id: Int!) { searchKnowledgebase(id: $id, query: "How many days do I have to return a teapot?", limit: 1) { content source } }`,
      { id: kb },
      { token: owner.apiKey },
    );
    expect(search.data?.searchKnowledgebase[0]?.source).toBe(`${site.url}/returns`);
    const secret = await t.gql<{ searchKnowledgebase: { content: string }[] }>(
      `query ($id: Int!) { searchKnowledgebase(id: $id, query: "admin password", mode: KEYWORD) { content } }`,
      { id: kb },
      { token: owner.apiKey },
    );
    expect(secret.data?.searchKnowledgebase.some((passage) => passage.content.includes("hunter2"))).toBe(
      false,
    );
  });

  it("reprocesses a failed document from its stored source, for its own account only", async () => {
    const REPROCESS = `mutation ($id: Int!) { reprocessDocument(id: $id) { id status stage failureReason } }`;
    const reprocess = (id: number, token = owner.apiKey) =>
      t.gql<{ reprocessDocument: { id: number; status: string } }>(REPROCESS, { id }, { token });
    const kb = await createKnowledgebase(t, owner.apiKey);
    const website = await t.gql<{ createDocument: { id: number } }>(
      CREATE_DOCUMENT,
      { kb, input: { name: "Hours", type: "website", links: [{ link: `${site.url}/hours` }] } },
      { token: owner.apiKey },
    );
    const id = website.data!.createDocument.id;
    expect(await waitForDocument(t, owner.apiKey, id)).toMatchObject({
      status: "FAILED",
      failureReason: `The site answered HTTP 404 for ${site.url}/hours.`,
    });

    expect((await reprocess(id, stranger.apiKey)).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    site.pages["/hours"] =
      `<html><body><main><h1>Opening hours</h1><p>The ceramics museum opens at nine every morning, Sunday included.</p></main></body></html>`;
    const again = await reprocess(id);
    expect(again.data?.reprocessDocument).toMatchObject({ id, status: "PROCESSING", failureReason: null });
    expect(await waitForDocument(t, owner.apiKey, id)).toMatchObject({
      status: "ACTIVE",
      failureReason: null,
    });
    const search = await t.gql<{ searchKnowledgebase: { content: string }[] }>(
      `query ($id: Int!) { searchKnowledgebase(id: $id, query: "museum opening", mode: KEYWORD) { content } }`,
      { id: kb },
      { token: owner.apiKey },
    );
    expect(search.data?.searchKnowledgebase[0]?.content).toContain("opens at nine");
    expect((await reprocess(id)).errors?.[0]?.extensions).toMatchObject({
      code: "CONFLICT",
      reason: "DOCUMENT_NOT_FAILED",
    });

    // A failed upload keeps its file: processing again reads it (and fails the same way), until it is gone.
    const corrupt = await gqlUpload<{ createDocument: { id: number } }>(
      t,
      owner.apiKey,
      CREATE_DOCUMENT,
      { kb, input: { name: "Broken", type: "pdf" } },
      { name: "broken.pdf", content: new TextEncoder().encode("%PDF-1.7\n1 0 obj << >> no xref") },
    );
    const fileId = corrupt.data!.createDocument.id;
    const reason = "The PDF file is corrupt or unreadable.";
    expect(await waitForDocument(t, owner.apiKey, fileId)).toMatchObject({
      status: "FAILED",
      failureReason: reason,
    });
    expect((await reprocess(fileId)).data?.reprocessDocument.status).toBe("PROCESSING");
    expect(await waitForDocument(t, owner.apiKey, fileId)).toMatchObject({
      status: "FAILED",
      failureReason: reason,
    });
    await t.app.services.ingestion.uploads.delete(fileId);
    expect((await reprocess(fileId)).errors?.[0]?.extensions).toMatchObject({
      code: "CONFLICT",
      reason: "DOCUMENT_SOURCE_MISSING",
    });
  });

  it("reads exactly the given links, and refuses a redirect to a private address", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const links = await t.rest<{ data: { id: number } }>("POST", `/api/user/knowledgebases/${kb}/documents`, {
      token: owner.apiKey,
      body: { name: "Shipping only", type: "website", links: [{ link: `${site.url}/shipping` }] },
    });
    expect(links.status).toBe(201);
    expect((await waitForDocument(t, owner.apiKey, links.body.data.id)).status).toBe("ACTIVE");
    const chunks = await t.app.db.prisma.documentChunk.findMany({
      where: { documentId: links.body.data.id },
    });
    expect(new Set(chunks.map((chunk) => chunk.source))).toEqual(new Set([`${site.url}/shipping`]));

    const redirect = await t.rest<{ data: { id: number } }>(
      "POST",
      `/api/user/knowledgebases/${kb}/documents`,
      {
        token: owner.apiKey,
        body: { name: "Sneaky", type: "website", url: `${site.url}/to-metadata` },
      },
    );
    const failed = await waitForDocument(t, owner.apiKey, redirect.body.data.id);
    expect(failed.status).toBe("FAILED");
    // The refused hop and its address, not the allowed first one.
    expect(failed.failureReason).toBe(
      `${site.url}/to-metadata redirects to http://169.254.169.254/latest/meta-data/, which is on a private or reserved network address (169.254.169.254), which is not allowed.`,
    );
  });

  it("updates only name and description, and deletes documents of the right knowledge base", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const other = await createKnowledgebase(t, owner.apiKey, "Other");
    const created = await restUpload<{ data: { id: number } }>(
      t,
      owner.apiKey,
      `/api/user/knowledgebases/${kb}/documents`,
      { name: "Notes", type: "txt" },
      { name: "notes.txt", content: new TextEncoder().encode("Meeting notes about the quarterly plan.") },
    );
    const id = created.body.data.id;
    const path = `/api/user/knowledgebases/${kb}/documents/${id}`;

    const updated = await t.rest<{ message: string; data: Record<string, unknown> }>("PUT", path, {
      token: owner.apiKey,
      body: { name: "Plan notes", description: "Q3" },
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      message: "Document updated successfully.",
      data: { id, name: "Plan notes", description: "Q3", type: "txt", updated_at: expect.any(String) },
    });
    expect(updated.body.data).not.toHaveProperty("created_at");

    const refused = await t.rest<{ errors: Record<string, string[]> }>("PUT", path, {
      token: owner.apiKey,
      body: { name: "x", type: "pdf", url: "https://example.com" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual({
      type: ["The type field cannot be changed: delete the document and create a new one."],
      url: ["The url field cannot be changed: delete the document and create a new one."],
    });

    for (const [method, target, token] of [
      ["PUT", `/api/user/knowledgebases/${other}/documents/${id}`, owner.apiKey],
      ["GET", `/api/user/knowledgebases/${other}/documents/${id}`, owner.apiKey],
      ["DELETE", `/api/user/knowledgebases/${other}/documents/${id}`, owner.apiKey],
      ["PUT", path, stranger.apiKey],
      ["GET", path, stranger.apiKey],
      ["DELETE", path, stranger.apiKey],
    ] as const) {
      const response = await t.rest(method, target, {
        token,
        body: method === "PUT" ? { name: "y" } : undefined,
      });
      expect(response.status, `${method} ${target}`).toBe(404);
    }

    await waitForDocument(t, owner.apiKey, id);
    const deleted = await t.rest("DELETE", path, { token: owner.apiKey });
    expect(deleted).toMatchObject({ status: 200, body: { message: "Document deleted successfully." } });
    expect((await t.rest("GET", path, { token: owner.apiKey })).status).toBe(404);
    expect(await t.app.db.prisma.documentChunk.count({ where: { documentId: id } })).toBe(0);
    const list = await t.rest<{ data: Record<string, unknown>[] }>("GET", "/api/user/knowledgebases", {
      token: owner.apiKey,
    });
    expect(list.body.data.find((item) => item.id === kb)).toMatchObject({
      status: "empty",
      documents_count: 0,
    });
  });

  it("refuses a 21 MB upload over REST and GraphQL with 413", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const big = new Blob([new Uint8Array(21 * 1024 * 1024).fill(0x61)], { type: "text/plain" });
    const rest = await restUpload<{ message: string }>(
      t,
      owner.apiKey,
      `/api/user/knowledgebases/${kb}/documents`,
      { name: "Big", type: "txt" },
      { name: "big.txt", content: big },
    );
    expect(rest.status).toBe(413);
    expect(rest.body.message).toContain("20 MB");
    const graphql = await gqlUpload(
      t,
      owner.apiKey,
      CREATE_DOCUMENT,
      { kb, input: { name: "Big", type: "txt" } },
      {
        name: "big.txt",
        content: big,
      },
    );
    expect(graphql.status).toBe(413);
    expect(await t.app.db.prisma.document.count({ where: { knowledgebaseId: kb } })).toBe(0);
  });

  it("stops reading an oversized upload instead of buffering it", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const boundary = "----voxgate-test";
    const head = new TextEncoder().encode(
      `--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\nHuge\r\n--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\ntxt\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const chunk = new Uint8Array(256 * 1024).fill(0x62);
    const totalChunks = 800; // 200 MB if the server read it all
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(head);
      },
      pull(controller) {
        if (sent >= totalChunks) return controller.close();
        sent++;
        controller.enqueue(chunk);
      },
    });
    const response = await fetch(`${t.url}/api/user/knowledgebases/${kb}/documents`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${owner.apiKey}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    // The server answered after about 20 MB, long before the 200 MB the client was ready to send.
    expect(sent * chunk.byteLength).toBeLessThan(60 * 1024 * 1024);
  });

  it("streams document progress over graphql-ws and SSE until the document is active", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const knowledgebaseEvents = await subscribeWs<{
      knowledgebaseStatus: { status: string; document: { status: string } | null };
    }>(t.url, `subscription ($id: Int!) { knowledgebaseStatus(id: $id) { status document { status } } }`, {
      connectionParams: { authorization: `Bearer ${owner.apiKey}` },
      variables: { id: kb },
    });
    expect((await knowledgebaseEvents.next()).data?.knowledgebaseStatus).toEqual({
      status: "EMPTY",
      document: null,
    });

    const created = await gqlUpload<{ createDocument: { id: number } }>(
      t,
      owner.apiKey,
      CREATE_DOCUMENT,
      { kb, input: { name: "Pages", type: "pdf" } },
      { name: "pages.pdf", content: await makePdf([["Alpha page."], ["Beta page."], ["Gamma page."]]) },
    );
    const id = created.data!.createDocument.id;
    const sse = await subscribeSse<{
      documentStatus: { status: string; stage: string | null; pagesTotal: number | null; chunkCount: number };
    }>(
      t.url,
      `subscription ($id: Int!) { documentStatus(id: $id) { status stage pagesDone pagesTotal chunkCount } }`,
      { headers: { authorization: `Bearer ${owner.apiKey}` }, variables: { id } },
    );
    const seen: { status: string; stage: string | null; pagesTotal: number | null; chunkCount: number }[] =
      [];
    for (;;) {
      const event = (await sse.next(15_000)).data!.documentStatus;
      seen.push(event);
      if (event.status !== "PROCESSING") break;
    }
    await sse.close();
    expect(seen.at(-1)).toMatchObject({ status: "ACTIVE", stage: null, pagesTotal: 3 });
    expect(seen.at(-1)!.chunkCount).toBeGreaterThan(0);
    // Stages are DocumentStage values while processing, in pipeline order.
    const order = ["QUEUED", "PARSING", "CHUNKING", "EMBEDDING"];
    const stages = seen.flatMap((event) =>
      event.status === "PROCESSING" && event.stage ? [event.stage] : [],
    );
    expect(stages.length).toBeGreaterThan(0);
    for (const stage of stages) expect(order).toContain(stage);
    expect(stages.map((stage) => order.indexOf(stage!))).toEqual(
      [...stages.map((stage) => order.indexOf(stage!))].sort((a, b) => a - b),
    );

    const statuses: string[] = [];
    for (;;) {
      const event = (await knowledgebaseEvents.next(15_000)).data!.knowledgebaseStatus;
      statuses.push(event.status);
      if (event.document?.status === "ACTIVE") break;
    }
    await knowledgebaseEvents.close();
    expect(statuses[0]).toBe("PROCESSING");
    expect(statuses.at(-1)).toBe("ACTIVE");

    const foreign = await subscribeSse(
      t.url,
      `subscription ($id: Int!) { documentStatus(id: $id) { status } }`,
      {
        headers: { authorization: `Bearer ${stranger.apiKey}` },
        variables: { id },
      },
    );
    expect((await foreign.next()).errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    await foreign.close();
  });

  it("keeps the knowledge-base status right under concurrent document changes", async () => {
    const kb = await createKnowledgebase(t, owner.apiKey);
    const uploads = Array.from({ length: 6 }, (_, index) =>
      restUpload<{ data: { id: number } }>(
        t,
        owner.apiKey,
        `/api/user/knowledgebases/${kb}/documents`,
        { name: `Doc ${index}`, type: "txt" },
        { name: `doc${index}.txt`, content: new TextEncoder().encode(`Fact number ${index} is important.`) },
      ),
    );
    const ids = (await Promise.all(uploads)).map((upload) => upload.body.data.id);
    await Promise.all([
      t.rest("DELETE", `/api/user/knowledgebases/${kb}/documents/${ids[0]}`, { token: owner.apiKey }),
      t.rest("DELETE", `/api/user/knowledgebases/${kb}/documents/${ids[1]}`, { token: owner.apiKey }),
    ]);
    for (const id of ids.slice(2)) await waitForDocument(t, owner.apiKey, id);
    const knowledgebase = await t.app.db.prisma.knowledgebase.findUniqueOrThrow({ where: { id: kb } });
    expect(knowledgebase.status).toBe("active");
    expect(await t.app.db.prisma.document.count({ where: { knowledgebaseId: kb } })).toBe(4);
  });
});
