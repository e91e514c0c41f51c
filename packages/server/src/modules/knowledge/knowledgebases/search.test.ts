import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { freshDatabase, startTestApp, type TestApp } from "../../../../test/support/test-app.ts";
import type { DatabaseTarget } from "../../../db/client.ts";
import { LocalHashEmbedder, nonAsciiWords, toVectorLiteral } from "../../embeddings/embedder.ts";
import { KnowledgeSearch, type Passage, type SearchMode } from "./search.ts";

// Knowledge bases of more than 8 passages are searched as large ones, which may read the HNSW index:
// Tiny (16 passages) is one, and Small (6) is searched by the exact scan of small knowledge bases.
vi.mock("../../../limits.ts", async (importOriginal) => ({
  ...(await importOriginal<typeof import("../../../limits.ts")>()),
  EXACT_SEARCH: { maxPassages: 8, sizeTtlMs: 60_000, sizesKept: 1_000 },
}));

const QUERY_WORDS = ["lighthouse", "keeper", "lantern", "harbour", "storm", "beacon", "fog", "signal"];
const QUERY = QUERY_WORDS.join(" ");
const embedder = new LocalHashEmbedder();

/** Words no other passage uses, so that passages differ only in how many query words they hold. */
function filler(seed: number, count: number): string {
  return Array.from({ length: count }, (_, index) => `filler${seed}x${index}`).join(" ");
}

/**
 * Retrieval over a table where the searched knowledge base is a small share of the chunks and every
 * other chunk is nearer to the question. Sorting is priced out (`enable_sort = off`), so vector search
 * must read the HNSW index in distance order and skip the other knowledge base's chunks, as it does
 * for a large knowledge base on PostgreSQL: a plain HNSW scan would stop after its first `ef_search`
 * candidates, all of them filtered out. The embedded store keeps no vector index: there the same
 * questions are answered by an exact scan.
 */
