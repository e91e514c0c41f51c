import WebSocket from "ws";
import { pcmFromBytes, resample } from "../../src/modules/media/index.ts";
import { decodeTones, synthesizeTones } from "./fake-speech.ts";

/** A control message Voxgate sent on a web call's socket. */
export interface WebCallMessage {
  type: string;
  name?: string;
  speaker?: string;
  text?: string;
  status?: string;
  reason?: string;
  message?: string;
}

/**
 * A browser's web call from Node, by the protocol the widget speaks: PCM16 mono little-endian at
 * the wire rate in binary frames, JSON control messages; each `mark` is acknowledged with
 * `played` (the audio before it has been "played" at once). Audio goes out faster than real time:
 * the engine keeps time by the audio.
 */
export class WebCallClient {
  readonly received: WebCallMessage[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private audio: Buffer[] = [];
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly socket: WebSocket,
    readonly sampleRate: number,
  ) {
    this.closed = new Promise((resolve) =>
      socket.on("close", (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.wake();
      }),
    );
    socket.on("message", (data: Buffer, isBinary) => {
      if (isBinary) this.audio.push(Buffer.from(data));
      else {
        const message = JSON.parse(data.toString()) as WebCallMessage;
        this.received.push(message);
        if (message.type === "mark") this.send({ type: "played", name: message.name });
      }
      this.wake();
    });
  }

  /** Opens the socket at `url` (ws://host/widget/web-call) with `token`, as a page of `origin`. */
  static async connect(url: string, token: string, options: { origin?: string; sampleRate?: number } = {}) {
    const socket = new WebSocket(`${url}?token=${encodeURIComponent(token)}`, {
      ...(options.origin ? { origin: options.origin } : {}),
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    return new WebCallClient(socket, options.sampleRate ?? 16_000);
  }

  send(message: Record<string, unknown>) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** The visitor says `text` (tone speech) in 20 ms frames, followed by `silenceMs` of silence. */
  speak(text: string, silenceMs = 1000) {
    this.sendPcm(synthesizeTones(text, this.sampleRate), silenceMs);
  }

  /** The microphone picks up `pcm` (at the call's rate) in 20 ms frames, followed by `silenceMs` of silence. */
  sendPcm(pcm: Int16Array, silenceMs = 0) {
    const all = new Int16Array(pcm.length + (this.sampleRate / 1000) * silenceMs);
    all.set(pcm);
    const frame = (this.sampleRate / 50) * 2;
    const bytes = Buffer.from(all.buffer, all.byteOffset, all.byteLength);
    for (let offset = 0; offset < bytes.length; offset += frame)
      this.sendBytes(bytes.subarray(offset, offset + frame));
  }

  sendBytes(bytes: Uint8Array) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(bytes);
  }

  /** What the assistant said since the last call, read back from its audio. */
  takeSpeech(): string {
    return decodeTones(resample(this.takeAudio(), this.sampleRate, 8000), 8000);
  }

  /** The audio received since the last call, as samples. */
  takeAudio(): Int16Array {
    return pcmFromBytes(Buffer.concat(this.audio.splice(0)));
  }

  /** Bytes of audio received and not taken yet. */
  get audioBytes(): number {
    return this.audio.reduce((sum, chunk) => sum + chunk.length, 0);
  }

  count(type: string) {
    return this.received.filter((message) => message.type === type).length;
  }

  /** Resolves once `test` holds (already or later), or the socket closed. */
  async waitFor(test: (received: WebCallMessage[]) => boolean): Promise<void> {
    while (!test(this.received) && this.socket.readyState !== WebSocket.CLOSED)
      await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  close() {
    this.socket.close(1000);
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
