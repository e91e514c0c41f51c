import type { MediaStream } from "../media/index.ts";

/**
 * A media stream handing everything to the one it wraps: the decorators of the media plane
 * (recording, ambient sound) override only what they change.
 */
export class MediaStreamDecorator implements MediaStream {
  constructor(protected readonly stream: MediaStream) {}

  get callId() {
    return this.stream.callId;
  }

  get streamId() {
    return this.stream.streamId;
  }

  get format() {
    return this.stream.format;
  }

  get text() {
    return this.stream.text;
  }

  onAudio(listener: (frame: Uint8Array) => void) {
    this.stream.onAudio(listener);
  }

  onMark(listener: (name: string) => void) {
    this.stream.onMark(listener);
  }

  onDtmf(listener: (digit: string) => void) {
    this.stream.onDtmf(listener);
  }

  onClose(listener: () => void) {
    this.stream.onClose(listener);
  }

  sendAudio(frame: Uint8Array) {
    this.stream.sendAudio(frame);
  }

  sendMark(name: string) {
    this.stream.sendMark(name);
  }

  clearAudio() {
    this.stream.clearAudio();
  }

  close() {
    this.stream.close();
  }
}