describe("knowledge search through the indexes", () => {
  let t: TestApp;
  let drop: () => Promise<void>;
  let accountId: number;
  let tiny: number;
  let small: number;
  const tinyChunks = new Map<number, string>();
  const smallChunks = new Map<number, string>();

  const insertDocument = async (
    knowledgebaseId: number,
    status: "active" | "processing",
    passages: string[],
  ): Promise<number[]> => {
    const document = await t.app.db.prisma.document.create({
      data: { accountId, knowledgebaseId, name: `Doc ${status}`, type: "txt", status },
    });
    const ids: number[] = [];
    for (const [ordinal, content] of passages.entries()) {
      const [row] = await t.app.db.prisma.$queryRawUnsafe<{ id: number }[]>(
        `INSERT INTO "document_chunks" ("documentId", "knowledgebaseId", "ordinal", "content", "tokenCount", "embedder", "embedding", "searchVector")
         VALUES ($1, $2, $3, $4, 10, $5, $6::vector, to_tsvector('english', $4) || array_to_tsvector(string_to_array($7, ' ')))
         RETURNING "id"`,
        document.id,
        knowledgebaseId,
        ordinal,
        content,
        embedder.id,
        toVectorLiteral(embedder.embedOne(content)),
        nonAsciiWords(content).join(" "),
      );
      ids.push(Number(row!.id));
    }
    return ids;
  };

  const search = (knowledgebaseId: number, query: string, limit: number, mode: SearchMode) =>
    t.app.services.knowledgebases.search(accountId, knowledgebaseId, query, { limit, mode });

  beforeAll(async () => {
    const fresh = await freshDatabase();
    drop = fresh.drop;
    const target: DatabaseTarget =
      fresh.target.kind === "postgres"
        ? { kind: "postgres", url: withSessionOptions(fresh.target.url, "-c enable_sort=off") }
        : fresh.target;
    t = await startTestApp({ database: target });
    // PGlite has one session: setting it there covers every query of the app.
    if (t.app.db.kind === "pglite") await t.app.db.prisma.$executeRawUnsafe("SET enable_sort = off");
    accountId = (await t.createAccount()).accountId;
    const knowledgebases = t.app.services.knowledgebases;
    const big = await knowledgebases.create(accountId, { name: "Big" });
    tiny = (await knowledgebases.create(accountId, { name: "Tiny" })).id;
    // 400 passages holding every query word: all nearer to the question than any passage of Tiny.
    await insertDocument(
      big.id,
      "active",
      Array.from({ length: 400 }, (_, index) => `${QUERY} ${filler(1000 + index, 6)}`),
    );
    // Tiny: passage n holds the first n query words, plus seven passages holding none.
    const graded = QUERY_WORDS.map(
      (_, index) => `${QUERY_WORDS.slice(0, index + 1).join(" ")} ${filler(index, 10)}`,
    );
    const unrelated = Array.from({ length: 7 }, (_, index) => filler(100 + index, 12));
    const ids = await insertDocument(tiny, "active", [...graded, ...unrelated]);
    for (const [index, id] of ids.entries()) tinyChunks.set(id, [...graded, ...unrelated][index]!);
    // A document still processing, holding the question itself: never searched.
    await insertDocument(tiny, "processing", [QUERY]);
    small = (await knowledgebases.create(accountId, { name: "Small" })).id;
    const smallPassages = [...graded.filter((_, index) => index % 2 === 0), ...unrelated.slice(0, 2)];
    const smallIds = await insertDocument(small, "active", smallPassages);
    for (const [index, id] of smallIds.entries()) smallChunks.set(id, smallPassages[index]!);
    await t.app.db.prisma.$executeRawUnsafe(`ANALYZE "document_chunks"`);
  });

  afterAll(async () => {
    await t?.close();
    await drop?.();
  });

  it("returns a small knowledge base's nearest passages in exact order past the other knowledge base's nearer ones", async () => {
    const query = embedder.embedOne(QUERY);
    const exact = [...tinyChunks.entries()]
      .map(([id, content]) => ({ id, similarity: dot(query, embedder.embedOne(content)) }))
      .sort((a, b) => b.similarity - a.similarity)
      .slice(0, QUERY_WORDS.length);
    const passages = await search(tiny, QUERY, QUERY_WORDS.length, "vector");
    expect(passages.map((passage) => passage.chunkId)).toEqual(exact.map((item) => item.id));
    // The graded passages, most query words first.
    expect(passages.map((passage) => passage.content.split(" filler")[0])).toEqual(
      QUERY_WORDS.map((_, index) => QUERY_WORDS.slice(0, QUERY_WORDS.length - index).join(" ")),
    );
    for (const [index, passage] of passages.entries())
      expect(passage.score).toBeCloseTo(exact[index]!.similarity, 4);
  });

  it("searches a small knowledge base exactly through its prepared statement, the same on every call", async () => {
    const query = embedder.embedOne(QUERY);
    const exact = [...smallChunks.entries()]
      .map(([id, content]) => ({ id, similarity: dot(query, embedder.embedOne(content)) }))
      .sort((a, b) => b.similarity - a.similarity)
      .map((item) => item.id);
    // Past the fifth call PostgreSQL may plan a prepared statement once for any knowledge base.
    const hybrid = await search(small, QUERY, 4, "hybrid");
    expect(hybrid[0]?.content.startsWith(`${QUERY_WORDS.slice(0, 7).join(" ")} filler`)).toBe(true);
    const keyword = await search(small, "lighthouse keeper", 3, "keyword");
    expect(keyword.every((passage) => passage.content.startsWith("lighthouse keeper"))).toBe(true);
    for (let call = 0; call < 7; call++) {
      const passages = await search(small, QUERY, smallChunks.size, "vector");
      expect(passages.map((passage) => passage.chunkId)).toEqual(exact);
      expect(await search(small, QUERY, 4, "hybrid")).toEqual(hybrid);
      expect(await search(small, "lighthouse keeper", 3, "keyword")).toEqual(keyword);
    }
  });

  it("ranks alike whether a knowledge base is searched as a small one (one pass, exact scan) or a large one", async () => {
    const asLarge = new KnowledgeSearch(t.app.db, embedder, 0);
    const asSmall = new KnowledgeSearch(t.app.db, embedder, 1_000);
    const questions = [QUERY, "lighthouse keeper lantern", "lighthouse zeppelin", "fog signal"];
    const cases = [
      ...(["vector", "keyword", "hybrid"] as const).flatMap((mode) =>
        questions.map((question) => ({ mode, question })),
      ),
      // Only stop words: no lexeme (and a vector of zeros, whose distances are NaN, in any order).
      { mode: "keyword" as const, question: "the of and" },
    ];
    for (const { mode, question } of cases)
      for (const limit of [3, 8, 16]) {
        const scope = { accountId, knowledgebaseId: tiny };
        const large = await asLarge.search(scope, question, limit, mode);
        expect(await asSmall.search(scope, question, limit, mode), `${mode} ${question} ${limit}`).toEqual(
          large,
        );
      }

    // Where the candidate steps decide: passages repeating one question word outrank those holding
    // more of them, so only the steps keep them out. "lighthouse" is common (Big), "alpha" and
    // "beta" rare (written after the statistics were taken).
    const steps = (await t.app.services.knowledgebases.create(accountId, { name: "Steps" })).id;
    await insertDocument(steps, "active", [
      ...[1, 2].map((n) => `lighthouse alpha beta ${filler(200 + n, 6)}`),
      ...[3, 4].map((n) => `alpha ${filler(200 + n, 6)}`),
      ...[5, 6, 7, 8].map((n) => `${"lighthouse ".repeat(6)}${filler(200 + n, 6)}`),
    ]);
    const scope = { accountId, knowledgebaseId: steps };
    for (const [question, limit, holding] of [
      ["lighthouse alpha beta", 2, /^lighthouse alpha beta/], // enough passages hold every word
      ["lighthouse alpha", 4, /alpha/], // too few hold both: widened to the rare word only
      ["lighthouse alpha", 8, /./], // too few hold a rare word: widened to any word
    ] as const) {
      const small = await asSmall.search(scope, question, limit, "keyword");
      expect(small.map((passage) => passage.content).every((content) => holding.test(content))).toBe(true);
      expect(small, `${question} ${limit}`).toEqual(await asLarge.search(scope, question, limit, "keyword"));
    }
  });

  it("returns every passage of the small knowledge base when the limit asks for all of them", async () => {
    const passages = await search(tiny, QUERY, 15, "vector");
    expect(new Set(passages.map((passage) => passage.chunkId))).toEqual(new Set(tinyChunks.keys()));
    expect(isSortedByScore(passages)).toBe(true);
  });

  it("ranks passages holding every word first, then widens to passages holding some of them", async () => {
    const passages = await search(tiny, "lighthouse keeper lantern", 8, "keyword");
    expect(passages).toHaveLength(8);
    const holdsAll = (passage: Passage) => /lighthouse keeper lantern/.test(passage.content);
    expect(passages.slice(0, 6).every(holdsAll)).toBe(true);
    expect(passages.slice(6).some(holdsAll)).toBe(false);
    expect(isSortedByScore(passages)).toBe(true);

    // No passage holds "zeppelin": the words are OR-ed, and every passage with "lighthouse" matches.
    const partial = await search(tiny, "lighthouse zeppelin", 20, "keyword");
    expect(partial.map((passage) => passage.content).sort()).toEqual(
      [...tinyChunks.values()].filter((content) => content.startsWith("lighthouse")).sort(),
    );
  });

  it("fuses both rankings in hybrid mode, and never returns passages of a document that is not active", async () => {
    const hybrid = await search(tiny, QUERY, 5, "hybrid");
    expect(hybrid).toHaveLength(5);
    expect(hybrid[0]?.content.startsWith(`${QUERY} filler`)).toBe(true);
    for (const mode of ["vector", "keyword", "hybrid"] as const) {
      const passages = await search(tiny, QUERY, 50, mode);
      expect(passages.length, mode).toBeGreaterThan(0);
      expect(
        passages.every((passage) => tinyChunks.has(passage.chunkId)),
        mode,
      ).toBe(true);
    }
  });

  it("keeps an HNSW index on PostgreSQL and none on the embedded store, whose start drops one an older database has", async () => {
    const hnswIndexes = async () =>
      (
        await t.app.db.prisma.$queryRawUnsafe<{ indexname: string }[]>(
          `SELECT indexname::text FROM pg_indexes WHERE tablename = 'document_chunks' AND indexname LIKE '%hnsw' ORDER BY indexname`,
        )
      ).map((row) => row.indexname);
    if (t.app.db.kind === "postgres") {
      expect(await hnswIndexes()).toContain("document_chunks_embedding_384_hnsw");
      return;
    }
    expect(await hnswIndexes()).toEqual([]);
    await t.app.db.prisma.$executeRawUnsafe(
      `CREATE INDEX "document_chunks_embedding_384_hnsw" ON "document_chunks"
       USING hnsw (("embedding"::vector(384)) vector_cosine_ops) WHERE vector_dims("embedding") = 384`,
    );
    await t.app.services.knowledgebases.start();
    expect(await hnswIndexes()).toEqual([]);
    expect(
      (await search(tiny, QUERY, 3, "vector")).map((passage) => passage.content.split(" filler")[0]),
    ).toEqual([QUERY, QUERY_WORDS.slice(0, -1).join(" "), QUERY_WORDS.slice(0, -2).join(" ")]);
  });
});

function withSessionOptions(url: string, options: string): string {
  const withOptions = new URL(url);
  withOptions.searchParams.set("options", options);
  return withOptions.href;
}

function dot(a: number[], b: number[]): number {
  return a.reduce((sum, value, index) => sum + value * b[index]!, 0);
}

function isSortedByScore(passages: Passage[]): boolean {
  return passages.every((passage, index) => index === 0 || passages[index - 1]!.score >= passage.score);
}
