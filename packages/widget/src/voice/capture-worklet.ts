/**
 * The microphone's AudioWorklet processor, as source text: it runs in the audio thread, so it is
 * loaded from a Blob URL rather than bundled. It downsamples the context's rate to the wire rate by
 * averaging the input samples each output sample covers (a cheap low-pass that keeps speech clean
 * at 16 kHz), converts to 16-bit PCM and posts 20 ms frames to the main thread.
 */
export const CAPTURE_PROCESSOR = "voxgate-capture";

export const captureWorkletSource = `
class VoxgateCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    this.ratio = sampleRate / options.processorOptions.wireRate;
    this.frameLength = options.processorOptions.wireRate / 50;
    this.frame = new Int16Array(this.frameLength);
    this.filled = 0;
    this.position = 0;
    this.sum = 0;
    this.count = 0;
  }
  process(inputs) {
    const channel = inputs[0] && inputs[0][0];
    if (!channel) return true;
    for (let i = 0; i < channel.length; i++) {
      this.sum += channel[i];
      this.count += 1;
      this.position += 1;
      if (this.position < this.ratio) continue;
      this.position -= this.ratio;
      const sample = Math.max(-1, Math.min(1, this.sum / this.count));
      this.sum = 0;
      this.count = 0;
      this.frame[this.filled++] = sample < 0 ? sample * 0x8000 : sample * 0x7fff;
      if (this.filled === this.frameLength) {
        // Transferred, not copied: the sent buffer is detached, so each frame gets a new one.
        this.port.postMessage(this.frame.buffer, [this.frame.buffer]);
        this.frame = new Int16Array(this.frameLength);
        this.filled = 0;
      }
    }
    return true;
  }
}
registerProcessor("${CAPTURE_PROCESSOR}", VoxgateCapture);
`;
