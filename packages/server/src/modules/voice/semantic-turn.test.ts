import { describe, expect, it } from "vitest";
import { looksUnfinished, semanticWaits } from "./semantic-turn.ts";

describe("semantic end of turn (pipeline mode)", () => {
  it("answers a finished sentence sooner than vad, and waits longer for an unfinished one, within bounds", () => {
    expect(semanticWaits(0.5)).toEqual({ settled: 375, unfinished: 1500 });
    expect(semanticWaits(1)).toEqual({ settled: 200, unfinished: 600 });
    expect(semanticWaits(0)).toEqual({ settled: 600, unfinished: 2400 });
  });

  it.each([
    ["I'd like to book a table.", false],
    ["Can you call me back tomorrow?", false],
    ["Yes!", false],
    ['He said "no."', false],
    ["", false],
    ["I'd like to book a table and", true],
    ["I'd like to book a table, um", true],
    ["My number is,", true],
    ["Let me think...", true],
    ["I was calling about the", true],
    ["Because.", false],
    ["I need it because", true],
    ["I need it before", true],
    ["so basically —", true],
    ["yes please", false],
    ["i want the blue one and", true],
    ["Sure. I want the blue one", true],
  ])("%j reads as unfinished: %s", (text, unfinished) => {
    expect(looksUnfinished(text)).toBe(unfinished);
  });
});
