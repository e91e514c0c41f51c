import { type ResourceLimits, Worker } from "node:worker_threads";
import { EXTRACTION_WORKER_HEAP } from "../../../limits.ts";
import { type Tokenizer, textTokenizer } from "../../../tokenizer.ts";
import { type Chunk, type ChunkingOptions, chunkSteps, DEFAULT_CHUNKING } from "./chunking-core.mjs";
import { refusal, type Section } from "./extract.ts";
import type {
  ChunkWorkerCommand,
  ChunkWorkerInput,
  ChunkWorkerMessage,
} from "./extraction-worker-messages.ts";
import { IngestionFailure } from "./failure.ts";
import { Inbox } from "./worker-inbox.ts";

// The cutting itself is chunking-core.mjs, shared with the PDF worker thread (pdf-worker.mjs), which
// cuts a PDF's pages where it parses them.
export { type Chunk, type ChunkingOptions, DEFAULT_CHUNKING, SEGMENT_CHARS } from "./chunking-core.mjs";
/** The embedding model's tokens; replaceable so tests can watch what is tokenised. */
export type { Tokenizer };

export interface ChunkOptions extends ChunkingOptions {
  tokenizer?: Tokenizer;
}

/**
 * Splits each section into passages of at most `maxTokens` tokens (the embedding model's tokens),
 * cutting at paragraph and sentence ends where it can. Consecutive passages share about
 * `overlapTokens` of text so that an answer straddling a cut is still found whole in one of them.
 * A passage never spans two sections, so it keeps its page or URL.
 */
export function chunkSections(
  sections: readonly Section[],
  options: ChunkOptions = DEFAULT_CHUNKING,
): Chunk[] {
  const chunks: Chunk[] = [];
  for (const section of sections) {
    for (const step of chunkSteps(section, options, options.tokenizer ?? textTokenizer))
      if (step) chunks.push(step);
  }
  return chunks;
}

/** Passages per message from the chunk worker: an embedding batch (`EMBED_BATCH` in worker.ts). */
const WORKER_BATCH = 64;
/** Messages the chunk worker may cut ahead of the store: the worker is the faster side. */
const WORKER_WINDOW = 2;

/**
 * How long a chunk worker is kept after its document, for the next one (the tokenizer it loaded, 0.8 s of
 * work, is reused); then it is terminated and its memory goes back with it.
 */
const WORKER_IDLE_MS = 10_000;

/** How `chunkStream` runs its worker; tests replace the entry, the heap or the idle time. */
export interface ChunkWorkerRuntime {
  entry?: URL;
  heap?: ResourceLimits;
  idleMs?: number;
  /** Called with each worker started. */
  started?: (worker: Worker) => void;
}

/** The worker kept after its last document, until it is taken by the next or its idle time ends. */
let idleWorker: { worker: Worker; entry: string; timer: NodeJS.Timeout } | null = null;

function takeWorker(runtime: ChunkWorkerRuntime, entry: URL): Worker {
  if (idleWorker && idleWorker.entry === entry.href && !runtime.heap) {
    const { worker, timer } = idleWorker;
    idleWorker = null;
    clearTimeout(timer);
    worker.ref();
    return worker;
  }
  const worker = new Worker(entry, {
    execArgv: [],
    workerData: {
      batch: WORKER_BATCH,
      window: WORKER_WINDOW,
    } satisfies ChunkWorkerInput,
    resourceLimits: runtime.heap ?? EXTRACTION_WORKER_HEAP,
  });
  runtime.started?.(worker);
  return worker;
}

/** Keeps a worker that finished its document cleanly for `idleMs`; one is kept at most, the newest. */
async function releaseWorker(worker: Worker, runtime: ChunkWorkerRuntime, entry: URL): Promise<void> {
  worker.removeAllListeners("message");
  worker.removeAllListeners("error");
  worker.removeAllListeners("exit");
  if (runtime.heap) return void (await worker.terminate());
  if (idleWorker) {
    const older = idleWorker;
    idleWorker = null;
    clearTimeout(older.timer);
    void older.worker.terminate();
  }
  // Not holding the process up (a stopping server, a test run's end) while it waits.
  worker.unref();
  worker.on("error", () => {});
  worker.once("exit", () => {
    if (idleWorker?.worker === worker) idleWorker = null;
  });
  const timer = setTimeout(() => {
    if (idleWorker?.worker === worker) idleWorker = null;
    void worker.terminate();
  }, runtime.idleMs ?? WORKER_IDLE_MS);
  timer.unref();
  idleWorker = { worker, entry: entry.href, timer };
}

/**
 * `chunkSections` for a document being processed: passages as sections arrive, cut in a worker thread
 * (`chunk-worker.mjs`), one document at a time. Tokenising a long text takes seconds, and the tokenizer's
 * first load 0.8 s of synchronous work and 60–85 MB that would stay in the server's heap: on the server's
 * thread that stalled every request (bench/embedded-store measured up to 2.3 s) and kept the memory after
 * the document. A section is sent once the last passages of the one before are taken, and the worker cuts
 * at most `WORKER_WINDOW` batches ahead. A worker that finished its document cleanly is kept
 * `WORKER_IDLE_MS` for the next one, then terminated; one stopped part-way (abort, failure, a reader that
 * stops) is terminated at once. A worker that dies (out of memory, a crash) fails the document with a
 * reason. Passages are cut with `chunking` (the knowledge base's passage size).
 */
export async function* chunkStream(
  sections: Iterable<Section> | AsyncIterable<Section>,
  signal: AbortSignal,
  chunking: ChunkingOptions = DEFAULT_CHUNKING,
  runtime: ChunkWorkerRuntime = {},
): AsyncGenerator<Chunk> {
  signal.throwIfAborted();
  const entry = runtime.entry ?? new URL("./chunk-worker.mjs", import.meta.url);
  const worker = takeWorker(runtime, entry);
  const inbox = new Inbox<ChunkWorkerMessage>(signal);
  worker.on("message", (message: ChunkWorkerMessage) => inbox.put(message));
  worker.on("error", (error) =>
    inbox.fail(
      new IngestionFailure(
        (error as NodeJS.ErrnoException).code === "ERR_WORKER_OUT_OF_MEMORY"
          ? refusal("memory")
          : CUTTING_FAILED,
      ),
    ),
  );
  worker.on("exit", () => inbox.fail(new IngestionFailure(CUTTING_FAILED)));
  const command = (message: ChunkWorkerCommand) => worker.postMessage(message);
  let finished = false;
  try {
    for await (const section of sections) {
      signal.throwIfAborted();
      command({
        kind: "section",
        section: { source: section.source, text: section.text },
        chunking: { maxTokens: chunking.maxTokens, overlapTokens: chunking.overlapTokens },
      });
      let taken = 0;
      for (;;) {
        const message = await inbox.take();
        command({ kind: "taken", messages: ++taken });
        yield* message.chunks;
        if (message.sectionDone) break;
      }
    }
    signal.throwIfAborted();
    finished = true;
  } finally {
    if (finished) await releaseWorker(worker, runtime, entry);
    else await worker.terminate();
  }
}

const CUTTING_FAILED =
  "The document could not be cut into passages (the worker doing it stopped); try again.";
