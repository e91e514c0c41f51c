import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  frameBytes,
  type MediaFormat,
  pcmBytes,
  pcmToMuLaw,
  readWav,
  resample,
} from "../../src/modules/media/index.ts";
import {
  interruptMs,
  SilenceTurnDetector,
  type TurnDetector,
} from "../../src/modules/voice/turn-detector.ts";
import type { VoiceActivityFactory } from "../../src/modules/voice/voice-activity.ts";

/**
 * A labelled set for voice activity detectors, made offline: Debian's `espeak-ng` speaks (several
 * voices), `sox` resamples and makes noise, and the mixing and the labels are done here from the
 * clean speech (espeak's silences are exact, so where speech is is known to the sample).
 *
 * - turns: a sentence with a 500 ms pause inside, then 2.5 s without speech, in noise at several
 *   levels: a detector must not end the turn in the pause, and should end it soon after the end.
 * - over the assistant: backchannels ("mhm", "okay", "uh huh", "yeah"), noise alone, and real
 *   interruptions ("No wait, I need another day"), with the assistant's residual echo (-30 dB)
 *   beneath: only the interruptions should stop the assistant.
 */

export const VOICES = ["en-us", "en-gb", "en-gb-scotland"] as const;
const SENTENCES = [
  'I would like to book a table <break time="500ms"/> for four people on Friday evening.',
  'My account number is <break time="500ms"/> seven two nine, and the name is Smith.',
  'Could you move my appointment <break time="500ms"/> to next Tuesday afternoon?',
];
const BACKCHANNELS = ["mhm", "okay", "uh huh", "yeah"];
const INTERRUPTIONS = ["No wait, I need another day.", "Sorry, that is not what I asked for."];
const ASSISTANT_LINE =
  "Thank you for calling. Our opening hours are nine to five on weekdays, and ten to two on Saturdays.";
/** Noise levels (RMS, dBFS) mixed under the caller; null is none. */
export const NOISE_LEVELS = [null, -50, -40, -32, -26] as const;
const NOISE_KINDS = ["pinknoise", "brownnoise", "whitenoise"] as const;
const RATE = 16000;
const SPEECH_SAMPLE = 300;

export interface TurnCase {
  name: string;
  noiseDb: number | null;
  pcm: Int16Array;
  /** Where the sentence's speech ends, ms. */
  speechEndMs: number;
  /** Where its internal pause is, ms (a turn ending inside [speechStartMs, speechEndMs) is premature). */
  speechStartMs: number;
}

export interface OverAssistantCase {
  name: string;
  kind: "backchannel" | "noise" | "interruption";
  noiseDb: number | null;
  pcm: Int16Array;
}

export interface Corpus {
  turns: TurnCase[];
  overAssistant: OverAssistantCase[];
}

let cached: Corpus | null = null;

