import { type PiiCategory, PLACEHOLDERS, PRECEDENCE } from "./categories.ts";
import { DETECTORS, type DetectOptions, type PiiSpan } from "./detectors.ts";
import { type DigitToken, digitRuns } from "./digit-runs.ts";

export type { PiiSpan } from "./detectors.ts";

export interface Redaction {
  /** The text with each finding replaced by its category's placeholder. */
  text: string;
  /** The findings, in the original text's offsets (UTF-16 code units), in order, never overlapping. */
  spans: PiiSpan[];
}

const DEFAULTS: DetectOptions = { defaultCountry: "US" };

const NOTHING_TO_FIND = /^[^0-9@]*$/;
const SPOKEN_HINT = /\b(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|double|triple)\b|\sat\s/i;

/**
 * The personal data of `categories` in `text`: each detector's findings, overlaps settled for the
 * longer finding (an IBAN holds digits that may pass as a card number), then by `PRECEDENCE`.
 */
export function findPii(
  text: string,
  categories: readonly PiiCategory[],
  options: Partial<DetectOptions> = {},
): PiiSpan[] {
  if (categories.length === 0 || text === "") return [];
  const settings = { ...DEFAULTS, ...options };
  let runs: DigitToken[][] | null = null;
  const lazyRuns = () => (runs ??= digitRuns(text));
  // Every detector needs a digit, an "@", a digit word or a spoken " at ": most messages have none.
  if (NOTHING_TO_FIND.test(text) && !SPOKEN_HINT.test(text)) return [];
  const candidates: PiiSpan[] = [];
  for (const category of PRECEDENCE)
    if (categories.includes(category)) candidates.push(...DETECTORS[category](text, settings, lazyRuns));
  if (candidates.length === 0) return [];
  const rank = (span: PiiSpan) => PRECEDENCE.indexOf(span.category);
  candidates.sort((a, b) => b.end - b.start - (a.end - a.start) || rank(a) - rank(b) || a.start - b.start);
  const kept: PiiSpan[] = [];
  for (const span of candidates)
    if (!kept.some((other) => span.start < other.end && other.start < span.end)) kept.push(span);
  return kept.sort((a, b) => a.start - b.start);
}

/** `text` with the personal data of `categories` replaced by typed placeholders ("[card number]"). */
export function redact(
  text: string,
  categories: readonly PiiCategory[],
  options: Partial<DetectOptions> = {},
): Redaction {
  const spans = findPii(text, categories, options);
  if (spans.length === 0) return { text, spans };
  let out = "";
  let at = 0;
  for (const span of spans) {
    out += text.slice(at, span.start) + PLACEHOLDERS[span.category];
    at = span.end;
  }
  return { text: out + text.slice(at), spans };
}

/**
 * Every string inside a JSON value redacted (objects' keys kept): evaluations and other structured
 * content a model wrote from the conversation.
 */
export function redactJson<T>(
  value: T,
  categories: readonly PiiCategory[],
  options: Partial<DetectOptions> = {},
): T {
  if (categories.length === 0) return value;
  const walk = (node: unknown): unknown => {
    if (typeof node === "string") return redact(node, categories, options).text;
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === "object" && !(node instanceof Date))
      return Object.fromEntries(Object.entries(node).map(([key, inner]) => [key, walk(inner)]));
    return node;
  };
  return walk(value) as T;
}
