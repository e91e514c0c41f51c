import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { muLawToPcm, pcmToMuLaw, readWav, rms } from "../../src/modules/media/index.ts";

/**
 * Real speech for call tests: Debian's `espeak-ng` says a sentence and `sox` makes it the rate a
 * stream carries (8 kHz for a phone line, 16 kHz for a browser's microphone file). Made at test
 * time and cached by content in a temp folder, so a run says each sentence once.
 */

/** The energy per 20 ms frame the speech fakes count as voice (`tone-listener.ts`). */
export const VOICE_LEVEL = 500;

export interface EspeakSpeech {
  /** The WAV file (mono 16-bit at `sampleRate`). */
  path: string;
  sampleRate: number;
  pcm: Int16Array;
  /** 20 ms frames at or above `VOICE_LEVEL`, in ms: what a listener that gets all of it counts as voiced. */
  voicedMs: number;
  /** The first and last voiced frame's bounds, ms from the file's start. */
  speechStartMs: number;
  speechEndMs: number;
}

/** Why speech cannot be made here (espeak-ng or sox missing), or null. */
export function espeakMissing(): string | null {
  for (const tool of ["espeak-ng", "sox"]) {
    try {
      execFileSync(tool, ["--version"], { stdio: "ignore" });
    } catch {
      return `${tool} is not installed (.ci/install-services.sh installs it)`;
    }
  }
  return null;
}

const cacheDir = join(tmpdir(), "voxgate-espeak-cache");

/**
 * `text` said by `voice`, at `sampleRate`. `phone` passes it through mu-law as a phone line does,
 * so its voiced frames are measured on what a carrier delivers.
 */
export function espeak(
  text: string,
  options: { voice?: string; sampleRate: number; phone?: boolean },
): EspeakSpeech {
  const voice = options.voice ?? "en-us";
  const key = createHash("sha256")
    .update(`${voice}\n${options.sampleRate}\n${text}`)
    .digest("hex")
    .slice(0, 16);
  mkdirSync(cacheDir, { recursive: true });
  const path = join(cacheDir, `${key}.wav`);
  if (!existsSync(path)) {
    const raw = join(cacheDir, `${key}.${process.pid}.raw.wav`);
    const made = join(cacheDir, `${key}.${process.pid}.wav`);
    execFileSync("espeak-ng", ["-v", voice, "-w", raw, text]);
    execFileSync("sox", [raw, "-r", String(options.sampleRate), "-c", "1", "-b", "16", made]);
    // A rename is atomic: a concurrent worker never reads a half-written file.
    renameSync(made, path);
    rmSync(raw, { force: true });
  }
  const parsed = readWav(readFileSync(path));
  if (!parsed || parsed.sampleRate !== options.sampleRate) throw new Error(`unreadable WAV ${path}`);
  const pcm = options.phone ? muLawToPcm(pcmToMuLaw(parsed.pcm)) : parsed.pcm;
  return { path, sampleRate: options.sampleRate, pcm, ...voicedSpan(pcm, options.sampleRate) };
}

/** Voiced ms and the bounds of the voice, measured per 20 ms frame as the speech fakes do. */
export function voicedSpan(
  pcm: Int16Array,
  sampleRate: number,
): { voicedMs: number; speechStartMs: number; speechEndMs: number } {
  const frame = sampleRate / 50;
  let voiced = 0;
  let first = -1;
  let last = -1;
  for (let index = 0; index * frame < pcm.length; index++) {
    if (rms(pcm.subarray(index * frame, (index + 1) * frame)) < VOICE_LEVEL) continue;
    voiced++;
    if (first < 0) first = index;
    last = index;
  }
  return { voicedMs: voiced * 20, speechStartMs: Math.max(0, first) * 20, speechEndMs: (last + 1) * 20 };
}
