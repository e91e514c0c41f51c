import type { Worker } from "node:worker_threads";
import { decode, encode } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import {
  type Chunk,
  type ChunkWorkerRuntime,
  chunkSections,
  chunkStream,
  DEFAULT_CHUNKING,
  SEGMENT_CHARS,
  type Tokenizer,
} from "./chunking.ts";
import { refusal, type Section } from "./extract.ts";
import { IngestionFailure } from "./failure.ts";

const sections: Section[] = Array.from({ length: 40 }, (_, page) => ({
  source: `page ${page + 1}`,
  text: Array.from(
    { length: 60 },
    (_, sentence) =>
      `Page ${page + 1} sentence ${sentence + 1} explains how refunds reach the card within five days.`,
  ).join(" "),
}));

async function chunkInTurns(input: Section[], signal: AbortSignal): Promise<Chunk[]> {
  const chunks: Chunk[] = [];
  for await (const chunk of chunkStream(input, signal)) chunks.push(chunk);
  return chunks;
}

describe("chunking in turns", () => {
  it("cuts the same passages, with their pages, as chunking in one go", async () => {
    const expected = chunkSections(sections);
    const chunks = await chunkInTurns(sections, new AbortController().signal);
    expect(expected.length).toBeGreaterThan(sections.length);
    expect(chunks).toEqual(expected);
    expect(new Set(chunks.map((chunk) => chunk.source)).size).toBe(sections.length);
  });

  it("cuts a section's passages as soon as it arrives, before the next section exists", async () => {
    let releaseSecond!: () => void;
    const secondAsked = new Promise<void>((resolve) => {
      releaseSecond = resolve;
    });
    let secondGiven = false;
    async function* arriving(): AsyncGenerator<Section> {
      yield sections[0]!;
      await secondAsked;
      secondGiven = true;
      yield sections[1]!;
    }
    const stream = chunkStream(arriving(), new AbortController().signal);
    const first = await stream.next();
    expect(first.value).toMatchObject({ source: "page 1" });
    expect(secondGiven).toBe(false);
    releaseSecond();
    const rest: Chunk[] = [];
    for await (const chunk of stream) rest.push(chunk);
    expect([first.value, ...rest]).toEqual(chunkSections(sections.slice(0, 2)));
  });

  it("stops with the abort reason when processing is cancelled", async () => {
    const controller = new AbortController();
    const reason = new Error("the server is stopping");
    controller.abort(reason);
    await expect(chunkInTurns(sections, controller.signal)).rejects.toBe(reason);
  });
});

