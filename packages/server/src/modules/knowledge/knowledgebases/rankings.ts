/**
 * The rankings of a search as steps of one SQL statement (see KnowledgeSearch.search): each adds its
 * common table expressions to `steps` and a ranked list of passage ids to `rankings`.
 */
import { type Embedder, nonAsciiWords, toVectorBinary, words } from "../../embeddings/embedder.ts";

/**
 * Full-text search ranks at most this many matching passages: `ts_rank_cd` reads each one's whole
 * tsvector, so ranking every match of a common word costs seconds on a large knowledge base.
 */
const KEYWORD_CANDIDATES = 2_000;
/**
 * A lexeme in a larger share of all passages than this (PostgreSQL's statistics of the tsvector
 * column) is too common to pick candidates by when the question's words are OR-ed; it still counts
 * in the ranking.
 */
const COMMON_LEXEME_SHARE = 0.02;

/** Numbered parameters of one statement, added as its text is written. */
export class Parameters {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** Placeholders of the knowledge base, the account and how many passages each ranking keeps. */
export interface RankingScope {
  knowledgebaseId: string;
  accountId: string;
  rankLimit: string;
}

/**
 * Cosine similarity over the chunks of the current embedder. The ORDER BY is the HNSW index's own
 * expression and its WHERE repeats the index's predicate, so PostgreSQL can read the index in
 * distance order; the knowledge-base and document filters are applied to that stream, and the
 * iterative scan keeps reading until `limit` passages pass them. For a knowledge base that is a small
 * share of the table the planner prefers the knowledgebaseId index and an exact sort (extended
 * statistics of migration 0003 give it the row count), which is both exact and fast.
 * `relaxed_order` may return the index's results slightly out of order; the ranking sorts them.
 * `exact`: the distance to the column as it is (not cast to the index's expression), so no plan can
 * read the index; the same distances, as the cast only checks the dimensions the WHERE has checked.
 */
export function vectorRanking(
  parameters: Parameters,
  scope: RankingScope,
  embedder: Embedder,
  embedding: number[],
  exact: boolean,
  steps: string[],
  rankings: string[],
): void {
  const dims = embedder.dimensions;
  const question = parameters.add(toVectorBinary(embedding));
  const embedderId = parameters.add(embedder.id);
  const distance = `${exact ? `c."embedding"` : `c."embedding"::vector(${dims})`} <=> ${question}::vector(${dims})`;
  steps.push(`nearest AS MATERIALIZED (
         SELECT c."id", c."documentId", ${distance} AS "distance"
         FROM "document_chunks" c
         WHERE vector_dims(c."embedding") = ${dims} AND c."knowledgebaseId" = ${scope.knowledgebaseId}
           AND c."embedder" = ${embedderId}
           AND EXISTS (SELECT 1 FROM "documents" d WHERE d."id" = c."documentId" AND d."status" = 'active')
         ORDER BY ${distance}
         LIMIT ${scope.rankLimit})`);
  rankings.push(`(SELECT row_number() OVER (ORDER BY n."distance", n."id") AS "rank", n."id" AS "chunkId",
              1 - n."distance" AS "score"
       FROM nearest n JOIN "documents" d ON d."id" = n."documentId" AND d."accountId" = ${scope.accountId}
       ORDER BY n."distance", n."id")`);
}

/**
 * Full-text ranking by `ts_rank_cd` against the question's words OR-ed (a question rarely shares all
 * its words with the answer), over a bounded set of candidates, widened step by step while there are
 * fewer than `limit`:
 * 1. passages containing every word;
 * 2. passages containing any of the words that are not common (see COMMON_LEXEME_SHARE);
 * 3. passages containing any of the words.
 * Each step takes at most KEYWORD_CANDIDATES passages, so a question made of very common words ranks
 * a sample of their matches rather than all of them. The words become lexemes as PostgreSQL's English
 * configuration makes them (stemmed, stop words dropped), plus non-ASCII words as exact lexemes (see
 * nonAsciiWords); their share of passages comes from the column's statistics (absent: rare, or never
 * analysed). No lexeme at all (only stop words): no passage.
 *
 * `small`: a knowledge base of at most `exactMaxPassages` (fewer than KEYWORD_CANDIDATES), where
 * no step can reach its bound, so the steps' candidates are found by one pass over its passages
 * instead of one scan per step: each `@@` and `ts_rank_cd` read a passage's tsvector from the toast
 * table and decompressed it again (four times a passage), now read once into the pass. The same
 * candidates, scores and order.
 */
export function keywordRanking(
  parameters: Parameters,
  scope: RankingScope,
  query: string,
  small: boolean,
  exactMaxPassages: number,
  steps: string[],
  rankings: string[],
): void {
  const exotic = nonAsciiWords(query);
  const ascii = [...new Set(words(query))].filter((word) => !exotic.includes(word));
  if (ascii.length === 0 && exotic.length === 0) return;
  const text = parameters.add(ascii.join(" "));
  const exact = parameters.add(exotic);
  const commonShare = parameters.add(COMMON_LEXEME_SHARE);
  const { knowledgebaseId, rankLimit } = scope;
  const active = `EXISTS (SELECT 1 FROM "documents" d WHERE d."id" = c."documentId" AND d."status" = 'active')`;
  steps.push(
    `lexemes AS (
         SELECT DISTINCT lexeme FROM unnest(tsvector_to_array(to_tsvector('english', ${text})) || ${exact}::text[]) AS lexeme
       )`,
    `shares AS (
         SELECT e.lexeme, e.share
         FROM pg_stats s, unnest(s."most_common_elems"::text::text[], s."most_common_elem_freqs") AS e(lexeme, share)
         WHERE s."schemaname" = current_schema() AND s."tablename" = 'document_chunks' AND s."attname" = 'searchVector'
       )`,
    `queries AS MATERIALIZED (
         SELECT string_agg(quote_literal(l.lexeme), ' & ')::tsquery AS "everyWord",
                string_agg(quote_literal(l.lexeme), ' | ')::tsquery AS "anyWord",
                string_agg(quote_literal(l.lexeme), ' | ') FILTER (WHERE coalesce(s.share, 0) <= ${commonShare})::tsquery AS "anyRareWord"
         FROM lexemes l LEFT JOIN shares s ON s.lexeme = l.lexeme
       )`,
  );
  if (small && exactMaxPassages < KEYWORD_CANDIDATES) {
    // `|| ''` makes a copy of the tsvector, read from the toast table once; every use below reads the copy.
    steps.push(
      `keyword_texts AS MATERIALIZED (
           SELECT c."id", c."documentId", c."searchVector" || ''::tsvector AS "words" FROM "document_chunks" c
           WHERE c."knowledgebaseId" = ${knowledgebaseId} AND ${active}
         )`,
      `keyword_matches AS MATERIALIZED (
           SELECT t."id", t."documentId", (t."words" @@ q."everyWord") IS TRUE AS "everyWord",
                  (t."words" @@ q."anyRareWord") IS TRUE AS "anyRareWord", ts_rank_cd(t."words", q."anyWord") AS "score"
           FROM keyword_texts t, queries q WHERE t."words" @@ q."anyWord"
         )`,
      `keyword_counts AS MATERIALIZED (
           SELECT count(*) FILTER (WHERE "everyWord") AS "everyWord",
                  count(*) FILTER (WHERE "everyWord" OR "anyRareWord") AS "anyRareWord"
           FROM keyword_matches
         )`,
    );
    rankings.push(`(SELECT row_number() OVER (ORDER BY m."score" DESC, m."id") AS "rank", m."id" AS "chunkId", m."score"
         FROM keyword_matches m CROSS JOIN keyword_counts n
           JOIN "documents" d ON d."id" = m."documentId" AND d."accountId" = ${scope.accountId}
         WHERE CASE WHEN n."everyWord" >= ${rankLimit} THEN m."everyWord"
                    WHEN n."anyRareWord" >= ${rankLimit} THEN m."everyWord" OR m."anyRareWord"
                    ELSE true END
         ORDER BY m."score" DESC, m."id"
         LIMIT ${rankLimit})`);
    return;
  }
  const candidates = parameters.add(KEYWORD_CANDIDATES);
  steps.push(
    `every_word AS (
         SELECT c."id" FROM "document_chunks" c
         WHERE c."knowledgebaseId" = ${knowledgebaseId} AND c."searchVector" @@ (SELECT "everyWord" FROM queries)
           AND ${active}
         LIMIT ${candidates}
       )`,
    `any_rare_word AS (
         SELECT c."id" FROM "document_chunks" c
         WHERE (SELECT count(*) FROM every_word) < ${rankLimit}
           AND c."knowledgebaseId" = ${knowledgebaseId} AND c."searchVector" @@ (SELECT "anyRareWord" FROM queries)
           AND ${active}
         LIMIT ${candidates}
       )`,
    `any_word AS (
         SELECT c."id" FROM "document_chunks" c
         WHERE (SELECT count(*) FROM (SELECT "id" FROM every_word UNION SELECT "id" FROM any_rare_word) found) < ${rankLimit}
           AND c."knowledgebaseId" = ${knowledgebaseId} AND c."searchVector" @@ (SELECT "anyWord" FROM queries)
           AND ${active}
         LIMIT ${candidates}
       )`,
    `candidates AS (
         SELECT "id" FROM every_word UNION SELECT "id" FROM any_rare_word UNION SELECT "id" FROM any_word
       )`,
  );
  rankings.push(`(SELECT row_number() OVER (ORDER BY ts_rank_cd(c."searchVector", (SELECT "anyWord" FROM queries)) DESC, c."id") AS "rank", c."id" AS "chunkId",
              ts_rank_cd(c."searchVector", (SELECT "anyWord" FROM queries)) AS "score"
       FROM candidates JOIN "document_chunks" c ON c."id" = candidates."id"
         JOIN "documents" d ON d."id" = c."documentId" AND d."accountId" = ${scope.accountId}
       ORDER BY "score" DESC, c."id"
       LIMIT ${rankLimit})`);
}
