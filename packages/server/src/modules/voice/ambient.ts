import { seededRandom } from "../../seeded-random.ts";
import { decodeAudio, encodeAudio, type MediaStream, resample } from "../media/index.ts";
import { MediaStreamDecorator } from "./stream-decorator.ts";

/** The beds of `ambient_sound` (`none` has none). */
export type AmbientKind = "office" | "cafe" | "call_center" | "street";

const KINDS: readonly string[] = ["office", "cafe", "call_center", "street"] satisfies AmbientKind[];

export function ambientKind(value: string): AmbientKind | null {
  return KINDS.includes(value) ? (value as AmbientKind) : null;
}

/** A bed loops every this many seconds: long enough that its events do not sound like a pattern. */
const BED_SECONDS = 8;
/** Its ends are cross-faded over this long, so the loop has no click. */
const CROSSFADE_SECONDS = 0.25;
/**
 * RMS of a bed at `ambient_sound_volume` 1: about -26 dBFS, a room heard behind a voice at about
 * -10 dBFS; 0.5 (the default) is 6 dB lower.
 */
const BED_RMS = 1600;
const BED_PEAK = 12_000;
/** Bed audio kept queued ahead of the caller's clock in silences: covers a late frame or two. */
const LEAD_MS = 40;

/** Beds are synthesised at 8 kHz (a phone's band is all of any room's character that matters). */
const BED_RATE = 8000;

const beds = new Map<string, Promise<Int16Array>>();

/**
 * The bed of `kind` at `sampleRate`, synthesised the first time (seeded, so every call and every
 * instance hears the same one) and cached for the process: no recordings to download or license.
 * Synthesis yields to the event loop between its stages, so that the calls already running do not
 * stall while a first call with a new kind waits for it.
 */
export function ambientBed(kind: AmbientKind, sampleRate: number): Promise<Int16Array> {
  const key = `${kind}:${sampleRate}`;
  let bed = beds.get(key);
  if (!bed) {
    bed =
      sampleRate === BED_RATE
        ? synthesise(kind)
        : ambientBed(kind, BED_RATE).then((base) => normalise(resample(base, BED_RATE, sampleRate)));
    beds.set(key, bed);
  }
  return bed;
}

/**
 * A stream with a background bed under the assistant's audio and in its silences: each frame the
 * assistant sends has the bed mixed in, and whenever no assistant audio is queued ahead of the
 * caller's clock (frames received) a frame of bed alone is sent. The caller's audio is not
 * touched (the local VAD, speech-to-text and the model hear the caller only), and the session
 * never sees the bed: it is not counted as assistant speech, marks and barge-in are unchanged.
 * Recording, wrapped outside, gets the mix the caller hears.
 */
export class AmbientStream extends MediaStreamDecorator {
  private position = 0;
  /** Media ms of caller audio received, and up to which audio was sent to the caller. */
  private clockMs = 0;
  private queuedUntilMs = 0;
  private readonly frameSamples: number;

  constructor(
    stream: MediaStream,
    private readonly bed: Int16Array,
    private readonly volume: number,
  ) {
    super(stream);
    this.frameSamples = stream.format.sampleRate / 50;
  }

  override onAudio(listener: (frame: Uint8Array) => void) {
    // After the session had the frame: what it sends in answer is queued before the silence is filled.
    this.stream.onAudio((frame) => {
      listener(frame);
      this.tick(frame);
    });
  }

  override sendAudio(frame: Uint8Array) {
    const { format } = this.stream;
    const pcm = decodeAudio(format, frame);
    this.mixInto(pcm);
    this.queuedUntilMs = Math.max(this.queuedUntilMs, this.clockMs) + this.ms(pcm.length);
    this.stream.sendAudio(encodeAudio(format, pcm, format.sampleRate));
  }

  override clearAudio() {
    // The carrier drops what was queued: the bed resumes from the caller's clock.
    this.queuedUntilMs = this.clockMs;
    this.stream.clearAudio();
  }

  private tick(frame: Uint8Array) {
    const { format } = this.stream;
    const samples = format.encoding === "pcmu" ? frame.length : frame.length >> 1;
    this.clockMs += this.ms(samples);
    this.queuedUntilMs = Math.max(this.queuedUntilMs, this.clockMs);
    while (this.queuedUntilMs < this.clockMs + LEAD_MS) {
      const pcm = new Int16Array(this.frameSamples);
      this.mixInto(pcm);
      this.queuedUntilMs += 20;
      this.stream.sendAudio(encodeAudio(format, pcm, format.sampleRate));
    }
  }

