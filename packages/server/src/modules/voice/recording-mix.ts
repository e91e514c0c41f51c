import { MAX_RECORDING_SECONDS } from "../../limits.ts";
import { muLawToPcm, pcmToMuLaw } from "../media/index.ts";

const RATE = 8_000;
/** The timeline is kept in one-second chunks: linear while they may still change, then mu-law. */
const CHUNK = RATE;
const MAX_SAMPLES = MAX_RECORDING_SECONDS * RATE;

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
  const header = Buffer.alloc(58);
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
