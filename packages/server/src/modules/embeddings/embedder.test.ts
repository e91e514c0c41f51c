import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { fakeEmbedding, startFakeOpenAI } from "../../../test/support/fake-openai.ts";
import { LocalHashEmbedder, nonAsciiWords, OpenAIEmbedder, toVectorArrayBinary, words } from "./embedder.ts";

/**
 * The offline embedder as first written (features built as strings, summed in a map): stored passages
 * and questions must keep meeting in the same space, so the faster one must give the same vectors.
 */
function referenceEmbedding(text: string): number[] {
  const stopWords = new Set(
    "a an and are as at be by can do does for from how i in is it of on or the this to was what when where which who why will with you your".split(
      " ",
    ),
  );
  const fnv1a = (feature: string) => {
    let hash = 0x811c9dc5;
    for (let index = 0; index < feature.length; index++) {
      hash ^= feature.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
    return hash >>> 0;
  };
  const counts = new Map<number, number>();
  const add = (feature: string, weight: number) => {
    const hash = fnv1a(feature);
    const sign = hash >>> 31 === 0 ? 1 : -1;
    counts.set(hash % 384, (counts.get(hash % 384) ?? 0) + sign * weight);
  };
  for (const word of words(text)) {
    if (stopWords.has(word)) continue;
    add(`w:${word}`, 1);
    const padded = `^${word}$`;
    for (let index = 0; index + 3 <= padded.length; index++) add(`t:${padded.slice(index, index + 3)}`, 0.25);
  }
  const vector = new Array<number>(384).fill(0);
  for (const [bucket, value] of counts) vector[bucket] = Math.sign(value) * Math.log1p(Math.abs(value));
  const norm = Math.hypot(...vector);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

const TEXTS = [
  "",
  "the and of",
  "a",
  "How do I reset my password? Open Settings, then Security.",
  "Voxgate routes calls: 3 assistants, 12 numbers, 2024-05-01 at 09:30 UTC.",
  "Überweisung für Müller — straße, ﬁnance (ligature) and ＦＵＬＬＷＩＤＴＨ letters",
  "東京の天気は晴れです。明日は雨が降るでしょう。",
  "emoji 🎉 party 👩‍💻 coder, surrogate pairs 𝒳𝒴𝒵 and x",
  "Ελληνικά κείμενα και русский текст рядом с English words",
  `${"lorem ipsum dolor sit amet ".repeat(60)}consectetur`,
];

describe("LocalHashEmbedder", () => {
  it("gives exactly the vectors of the string-and-map implementation", () => {
    const embedder = new LocalHashEmbedder();
    for (const text of TEXTS) expect(embedder.embedOne(text), text).toEqual(referenceEmbedding(text));
  });

  it("finds the words outside ASCII, and none in ASCII text", () => {
    expect(nonAsciiWords("Plain ASCII text, with punctuation!")).toEqual([]);
    expect(nonAsciiWords("Müller and ﬁnance in Москва, Müller again")).toEqual(["müller", "москва"]);
  });
});

describe("toVectorArrayBinary", () => {
  // The database's reading of it is checked by the ingestion tests (stored vectors equal the embedder's).
  it("writes a one-dimensional array of the given element type, with values pgvector accepts", () => {
    const buffer = toVectorArrayBinary(
      [
        [0.5, Number.NaN, -2],
        [Number.POSITIVE_INFINITY, 1, 0],
      ],
      16_385,
    );
    const header = [0, 4, 8, 12, 16].map((offset) => buffer.readInt32BE(offset));
    expect(header).toEqual([1, 0, 16_385, 2, 1]);
    const elements: number[][] = [];
    for (let offset = 20; offset < buffer.length; ) {
      const length = buffer.readInt32BE(offset);
      const dimensions = buffer.readInt16BE(offset + 4);
      expect(length).toBe(4 + 4 * dimensions);
      elements.push(
        Array.from({ length: dimensions }, (_, index) => buffer.readFloatBE(offset + 8 + 4 * index)),
      );
      offset += 4 + length;
    }
    // pgvector refuses non-finite values: they are stored as 0, as the text form does.
    expect(elements).toEqual([
      [0.5, 0, -2],
      [0, 1, 0],
    ]);
  });
});

describe("OpenAIEmbedder", () => {
  it("asks for base64 and decodes the float32s, in the order of the inputs", async () => {
    const fake = await startFakeOpenAI();
    try {
      const embedder = new OpenAIEmbedder({
        apiKey: "sk-test",
        baseUrl: fake.baseUrl,
        model: "m",
        dimensions: 64,
      });
      const texts = ["opening hours on saturday", "refunds to the card", "engraved items"];
      const vectors = await embedder.embed(texts);
      expect(vectors).toEqual(texts.map((text) => fakeEmbedding(text, 64).map(Math.fround)));
    } finally {
      await fake.close();
    }
  });

  it("takes arrays of numbers from a compatible server that ignores the encoding asked for", async () => {
    const vector = [0.5, -0.25, 0.125, 1 / 3];
    const server = await scripted(
      [
        (response) => {
          response.setHeader("content-type", "application/json");
          response.end(
            JSON.stringify({ object: "list", data: [{ object: "embedding", index: 0, embedding: vector }] }),
          );
        },
      ],
      4,
    );
    try {
      expect(await server.embedder.embed(["anything"])).toEqual([vector]);
    } finally {
      await server.close();
    }
  });
});

/** An embedder against a server that answers each request with the next handler, counting them. */
async function scripted(handlers: ((response: ServerResponse) => void)[], dimensions = 2) {
  let requests = 0;
  const server = createServer((request, response) => {
    requests++;
    request.resume();
    request.on("end", () => (handlers.shift() ?? ((r) => r.destroy()))(response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const embedder = new OpenAIEmbedder({
    apiKey: "sk-test",
    baseUrl: `http://127.0.0.1:${port}/v1`,
    model: "m",
    dimensions,
  });
  return {
    embedder,
    requests: () => requests,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("OpenAIEmbedder against a scripted server", () => {
  const answer = (response: ServerResponse) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ data: [{ index: 0, embedding: [0.6, 0.8] }] }));
  };

  it("retries a 503 after the Retry-After asked for, and keeps a 400's message without retrying", async () => {
    const server = await scripted([
      (response) => {
        response.writeHead(503, { "content-type": "application/json", "retry-after-ms": "10" });
        response.end(JSON.stringify({ error: { message: "busy" } }));
      },
      answer,
      (response) => {
        response.writeHead(400, { "content-type": "application/json" });
        response.end(JSON.stringify({ error: { message: "dimensions not supported" } }));
      },
    ]);
    try {
      expect(await server.embedder.embed(["a"])).toEqual([[0.6, 0.8]]);
      expect(server.requests()).toBe(2);
      await expect(server.embedder.embed(["b"])).rejects.toMatchObject({
        reason: "status",
        status: 400,
        detail: "dimensions not supported",
      });
      expect(server.requests()).toBe(3);
    } finally {
      await server.close();
    }
  });

  it("stops when its signal is aborted, and refuses an answer without embeddings", async () => {
    const server = await scripted([
      (response) => {
        response.setHeader("content-type", "application/json");
        response.end(JSON.stringify({ object: "list" }));
      },
      () => {
        // No answer: only the signal ends this call.
      },
    ]);
    try {
      await expect(server.embedder.embed(["a"])).rejects.toMatchObject({ reason: "protocol" });
      const controller = new AbortController();
      const call = server.embedder.embed(["b"], controller.signal);
      await expect.poll(server.requests).toBe(2);
      controller.abort(new Error("document deleted"));
      await expect(call).rejects.toThrow("document deleted");
    } finally {
      await server.close();
    }
  });
});
