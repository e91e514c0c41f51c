// @ts-check
// Plain JavaScript on purpose: see extraction-worker-messages.ts, which also describes the messages.
import { parentPort, workerData } from "node:worker_threads";
import mammoth from "mammoth";
import { openDocxZip } from "./docx-zip.mjs";
import { ExpansionBudget } from "./expansion-guard.mjs";

/** @param {import("./extraction-worker-messages.ts").DocxWorkerMessage} message */
function send(message) {
  parentPort?.postMessage(message);
}

const { data, limits } = /** @type {import("./extraction-worker-messages.ts").DocxWorkerInput} */ (
  workerData
);
const budget = new ExpansionBudget(limits);
try {
  // mammoth takes an opened archive as `file` (see its lib/unzip.js): this one counts what it inflates.
  const file = openDocxZip(data, budget);
  const { value } = await mammoth.extractRawText(/** @type {never} */ ({ file }));
  send(budget.exceeded ? { kind: "refused", limit: budget.exceeded.limit } : { kind: "text", text: value });
} catch {
  // mammoth may wrap what the archive threw: the budget keeps the refusal.
  send(budget.exceeded ? { kind: "refused", limit: budget.exceeded.limit } : { kind: "failure" });
}
