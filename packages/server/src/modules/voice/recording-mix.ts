import { MAX_RECORDING_SECONDS } from "../../limits.ts";
import { muLawToPcm, pcmToMuLaw } from "../media/index.ts";

const RATE = 8_000;
/** The timeline is kept in one-second chunks: linear while they may still change, then mu-law. */
const CHUNK = RATE;
const MAX_SAMPLES = MAX_RECORDING_SECONDS * RATE;
/** Mu-law's code for a zero sample. */
export const MU_LAW_SILENCE = 0xff;
/** Bytes before the samples in the WAV files `wav()` writes. */
export const WAV_HEADER_BYTES = 58;

/**
 * Both channels of a call mixed onto one track, on the call's own clock: the caller's audio, which
 * the carrier streams without a gap (silence included), 20 ms a frame. The assistant's audio is
 * played after what was queued before it, from the moment it is sent at the earliest; a barge-in
 * (`clear`) drops what had not been played yet. Chunks the assistant can no longer write to (all
 * before the caller's position) are kept as mu-law, half the size.
 */
export class CallMix {
  private readonly linear = new Map<number, Int16Array>();
  private readonly encoded: Uint8Array[] = [];
  /** Samples of caller audio so far: now, on the call's clock. */
  private callerAt = 0;
  /** Where the assistant's queued audio ends. */
  private assistantEnd = 0;

  caller(muLaw: Uint8Array): void {
    this.add(this.callerAt, muLawToPcm(muLaw));
    this.callerAt = Math.min(MAX_SAMPLES, this.callerAt + muLaw.length);
    this.settle();
  }

  assistant(muLaw: Uint8Array): void {
    const at = Math.max(this.assistantEnd, this.callerAt);
    this.add(at, muLawToPcm(muLaw));
    this.assistantEnd = Math.min(MAX_SAMPLES, at + muLaw.length);
  }

  /** A barge-in: the assistant's audio after now was never heard. Only it lies past the caller's position. */
  clear(): void {
    for (let at = this.callerAt; at < this.assistantEnd; at++) {
      const chunk = this.linear.get(Math.floor(at / CHUNK));
      if (chunk) chunk[at % CHUNK] = 0;
    }
    this.assistantEnd = this.callerAt;
  }

  /** Bumped by every `silence`: a recording saved before it must be saved again. */
  revision = 0;

  /**
   * Silences a stretch of the call's timeline (ms of the caller's audio, as turns count them): what
   * was said there was redacted (docs/data-governance.md#pii-redaction). Both channels: it is one
   * track. `throughQueued`: to the end of the assistant's audio queued so far too (its latest turn).
   */
  silence(startMs: number, endMs: number, options: { throughQueued?: boolean } = {}): void {
    const from = Math.max(0, Math.floor((startMs * RATE) / 1000));
    const end = Math.ceil((endMs * RATE) / 1000);
    // An assistant turn's audio lies where the mix queued it, which may run past the turn's end.
    const to = Math.min(this.length, options.throughQueued ? Math.max(end, this.assistantEnd) : end);
    for (let at = from; at < to; at++) {
      const index = Math.floor(at / CHUNK);
      const encoded = this.encoded[index];
      if (encoded) encoded[at % CHUNK] = MU_LAW_SILENCE;
      else {
        const chunk = this.linear.get(index);
        if (chunk) chunk[at % CHUNK] = 0;
      }
    }
    this.revision++;
  }

  /** Seconds recorded. */
  get seconds(): number {
    return this.length / RATE;
  }

  /** The recording as a mu-law WAV file (G.711, 8 kHz, mono), in pieces. */
  wav(): Uint8Array[] {
    const length = this.length;
    const data: Uint8Array[] = [...this.encoded];
    for (let index = this.encoded.length; index * CHUNK < length; index++) {
      const chunk = this.linear.get(index) ?? new Int16Array(CHUNK);
      data.push(pcmToMuLaw(chunk.subarray(0, Math.min(CHUNK, length - index * CHUNK))));
    }
    // RIFF chunks are of even size: a pad byte, not counted in the data's length.
    if (length % 2 === 1) data.push(new Uint8Array([0xff]));
    return [muLawWavHeader(length), ...data];
  }

  private get length(): number {
    return Math.max(this.callerAt, this.assistantEnd);
  }

  private add(at: number, pcm: Int16Array): void {
    for (let i = 0; i < pcm.length && at + i < MAX_SAMPLES; i++) {
      const position = at + i;
      const index = Math.floor(position / CHUNK);
      if (index < this.encoded.length) continue;
      let chunk = this.linear.get(index);
      if (!chunk) {
        chunk = new Int16Array(CHUNK);
        this.linear.set(index, chunk);
      }
      const sum = chunk[position % CHUNK]! + pcm[i]!;
      chunk[position % CHUNK] = Math.min(32767, Math.max(-32768, sum));
    }
  }

  private settle(): void {
    while ((this.encoded.length + 1) * CHUNK <= this.callerAt) {
      const index = this.encoded.length;
      this.encoded.push(pcmToMuLaw(this.linear.get(index) ?? new Int16Array(CHUNK)));
      this.linear.delete(index);
    }
  }
}

/** RIFF header of a mono 8 kHz mu-law WAV (format 7) with `samples` bytes of data. */
function muLawWavHeader(samples: number): Uint8Array {
  const header = Buffer.alloc(WAV_HEADER_BYTES);
  header.write("RIFF", 0, "ascii");
  header.writeUInt32LE(50 + samples + (samples % 2), 4);
  header.write("WAVEfmt ", 8, "ascii");
  header.writeUInt32LE(18, 16);
  header.writeUInt16LE(7, 20); // WAVE_FORMAT_MULAW
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.writeUInt16LE(0, 36);
  // A compressed format carries its sample count in a fact chunk.
  header.write("fact", 38, "ascii");
  header.writeUInt32LE(4, 42);
  header.writeUInt32LE(samples, 46);
  header.write("data", 50, "ascii");
  header.writeUInt32LE(samples, 54);
  return header;
}

/**
 * A stored recording (`wav()`'s file) with a stretch of its timeline silenced, as `silence` does;
 * the file's pad byte, if any, is silence already.
 */
export function silenceWav(
  file: Uint8Array,
  startMs: number,
  endMs: number,
  options: { throughQueued?: boolean } = {},
): Uint8Array {
  const samples = file.length - WAV_HEADER_BYTES;
  const from = Math.max(0, Math.floor((startMs * RATE) / 1000));
  // Stored, the assistant's latest queued audio is the file's end.
  const to = options.throughQueued ? samples : Math.min(samples, Math.ceil((endMs * RATE) / 1000));
  if (from < to) file.fill(MU_LAW_SILENCE, WAV_HEADER_BYTES + from, WAV_HEADER_BYTES + to);
  return file;
}
