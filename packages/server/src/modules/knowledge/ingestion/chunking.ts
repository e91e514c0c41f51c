import { type ResourceLimits, Worker } from "node:worker_threads";
import { EXTRACTION_WORKER_HEAP } from "../../../limits.ts";
import { type Tokenizer, textTokenizer } from "../../../tokenizer.ts";
import { type Chunk, type ChunkingOptions, chunkSteps, DEFAULT_CHUNKING } from "./chunking-core.mjs";
import { refusal, type Section } from "./extract.ts";
import type { ChunkWorkerCommand, ChunkWorkerInput, ChunkWorkerMessage } from "./extraction-worker-messages.ts";
import { IngestionFailure } from "./failure.ts";
import { Inbox } from "./worker-inbox.ts";

// The cutting itself is chunking-core.mjs, shared with the PDF worker thread (pdf-worker.mjs), which
// cuts a PDF's pages where it parses them.
export { type Chunk, DEFAULT_CHUNKING, SEGMENT_CHARS } from "./chunking-core.mjs";
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

/** How `chunkStream` runs its worker; tests replace the entry or the heap to watch a crash or a refusal. */
export interface ChunkWorkerRuntime {
  entry?: URL;
  heap?: ResourceLimits;
  /** Called with each worker started (one per stream). */
  started?: (worker: Worker) => void;
}

/**
 * `chunkSections` for a document being processed: passages as sections arrive, cut in a worker thread
 * of the stream's own (`chunk-worker.mjs`), which ends with the stream (its end, an abort, a failure).
 * Tokenising a long text takes seconds, and the tokenizer's first load 0.8 s of synchronous work and
 * 60–85 MB that would stay in the server's heap: on the server's thread that stalled every request
 * (bench/embedded-store measured up to 2.3 s) and kept the memory after the document. A section is sent
 * once the last passages of the one before are taken, and the worker cuts at most `WORKER_WINDOW`
 * batches ahead. A worker that dies (out of memory, a crash) fails the document with a reason.
 */
export async function* chunkStream(
  sections: Iterable<Section> | AsyncIterable<Section>,
  signal: AbortSignal,
  options: ChunkingOptions = DEFAULT_CHUNKING,
  runtime: ChunkWorkerRuntime = {},
): AsyncGenerator<Chunk> {
  signal.throwIfAborted();
  const worker = new Worker(runtime.entry ?? new URL("./chunk-worker.mjs", import.meta.url), {
    execArgv: [],
    workerData: {
      chunking: { maxTokens: options.maxTokens, overlapTokens: options.overlapTokens },
      batch: WORKER_BATCH,
      window: WORKER_WINDOW,
    } satisfies ChunkWorkerInput,
    resourceLimits: runtime.heap ?? EXTRACTION_WORKER_HEAP,
  });
  runtime.started?.(worker);
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
  let taken = 0;
  try {
    for await (const section of sections) {
      signal.throwIfAborted();
      command({ kind: "section", section: { source: section.source, text: section.text } });
      for (;;) {
        const message = await inbox.take();
        command({ kind: "taken", messages: ++taken });
        yield* message.chunks;
        if (message.sectionDone) break;
      }
    }
    signal.throwIfAborted();
  } finally {
    await worker.terminate();
  }
}

const CUTTING_FAILED = "The document could not be cut into passages (the worker doing it stopped); try again.";