  private mixInto(pcm: Int16Array) {
    const { bed, volume } = this;
    for (let i = 0; i < pcm.length; i++) {
      const mixed = pcm[i]! + bed[this.position]! * volume;
      pcm[i] = Math.min(32767, Math.max(-32768, mixed));
      this.position = this.position + 1 === bed.length ? 0 : this.position + 1;
    }
  }

  private ms(samples: number): number {
    return (samples * 1000) / this.stream.format.sampleRate;
  }
}

/** Pink noise (equal energy per octave: a room's air), Paul Kellet's economy filter on white noise. */
function pink(length: number, rand: () => number): Float64Array {
  const out = new Float64Array(length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < length; i++) {
    const white = rand() * 2 - 1;
    b0 = 0.99765 * b0 + white * 0.099046;
    b1 = 0.963 * b1 + white * 0.2965164;
    b2 = 0.57 * b2 + white * 1.0526913;
    out[i] = b0 + b1 + b2 + white * 0.1848;
  }
  return out;
}

/** Brown noise (a rumble: traffic, machinery), leaky-integrated white noise. */
function brown(length: number, rand: () => number): Float64Array {
  const out = new Float64Array(length);
  let last = 0;
  for (let i = 0; i < length; i++) {
    last = (last + 0.02 * (rand() * 2 - 1)) / 1.02;
    out[i] = last * 3.5;
  }
  return out;
}

/** An RBJ biquad band-pass (constant peak gain) around `centre` Hz. */
function bandPass(input: Float64Array, sampleRate: number, centre: number, q: number): Float64Array {
  const w = (2 * Math.PI * Math.min(centre, sampleRate * 0.45)) / sampleRate;
  const alpha = Math.sin(w) / (2 * q);
  const a0 = 1 + alpha;
  const b0 = alpha / a0;
  const b2 = -alpha / a0;
  const a1 = (-2 * Math.cos(w)) / a0;
  const a2 = (1 - alpha) / a0;
  const out = new Float64Array(input.length);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < input.length; i++) {
    const x = input[i]!;
    const y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    out[i] = y;
  }
  return out;
}

/** A one-pole low-pass at `cutoff` Hz. */
function lowPass(input: Float64Array, sampleRate: number, cutoff: number): Float64Array {
  const k = 1 - Math.exp((-2 * Math.PI * cutoff) / sampleRate);
  const out = new Float64Array(input.length);
  let y = 0;
  for (let i = 0; i < input.length; i++) {
    y += k * (input[i]! - y);
    out[i] = y;
  }
  return out;
}

/**
 * Murmur of `voices` people talking out of earshot: band-passed pink noise per voice, its level
 * following syllables (3–6 a second) in phrases with pauses, so it sounds like speech, not hiss.
 */
async function babble(
  length: number,
  sampleRate: number,
  rand: () => number,
  voices: number,
): Promise<Float64Array> {
  const out = new Float64Array(length);
  for (let v = 0; v < voices; v++) {
    await yieldToCalls();
    const voice = bandPass(pink(length, rand), sampleRate, 450 + rand() * 900, 0.9);
    const syllableHz = 3 + rand() * 3;
    let phase = rand() * Math.PI * 2;
    let talking = rand() < 0.6;
    let switchAt = Math.floor(rand() * 2 * sampleRate);
    let level = 0;
    for (let i = 0; i < length; i++) {
      if (i >= switchAt) {
        talking = !talking;
        switchAt = i + Math.floor((talking ? 1.5 + rand() * 3 : 0.4 + rand() * 1.5) * sampleRate);
      }
      phase += (2 * Math.PI * syllableHz * (0.8 + 0.4 * rand())) / sampleRate;
      const target = talking ? Math.abs(Math.sin(phase)) : 0;
      // Smoothed so that phrases start and stop without clicks.
      level += (target - level) * (30 / sampleRate);
      out[i]! += voice[i]! * level * (0.6 + 0.4 * (v % 2));
    }
  }
  return out;
}

/** Short events at random times (about `perSecond`), each written by `event` at its start. */
function sprinkle(
  out: Float64Array,
  sampleRate: number,
  rand: () => number,
  perSecond: number,
  event: (out: Float64Array, at: number) => void,
) {
  let at = Math.floor((-Math.log(1 - rand()) / perSecond) * sampleRate);
  while (at < out.length) {
    event(out, at);
    at += Math.floor((-Math.log(1 - rand()) / perSecond) * sampleRate) + 1;
  }
}

/** A key press: a few ms of bright noise, decaying fast. */
function click(sampleRate: number, rand: () => number, gain: number) {
  return (out: Float64Array, at: number) => {
    const length = Math.floor(sampleRate * 0.006);
    for (let i = 0; i < length && at + i < out.length; i++)
      out[at + i]! += (rand() * 2 - 1) * gain * Math.exp(-i / (length / 4));
  };
}

