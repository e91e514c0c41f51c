// @ts-check
// Plain JavaScript on purpose: see extraction-worker-messages.ts, which also describes the messages.
import { parentPort, workerData } from "node:worker_threads";
import mammoth from "mammoth";

/** @param {import("./extraction-worker-messages.ts").DocxWorkerMessage} message */
function send(message) {
  parentPort?.postMessage(message);
}

const { data } = /** @type {import("./extraction-worker-messages.ts").DocxWorkerInput} */ (workerData);
try {
  const { value } = await mammoth.extractRawText({
    buffer: Buffer.from(data.buffer, data.byteOffset, data.byteLength),
  });
  send({ kind: "text", text: value });
} catch {
  send({ kind: "failure" });
}