/** The set at 16 kHz (each case's `pcm`); `framesOf` gives it in a stream's format. */
export function vadCorpus(): Corpus {
  if (cached) return cached;
  const dir = mkdtempSync(join(tmpdir(), "voxgate-vad-corpus-"));
  try {
    cached = build(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return cached;
}

function build(dir: string): Corpus {
  let n = 0;
  const speak = (voice: string, text: string): Int16Array => {
    const raw = join(dir, `${n}.raw.wav`);
    const out = join(dir, `${n++}.wav`);
    execFileSync("espeak-ng", ["-m", "-v", voice, "-w", raw, text]);
    execFileSync("sox", [raw, "-r", String(RATE), "-c", "1", "-b", "16", out]);
    return wav(out);
  };
  const noises = new Map(
    NOISE_KINDS.map((kind) => {
      const out = join(dir, `${kind}.wav`);
      execFileSync("sox", [
        "-R",
        "-n",
        "-r",
        String(RATE),
        "-b",
        "16",
        "-c",
        "1",
        out,
        "synth",
        "6",
        kind,
        "vol",
        "0.5",
      ]);
      return [kind, wav(out)];
    }),
  );
  const assistant = speak("en-us+f3", ASSISTANT_LINE);

  const turns: TurnCase[] = [];
  VOICES.forEach((voice, v) => {
    SENTENCES.forEach((sentence, s) => {
      const speech = speak(voice, sentence);
      const { first, last } = speechBounds(speech);
      const lead = ms(600);
      const length = lead + last + ms(2500);
      for (const noiseDb of NOISE_LEVELS) {
        const kind = NOISE_KINDS[(v + s) % NOISE_KINDS.length]!;
        const pcm = new Float32Array(length);
        add(pcm, speech.subarray(0, last + 1), lead, 1);
        if (noiseDb !== null) addNoise(pcm, noises.get(kind)!, noiseDb);
        turns.push({
          name: `${voice} "${sentence.replace(/<[^>]+>/g, "…").slice(0, 28)}…" ${label(kind, noiseDb)}`,
          noiseDb,
          pcm: toInt16(pcm),
          speechStartMs: ((lead + first) / RATE) * 1000,
          speechEndMs: ((lead + last) / RATE) * 1000,
        });
      }
    });
  });

  const overAssistant: OverAssistantCase[] = [];
  const length = ms(3000);
  const withEcho = (offset: number) => {
    const pcm = new Float32Array(length);
    add(pcm, assistant.subarray(offset, offset + length), 0, 10 ** (-30 / 20));
    return pcm;
  };
  const clips: { kind: "backchannel" | "interruption"; text: string }[] = [
    ...BACKCHANNELS.map((text) => ({ kind: "backchannel" as const, text })),
    ...INTERRUPTIONS.map((text) => ({ kind: "interruption" as const, text })),
  ];
  VOICES.forEach((voice, v) => {
    clips.forEach(({ kind, text }, c) => {
      const speech = speak(voice, text);
      const { last } = speechBounds(speech);
      for (const noiseDb of NOISE_LEVELS) {
        const noise = NOISE_KINDS[(v + c) % NOISE_KINDS.length]!;
        const pcm = withEcho(ms(400 * c));
        add(pcm, speech.subarray(0, last + 1), ms(500), 1);
        if (noiseDb !== null) addNoise(pcm, noises.get(noise)!, noiseDb);
        overAssistant.push({
          name: `${voice} "${text}" ${label(noise, noiseDb)}`,
          kind,
          noiseDb,
          pcm: toInt16(pcm),
        });
      }
    });
  });
  for (const kind of NOISE_KINDS) {
    for (const noiseDb of NOISE_LEVELS) {
      if (noiseDb === null) continue;
      const pcm = withEcho(0);
      addNoise(pcm, noises.get(kind)!, noiseDb);
      overAssistant.push({
        name: `noise only ${label(kind, noiseDb)}`,
        kind: "noise",
        noiseDb,
        pcm: toInt16(pcm),
      });
    }
  }
  return { turns, overAssistant };
}

/** A 16 kHz case as the 20 ms frames a stream of `format` carries. */
export function framesOf(pcm16k: Int16Array, format: MediaFormat): Uint8Array[] {
  const pcm = resample(pcm16k, RATE, format.sampleRate);
  const bytes = format.encoding === "pcmu" ? pcmToMuLaw(pcm) : pcmBytes(pcm);
  const size = frameBytes(format);
  const frames: Uint8Array[] = [];
  for (let at = 0; at + size <= bytes.length; at += size) frames.push(bytes.slice(at, at + size));
  return frames;
}

/** One detector's results on the set. */
export interface VadScore {
  /** Turns ended inside the sentence (its pause), of all turns. */
  prematureCutOffs: number;
  turns: number;
  /** Turns whose end was never detected within 2.5 s of silence (noise held the turn open). */
  missedEnds: number;
  /** ms from the end of speech to the end of turn, beyond the configured silence, per ended turn. */
  endDelaysMs: number[];
  falseBargeInsBackchannel: number;
  backchannels: number;
  falseBargeInsNoise: number;
  noiseOnly: number;
  /** Real interruptions that did not stop the assistant. */
  missedInterruptions: number;
  interruptions: number;
  /** Total frames pushed and the CPU time spent in the detector path, ns. */
  frames: number;
  cpuNs: bigint;
}

const END_OF_TURN_MS = 750;
/** `interrupt_sensitivity` 0.5: 375 ms of voice over the assistant stops it. */
const BARGE_IN_MS = interruptMs(0.5);

/**
 * Runs `detector` (a fresh instance per case, as per stream) through the `TurnDetector` of a session;
 * `afterFrame` runs after each frame, where a session's event loop would turn before the next one
 * (Silero's batched inference answers there).
 */
export function scoreDetector(
  corpus: Corpus,
  detector: VoiceActivityFactory,
  format: MediaFormat,
  filter: (noiseDb: number | null) => boolean = () => true,
  afterFrame?: () => void,
): VadScore {
  const score: VadScore = {
    prematureCutOffs: 0,
    turns: 0,
    missedEnds: 0,
    endDelaysMs: [],
    falseBargeInsBackchannel: 0,
    backchannels: 0,
    falseBargeInsNoise: 0,
    noiseOnly: 0,
    missedInterruptions: 0,
    interruptions: 0,
    frames: 0,
    cpuNs: 0n,
  };
  const run = (
    pcm: Int16Array,
    onEvent: (event: ReturnType<TurnDetector["push"]>, now: number) => boolean,
  ) => {
    const turn = new SilenceTurnDetector(END_OF_TURN_MS, format, false, detector(format));
    const frames = framesOf(pcm, format);
    const start = process.hrtime.bigint();
    for (const frame of frames) {
      score.frames++;
      const event = turn.push(frame);
      afterFrame?.();
      if (onEvent(event, turn.now)) break;
    }
    score.cpuNs += process.hrtime.bigint() - start;
  };
  for (const item of corpus.turns) {
    if (!filter(item.noiseDb)) continue;
    score.turns++;
    let ended = false;
    run(item.pcm, (event, now) => {
      if (event?.type !== "end-of-turn") return false;
      if (event.speechEndMs < item.speechEndMs - 100) {
        score.prematureCutOffs++;
        ended = true;
        return true;
      }
      ended = true;
      score.endDelaysMs.push(now - END_OF_TURN_MS - item.speechEndMs);
      return true;
    });
    if (!ended) score.missedEnds++;
  }
  for (const item of corpus.overAssistant) {
    if (!filter(item.noiseDb)) continue;
    let bargedIn = false;
    run(item.pcm, (event) => {
      bargedIn ||= event?.type === "voice" && event.voicedMs >= BARGE_IN_MS;
      return bargedIn;
    });
    if (item.kind === "backchannel") {
      score.backchannels++;
      if (bargedIn) score.falseBargeInsBackchannel++;
    } else if (item.kind === "noise") {
      score.noiseOnly++;
      if (bargedIn) score.falseBargeInsNoise++;
    } else {
      score.interruptions++;
      if (!bargedIn) score.missedInterruptions++;
    }
  }
  return score;
}

/** Fraction of 20 ms frames a detector calls voice, within [fromMs, toMs) of a case (`afterFrame`: see `scoreDetector`). */
export function voicedFraction(
  detector: VoiceActivityFactory,
  format: MediaFormat,
  pcm: Int16Array,
  fromMs: number,
  toMs: number,
  afterFrame?: () => void,
): number {
  const vad = detector(format);
  let voiced = 0;
  let counted = 0;
  framesOf(pcm, format).forEach((frame, index) => {
    const isVoice = vad.voiced(frame);
    afterFrame?.();
    const at = index * 20;
    if (at >= fromMs && at < toMs) {
      counted++;
      if (isVoice) voiced++;
    }
  });
  return counted ? voiced / counted : 0;
}

function wav(path: string): Int16Array {
  const parsed = readWav(readFileSync(path));
  if (!parsed || parsed.sampleRate !== RATE) throw new Error(`unreadable WAV ${path}`);
  return parsed.pcm;
}

function speechBounds(pcm: Int16Array): { first: number; last: number } {
  let first = 0;
  while (first < pcm.length && Math.abs(pcm[first]!) < SPEECH_SAMPLE) first++;
  let last = pcm.length - 1;
  while (last > 0 && Math.abs(pcm[last]!) < SPEECH_SAMPLE) last--;
  return { first, last };
}

function add(into: Float32Array, pcm: Int16Array, at: number, gain: number) {
  for (let i = 0; i < pcm.length && at + i < into.length; i++) into[at + i]! += pcm[i]! * gain;
}

/** Adds `noise` (looped) scaled to `db` dBFS RMS. */
function addNoise(into: Float32Array, noise: Int16Array, db: number) {
  let sum = 0;
  for (const sample of noise) sum += sample * sample;
  const gain = (32768 * 10 ** (db / 20)) / Math.sqrt(sum / noise.length);
  for (let i = 0; i < into.length; i++) into[i]! += noise[i % noise.length]! * gain;
}

function toInt16(pcm: Float32Array): Int16Array {
  return Int16Array.from(pcm, (sample) => Math.max(-32768, Math.min(32767, Math.round(sample))));
}

function ms(value: number): number {
  return Math.round((value / 1000) * RATE);
}

function label(kind: string, db: number | null): string {
  return db === null ? "clean" : `${kind} ${db} dBFS`;
}
