import { describe, expect, it } from "vitest";
import { dtmfTones, muLawToPcm, pcmToMuLaw, readWav, resample, rms, wavFile } from "./codec.ts";

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
