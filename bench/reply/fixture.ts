/** What reply.bench.ts and search-cost.ts share: the server's settings, the knowledge base, the questions, CPU. */

import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { type Config, loadConfig } from "@voxgate/server";

/** The server's settings for a bench: a fake model at `modelUrl`, files under `dataDir`, quiet logs. */
export function benchConfig(modelUrl: string, dataDir: string, extra: Record<string, string> = {}): Config {
  return loadConfig({
    PORT: "0",
    LOG_LEVEL: "silent",
    VOXGATE_SEED_DEMO: "false",
    VOXGATE_DATA_DIR: dataDir,
    OPENAI_BASE_URL: modelUrl,
    OPENAI_API_KEY: "sk-bench",
    ...extra,
  });
}

export const SUBJECTS = [
  "returns",
  "deliveries",
  "warranty repairs",
  "gift cards",
  "invoices",
  "store pickup",
  "custom engraving",
  "bulk orders",
  "loyalty points",
  "price matching",
];
const DETAILS = [
  "Customers can ask at the counter or write to the support team, who answer every message within one working day.",
  "The receipt or the order number is needed, and a photo helps when an item arrived damaged or incomplete.",
  "Opening hours are Monday to Friday from nine to six, Saturday from ten to four; the shop is closed on public holidays.",
  "Refunds go back to the card used for the purchase and appear on the statement after three to five banking days.",
  "Fees are waived for members of the loyalty programme and for orders above one hundred and fifty euros.",
  "Large parcels travel with a freight partner that calls the day before to agree on a two-hour delivery window.",
  "Anything bought in the seasonal sale follows the same rules, except that engraved items cannot be exchanged.",
  "The team keeps a written record of every request so that nobody has to explain the same thing twice.",
];

/**
 * A small business's handbook: 229 sections on ten subjects worded alike, which the chunker (300
 * tokens a passage) makes about 200 passages, so retrieval ranks among many similar passages as in a
 * real knowledge base rather than picking the only match of three.
 */
export function handbook(sections = 229): string {
  return Array.from({ length: sections }, (_, i) => {
    const subject = SUBJECTS[i % SUBJECTS.length]!;
    const sentences = Array.from({ length: 9 }, (_, j) => DETAILS[(i + j * 3) % DETAILS.length]!);
    return (
      `Section ${i}: ${subject}, case ${i}. Request type ${i} about ${subject} is handled within ${(i % 9) + 1} days. ` +
      sentences.join(" ")
    );
  }).join("\n\n");
}

/** A question naming one of the handbook's first 200 request types and a subject. */
export function question(index: number): string {
  const n = Math.abs(index);
  return `How long does request type ${n % 200} about ${SUBJECTS[n % SUBJECTS.length]} take?`;
}

/**
 * A warm-up question: one of 20 naming request types 200 to 219, which no measured question names,
 * so warming up neither answers a measured question's embedding from the cache nor pushes the
 * measured questions out of it (it holds the latest 256).
 */
export function warmUpQuestion(index: number): string {
  const n = Math.abs(index) % 20;
  return `How long does request type ${200 + n} about ${SUBJECTS[n % SUBJECTS.length]} take?`;
}

const CLOCK_TICKS = Number(spawnSync("getconf", ["CLK_TCK"]).stdout?.toString().trim()) || 100;

/**
 * CPU time (ms) of each process tree rooted at `roots` (PostgreSQL's backends are its postmaster's
 * children), from /proc: user and system time, in clock ticks (10 ms), plenty over a run of replies.
 */
export function treeCpuMs(roots: Record<string, number>): Record<string, number> {
  const stats = new Map<number, { parent: number; ms: number }>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // The command name is in parentheses and may hold spaces: fields are counted after it.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      stats.set(Number(entry), {
        parent: Number(fields[1]),
        ms: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS,
      });
    } catch {
      // The process ended while the list was read.
    }
  }
  const result: Record<string, number> = {};
  for (const [name, root] of Object.entries(roots)) {
    let total = 0;
    for (const [pid, stat] of stats) {
      let ancestor: number | undefined = pid;
      while (ancestor !== undefined && ancestor > 1 && ancestor !== root)
        ancestor = stats.get(ancestor)?.parent;
      if (ancestor === root) total += stat.ms;
    }
    result[name] = total;
  }
  return result;
}