/** A cup or a glass: a decaying high tone. */
function clink(sampleRate: number, rand: () => number, gain: number) {
  return (out: Float64Array, at: number) => {
    const frequency = Math.min(sampleRate * 0.4, 2200 + rand() * 1300);
    const length = Math.floor(sampleRate * 0.12);
    for (let i = 0; i < length && at + i < out.length; i++)
      out[at + i]! +=
        Math.sin((2 * Math.PI * frequency * i) / sampleRate) * gain * Math.exp(-i / (length / 5));
  };
}

/** A car going by: a swell of low noise over a few seconds. */
function passingCar(sampleRate: number, rand: () => number, gain: number) {
  return (out: Float64Array, at: number) => {
    const length = Math.floor(sampleRate * (2 + rand() * 3));
    const noise = bandPass(brown(length, rand), sampleRate, 150 + rand() * 250, 0.7);
    for (let i = 0; i < length && at + i < out.length; i++)
      out[at + i]! += noise[i]! * gain * Math.sin((Math.PI * i) / length) ** 2;
  };
}

/** A distant horn: two detuned tones for a moment. */
function horn(sampleRate: number, gain: number) {
  return (out: Float64Array, at: number) => {
    const length = Math.floor(sampleRate * 0.35);
    for (let i = 0; i < length && at + i < out.length; i++) {
      const t = i / sampleRate;
      const envelope = Math.min(1, i / (sampleRate * 0.02), (length - i) / (sampleRate * 0.05));
      out[at + i]! +=
        gain * envelope * (Math.sin(2 * Math.PI * 415 * t) + 0.8 * Math.sin(2 * Math.PI * 523 * t));
    }
  };
}

const SEEDS: Record<AmbientKind, number> = { office: 11, cafe: 23, call_center: 37, street: 41 };

async function synthesise(kind: AmbientKind): Promise<Int16Array> {
  const sampleRate = BED_RATE;
  const rand = seededRandom(SEEDS[kind]);
  const loop = BED_SECONDS * sampleRate;
  const fade = Math.floor(CROSSFADE_SECONDS * sampleRate);
  const length = loop + fade;
  let raw: Float64Array;
  switch (kind) {
    case "office": {
      // Ventilation, a distant conversation, typing now and then.
      raw = lowPass(pink(length, rand), sampleRate, 700);
      const murmur = await babble(length, sampleRate, rand, 2);
      for (let i = 0; i < length; i++) raw[i] = raw[i]! * 0.6 + murmur[i]! * 0.25;
      sprinkle(raw, sampleRate, rand, 3, click(sampleRate, rand, 0.5));
      break;
    }
    case "cafe": {
      // Many voices, cups and glasses, the room's rumble.
      raw = await babble(length, sampleRate, rand, 7);
      const room = lowPass(brown(length, rand), sampleRate, 300);
      for (let i = 0; i < length; i++) raw[i] = raw[i]! + room[i]! * 0.4;
      sprinkle(raw, sampleRate, rand, 0.6, clink(sampleRate, rand, 0.25));
      break;
    }
    case "call_center": {
      // Colleagues close by on their own calls, keyboards.
      raw = await babble(length, sampleRate, rand, 4);
      const air = lowPass(pink(length, rand), sampleRate, 900);
      for (let i = 0; i < length; i++) raw[i] = raw[i]! * 1.4 + air[i]! * 0.2;
      sprinkle(raw, sampleRate, rand, 5, click(sampleRate, rand, 0.35));
      break;
    }
    case "street": {
      // Traffic's rumble, cars passing, a horn once in a while.
      raw = lowPass(brown(length, rand), sampleRate, 400);
      sprinkle(raw, sampleRate, rand, 0.35, passingCar(sampleRate, rand, 1.2));
      sprinkle(raw, sampleRate, rand, 0.08, horn(sampleRate, 0.15));
      break;
    }
  }
  await yieldToCalls();
  // The end fades into the start: the loop point is inaudible.
  const looped = new Float64Array(loop);
  looped.set(raw.subarray(0, loop));
  for (let i = 0; i < fade; i++) {
    const share = i / fade;
    looped[i] = raw[i]! * share + raw[loop + i]! * (1 - share);
  }
  return normalise(looped);
}

/** A bed at its level (`BED_RMS`), its rare peaks limited. */
function normalise(samples: Float64Array | Int16Array): Int16Array {
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  const scale = BED_RMS / Math.max(1e-9, Math.sqrt(sum / samples.length));
  const bed = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++)
    bed[i] = Math.round(Math.max(-BED_PEAK, Math.min(BED_PEAK, samples[i]! * scale)));
  return bed;
}

function yieldToCalls(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
