import { describe, expect, it } from "vitest";
import { countTokens } from "../../tokenizer.ts";
import {
  buildSystemPrompt,
  exactHistoryWindow,
  HISTORY_MAX_MESSAGES,
  HISTORY_MAX_TOKENS,
  type HistoryMessage,
  historyWindow,
} from "./prompt.ts";

/** The window by exact counts of every message, as it was computed before the bound. */
const exactWindow = (history: readonly HistoryMessage[]) => exactHistoryWindow(history);

function conversation(count: number, text: (index: number) => string): HistoryMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    role: index % 2 === 0 ? "user" : "assistant",
    content: text(index),
  }));
}

/** A counter that records whether the exact count ran. */
function watchedCount() {
  const counted: string[] = [];
  return {
    counted,
    count: (text: string) => {
      counted.push(text);
      return countTokens(text);
    },
  };
}

const sentence = (index: number) =>
  `Message ${index}: could you tell me how long request type ${index * 7} about billing takes? `;

describe("historyWindow", () => {
  it("keeps a history that fits by its byte bound without counting tokens", () => {
    const history = conversation(40, sentence);
    const { counted, count } = watchedCount();
    const window = historyWindow(history, count);
    expect(window).toEqual(history.slice(-HISTORY_MAX_MESSAGES));
    expect(window).toEqual(exactWindow(history));
    expect(counted).toEqual([]);
  });

  it("trims a history over the budget exactly as the exact count does", () => {
    // 60 bytes a repetition, about 13 tokens: only the newest ~12 messages fit 3000 tokens.
    const history = conversation(25, (index) => sentence(index).repeat(18));
    const { counted, count } = watchedCount();
    const window = historyWindow(history, count);
    expect(window).toEqual(exactWindow(history));
    expect(window.length).toBeGreaterThan(1);
    expect(window.length).toBeLessThan(25);
    expect(window.at(-1)).toBe(history.at(-1));
    expect(counted.length).toBeGreaterThan(0);
  });

  it("keeps everything when only the bound exceeds the budget (multi-byte text)", () => {
    // Three bytes a character, about one token per character or fewer: the bound is about three times the count.
    const history = conversation(20, (index) => `${index} ${"日本語の文章です。".repeat(12)}`);
    const window = historyWindow(history);
    expect(window).toEqual(exactWindow(history));
    expect(window).toEqual(history);
  });

  it("cuts a newest message that alone exceeds the budget", () => {
    const history = conversation(3, (index) => (index === 2 ? "word ".repeat(4000) : sentence(index)));
    const window = historyWindow(history);
    expect(window).toEqual(exactWindow(history));
    expect(window).toEqual([{ role: "user", content: history[2]!.content.slice(0, HISTORY_MAX_TOKENS * 3) }]);
  });

  it("counts special-token spellings as text instead of failing", () => {
    const history = conversation(30, (index) => `${sentence(index).repeat(9)} <|endoftext|>`);
    expect(() => historyWindow(history)).not.toThrow();
    expect(historyWindow(history)).toEqual(exactWindow(history));
  });
});

describe("buildSystemPrompt", () => {
  const base = {
    systemPrompt: "You are the front desk of {{clinic}}.",
    variables: { clinic: "Northside Dental" },
    timezone: "Europe/Berlin",
    now: new Date("2027-03-01T08:00:00Z"),
    passages: [],
    knowledgeTool: false,
  };

  it("asks for a short plain-text reply only when the reply goes out as a text message", () => {
    const chat = buildSystemPrompt(base);
    const sms = buildSystemPrompt({ ...base, medium: "sms" });
    expect(chat).toContain("You are the front desk of Northside Dental.");
    expect(chat).not.toMatch(/SMS/);
    expect(sms.startsWith(chat.split("\n\n")[0]!)).toBe(true);
    expect(sms).toContain("This conversation is by SMS text message.");
  });
});
