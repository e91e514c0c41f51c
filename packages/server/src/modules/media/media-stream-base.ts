import type { MediaFormat, MediaStream } from "./stream.ts";

/**
 * The listener side of a `MediaStream`, shared by the transports (Twilio Media Streams, the
 * browser's web call): audio received before the engine listens (it loads the call first) is kept,
 * up to `bufferedFrames`, and handed over when it does; close is told once, also to late listeners.
 */
export abstract class MediaStreamBase implements MediaStream {
  private readonly audio: ((frame: Uint8Array) => void)[] = [];
  private readonly marks: ((name: string) => void)[] = [];
  private readonly digits: ((digit: string) => void)[] = [];
  private readonly closes: (() => void)[] = [];
  private pending: Uint8Array[] | null = [];
  private closed = false;

  constructor(
    readonly callId: number,
    readonly streamId: string,
    readonly format: MediaFormat,
    private readonly bufferedFrames: number,
  ) {}

  abstract sendAudio(frame: Uint8Array): void;
  abstract sendMark(name: string): void;
  abstract clearAudio(): void;
  abstract close(): void;

  onAudio(listener: (frame: Uint8Array) => void) {
    this.audio.push(listener);
    const pending = this.pending ?? [];
    this.pending = null;
    for (const frame of pending) listener(frame);
  }
  onMark(listener: (name: string) => void) {
    this.marks.push(listener);
  }
  onDtmf(listener: (digit: string) => void) {
    this.digits.push(listener);
  }
  onClose(listener: () => void) {
    if (this.closed) listener();
    else this.closes.push(listener);
  }

  emitAudio(frame: Uint8Array) {
    if (this.pending) {
      if (this.pending.length < this.bufferedFrames) this.pending.push(frame);
      return;
    }
    for (const listener of this.audio) listener(frame);
  }
  emitMark(name: string) {
    for (const listener of this.marks) listener(name);
  }
  emitDtmf(digit: string) {
    for (const listener of this.digits) listener(digit);
  }
  emitClose() {
    if (this.closed) return;
    this.closed = true;
    for (const listener of this.closes) listener();
  }
}
