// @ts-check
// Plain JavaScript, so that the PDF worker thread (which runs without a TypeScript loader) cleans its pages
// with the same code; types in storable-text.d.mts.
/**
 * PostgreSQL cannot store a NUL character in text or jsonb, nor a lone UTF-16 surrogate (it is not UTF-8).
 * Requests carrying either are refused up front (`well-formed-text.ts`); text that arrives from elsewhere
 * (extracted documents, web pages, model replies, webhook answers) is cleaned with these instead, since
 * refusing it would fail work nobody can correct.
 */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, "g");

/** @param {string} value */
export const isWellFormedText = (value) => !value.includes("\u0000") && !LONE_SURROGATE.test(value);

/**
 * Drops NUL characters and replaces each lone surrogate with U+FFFD.
 * @param {string} value
 */
export function storableText(value) {
  return isWellFormedText(value) ? value : value.replaceAll("\u0000", "").replace(LONE_SURROGATES, "\uFFFD");
}

/**
 * `storableText` applied to every string and object key of a JSON-like value.
 * @param {unknown} value
 * @returns {unknown}
 */
export function storableValue(value) {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storableValue);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [storableText(key), storableValue(item)]),
    );
  }
  return value;
}
