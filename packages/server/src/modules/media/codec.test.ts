import { describe, expect, it } from "vitest";
import {
  decodeAudio,
  dtmfTones,
  muLawToPcm,
  pcmBytes,
  pcmToMuLaw,
  phoneBandLevel,
  readWav,
  resample,
  rms,
  wavFile,
} from "./codec.ts";
import { PHONE_FORMAT, WEB_FORMAT } from "./stream.ts";

function tone(frequency: number, rate: number, seconds: number, amplitude = 8000): Int16Array {
  const out = new Int16Array(Math.round(rate * seconds));
  for (let i = 0; i < out.length; i++)
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * frequency * i) / rate));
  return out;
}

describe("mu-law", () => {
  it("matches G.711 on known values and round-trips within its quantisation step", () => {
    expect(Array.from(pcmToMuLaw(Int16Array.from([0, -1, 32767, -32768])))).toEqual([0xff, 0x7f, 0x80, 0x00]);
    expect(Array.from(muLawToPcm(Uint8Array.from([0xff, 0x80, 0x00])))).toEqual([0, 32124, -32124]);
    const samples = tone(440, 8000, 0.05);
    const back = muLawToPcm(pcmToMuLaw(samples));
    for (let i = 0; i < samples.length; i++) {
      expect(Math.abs(back[i]! - samples[i]!)).toBeLessThanOrEqual(Math.abs(samples[i]!) / 16 + 8);
    }
  });
});

describe("resampling", () => {
  it("keeps a tone's level and length between 8, 16 and 24 kHz", () => {
    const at24k = tone(440, 24_000, 0.1);
    const at8k = resample(at24k, 24_000, 8000);
    expect(at8k.length).toBe(800);
    expect(Math.abs(rms(at8k) - rms(at24k))).toBeLessThan(rms(at24k) * 0.05);
    const at16k = resample(at8k, 8000, 16_000);
    expect(at16k.length).toBe(1600);
    expect(Math.abs(rms(at16k) - rms(at8k))).toBeLessThan(rms(at8k) * 0.05);
  });
});

describe("a frame's level at 8 kHz, read in place", () => {
  it("is the level of the frame decoded and resampled to 8 kHz, for a phone's and a browser's frames", () => {
    const heard = (format: typeof PHONE_FORMAT, bytes: Uint8Array) =>
      rms(resample(decodeAudio(format, bytes), format.sampleRate, 8000));
    for (const frequency of [300, 1200, 3400, 6000]) {
      const phone = pcmToMuLaw(tone(frequency, 8000, 0.02));
      expect(phoneBandLevel(PHONE_FORMAT, phone)).toBeCloseTo(heard(PHONE_FORMAT, phone), 6);
      // A frame of a browser's at an odd offset: the level reads bytes, not aligned 16-bit samples.
      const browser = pcmBytes(tone(frequency, 16_000, 0.02));
      const odd = new Uint8Array(browser.length + 1).fill(7);
      odd.set(browser, 1);
      expect(phoneBandLevel(WEB_FORMAT, odd.subarray(1))).toBeCloseTo(heard(WEB_FORMAT, browser), 6);
    }
    expect(phoneBandLevel(PHONE_FORMAT, new Uint8Array(0))).toBe(0);
  });
});

describe("WAV", () => {
  it("writes a file it (and any reader of RIFF) can read back", () => {
    const samples = tone(300, 16_000, 0.02);
    const file = wavFile(samples, 16_000);
    expect(file.toString("ascii", 0, 4)).toBe("RIFF");
    const read = readWav(file);
    expect(read?.sampleRate).toBe(16_000);
    expect(Array.from(read!.pcm)).toEqual(Array.from(samples));
    expect(readWav(Buffer.from("not a wav"))).toBeNull();
  });
});

/** Power of one frequency in 8 kHz samples (Goertzel), as a DTMF receiver measures it. */
function power(samples: Int16Array, frequency: number): number {
  const k = 2 * Math.cos((2 * Math.PI * frequency) / 8000);
  let [s1, s2] = [0, 0];
  for (const sample of samples) [s1, s2] = [sample + k * s1 - s2, s1];
  return s1 * s1 + s2 * s2 - k * s1 * s2;
}

describe("DTMF", () => {
  it("plays each key as its row and column tones for 100 ms, then 100 ms of silence, through mu-law", () => {
    const keys = "5#";
    const pcm = muLawToPcm(pcmToMuLaw(dtmfTones(keys)));
    expect(pcm.length).toBe(2 * 1600);
    const all = [697, 770, 852, 941, 1209, 1336, 1477, 1633];
    const expected = { "5": [770, 1336], "#": [941, 1477] } as const;
    [...keys].forEach((key, index) => {
      const tone = pcm.subarray(index * 1600, index * 1600 + 800);
      const strongest = [...all].sort((a, b) => power(tone, b) - power(tone, a)).slice(0, 2);
      expect(strongest.sort((a, b) => a - b)).toEqual(expected[key as keyof typeof expected]);
      expect(rms(pcm.subarray(index * 1600 + 800, (index + 1) * 1600))).toBe(0);
    });
  });
});
