/**
 * Audio formats of the media plane: 8 kHz G.711 mu-law (telephony), 16-bit little-endian PCM at 8,
 * 16 or 24 kHz (speech models), and WAV for uploads. Conversions are table-driven or linear so
 * that one core can relay hundreds of calls.
 */

import type { MediaFormat } from "./stream.ts";

const BIAS = 0x84;
const CLIP = 32635;

const DECODE_TABLE = new Int16Array(256);
for (let i = 0; i < 256; i++) {
  const value = ~i & 0xff;
  const sign = value & 0x80;
  const exponent = (value >> 4) & 0x07;
  const mantissa = value & 0x0f;
  const magnitude = (((mantissa << 3) + BIAS) << exponent) - BIAS;
  DECODE_TABLE[i] = sign ? -magnitude : magnitude;
}

/** Each mu-law byte's decoded sample, squared: a frame's level without decoding it. */
const SQUARE_TABLE = Float64Array.from(DECODE_TABLE, (sample) => sample * sample);

// Indexed by the sample's magnitude >> 7 after biasing: the segment (exponent) of G.711.
const EXPONENT_TABLE = new Uint8Array(256);
for (let i = 0; i < 256; i++) EXPONENT_TABLE[i] = i === 0 ? 0 : Math.floor(Math.log2(i));

function encodeSample(sample: number): number {
  let value = sample;
  const sign = value < 0 ? 0x80 : 0;
  if (sign) value = -value;
  if (value > CLIP) value = CLIP;
  value += BIAS;
  const exponent = EXPONENT_TABLE[(value >> 7) & 0xff]!;
  const mantissa = (value >> (exponent + 3)) & 0x0f;
  return ~(sign | (exponent << 4) | mantissa) & 0xff;
}

/** mu-law bytes to PCM samples. */
export function muLawToPcm(muLaw: Uint8Array): Int16Array {
  const pcm = new Int16Array(muLaw.length);
  for (let i = 0; i < muLaw.length; i++) pcm[i] = DECODE_TABLE[muLaw[i]!]!;
  return pcm;
}

/** PCM samples to mu-law bytes. */
export function pcmToMuLaw(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = encodeSample(pcm[i]!);
  return out;
}

/**
 * Changes the sample rate by linear interpolation; going down, each output sample averages the
 * input samples it covers, a cheap low-pass that keeps speech band aliasing inaudible on a phone.
 */
export function resample(input: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return input;
  const ratio = fromRate / toRate;
  const length = Math.floor(input.length / ratio);
  const out = new Int16Array(length);
  if (ratio > 1) {
    for (let i = 0; i < length; i++) {
      const start = Math.floor(i * ratio);
      const end = Math.min(input.length, Math.floor((i + 1) * ratio));
      let sum = 0;
      for (let j = start; j < end; j++) sum += input[j]!;
      out[i] = Math.round(sum / Math.max(1, end - start));
    }
    return out;
  }
  for (let i = 0; i < length; i++) {
    const position = i * ratio;
    const index = Math.floor(position);
    const fraction = position - index;
    const a = input[index]!;
    const b = input[Math.min(index + 1, input.length - 1)]!;
    out[i] = Math.round(a + (b - a) * fraction);
  }
  return out;
}

/** Little-endian 16-bit PCM bytes as samples (an odd trailing byte is left to the caller). */
export function pcmFromBytes(bytes: Uint8Array): Int16Array {
  const count = bytes.length >> 1;
  const out = new Int16Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, count * 2);
  for (let i = 0; i < count; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

/** A mono 16-bit PCM WAV file. */
export function wavFile(pcm: Int16Array, sampleRate: number): Buffer {
  const data = pcm.length * 2;
  const buffer = Buffer.alloc(44 + data);
  buffer.write("RIFF", 0, "ascii");
  buffer.writeUInt32LE(36 + data, 4);
  buffer.write("WAVEfmt ", 8, "ascii");
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20);
  buffer.writeUInt16LE(1, 22);
  buffer.writeUInt32LE(sampleRate, 24);
  buffer.writeUInt32LE(sampleRate * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36, "ascii");
  buffer.writeUInt32LE(data, 40);
  for (let i = 0; i < pcm.length; i++) buffer.writeInt16LE(pcm[i]!, 44 + i * 2);
  return buffer;
}

/** The samples of a mono 16-bit PCM WAV file, with its rate; null for anything else. */
export function readWav(file: Uint8Array): { pcm: Int16Array; sampleRate: number } | null {
  const buffer = Buffer.from(file.buffer, file.byteOffset, file.byteLength);
  if (buffer.length < 12 || buffer.toString("ascii", 0, 4) !== "RIFF") return null;
  let offset = 12;
  let sampleRate = 0;
  while (offset + 8 <= buffer.length) {
    const id = buffer.toString("ascii", offset, offset + 4);
    const size = buffer.readUInt32LE(offset + 4);
    if (id === "fmt ") {
      if (buffer.readUInt16LE(offset + 8) !== 1 || buffer.readUInt16LE(offset + 10) !== 1) return null;
      if (buffer.readUInt16LE(offset + 22) !== 16) return null;
      sampleRate = buffer.readUInt32LE(offset + 12);
    } else if (id === "data" && sampleRate > 0) {
      const end = Math.min(buffer.length, offset + 8 + size);
      return { pcm: pcmFromBytes(buffer.subarray(offset + 8, end)), sampleRate };
    }
    offset += 8 + size + (size % 2);
  }
  return null;
}

