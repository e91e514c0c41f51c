import { describe, expect, it } from "vitest";
import { type MediaStream, muLawToPcm, PHONE_FORMAT, pcmToMuLaw, rms } from "../media/index.ts";
import { type AmbientKind, AmbientStream, ambientBed, ambientKind } from "./ambient.ts";

const KINDS: AmbientKind[] = ["office", "cafe", "call_center", "street"];

/** A phone stream in memory: what the wrapped stream sends, and a way to play caller frames. */
function phone() {
  const sent: (Uint8Array | "clear")[] = [];
  let caller: (frame: Uint8Array) => void = () => {};
  const stream: MediaStream = {
    callId: 1,
    streamId: "memory",
    format: PHONE_FORMAT,
    onAudio: (listener) => {
      caller = listener;
    },
    onMark: () => {},
    onDtmf: () => {},
    onClose: () => {},
    sendAudio: (frame) => sent.push(frame),
    sendMark: () => {},
    clearAudio: () => sent.push("clear"),
    close: () => {},
  };
  return { stream, sent, play: (frame: Uint8Array) => caller(frame) };
}

const silentFrame = pcmToMuLaw(new Int16Array(160));
const audioOf = (frames: (Uint8Array | "clear")[]) =>
  muLawToPcm(Buffer.concat(frames.filter((frame): frame is Uint8Array => frame !== "clear")));

describe("ambient beds", () => {
  it("are synthesised per kind at the stream's rate, at one level, cached, and loop without a click", async () => {
    expect(ambientKind("none")).toBeNull();
    expect(ambientKind("cafe")).toBe("cafe");
    const seen = new Set<string>();
    for (const kind of KINDS) {
      for (const rate of [8000, 16_000]) {
        const bed = await ambientBed(kind, rate);
        expect(bed.length).toBe(8 * rate);
        expect(rms(bed)).toBeGreaterThan(1500);
        expect(rms(bed)).toBeLessThan(1700);
        expect(await ambientBed(kind, rate)).toBe(bed);
        // The jump from the last sample to the first is like any step inside the bed.
        let steepest = 0;
        for (let i = 1; i < bed.length; i++) steepest = Math.max(steepest, Math.abs(bed[i]! - bed[i - 1]!));
        expect(Math.abs(bed[0]! - bed.at(-1)!)).toBeLessThanOrEqual(steepest);
      }
      seen.add((await ambientBed(kind, 8000)).slice(0, 64).join());
    }
    expect(seen.size).toBe(KINDS.length);
  });
});

describe("AmbientStream", () => {
  it("fills the caller's clock with the bed at its volume and leaves the caller's audio alone", async () => {
    const levels: number[] = [];
    for (const volume of [1, 0.5]) {
      const { stream, sent, play } = phone();
      const heard: Uint8Array[] = [];
      new AmbientStream(stream, await ambientBed("office", 8000), volume).onAudio((frame) =>
        heard.push(frame),
      );
      for (let i = 0; i < 50; i++) play(silentFrame);
      expect(heard).toHaveLength(50);
      expect(heard.every((frame) => frame === silentFrame)).toBe(true);
      // From the end of the first caller frame (20 ms) to 40 ms ahead of the last (1040 ms).
      expect(sent).toHaveLength(51);
      levels.push(rms(audioOf(sent)));
    }
    // A second of an 8 s bed is near its level (RMS 1600), not exactly at it.
    expect(levels[0]).toBeGreaterThan(1000);
    expect(levels[0]! / levels[1]!).toBeCloseTo(2, 0);
  });

  it("mixes the bed under the assistant's audio, sends no bed while speech is queued, and resumes after a clear", async () => {
    const { stream, sent, play } = phone();
    const ambient = new AmbientStream(stream, await ambientBed("street", 8000), 0.5);
    ambient.onAudio(() => {});
    const voice = new Int16Array(160).fill(8000);
    // Half a second of speech sent at once (as a model's audio arrives), then the caller's clock runs.
    for (let i = 0; i < 25; i++) ambient.sendAudio(pcmToMuLaw(voice));
    for (let i = 0; i < 20; i++) play(silentFrame);
    expect(sent).toHaveLength(25);
    const mixed = audioOf(sent);
    expect(Math.abs(rms(mixed) - 8000)).toBeGreaterThan(50);
    expect(Math.abs(rms(mixed) - 8000)).toBeLessThan(1000);
    // Barge-in: what was queued is dropped, so the bed comes at once.
    ambient.clearAudio();
    play(silentFrame);
    expect(sent.slice(25, 26)).toEqual(["clear"]);
    expect(sent.length).toBeGreaterThan(26);
  });
});
