// @ts-check
// Plain JavaScript on purpose: see extraction-worker-messages.ts, which also describes the messages.
import { parentPort, workerData } from "node:worker_threads";
import { chunkSteps } from "./chunking-core.mjs";
import { o200k } from "./o200k.mjs";

const { batch, window } = /** @type {import("./extraction-worker-messages.ts").ChunkWorkerInput} */ (
  workerData
);
/** @type {{ section: { source: string | null; text: string }; chunking: import("./chunking-core.d.mts").ChunkingOptions }[]} */
const sections = [];
let sent = 0;
let taken = 0;
/** @type {(() => void) | null} */
let wake = null;

/** Until `ready()` holds, woken by every message from `chunkStream`. @param {() => boolean} ready */
async function until(ready) {
  while (!ready()) {
    await new Promise((resolve) => {
      wake = () => resolve(undefined);
    });
    wake = null;
  }
}

/** @param {import("./extraction-worker-messages.ts").ChunkWorkerMessage} message */
function send(message) {
  sent++;
  parentPort?.postMessage(message);
}

parentPort?.on(
  "message",
  (/** @type {import("./extraction-worker-messages.ts").ChunkWorkerCommand} */ command) => {
    if (command.kind === "taken") taken = command.messages;
    else sections.push({ section: command.section, chunking: command.chunking });
    wake?.();
  },
);

// Sections come one at a time (`chunkStream` sends the next once the last batch of this one is taken), from
// one document after another while the thread is kept, until it is terminated.
for (;;) {
  await until(() => sections.length > 0);
  const { section, chunking } = /** @type {(typeof sections)[number]} */ (sections.shift());
  // Counted per section: the acknowledgement of the last section's end came before this one.
  sent = 0;
  taken = 0;
  /** @type {import("./chunking-core.d.mts").Chunk[]} */
  let chunks = [];
  for (const step of chunkSteps(section, chunking, o200k())) {
    if (!step) continue;
    chunks.push(step);
    if (chunks.length < batch) continue;
    // The store is slower than the cutting: wait for it rather than pile passages up.
    await until(() => sent - taken < window);
    send({ chunks, sectionDone: false });
    chunks = [];
  }
  send({ chunks, sectionDone: true });
}
