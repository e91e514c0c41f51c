// @ts-check
// Plain JavaScript on purpose: see extraction-worker-messages.ts, which also describes the messages.
import { parentPort, workerData } from "node:worker_threads";
import { storableText } from "../../../storable-text.mjs";
import { chunkSteps } from "./chunking-core.mjs";
import { countingDecompressionStream, ExpansionBudget, guardDecodedStream } from "./expansion-guard.mjs";
import { o200k } from "./o200k.mjs";

/**
 * pdf.js keeps per-document caches (fonts, page dictionaries, colour spaces) that grow with every page
 * read; they are emptied every so many pages.
 */
const CLEANUP_EVERY_PAGES = 100;

// pdf.js inflates streams through DecompressionStream when there is one, which in Node is a native
// zlib handle. This thread is terminated at arbitrary points (document timeout, heap limit, server
// stop), and a zlib handle caught between its creation and its initialisation aborts the whole
// process when the thread is torn down ("close before init", seen once in CI). Node's are removed here
// (`extract` puts a JavaScript one in their place); pdf.js never compresses.
Reflect.deleteProperty(globalThis, "DecompressionStream");
Reflect.deleteProperty(globalThis, "CompressionStream");

/**
 * A page's passages: its text is dropped here, as soon as it is cut.
 * @param {string} text
 * @param {number} pageNumber
 * @param {import("./chunking-core.d.mts").ChunkingOptions} options
 */
function chunkPage(text, pageNumber, options) {
  /** @type {import("./chunking-core.d.mts").Chunk[]} */
  const chunks = [];
  if (!text.trim()) return chunks;
  const section = { source: `page ${pageNumber}`, text: storableText(text) };
  for (const step of chunkSteps(section, options, o200k())) if (step) chunks.push(step);
  return chunks;
}

/** @param {import("./extraction-worker-messages.ts").PdfWorkerMessage} message */
function send(message) {
  parentPort?.postMessage(message);
}

/** @param {import("./extraction-worker-messages.ts").PdfWorkerInput} input */
async function extract({ data, window, chunking, limits }) {
  const budget = new ExpansionBudget(limits);
  // pdf.js catches what its parsers throw and goes on with what it has: the budget keeps the refusal.
  Reflect.set(
    globalThis,
    "pdfjsDecodeGuard",
    (/** @type {never} */ stream, /** @type {number} */ requested) =>
      guardDecodedStream(budget, stream, requested),
  );
  Reflect.set(globalThis, "DecompressionStream", countingDecompressionStream(budget));
  /**
   * The end of a document that pdf.js could not read (it fails the same way every time, so it is not
   * retried), or that went past a limit: then whatever pdf.js made of the refusal is not the reason.
   * @param {string} reason
   */
  const fail = (reason) =>
    send(budget.exceeded ? { kind: "refused", limit: budget.exceeded.limit } : { kind: "failure", reason });
  const unreadable = "The PDF file is corrupt or unreadable.";
  let textBytes = 0;
  let pagesTaken = 0;
  /** @type {(() => void) | null} */
  let wake = null;
  parentPort?.on("message", (/** @type {import("./extraction-worker-messages.ts").PdfWorkerAck} */ ack) => {
    pagesTaken = ack.pagesTaken;
    wake?.();
  });
  const nativePush = Array.prototype.push;
  // pdf.js's own worker code runs in this thread (it finds it through `globalThis.pdfjsWorker`), loaded
  // here rather than by the first document so that the line below comes after it.
  const [{ getDocument }] = await Promise.all([
    import("pdfjs-dist/legacy/build/pdf.mjs"),
    import("pdfjs-dist/legacy/build/pdf.worker.mjs"),
  ]);
  // The core-js bundled in both modules of pdf.js's legacy build replaces Array.prototype.push, for every
  // array of the thread, with a JavaScript function (Node's push misses a corner of the specification,
  // arrays whose length is read-only, which neither pdf.js nor the tokenizer makes): ~15 % of this thread's
  // CPU on a long PDF went to it (bench/ingest). The rest of what it adds is left alone.
  Array.prototype.push = nativePush;
  const task = getDocument({
    data,
    isEvalSupported: false,
    useSystemFonts: false,
    disableFontFace: true,
    verbosity: 0,
  });
  let pdf;
  try {
    pdf = await task.promise;
  } catch (error) {
    return fail(
      error instanceof Error && error.name === "PasswordException"
        ? "The PDF is password-protected."
        : unreadable,
    );
  }
  try {
    for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
      // The reader is slower (it embeds and stores): wait for it rather than pile pages up.
      while (pageNumber - 1 - pagesTaken >= window) {
        await new Promise((resolve) => {
          wake = () => resolve(undefined);
        });
        wake = null;
      }
      const page = await pdf.getPage(pageNumber);
      // Read as pdf.js streams it, so that a page's text is counted while it grows, not once it is whole.
      const reader = page.streamTextContent().getReader();
      let text = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const item of value.items) {
          if (!("str" in item)) continue;
          text += item.str;
          text += item.hasEOL ? "\n" : item.str.endsWith(" ") ? "" : " ";
          textBytes += item.str.length + 1;
        }
        if (textBytes > limits.maxExpandedBytes) budget.refuse("expanded");
        if (budget.exceeded) {
          await reader.cancel();
          return fail(unreadable);
        }
      }
      page.cleanup();
      if (budget.exceeded) return fail(unreadable);
      if (pageNumber % CLEANUP_EVERY_PAGES === 0) await pdf.cleanup();
      send({
        kind: "page",
        pageNumber,
        pagesTotal: pdf.numPages,
        chunks: chunkPage(text, pageNumber, chunking),
      });
    }
    send({ kind: "done" });
  } catch {
    // A page pdf.js cannot read (a broken page tree) fails the same way every time.
    fail(unreadable);
  } finally {
    await pdf.destroy();
    parentPort?.removeAllListeners("message");
  }
}

await extract(/** @type {import("./extraction-worker-messages.ts").PdfWorkerInput} */ (workerData));
