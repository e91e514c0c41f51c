/**
 * PII redaction on the labelled set the suite generates (`packages/server/test/support/pii-corpus.ts`):
 * recall per category and form, false redactions of ordinary numbers, and throughput against a
 * baseline (one plain regex pass for long digit runs and emails, no checks), both in the same run,
 * interleaved. See README.md.
 *
 *   node scripts/pnpm.mjs exec tsx bench/redaction/run.ts [messages] [rounds]
 */
import { performance } from "node:perf_hooks";
import { PII_CATEGORIES, redact } from "../../packages/server/src/modules/redaction/index.ts";
import { generateCorpus } from "../../packages/server/test/support/pii-corpus.ts";

const size = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 5);
const corpus = generateCorpus(size);

// Quality: every category on, as an assistant redacting everything would.
const byForm = new Map<string, { total: number; hit: number }>();
let ordinaryTotal = 0;
let ordinaryChanged = 0;
const falseByForm = new Map<string, { total: number; changed: number }>();
for (const message of corpus) {
  const result = redact(message.text, PII_CATEGORIES);
  if (message.pii) {
    const key = `${message.pii.category} (${message.form})`;
    const entry = byForm.get(key) ?? { total: 0, hit: 0 };
    entry.total++;
    if (
      !result.text.includes(message.pii.value) &&
      result.spans.some((span) => span.category === message.pii!.category)
    )
      entry.hit++;
    byForm.set(key, entry);
  } else {
    ordinaryTotal++;
    const entry = falseByForm.get(message.form) ?? { total: 0, changed: 0 };
    entry.total++;
    if (result.spans.length > 0) {
      ordinaryChanged++;
      entry.changed++;
    }
    falseByForm.set(message.form, entry);
  }
}
const percent = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
console.log(`labelled set: ${corpus.length} messages (seed 34)\n`);
console.log("recall by category (form)");
for (const [key, { total, hit }] of [...byForm].sort())
  console.log(
    `  ${key.padEnd(40)} ${String(hit).padStart(6)} / ${String(total).padEnd(6)} ${percent(hit, total)}`,
  );
console.log("\nfalse redactions of ordinary messages");
for (const [form, { total, changed }] of [...falseByForm].sort())
  console.log(
    `  ${form.padEnd(40)} ${String(changed).padStart(6)} / ${String(total).padEnd(6)} ${percent(changed, total)}`,
  );
console.log(
  `  ${"all ordinary".padEnd(40)} ${String(ordinaryChanged).padStart(6)} / ${String(ordinaryTotal).padEnd(6)} ${percent(ordinaryChanged, ordinaryTotal)}`,
);

// Throughput. The baseline: what a plain regex pass costs (13-19 digit runs with separators and
// emails replaced, no checksum, no context): the floor any redaction pays per message.
const BASELINE = /\b(?:\d[ -]?){12,18}\d\b|[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const variants: Record<string, (text: string) => string> = {
  "baseline regex": (text) => text.replace(BASELINE, "[redacted]"),
  "redact: card + email": (text) => redact(text, ["card_number", "email"]).text,
  "redact: all categories": (text) => redact(text, PII_CATEGORIES).text,
};
const texts = corpus.map((message) => message.text);
const times = new Map<string, number[]>();
let sink = 0;
for (let round = 0; round < rounds; round++)
  for (const [name, run] of Object.entries(variants)) {
    const start = performance.now();
    for (const text of texts) sink += run(text).length;
    times.set(name, [...(times.get(name) ?? []), performance.now() - start]);
  }
console.log(`\nthroughput (${rounds} interleaved rounds of ${texts.length} messages; median round)`);
for (const [name, runs] of times) {
  const median = [...runs].sort((a, b) => a - b)[Math.floor(runs.length / 2)]!;
  const perSecond = Math.round(texts.length / (median / 1000));
  console.log(
    `  ${name.padEnd(26)} ${String(perSecond).padStart(9)} messages/s  (${((median / texts.length) * 1000).toFixed(1)} µs each)`,
  );
}
if (sink < 0) console.log(sink);
