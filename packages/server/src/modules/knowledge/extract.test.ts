import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";
import { describe, expect, it } from "vitest";
import { makePdf } from "../../../test/fixtures/knowledge.ts";
import { extractPdf } from "./extract.ts";

/** Runs `work` while a 5 ms interval ticks, and returns the longest the interval was kept waiting. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  return Math.max(longest, performance.now() - last);
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

async function extractOnThisThread(content: Uint8Array): Promise<void> {
  const pdf = await getDocument({ data: content, isEvalSupported: false, verbosity: 0 }).promise;
  for (let pageNumber = 1; pageNumber <= pdf.numPages; pageNumber++) {
    await (await pdf.getPage(pageNumber)).getTextContent();
  }
  await pdf.destroy();
}

describe("extractPdf", () => {
  it("keeps the event loop responsive while a long PDF is parsed, unlike pdf.js on the same thread", async () => {
    const pdf = await makePdf(densePages(40));

    const onThisThread = await longestStall(() => extractOnThisThread(pdf.slice()));
    const progress: [number, number][] = [];
    const content = pdf.slice();
    let sections: Awaited<ReturnType<typeof extractPdf>> = [];
    const inWorker = await longestStall(async () => {
      sections = await extractPdf(
        content,
        async (done, total) => {
          progress.push([done, total]);
        },
        new AbortController().signal,
      );
    });

    expect(sections).toHaveLength(40);
    expect(sections[39]).toMatchObject({ source: "page 40" });
    expect(sections[39]!.text).toContain("Page 40 line 40: the quick brown fox jumps");
    expect(progress.at(-1)).toEqual([40, 40]);
    // Handed over to the worker, not copied.
    expect(content.byteLength).toBe(0);
    expect(inWorker).toBeLessThan(onThisThread / 3);
  });

  it("stops the worker when the extraction is aborted", async () => {
    const pdf = await makePdf(densePages(40));
    const controller = new AbortController();
    const reason = new Error("cancelled by the test");
    let pagesSeen = 0;
    const extraction = extractPdf(
      pdf,
      async (done) => {
        pagesSeen = done;
        if (done === 2) controller.abort(reason);
      },
      controller.signal,
    );
    await expect(extraction).rejects.toBe(reason);
    const seenAtAbort = pagesSeen;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(seenAtAbort).toBeLessThan(40);
    expect(pagesSeen).toBe(seenAtAbort);
  });
});