/** Root-mean-square level of samples, 0..32768. */
export function rms(pcm: Int16Array): number {
  if (pcm.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < pcm.length; i++) sum += pcm[i]! * pcm[i]!;
  return Math.sqrt(sum / pcm.length);
}

/**
 * RMS level of a frame of the stream's bytes as heard at 8 kHz, what `rms(resample(decodeAudio(…),
 * rate, 8000))` gives, read in place: the voice detector runs on every frame of every call, and
 * decoding and resampling each one was two allocations per frame.
 */
export function phoneBandLevel(format: MediaFormat, bytes: Uint8Array): number {
  let sum = 0;
  if (format.encoding === "pcmu") {
    if (bytes.length === 0) return 0;
    for (let i = 0; i < bytes.length; i++) sum += SQUARE_TABLE[bytes[i]!]!;
    return Math.sqrt(sum / bytes.length);
  }
  // Little-endian 16-bit samples, averaged by the `ratio` that go into one 8 kHz sample (as `resample`).
  const ratio = format.sampleRate / 8000;
  const count = Math.floor((bytes.length >> 1) / ratio);
  if (count === 0) return 0;
  for (let i = 0; i < count; i++) {
    let total = 0;
    for (let j = i * ratio * 2, end = j + ratio * 2; j < end; j += 2)
      total += ((bytes[j]! | (bytes[j + 1]! << 8)) << 16) >> 16;
    const sample = Math.round(total / ratio);
    sum += sample * sample;
  }
  return Math.sqrt(sum / count);
}

const DTMF_ROWS = [697, 770, 852, 941];
const DTMF_COLUMNS = [1209, 1336, 1477, 1633];
const DTMF_KEYS = ["123A", "456B", "789C", "*0#D"];
/** Each key sounds this long, then this long of silence: above the 40 ms minimum ITU-T Q.24 asks receivers to detect. */
const DTMF_TONE_MS = 100;
const DTMF_GAP_MS = 100;
/** Each of the two tones at about -10 dBFS: loud enough for IVRs, clear of clipping when summed. */
const DTMF_AMPLITUDE = 10_000;

/**
 * Keypad digits as in-band DTMF at 8 kHz (a tone pair per key, then a gap). Twilio Media Streams
 * has no event to send DTMF, but its audio reaches the other side as any other sound does, so an
 * IVR hears the keys as it would from a handset.
 */
export function dtmfTones(digits: string): Int16Array {
  const toneSamples = DTMF_TONE_MS * 8;
  const keySamples = (DTMF_TONE_MS + DTMF_GAP_MS) * 8;
  const out = new Int16Array(digits.length * keySamples);
  [...digits.toUpperCase()].forEach((digit, index) => {
    const row = DTMF_KEYS.findIndex((keys) => keys.includes(digit));
    if (row < 0) return;
    const low = DTMF_ROWS[row]!;
    const high = DTMF_COLUMNS[DTMF_KEYS[row]!.indexOf(digit)]!;
    for (let i = 0; i < toneSamples; i++) {
      const t = i / 8000;
      out[index * keySamples + i] = Math.round(
        DTMF_AMPLITUDE * (Math.sin(2 * Math.PI * low * t) + Math.sin(2 * Math.PI * high * t)),
      );
    }
  });
  return out;
}

/** Samples as little-endian 16-bit PCM bytes. */
export function pcmBytes(pcm: Int16Array): Uint8Array {
  const out = new Uint8Array(pcm.length * 2);
  const view = new DataView(out.buffer);
  for (let i = 0; i < pcm.length; i++) view.setInt16(i * 2, pcm[i]!, true);
  return out;
}

/** A stream's bytes as samples at the stream's rate. */
export function decodeAudio(format: MediaFormat, bytes: Uint8Array): Int16Array {
  return format.encoding === "pcmu" ? muLawToPcm(bytes) : pcmFromBytes(bytes);
}

/** Samples at `rate` as bytes in a stream's format (resampled to its rate). */
export function encodeAudio(format: MediaFormat, pcm: Int16Array, rate: number): Uint8Array {
  const samples = resample(pcm, rate, format.sampleRate);
  return format.encoding === "pcmu" ? pcmToMuLaw(samples) : pcmBytes(samples);
}

/** A stream's bytes as 8 kHz mu-law: the phone's format, which recordings and tones are kept in. */
export function toMuLaw8k(format: MediaFormat, bytes: Uint8Array): Uint8Array {
  if (format.encoding === "pcmu") return bytes;
  return pcmToMuLaw(resample(pcmFromBytes(bytes), format.sampleRate, 8000));
}

/** Bytes of 20 ms of audio in a stream's format. */
export function frameBytes(format: MediaFormat): number {
  return (format.sampleRate / 50) * (format.encoding === "pcmu" ? 1 : 2);
}
