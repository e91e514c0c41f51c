import { describe, expect, it } from "vitest";
import { chunkSections, chunkSectionsInTurns } from "./chunking.ts";
import type { Section } from "./extract.ts";

const sections: Section[] = Array.from({ length: 40 }, (_, page) => ({
  source: `page ${page + 1}`,
  text: Array.from(
    { length: 60 },
    (_, sentence) =>
      `Page ${page + 1} sentence ${sentence + 1} explains how refunds reach the card within five days.`,
  ).join(" "),
}));

describe("chunking in turns", () => {
  it("cuts the same passages, with their pages, as chunking in one go", async () => {
    const expected = chunkSections(sections);
    const chunks = await chunkSectionsInTurns(sections, new AbortController().signal);
    expect(expected.length).toBeGreaterThan(sections.length);
    expect(chunks).toEqual(expected);
    expect(new Set(chunks.map((chunk) => chunk.source)).size).toBe(sections.length);
  });

  it("stops with the abort reason when processing is cancelled", async () => {
    const controller = new AbortController();
    const reason = new Error("the server is stopping");
    controller.abort(reason);
    await expect(chunkSectionsInTurns(sections, controller.signal)).rejects.toBe(reason);
  });
});
