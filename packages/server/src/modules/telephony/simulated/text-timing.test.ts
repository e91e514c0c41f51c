import { afterEach, describe, expect, it, vi } from "vitest";
import { SESSION_SETTINGS } from "../../../../test/support/session-settings.ts";
import { passLineTime as pass, textCall } from "../../../../test/support/text-calls.ts";
import { createLogger } from "../../../logger.ts";
import { TextMediaStream } from "../../media/index.ts";
import type { ReplyEngine } from "../../message-pipeline/index.ts";
import { PipelineSession } from "../../voice/pipeline-session.ts";
import type { PipelinePorts, SessionTurn } from "../../voice/session-ports.ts";
import type { TranscriptLine } from "../provider.ts";
import { SCRIPTED_CALLEE_LINES, SimulatedCallee } from "./callee.ts";
import { IMPATIENT_AFTER_WORDS, SimulatedLine } from "./line.ts";

const LONG_ANSWER = "Our panels are made in Europe and they come with a twenty year warranty.";

/** Answers every turn with `text`, at once. */
const answerWith =
  (text: string): PipelinePorts["reply"] =>
  async (_history, onDelta) => {
    onDelta(text);
    return { text, endCall: false };
  };

afterEach(() => {
  vi.useRealTimers();
});

describe("speech timing on simulated (text) calls", () => {
  it("plays the assistant's words at 150 words a minute × speech_speed, its marks coming back word by word", async () => {
    const { stream, turns } = textCall(
      { initialMessage: "One two three four five six.", speechSpeed: 2 },
      answerWith(""),
    );
    // Line time of each word heard and of each mark back: the frames the stream has played so far.
    let frames = 0;
    const heardAt: number[] = [];
    const marksAt: number[] = [];
    stream.onAudio(() => {
      frames += 1;
    });
    stream.onAssistant(() => heardAt.push((frames + 1) * 20));
    stream.onMark(() => marksAt.push((frames + 1) * 20));
    await pass(stream, 1000);
    // 200 ms a word at speech_speed 2: five words by 1 s, the sixth still playing.
    expect(heardAt).toEqual([200, 400, 600, 800, 1000]);
    expect(marksAt).toEqual(heardAt);
    expect(turns).toEqual([]);
    await pass(stream, 200);
    expect(heardAt).toHaveLength(6);
    expect(turns).toMatchObject([
      { speaker: "assistant", heardText: "One two three four five six.", startMs: 0, endMs: 1200 },
    ]);
  });

  it("lets a filler be heard for its duration while a function runs", async () => {
    let toolDone!: () => void;
    const { stream, heard, turns } = textCall(
      { fillers: ["One moment, please."] },
      async (_history, onDelta, _signal, functions) => {
        functions.onFunctionCall("book");
        await new Promise<void>((resolve) => {
          toolDone = resolve;
        });
        onDelta("Done, it is booked.");
        return { text: "Done, it is booked.", endCall: false };
      },
    );
    // The line time (frames played) at which each word was heard.
    let lineMs = 0;
    stream.onAudio(() => {
      lineMs += 20;
    });
    const heardAt: number[] = [];
    stream.onAssistant(() => heardAt.push(lineMs + 20));
    stream.say("Book it.");
    await pass(stream, 800);
    await pass(stream, 800);
    // 800 ms into the answer: two of the filler's three words (400 ms each) were heard.
    expect(heard()).toBe("One moment,");
    await pass(stream, 2000);
    expect(heard()).toBe("One moment, please.");
    toolDone();
    await pass(stream, 1600);
    expect(heard()).toBe("One moment, please. Done, it is booked.");
    const answer = turns.find((turn) => turn.speaker === "assistant")!;
    expect(answer).toMatchObject({
      heardText: "One moment, please. Done, it is booked.",
      interrupted: false,
    });
    // The turn ends with its last word played, not with the filler's (the third word heard).
    expect(heardAt).toHaveLength(7);
    expect(answer.endMs).toBe(heardAt.at(-1));
    expect(answer.endMs).toBeGreaterThan(heardAt[2]!);
  });

  it("barges in when the caller talks over the assistant with min_interrupt_words, not on a backchannel", async () => {
    const { stream, heard, turns } = textCall(
      { initialMessage: LONG_ANSWER, minInterruptWords: 3 },
      answerWith("Sure."),
    );
    await pass(stream, 800);
    stream.say("Mhm.");
    await pass(stream, 800);
    expect(turns).toEqual([]);
    stream.say("Wait, what about installation?");
    await pass(stream, 1600 + 400 + 400);
    const greeting = turns[0]!;
    expect(greeting.interrupted).toBe(true);
    // Cut after the caller's third word (1.2 s into their turn): the words played until then.
    const words = LONG_ANSWER.split(" ");
    expect(greeting.heardText).toBe(words.slice(0, 7).join(" "));
    expect(heard().startsWith(greeting.heardText)).toBe(true);
    // "Mhm." is still a turn: its answer starts once the greeting is cut, while the caller is still
    // talking, and is cut before a word of it was played.
    expect(turns.map((turn) => [turn.speaker, turn.text, turn.heardText])).toEqual([
      ["assistant", LONG_ANSWER, greeting.heardText],
      ["customer", "Mhm.", "Mhm."],
      ["assistant", "Sure.", ""],
      ["customer", "Wait, what about installation?", "Wait, what about installation?"],
      ["assistant", "Sure.", "Sure."],
    ]);
  });

  it("an impatient person talks over the assistant: the engine barges in and keeps the words the person heard", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const stream = new TextMediaStream(10, "text-10");
    const turns: SessionTurn[] = [];
    const callee = new SimulatedCallee({ modelConfigured: false } as ReplyEngine);
    const conversations: TranscriptLine[][] = [];
    const line = vi.spyOn(callee, "line").mockImplementation(async (_call, conversation, turn) => {
      conversations.push(conversation);
      return {
        text: SCRIPTED_CALLEE_LINES[Math.min(turn, SCRIPTED_CALLEE_LINES.length) - 1]!,
        last: turn >= SCRIPTED_CALLEE_LINES.length,
      };
    });
    const hungUp = new Promise<void>((resolve) => {
      new SimulatedLine(stream, {
        callee,
        call: { accountId: 1, inbound: false, variables: {} },
        farEnd: "person",
        interruptAfterWords: IMPATIENT_AFTER_WORDS,
        clockSpeed: 1,
        logger: createLogger("silent"),
        hangUp: resolve,
      }).start();
    });
    new PipelineSession(stream, SESSION_SETTINGS, {
      logger: createLogger("silent"),
      transcribe: () => Promise.reject(new Error("no audio")),
      synthesize: () => Promise.reject(new Error("no audio")),
      turn: async (turn) => {
        turns.push(turn);
      },
      hangUp: async () => {},
      callerLeft: async () => {},
      reply: answerWith(LONG_ANSWER),
    }).start();
    // Line time on the fake clock: the person's hello, three interrupted answers, the last answer heard whole.
    for (let step = 0; step < 60 && line.mock.calls.length < 3; step++)
      await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(15_000);
    await hungUp;

    expect(turns.map((turn) => [turn.speaker, turn.interrupted])).toEqual([
      ["customer", false],
      ["assistant", true],
      ["customer", false],
      ["assistant", true],
      ["customer", false],
      ["assistant", false],
    ]);
    const [, firstAnswer, , secondAnswer, , lastAnswer] = turns;
    for (const cut of [firstAnswer!, secondAnswer!]) {
      expect(cut.text).toBe(LONG_ANSWER);
      // At least the words the person waited for, and not the whole answer.
      const heardWords = cut.heardText.split(" ").length;
      expect(heardWords).toBeGreaterThanOrEqual(IMPATIENT_AFTER_WORDS);
      expect(heardWords).toBeLessThan(LONG_ANSWER.split(" ").length);
      expect(LONG_ANSWER.startsWith(cut.heardText)).toBe(true);
    }
    // What the engine stored as heard is what the person heard before talking over it.
    expect(conversations[1]!.at(-1)).toEqual({
      speaker: "assistant",
      text: firstAnswer!.heardText.split(" ").slice(0, IMPATIENT_AFTER_WORDS).join(" "),
    });
    // Saying goodbye, the person waits for the answer: heard whole.
    expect(lastAnswer!.heardText).toBe(LONG_ANSWER);
  });
});
