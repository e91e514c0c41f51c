import { decodeAudio, type MediaFormat, type MediaStream, pcmBytes, resample } from "../media/index.ts";
import type { RealtimeSessionOptions } from "./realtime-client.ts";

/** The Realtime API's PCM: 16-bit mono little-endian at 24 kHz, the only rate it takes. */
export const MODEL_PCM_RATE = 24_000;

/**
 * What a stream's audio is sent to the model as: a phone's mu-law passes through untouched
 * (G.711 both ways); a browser's 16 kHz PCM goes as PCM, resampled to the model's 24 kHz, rather
 * than squeezed through the phone's 8 kHz mu-law.
 */
export function modelAudioFormat(format: MediaFormat): RealtimeSessionOptions["audioFormat"] {
  return format.encoding === "pcmu" ? "g711_ulaw" : "pcm";
}

/**
 * The caller's audio on its way to the model, in the model's format. It goes in appends of
 * `appendMs`, not per 20 ms frame: a socket write and an event per frame each way is what limited
 * how many calls one core relays (bench/voice). The model hears the audio that much later; its
 * VAD's decisions are unchanged.
 */
export class ModelAudioInput {
  /** Caller audio not yet appended to the model (one buffer for the call, reused). */
  private readonly batch: Uint8Array;
  private batched = 0;

  constructor(
    private readonly media: Pick<MediaStream, "format">,
    private readonly options: Pick<RealtimeSessionOptions, "audioFormat" | "appendMs">,
    private readonly append: (audio: Uint8Array) => void,
  ) {
    // 20 ms of the model's audio: 160 bytes of mu-law, or 960 of 24 kHz PCM.
    const modelFrame = options.audioFormat === "pcm" ? (MODEL_PCM_RATE / 50) * 2 : 160;
    this.batch = new Uint8Array(Math.max(1, Math.round(options.appendMs / 20)) * modelFrame);
  }

  /** One frame of the stream, in the stream's format. */
  push(frame: Uint8Array) {
    this.appendToModel(this.options.audioFormat === "pcm" ? this.toModelPcm(frame) : frame);
  }

  private toModelPcm(frame: Uint8Array): Uint8Array {
    const { format } = this.media;
    return pcmBytes(resample(decodeAudio(format, frame), format.sampleRate, MODEL_PCM_RATE));
  }

  private appendToModel(bytes: Uint8Array) {
    const { batch } = this;
    let offset = 0;
    while (offset < bytes.length) {
      const count = Math.min(bytes.length - offset, batch.length - this.batched);
      batch.set(bytes.subarray(offset, offset + count), this.batched);
      this.batched += count;
      offset += count;
      if (this.batched === batch.length) {
        this.append(batch);
        this.batched = 0;
      }
    }
  }
}
