import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDocxWith, paragraphsXml } from "../../../../test/fixtures/bombs.ts";
import { durableDatabase } from "../../../../test/fixtures/durable-database.ts";
import {
  createKnowledgebase,
  makePdf,
  restUpload,
  waitForDocument,
} from "../../../../test/fixtures/knowledge.ts";
import { subscribeWs } from "../../../../test/support/subscriptions.ts";
import {
  freshDatabase,
  startTestApp,
  type TestApp,
  testConfig,
  testDatabaseKind,
} from "../../../../test/support/test-app.ts";
import { buildApp } from "../../../app.ts";
import { createLogger } from "../../../logger.ts";
import { LocalHashEmbedder } from "../../embeddings/embedder.ts";

/** A page that answers only when the test says so, to stop the server in the middle of fetching. */
async function startHeldSite() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const server: Server = createServer((request, response) => {
    if (request.url === "/robots.txt") {
      response.writeHead(404);
      return response.end();
    }
    released.then(() => {
      response.writeHead(200, { "content-type": "text/html" });
      response.end(
        "<html><body><main><p>The lighthouse opens at nine in the morning every day of the week.</p></main></body></html>",
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, release };
}

// Most tests here start two apps over one persistent database, and read a document through a whole
// processing: 20 to 30 s on a loaded two-core machine, past the default 30 s bound with nothing wrong.
const TWO_APPS = { timeout: 120_000 };

describe("processing across restarts", TWO_APPS, () => {
  let site: Awaited<ReturnType<typeof startHeldSite>>;
  beforeAll(async () => {
    site = await startHeldSite();
  });
  afterAll(() => {
    site.server.closeAllConnections();
    site.server.close();
  });

  it("resumes a document that was processing when the server stopped", async () => {
    const database = await durableDatabase();
    const env = { VOXGATE_OUTBOUND_ALLOWLIST: "127.0.0.1" };
    const first = await startTestApp({ database: database.first, env });
    const account = await first.createAccount();
    const kb = await createKnowledgebase(first, account.apiKey);
    const created = await first.rest<{ data: { id: number } }>(
      "POST",
      `/api/user/knowledgebases/${kb}/documents`,
      {
        token: account.apiKey,
        body: { name: "Lighthouse", type: "website", url: `${site.url}/` },
      },
    );
    const id = created.body.data.id;
    for (let tries = 0; ; tries++) {
      const document = await first.app.db.prisma.document.findUniqueOrThrow({ where: { id } });
      if (document.stage === "fetching") break;
      expect(tries).toBeLessThan(200);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await first.close();

    const second = await startTestApp({ database: database.next, env });
    try {
      const left = await second.app.db.prisma.document.findUniqueOrThrow({ where: { id } });
      expect(left.status).toBe("processing");
      site.release();
      const document = await waitForDocument(second, account.apiKey, id, 90_000);
      expect(document.status).toBe("ACTIVE");
      const row = await second.app.db.prisma.document.findUniqueOrThrow({ where: { id } });
      expect(row.attempts).toBe(2);
    } finally {
      await second.close();
      await database.drop();
    }
  });

  it("processes an upload made just before a stop after the restart, from the stored file", async () => {
    const database = await durableDatabase();
    // Built but not listening: nothing works the queue, so the document is still waiting at the stop.
    const first = await buildApp(testConfig(), { database: database.first, logger: createLogger("silent") });
    const { account, user } = await first.services.accounts.create({
      email: "restart@example.com",
      password: "restart-password",
    });
    const { token } = await first.services.apiKeys.create(
      { accountId: account.id, userId: user.id },
      { name: "t" },
    );
    const kb = await first.services.knowledgebases.create(account.id, { name: "Manuals" });
    const pdf = await makePdf([
      ["The ferry leaves the harbour at seven."],
      ["Bicycles travel free of charge."],
    ]);
    const created = await first.services.documents.create(account.id, kb.id, {
      name: "Ferry",
      type: "pdf",
      file: new File([pdf], "ferry.pdf"),
    });
    expect(await first.services.ingestion.uploads.storedDocumentIds()).toEqual([created.id]);
    await first.close();

    const second = await startTestApp({ database: database.next });
    try {
      const document = await waitForDocument(second, token, created.id, 90_000);
      expect(document).toMatchObject({ status: "ACTIVE", pagesTotal: 2 });
      const [passage] = await second.app.services.knowledgebases.search(account.id, kb.id, "bicycles", {
        limit: 1,
        mode: "keyword",
      });
      expect(passage).toMatchObject({ source: "page 2" });
      // The upload is removed once the finished status is committed, a moment after it shows.
      await expect.poll(() => second.app.services.ingestion.uploads.storedDocumentIds()).toEqual([]);
    } finally {
      await second.close();
      await database.drop();
    }
  });

  it("fails a document abandoned by crashed workers too many times, and requeues one that can still run", async () => {
    const t = await startTestApp();
    try {
      const account = await t.createAccount();
      const kb = await createKnowledgebase(t, account.apiKey);
      const upload = (name: string) =>
        restUpload<{ data: { id: number } }>(
          t,
          account.apiKey,
          `/api/user/knowledgebases/${kb}/documents`,
          { name, type: "txt" },
          { name: `${name}.txt`, content: new TextEncoder().encode(`The ${name} keeps the archive.`) },
        );
      const given = (await upload("given")).body.data.id;
      const retried = (await upload("retried")).body.data.id;
      await waitForDocument(t, account.apiKey, given, 90_000);
      await waitForDocument(t, account.apiKey, retried, 90_000);
      // The upload is deleted just after the status turns active: wait for it, or it would take the new one.
      for (
        let tries = 0;
        (await t.app.services.ingestion.uploads.storedDocumentIds()).includes(retried);
        tries++
      ) {
        expect(tries).toBeLessThan(200);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // What a crash leaves behind: still "processing" with its upload, silent since long before the time limit.
      await t.app.services.ingestion.uploads.save(
        retried,
        new File(["The retried keeps the archive."], "retried.txt"),
      );
      await t.app.db.prisma.$executeRawUnsafe(
        `UPDATE "documents" SET "status" = 'processing', "updatedAt" = now() - interval '1 day',
           "attempts" = CASE WHEN "id" = $1 THEN 3 ELSE 1 END WHERE "id" IN ($1, $2)`,
        given,
        retried,
      );
      await t.app.services.ingestion.resumeAbandoned();
      const failed = await waitForDocument(t, account.apiKey, given, 90_000);
      expect(failed.status).toBe("FAILED");
      expect(failed.failureReason).toContain("interrupted 3 times");
      expect((await waitForDocument(t, account.apiKey, retried, 90_000)).status).toBe("ACTIVE");
    } finally {
      await t.close();
    }
  });
});

/** Pseudo-random lowercase letters without a space: tokenising them cannot lean on the tokenizer's cache. */
function randomLetters(length: number, seed: number): string {
  const letters = new Uint8Array(length);
  let state = seed;
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    letters[index] = 97 + ((state >>> 16) % 26);
  }
  return new TextDecoder().decode(letters);
}

/** Jobs waiting in the queue (embedded table, or graphile-worker's on PostgreSQL). */
async function queuedJobs(app: TestApp["app"]): Promise<number> {
  const table = app.db.kind === "postgres" ? "graphile_worker._private_jobs" : `"background_jobs"`;
  const [row] = await app.db.prisma.$queryRawUnsafe<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM ${table}`,
  );
  return row!.count;
}

describe("adversarial documents", () => {
  it("ingests a text of huge words without stalling the server: a cheap request is answered while it is chunked", async () => {
    const t = await startTestApp();
    try {
      const account = await t.createAccount();
      const kb = await createKnowledgebase(t, account.apiKey);
      const text = [
        randomLetters(400_000, 3),
        "a".repeat(200_000),
        "-=#~".repeat(10_000),
        "東京都の図書館は毎日開館".repeat(2_000),
        "The lighthouse opens at nine.",
      ].join("\n\n");
      const created = await restUpload<{ data: { id: number } }>(
        t,
        account.apiKey,
        `/api/user/knowledgebases/${kb}/documents`,
        { name: "Adversarial", type: "txt" },
        { name: "adversarial.txt", content: new TextEncoder().encode(text) },
      );
      const id = created.body.data.id;
      const stageNow = async () =>
        (await t.app.db.prisma.document.findUniqueOrThrow({ where: { id }, select: { stage: true } })).stage;
      for (let tries = 0; ["queued", "parsing", null].includes(await stageNow()); tries++) {
        expect(tries).toBeLessThan(2_000);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      expect(await stageNow()).toBe("chunking");
      const health = await fetch(`${t.url}/healthz`);
      expect(health.status).toBe(200);
      // Answered before chunking ended: the chunking gave the event loop its turns.
      expect(await stageNow()).toBe("chunking");

      const document = await waitForDocument(t, account.apiKey, id, 120_000);
      expect(document).toMatchObject({ status: "ACTIVE", failureReason: null });
      const longest = await t.app.db.prisma.documentChunk.aggregate({
        where: { documentId: id },
        _max: { tokenCount: true },
      });
      expect(longest._max.tokenCount).toBeLessThanOrEqual(300);
      const [passage] = await t.app.services.knowledgebases.search(account.accountId, kb, "lighthouse", {
        limit: 1,
        mode: "keyword",
      });
      expect(passage?.content).toContain("The lighthouse opens at nine.");
    } finally {
      await t.close();
    }
  }, 180_000);

  it("fails a document whose work outlasts the time limit, with the reason, and does not start it again after a restart", async () => {
    const database = await durableDatabase();
    const env = { VOXGATE_DOCUMENT_TIMEOUT_SECONDS: "1" };
    const first = await startTestApp({ database: database.first, env });
    const account = await first.createAccount();
    const kb = await createKnowledgebase(first, account.apiKey);
    const created = await restUpload<{ data: { id: number } }>(
      first,
      account.apiKey,
      `/api/user/knowledgebases/${kb}/documents`,
      { name: "Endless", type: "txt" },
      { name: "endless.txt", content: new TextEncoder().encode(randomLetters(4_000_000, 11)) },
    );
    const id = created.body.data.id;
    try {
      const failed = await waitForDocument(first, account.apiKey, id, 120_000);
      expect(failed).toMatchObject({
        status: "FAILED",
        failureReason: "Processing took longer than 1 seconds and was stopped.",
      });
      expect(await first.app.db.prisma.documentChunk.count({ where: { documentId: id } })).toBe(0);
    } finally {
      await first.close();
    }

    const second = await startTestApp({ database: database.next, env });
    try {
      expect(await queuedJobs(second.app)).toBe(0);
      await second.app.services.ingestion.resumeAbandoned();
      expect(await queuedJobs(second.app)).toBe(0);
      const row = await second.app.db.prisma.document.findUniqueOrThrow({ where: { id } });
      expect(row).toMatchObject({ status: "failed", attempts: 1 });
    } finally {
      await second.close();
      await database.drop();
    }
  }, 180_000);

  it("gives up a document whose processing was cut short by every start, instead of starting it again", async () => {
    const database = await durableDatabase();
    // Built but not listening: the document waits, as it does after a crash that killed its processing.
    const first = await buildApp(testConfig(), { database: database.first, logger: createLogger("silent") });
    const { account, user } = await first.services.accounts.create({
      email: "crashes@example.com",
      password: "crashes-password",
    });
    const { token } = await first.services.apiKeys.create(
      { accountId: account.id, userId: user.id },
      { name: "t" },
    );
    const kb = await first.services.knowledgebases.create(account.id, { name: "Notes" });
    const created = await first.services.documents.create(account.id, kb.id, {
      name: "Crasher",
      type: "txt",
      file: new File(["The archive closes at noon."], "crasher.txt"),
    });
    // Three starts already counted, none of which finished: each took the process down.
    await first.db.prisma.document.update({ where: { id: created.id }, data: { attempts: 3 } });
    await first.close();

    const second = await startTestApp({ database: database.next });
    try {
      const document = await waitForDocument(second, token, created.id, 90_000);
      expect(document.status).toBe("FAILED");
      expect(document.failureReason).toContain("interrupted 3 times");
      expect(await second.app.db.prisma.documentChunk.count({ where: { documentId: created.id } })).toBe(0);
    } finally {
      await second.close();
      await database.drop();
    }
  }, 120_000);
  it("fails a DOCX bomb that a crashed run left processing with its reason on the next start, instead of crashing again", async () => {
    const database = await durableDatabase();
    const first = await buildApp(testConfig(), { database: database.first, logger: createLogger("silent") });
    const { account, user } = await first.services.accounts.create({
      email: "bomb@example.com",
      password: "bomb-password",
    });
    const { token } = await first.services.apiKeys.create(
      { accountId: account.id, userId: user.id },
      { name: "t" },
    );
    const kb = await first.services.knowledgebases.create(account.id, { name: "Notes" });
    const bomb = await makeDocxWith(() => paragraphsXml(400 * 1024 * 1024));
    const created = await first.services.documents.create(account.id, kb.id, {
      name: "Bomb",
      type: "docx",
      file: new File([bomb], "bomb.docx"),
    });
    // The start that took the process down (before the extraction limits) was counted, and never finished.
    await first.db.prisma.document.update({
      where: { id: created.id },
      data: { attempts: 1, stage: "parsing" },
    });
    await first.close();

    const second = await startTestApp({ database: database.next });
    try {
      const document = await waitForDocument(second, token, created.id, 90_000);
      expect(document).toMatchObject({
        status: "FAILED",
        failureReason:
          "The document expands to more than 100 MB of text when decompressed; split it into smaller files.",
      });
      const row = await second.app.db.prisma.document.findUniqueOrThrow({ where: { id: created.id } });
      expect(row.attempts).toBe(2);
      // The server that resumed it goes on answering.
      const me = await second.gql<{ knowledgebases: { id: number }[] }>(
        "{ knowledgebases { id } }",
        {},
        { token },
      );
      expect(me.data?.knowledgebases.map((knowledgebase) => knowledgebase.id)).toEqual([kb.id]);
    } finally {
      await second.close();
      await database.drop();
    }
  }, 120_000);
});

/** An OpenAI-compatible embeddings endpoint that fails its first request, to exercise retries. */
async function startEmbeddingServer() {
  const requests: { inputs: number; dimensions: number }[] = [];
  let failures = 1;
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => {
      body += chunk;
    });
    request.on("end", () => {
      if (failures > 0) {
        failures--;
        response.writeHead(500, { "content-type": "application/json" });
        return response.end(JSON.stringify({ error: { message: "try again", type: "server_error" } }));
      }
      const parsed = JSON.parse(body) as { input: string[]; dimensions: number };
      requests.push({ inputs: parsed.input.length, dimensions: parsed.dimensions });
      const data = parsed.input.map((text, index) => {
        const vector = new Array<number>(parsed.dimensions).fill(0);
        for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
          let hash = 7;
          for (const char of word) hash = (hash * 31 + char.charCodeAt(0)) % parsed.dimensions;
          vector[hash]! += 1;
        }
        const norm = Math.hypot(...vector) || 1;
        return { object: "embedding", index, embedding: vector.map((value) => value / norm) };
      });
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({
          object: "list",
          data,
          model: "test-embed",
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}

describe("embeddings through an OpenAI-compatible service", TWO_APPS, () => {
  it("embeds in batches with retries, and re-embeds passages of another embedder", async () => {
    const embeddings = await startEmbeddingServer();
    const database = await durableDatabase();
    const local = await startTestApp({ database: database.first });
    const account = await local.createAccount();
    const kb = await createKnowledgebase(local, account.apiKey);
    const paragraphs = Array.from(
      { length: 90 },
      (_, index) => `Section ${index}. ${"The harbour museum describes old ships and sailors. ".repeat(20)}`,
    );
    paragraphs[42] = "Section 42. The ticket office sells family passes on weekends only.";
    const created = await restUpload<{ data: { id: number } }>(
      local,
      account.apiKey,
      `/api/user/knowledgebases/${kb}/documents`,
      { name: "Museum", type: "txt" },
      { name: "museum.txt", content: new TextEncoder().encode(paragraphs.join("\n\n")) },
    );
    expect((await waitForDocument(local, account.apiKey, created.body.data.id, 90_000)).status).toBe(
      "ACTIVE",
    );
    const chunkCount = await local.app.db.prisma.documentChunk.count();
    expect(chunkCount).toBeGreaterThan(64);
    expect(await local.app.db.prisma.documentChunk.count({ where: { embedder: "local:hash:384" } })).toBe(
      chunkCount,
    );
    // Vectors are sent in pgvector's binary form: each stored vector is the embedder's, in float4.
    const stored = await local.app.db.prisma.$queryRawUnsafe<{ content: string; embedding: string }[]>(
      `SELECT "content", "embedding"::text AS "embedding" FROM "document_chunks"`,
    );
    const offline = new LocalHashEmbedder();
    for (const { content, embedding } of stored) {
      const expected = offline.embedOne(content).map(Math.fround);
      expect((JSON.parse(embedding) as number[]).map(Math.fround)).toEqual(expected);
    }
    await local.close();

    const remote = await startTestApp({
      database: database.next,
      env: { OPENAI_BASE_URL: embeddings.baseUrl, OPENAI_API_KEY: "test", OPENAI_EMBEDDING_DIMENSIONS: "64" },
    });
    try {
      const embedder = "openai:text-embedding-3-small:64";
      for (let tries = 0; ; tries++) {
        const done = await remote.app.db.prisma.documentChunk.count({ where: { embedder } });
        if (done === chunkCount) break;
        expect(tries).toBeLessThan(300);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(embeddings.requests.every((request) => request.inputs <= 64 && request.dimensions === 64)).toBe(
        true,
      );
      expect(embeddings.requests.length).toBeGreaterThanOrEqual(2);

      const passages = await remote.app.services.knowledgebases.search(
        account.accountId,
        kb,
        "family ticket passes",
        {
          limit: 1,
          mode: "vector",
        },
      );
      expect(passages[0]?.content).toContain("family passes");
    } finally {
      await remote.close();
      await database.drop();
      embeddings.server.close();
    }
  });

  it("starts a document again after an unexpected failure, and fails it with the reason at the third start", async () => {
    // Refuses every request with a 400, which the embedding client does not retry itself.
    let requests = 0;
    const refusing = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        requests++;
        response.writeHead(400, { "content-type": "application/json" });
        response.end(
          JSON.stringify({ error: { message: "model overloaded", type: "invalid_request_error" } }),
        );
      });
    });
    await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
    const t = await startTestApp({
      env: {
        OPENAI_BASE_URL: `http://127.0.0.1:${(refusing.address() as AddressInfo).port}/v1`,
        OPENAI_API_KEY: "test",
      },
    });
    try {
      const account = await t.createAccount();
      const kb = await createKnowledgebase(t, account.apiKey);
      const created = await restUpload<{ data: { id: number } }>(
        t,
        account.apiKey,
        `/api/user/knowledgebases/${kb}/documents`,
        { name: "Hours", type: "txt" },
        { name: "hours.txt", content: new TextEncoder().encode("The museum opens at nine every day.") },
      );
      const id = created.body.data.id;
      const document = await waitForDocument(t, account.apiKey, id, 60_000);
      expect(document.status).toBe("FAILED");
      expect(document.failureReason).toMatch(/^The embedding service failed: .*model overloaded/);
      // One embedding request per start: the document's attempts are the only count of retries.
      expect(requests).toBe(3);
      const stored = await t.app.db.prisma.document.findUniqueOrThrow({ where: { id } });
      expect(stored.attempts).toBe(3);
      // Kept for reprocessDocument.
      expect(await t.app.services.ingestion.uploads.storedDocumentIds()).toEqual([id]);
    } finally {
      await t.close();
      refusing.close();
    }
  }, 90_000);
});

