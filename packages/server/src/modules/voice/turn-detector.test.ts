import { describe, expect, it } from "vitest";
import { pcmBytes, pcmToMuLaw, WEB_FORMAT } from "../media/index.ts";
import { endpointMs, interruptMs, SilenceTurnDetector, type TurnDetector } from "./turn-detector.ts";
import { splitSentences } from "./utterance.ts";

/** 20 ms of a phone's mu-law at `level`. */
const frame = (level: number) =>
  pcmToMuLaw(new Int16Array(160).map((_, i) => (i % 2 === 0 ? level : -level)));

function feed(detector: TurnDetector, level: number, ms: number) {
  const events = [];
  for (let at = 0; at < ms; at += 20) {
    const event = detector.push(frame(level));
    if (event && event.type !== "voice") events.push(event.type);
  }
  return events;
}

describe("end of turn", () => {
  it("maps the sensitivities to waits: more sensitive is faster", () => {
    expect([endpointMs(0), endpointMs(0.5), endpointMs(1)]).toEqual([1200, 750, 300]);
    expect([interruptMs(0), interruptMs(0.5), interruptMs(1)]).toEqual([600, 375, 150]);
  });

  it("ignores clicks, starts on sustained voice and ends after the endpoint silence, with pre-roll", () => {
    const detector = new SilenceTurnDetector(300);
    expect(feed(detector, 4000, 40)).toEqual([]);
    expect(feed(detector, 0, 400)).toEqual([]);
    expect(feed(detector, 4000, 500)).toEqual(["speech-start"]);
    expect(feed(detector, 0, 280)).toEqual([]);
    const end = detector.push(frame(0));
    expect(end?.type).toBe("end-of-turn");
    if (end?.type !== "end-of-turn") return;
    // 200 ms before the start, the speech, and the silence that ended it.
    expect(end.audio.length / 8).toBeGreaterThanOrEqual(200 + 500 + 300 - 60);
    expect(end.speechEndMs).toBe(40 + 400 + 500);
  });
});

describe("a turn's audio", () => {
  it("is kept at the stream's rate (a browser's 16 kHz) while the decisions are taken on 8 kHz", () => {
    const detector = new SilenceTurnDetector(300, WEB_FORMAT);
    let end = null;
    for (let at = 0; at < 1000 && end?.type !== "end-of-turn"; at += 20) {
      const level = at >= 200 && at < 600 ? 4000 : 0;
      end = detector.push(pcmBytes(new Int16Array(320).fill(level)));
    }
    expect(end?.type).toBe("end-of-turn");
    if (end?.type !== "end-of-turn") return;
    // 200 ms of pre-roll before the voice was recognised (60 ms into it), to the end of the 300 ms of
    // silence that ended it: the span the 8 kHz audio would have, at twice the samples.
    expect(end.audio.length / 16).toBe(200 + 400 - 60 + 300);
    expect(end.audio.every((sample) => sample === 0 || sample === 4000)).toBe(true);
  });
});

describe("a detector that keeps no audio", () => {
  it("decides the same turns at the same times and holds no frame", () => {
    const script = [4000, 40, 0, 400, 4000, 500, 0, 400, 4000, 300, 0, 400];
    const run = (keepsAudio: boolean) => {
      const detector = new SilenceTurnDetector(300, undefined, keepsAudio);
      const ends: { at: number; speechEndMs: number; samples: number }[] = [];
      for (let index = 0; index < script.length; index += 2) {
        for (let at = 0; at < script[index + 1]!; at += 20) {
          const event = detector.push(frame(script[index]!));
          if (event?.type === "end-of-turn")
            ends.push({ at: detector.now, speechEndMs: event.speechEndMs, samples: event.audio.length });
        }
      }
      return { ends };
    };
    const keeping = run(true);
    const notKeeping = run(false);
    expect(notKeeping.ends.map(({ samples, ...end }) => end)).toEqual(
      keeping.ends.map(({ samples, ...end }) => end),
    );
    expect(keeping.ends).toHaveLength(2);
    expect(keeping.ends.every((end) => end.samples > 0)).toBe(true);
    expect(notKeeping.ends.every((end) => end.samples === 0)).toBe(true);
  });
});

describe("sentences", () => {
  it("cuts streamed text at sentence ends and keeps the unfinished rest", () => {
    expect(splitSentences("Hello there! How are")).toEqual({ sentences: ["Hello there!"], rest: "How are" });
    expect(splitSentences("Sure. It costs 3.50 dollars. ")).toEqual({
      sentences: ["Sure.", "It costs 3.50 dollars."],
      rest: "",
    });
    expect(splitSentences("No end yet")).toEqual({ sentences: [], rest: "No end yet" });
  });
});
