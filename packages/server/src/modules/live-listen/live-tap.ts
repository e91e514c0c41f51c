import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import { LIVE_LISTEN_LIMITS } from "../../limits.ts";
import {
  decodeAudio,
  type MediaFormat,
  type MediaStream,
  type MediaStreamHandler,
  pcmToMuLaw,
  resample,
} from "../media/index.ts";
import { MediaStreamDecorator } from "../voice/index.ts";

/** How often a listener's instance says it still listens, and how long the call's instance believes it. */
export const WANT_INTERVAL_MS = 2_000;
const WANTED_FOR_MS = 3 * WANT_INTERVAL_MS;

/**
 * The call's side of live listen: a decorator of the media plane's handler (like recording) that
 * follows every audio stream on this instance. While someone wants a call's audio (a
 * `call:listen-wanted` event, from any instance, renewed every `WANT_INTERVAL_MS`), each frame of
 * the caller's audio is mixed with what the assistant played in the same 20 ms and published as
 * `call:live-audio` (through Redis with REDIS_URL, so a listener on another instance hears it); each
 * want is answered there first (`tapping`), so a listener knows when it hears every frame; at the
 * stream's close an end is published. Nobody listening costs a queue of the assistant's frames,
 * never a decode. Publishing never waits: a slow listener or bus cannot slow the call.
 */
export class LiveTaps implements MediaStreamHandler, Lifecycle {
  private readonly taps = new Map<number, CallTap>();
  private wants: AsyncIterator<{ callId: number }> | null = null;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly inner: MediaStreamHandler,
  ) {}

  start(): void {
    const wants = this.deps.pubsub.subscribe("call:listen-wanted")[Symbol.asyncIterator]();
    this.wants = wants;
    void (async () => {
      for (;;) {
        const { done, value } = await wants.next();
        if (done) return;
        this.taps.get(value.callId)?.want(Date.now() + WANTED_FOR_MS);
      }
    })().catch((error: unknown) => this.deps.logger.error("live listen: wants stopped", { error }));
  }

  async stop(): Promise<void> {
    await this.wants?.return?.();
    this.wants = null;
  }

  handle(stream: MediaStream): void | Promise<void> {
    // A simulated call's stream carries words, not audio: there is nothing to hear.
    if (stream.text) return this.inner.handle(stream);
    const tap = new CallTap(stream.format, (payload) =>
      this.deps.pubsub.publish("call:live-audio", stream.callId, payload),
    );
    this.taps.set(stream.callId, tap);
    stream.onClose(() => {
      if (this.taps.get(stream.callId) === tap) this.taps.delete(stream.callId);
      tap.end();
    });
    return this.inner.handle(new TappedStream(stream, tap));
  }
}

/**
 * One call's live mix on the call's own clock, the caller's audio (streamed without a gap, silence
 * included): the assistant's audio is heard after what was queued before it, from when it is sent at
 * the earliest, as `CallMix` records it; a barge-in drops what was not played yet.
 */
class CallTap {
  /** The assistant's audio not yet reached by the caller's clock, in the stream's format. */
  private queued: Uint8Array[] = [];
  private queuedBytes = 0;
  private position = 0;
  private wantedUntil = 0;
  private everWanted = false;
  private readonly bytesPerSample: number;
  private readonly maxQueuedBytes: number;

  constructor(
    private readonly format: MediaFormat,
    private readonly publish: (
      payload: { position: number; audio: string } | { ended: true } | { tapping: true },
    ) => void,
  ) {
    // Bytes of the stream's format per sample of the 8 kHz mix.
    this.bytesPerSample = (format.sampleRate / 8000) * (format.encoding === "pcmu" ? 1 : 2);
    this.maxQueuedBytes = LIVE_LISTEN_LIMITS.assistantQueueSeconds * 8000 * this.bytesPerSample;
  }

  want(until: number): void {
    this.wantedUntil = until;
    this.everWanted = true;
    // Published before any frame the want lets through, on the same channel: a listener that hears
    // it is subscribed (through Redis too) and hears every frame after it.
    this.publish({ tapping: true });
  }

  caller(frame: Uint8Array): void {
    const samples = Math.floor(frame.length / this.bytesPerSample);
    const wanted = Date.now() <= this.wantedUntil && samples > 0;
    const assistant = this.take(samples * this.bytesPerSample, wanted);
    const at = this.position;
    this.position += samples;
    if (!wanted) return;
    const mixed = this.at8k(frame);
    if (assistant) {
      const other = this.at8k(assistant);
      for (let i = 0; i < mixed.length && i < other.length; i++) {
        mixed[i] = Math.min(32767, Math.max(-32768, mixed[i]! + other[i]!));
      }
    }
    this.publish({ position: at, audio: Buffer.from(pcmToMuLaw(mixed)).toString("base64") });
  }

  assistant(frame: Uint8Array): void {
    if (this.queuedBytes + frame.length > this.maxQueuedBytes) return;
    this.queued.push(frame);
    this.queuedBytes += frame.length;
  }

  clear(): void {
    this.queued = [];
    this.queuedBytes = 0;
  }

  end(): void {
    if (this.everWanted) this.publish({ ended: true });
  }

  /** The next `bytes` of the assistant's queued audio (null when nothing is queued, or `keep` is false). */
  private take(bytes: number, keep: boolean): Uint8Array | null {
    if (this.queuedBytes === 0) return null;
    const out = keep ? new Uint8Array(bytes) : null;
    let filled = 0;
    while (filled < bytes && this.queued.length > 0) {
      const head = this.queued[0]!;
      const used = Math.min(head.length, bytes - filled);
      out?.set(head.subarray(0, used), filled);
      filled += used;
      if (used === head.length) this.queued.shift();
      else this.queued[0] = head.subarray(used);
    }
    this.queuedBytes -= filled;
    return out;
  }

  private at8k(bytes: Uint8Array): Int16Array {
    return resample(decodeAudio(this.format, bytes), this.format.sampleRate, 8000);
  }
}

/** The stream the engine sees: the same, with the caller's audio and the assistant's passing the tap. */
class TappedStream extends MediaStreamDecorator {
  private tapped = false;

  constructor(
    stream: MediaStream,
    private readonly tap: CallTap,
  ) {
    super(stream);
  }

  // The tap rides on the engine's own listener: a listener of its own would take the audio the
  // stream kept for the engine while it loaded the call.
  override onAudio(listener: (frame: Uint8Array) => void) {
    if (this.tapped) return this.stream.onAudio(listener);
    this.tapped = true;
    this.stream.onAudio((frame) => {
      this.tap.caller(frame);
      listener(frame);
    });
  }

  override sendAudio(frame: Uint8Array) {
    this.tap.assistant(frame);
    this.stream.sendAudio(frame);
  }

  override clearAudio() {
    this.tap.clear();
    this.stream.clearAudio();
  }
}