describe.runIf(testDatabaseKind() === "postgres")("several instances (PostgreSQL + Redis)", () => {
  it("shares processing through the queue and delivers status events across instances", async () => {
    const database = await freshDatabase();
    const first = await startTestApp({ database: database.target });
    const second = await startTestApp({ database: database.target });
    try {
      const account = await first.createAccount();
      const kb = await createKnowledgebase(first, account.apiKey);
      const subscription = await subscribeWs<{ knowledgebaseStatus: { status: string } }>(
        second.url,
        `subscription ($id: Int!) { knowledgebaseStatus(id: $id) { status } }`,
        { connectionParams: { authorization: `Bearer ${account.apiKey}` }, variables: { id: kb } },
      );
      expect((await subscription.next()).data?.knowledgebaseStatus.status).toBe("EMPTY");
      const created = await restUpload<{ data: { id: number } }>(
        first,
        account.apiKey,
        `/api/user/knowledgebases/${kb}/documents`,
        { name: "Shared", type: "txt" },
        { name: "shared.txt", content: new TextEncoder().encode("Both instances can process this note.") },
      );
      const statuses: string[] = [];
      while (statuses.at(-1) !== "ACTIVE") {
        statuses.push((await subscription.next(15_000)).data!.knowledgebaseStatus.status);
      }
      expect(statuses[0]).toBe("PROCESSING");
      await subscription.close();
      expect((await waitForDocument(second, account.apiKey, created.body.data.id, 90_000)).status).toBe(
        "ACTIVE",
      );
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});