describe("the chunk worker's lifecycle", () => {
  async function cut(input: Section[], runtime: ChunkWorkerRuntime = {}) {
    const chunks: Chunk[] = [];
    for await (const chunk of chunkStream(input, new AbortController().signal, DEFAULT_CHUNKING, runtime))
      chunks.push(chunk);
    return chunks;
  }
  const exited = (worker: Worker) =>
    worker.threadId === -1 ? Promise.resolve() : new Promise((resolve) => worker.once("exit", resolve));

  it("keeps its thread for the next document, ends it once idle, and the next document starts another", async () => {
    const workers: Worker[] = [];
    // An entry of this test's own, so that no worker kept by another test is taken.
    const runtime = {
      entry: new URL("./chunk-worker.mjs?lifecycle", import.meta.url),
      idleMs: 300,
      started: (worker: Worker) => workers.push(worker),
    };
    expect(await cut(sections.slice(0, 3), runtime)).toEqual(chunkSections(sections.slice(0, 3)));
    expect(workers).toHaveLength(1);
    expect(await cut(sections.slice(3, 5), runtime)).toEqual(chunkSections(sections.slice(3, 5)));
    expect(workers).toHaveLength(1);
    await exited(workers[0]!);
    // A terminated thread's id is -1.
    expect(workers[0]!.threadId).toBe(-1);
    expect(await cut(sections.slice(5, 6), runtime)).toEqual(chunkSections(sections.slice(5, 6)));
    expect(workers).toHaveLength(2);
    await exited(workers[1]!);
  });

  it("ends its thread at once when the reader stops part-way", async () => {
    const workers: Worker[] = [];
    const stream = chunkStream(sections, new AbortController().signal, DEFAULT_CHUNKING, {
      entry: new URL("./chunk-worker.mjs?stopped", import.meta.url),
      started: (worker) => workers.push(worker),
    });
    expect((await stream.next()).value).toMatchObject({ source: "page 1" });
    await stream.return(undefined);
    expect(workers[0]!.threadId).toBe(-1);
  });

  it("fails with a reason when its thread crashes, and the next document is cut as before", async () => {
    const crashing = new URL(`data:text/javascript,${encodeURIComponent("throw new Error('crashed');")}`);
    const failure = await cut(sections.slice(0, 2), { entry: crashing }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(IngestionFailure);
    expect((failure as Error).message).toMatch(/could not be cut into passages/);
    const exiting = new URL(`data:text/javascript,${encodeURIComponent("process.exit(3);")}`);
    await expect(cut(sections.slice(0, 2), { entry: exiting })).rejects.toBeInstanceOf(IngestionFailure);
    expect(await cut(sections.slice(0, 2))).toEqual(chunkSections(sections.slice(0, 2)));
  });

  it("refuses a document whose cutting runs out of the thread's heap", async () => {
    // The tokenizer's tables alone take ~60 MB of heap.
    await expect(cut(sections.slice(0, 1), { heap: { maxOldGenerationSizeMb: 8 } })).rejects.toThrow(
      new IngestionFailure(refusal("memory")),
    );
  });
});

/** Pseudo-random lowercase letters: no two segments alike, so the tokenizer's cache cannot help. */
function randomLetters(length: number, seed = 1): string {
  let state = seed;
  let text = "";
  for (let index = 0; index < length; index++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    text += String.fromCharCode(97 + ((state >>> 16) % 26));
  }
  return text;
}

const adversarial: Record<string, (size: number) => string> = {
  "one letter": (size) => "a".repeat(size),
  "random letters without spaces": (size) => randomLetters(size),
  "a line of punctuation": (size) => "-=+*#~".repeat(size / 6),
  "sentence ends only": (size) => ".".repeat(size),
  "newlines only": (size) => "\n".repeat(size),
  "blank lines with spaces": (size) => " \n \t\n".repeat(size / 5),
  "CJK without spaces": (size) => "東京都の図書館は毎日開館".repeat(size / 12),
  "emoji without spaces": (size) => "🙂🚀👍🏽".repeat(size / 8),
  "huge words between spaces": (size) => `${"x".repeat(size / 2 - 1)} ${"y".repeat(size / 2)}`,
};

/** The real tokenizer, counting what it is given. */
function countingTokenizer() {
  const calls = { count: 0, chars: 0, longest: 0 };
  const tokenizer: Tokenizer = {
    encode(text) {
      calls.count++;
      calls.chars += text.length;
      calls.longest = Math.max(calls.longest, text.length);
      return encode(text);
    },
    decode,
  };
  return { tokenizer, calls };
}

describe("chunking adversarial text", () => {
  it.each(Object.entries(adversarial))(
    "tokenises %s in bounded pieces, in work linear in its size, into bounded passages",
    (_, make) => {
      const work = (size: number) => {
        const { tokenizer, calls } = countingTokenizer();
        const text = make(size);
        const chunks = chunkSections([{ source: null, text }], { ...DEFAULT_CHUNKING, tokenizer });
        return { text, chunks, calls };
      };
      const small = work(24_000);
      const large = work(240_000);
      for (const { text, chunks, calls } of [small, large]) {
        // Each call is bounded, so its quadratic merging costs a constant; the text is read about once.
        expect(calls.longest).toBeLessThanOrEqual(SEGMENT_CHARS);
        expect(calls.chars).toBeLessThanOrEqual(text.length);
        if (text.trim()) expect(calls.chars).toBeGreaterThan(text.length / 2);
        for (const chunk of chunks) {
          expect(chunk.tokenCount).toBeLessThanOrEqual(DEFAULT_CHUNKING.maxTokens);
          expect(chunk.content.length).toBeLessThanOrEqual(DEFAULT_CHUNKING.maxTokens * SEGMENT_CHARS);
        }
      }
      expect(large.calls.count).toBeLessThanOrEqual(small.calls.count * 10 + 10);
      expect(large.chunks.length).toBeLessThanOrEqual(small.chunks.length * 10 + 10);
    },
  );

  it("keeps text that has no spaces readable: no character is cut in half", () => {
    const text = "図書館🙂".repeat(2_000);
    const chunks = chunkSections([{ source: null, text }]);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) expect(chunk.content).not.toContain("\ufffd");
    expect(chunks.map((chunk) => chunk.content).join("")).toBe(text);
  });

  it("lets timers run while a large adversarial section is chunked, and stops on abort", async () => {
    const section: Section = { source: null, text: randomLetters(400_000, 7) };
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 1);
    const controller = new AbortController();
    const reason = new Error("the document took too long");
    const chunking = chunkInTurns([section], controller.signal);
    // The abort can only be seen if the chunking gives the event loop a turn.
    setTimeout(() => controller.abort(reason), 5);
    await expect(chunking).rejects.toBe(reason);
    clearInterval(ticker);
    expect(ticks).toBeGreaterThan(0);
  });
});
