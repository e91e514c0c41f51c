import { subscribe, unsubscribe } from "node:diagnostics_channel";
import type { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { makeDocx, makePdf } from "../../../../test/fixtures/knowledge.ts";
import { type Chunk, chunkSections } from "./chunking.ts";
import { extractDocx, extractPdf } from "./extract.ts";
import { IngestionFailure } from "./failure.ts";

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** Full pages of text: a few hundred milliseconds of pdf.js work in all. */
function densePages(pageCount: number): string[][] {
  return Array.from({ length: pageCount }, (_, page) =>
    Array.from(
      { length: 40 },
      (_, line) =>
        `Page ${page + 1} line ${line + 1}: ${"the quick brown fox jumps over a lazy dog ".repeat(2)}`,
    ),
  );
}

describe("extractPdf", () => {
  // How long the main thread stalls, against pdf.js on the main thread, is measured by bench/ingest:
  // timings are not asserted here, where other suites share the cores.
  it("parses a long PDF in a worker thread while the main thread keeps serving timers", async () => {
    const pdf = await makePdf(densePages(40));
    const workers: Worker[] = [];
    const onWorker = (message: unknown) => workers.push((message as { worker: Worker }).worker);
    subscribe("worker_threads", onWorker);
    const progress: [number, number][] = [];
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    let chunks: Chunk[];
    try {
      chunks = await collect(
        extractPdf(
          pdf,
          async (done, total) => {
            progress.push([done, total]);
          },
          new AbortController().signal,
        ),
      );
    } finally {
      clearInterval(ticker);
      unsubscribe("worker_threads", onWorker);
    }

    expect(new Set(chunks.map((chunk) => chunk.source)).size).toBe(40);
    expect(chunks.at(-1)).toMatchObject({ source: "page 40" });
    expect(chunks.at(-1)!.content).toContain("Page 40 line 40: the quick brown fox jumps");
    expect(progress.at(-1)).toEqual([40, 40]);
    // One worker thread did the parsing, and is gone.
    expect(workers).toHaveLength(1);
    expect(workers[0]!.threadId).toBe(-1);
    expect(ticks).toBeGreaterThan(0);
    // Handed over to the worker, not copied.
    expect(pdf.byteLength).toBe(0);
  });

  it("stops the worker when the extraction is aborted", async () => {
    const pdf = await makePdf(densePages(40));
    const controller = new AbortController();
    const reason = new Error("cancelled by the test");
    let pagesSeen = 0;
    const extraction = collect(
      extractPdf(
        pdf,
        async (done) => {
          pagesSeen = done;
          if (done === 2) controller.abort(reason);
        },
        controller.signal,
      ),
    );
    await expect(extraction).rejects.toBe(reason);
    const seenAtAbort = pagesSeen;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seenAtAbort).toBeLessThan(40);
    expect(pagesSeen).toBe(seenAtAbort);
  });

  it("parses no further ahead of its reader than its window, and stops when the reader stops", async () => {
    const pdf = await makePdf(densePages(30));
    const workers: Worker[] = [];
    const onWorker = (message: unknown) => workers.push((message as { worker: Worker }).worker);
    subscribe("worker_threads", onWorker);
    let pagesSent = 0;
    const chunks = extractPdf(pdf, async () => {}, new AbortController().signal, { window: 3 });
    try {
      const first = await chunks.next();
      expect(first.value).toMatchObject({ source: "page 1" });
      workers[0]!.on("message", () => pagesSent++);
      // The reader holds page 1 and takes nothing more: the worker may send pages 2 to 4 and must then
      // wait. Waiting as long as it took to get the first page leaves it time to run far ahead if it could.
      for (let round = 0; round < 5; round++) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(pagesSent).toBeLessThanOrEqual(3);
      await chunks.return(undefined);
      expect(workers[0]!.threadId).toBe(-1);
    } finally {
      unsubscribe("worker_threads", onWorker);
    }
  });
});

describe("passages cut in the PDF worker", () => {
  it("are the passages chunking.ts cuts from the pages' text", async () => {
    const pages = [
      [
        "Refunds reach the card within five days. A spelling such as <|endoftext|> is plain text!",
        `A sentence without an end ${"that goes on and on ".repeat(3)}`,
        "Short line",
      ],
      ["Page two has one line only."],
      [],
      Array.from({ length: 12 }, (_, line) => `Line ${line + 1} of the third page with text? Yes.`),
    ];
    const chunking = { maxTokens: 40, overlapTokens: 10 };
    const chunks = await collect(
      extractPdf(await makePdf(pages), async () => {}, new AbortController().signal, { chunking }),
    );
    // pdf.js gives each drawn line of these pages as one text item, with an end of line between them.
    const expected = chunkSections(
      pages.map((lines, page) => ({ source: `page ${page + 1}`, text: lines.join("\n") })),
      chunking,
    );
    expect(expected.length).toBeGreaterThan(5);
    expect(expected.some((chunk) => chunk.content.includes("<|endoftext|>"))).toBe(true);
    expect(chunks).toEqual(expected);
  });
});

describe("extractDocx", () => {
  it("reads the text in a worker thread, and fails a corrupt file with the reason", async () => {
    const workers: Worker[] = [];
    const onWorker = (message: unknown) => workers.push((message as { worker: Worker }).worker);
    subscribe("worker_threads", onWorker);
    try {
      const docx = await makeDocx(["Refunds reach the card within five days.", "The desk opens at nine."]);
      const sections = await extractDocx(docx, new AbortController().signal);
      expect(sections).toHaveLength(1);
      expect(sections[0]!.text).toContain("Refunds reach the card within five days.");
      expect(sections[0]!.text).toContain("The desk opens at nine.");
      expect(workers).toHaveLength(1);
      expect(workers[0]!.threadId).toBe(-1);
      expect(docx.byteLength).toBe(0);

      const corrupt = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5, 6, 7, 8]);
      const failure = extractDocx(corrupt, new AbortController().signal);
      await expect(failure).rejects.toBeInstanceOf(IngestionFailure);
      await expect(failure).rejects.toThrow("The DOCX file is corrupt or unreadable.");
    } finally {
      unsubscribe("worker_threads", onWorker);
    }
  });
});
