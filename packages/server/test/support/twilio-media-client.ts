import WebSocket from "ws";
import { muLawToPcm, pcmToMuLaw } from "../../src/modules/media/index.ts";
import { decodeTones, synthesizeTones } from "./fake-speech.ts";

/**
 * Connects to Voxgate's Media Streams endpoint as Twilio does (connected, then start with the
 * TwiML's custom parameters, then 20 ms mu-law media frames, mark echoes, stop), and keeps what
 * Voxgate sends back. Frames go out faster than real time: the engine keeps time by the audio.
 */
export class TwilioMediaClient {
  readonly received: { event: string; name?: string }[] = [];
  /** Inbound mu-law audio from Voxgate, concatenated. */
  private audio: number[] = [];
  /** Samples of audio Voxgate has sent so far (what the caller heard, 8 kHz). */
  heardSamples = 0;
  /** When false, marks are kept (audio "still playing") until `ackMarks`. */
  autoAckMarks = true;
  private heldMarks: string[] = [];
  private sequence = 0;
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: (() => void)[] = [];

  private constructor(
    private readonly socket: WebSocket,
    readonly streamSid: string,
  ) {
    this.closed = new Promise((resolve) =>
      socket.on("close", (code, reason) => resolve({ code, reason: reason.toString() })),
    );
    socket.on("message", (data) => {
      const message = JSON.parse(data.toString()) as {
        event: string;
        media?: { payload: string };
        mark?: { name: string };
      };
      if (message.event === "media") {
        const muLaw = Buffer.from(message.media!.payload, "base64");
        this.audio.push(...muLaw);
        this.heardSamples += muLaw.length;
      } else
        this.received.push({ event: message.event, ...(message.mark ? { name: message.mark.name } : {}) });
      if (message.event === "mark") {
        if (this.autoAckMarks) this.send({ event: "mark", mark: { name: message.mark!.name } });
        else this.heldMarks.push(message.mark!.name);
      }
      if (message.event === "clear") {
        // Twilio returns the marks of the audio it dropped.
        for (const name of this.heldMarks.splice(0)) this.send({ event: "mark", mark: { name } });
      }
      for (const waiter of this.waiters.splice(0)) waiter();
    });
  }

  static async connect(
    url: string,
    token: string | null,
    streamSid = `MZ${Math.random().toString(16).slice(2)}`,
  ) {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const client = new TwilioMediaClient(socket, streamSid);
    client.send({ event: "connected", protocol: "Call", version: "1.0.0" });
    client.send({
      event: "start",
      start: {
        streamSid,
        accountSid: "AC00000000000000000000000000000000",
        callSid: "CA00000000000000000000000000000000",
        tracks: ["inbound"],
        customParameters: token === null ? {} : { token },
        mediaFormat: { encoding: "audio/x-mulaw", sampleRate: 8000, channels: 1 },
      },
    });
    return client;
  }

  send(message: Record<string, unknown>) {
    if (this.socket.readyState !== WebSocket.OPEN) return;
    this.socket.send(
      JSON.stringify({ ...message, sequenceNumber: String(++this.sequence), streamSid: this.streamSid }),
    );
  }

  /** The caller says `text` (tone speech), followed by `silenceMs` of silence. */
  speak(text: string, silenceMs = 1000) {
    this.sendPcm(synthesizeTones(text, 8000));
    this.silence(silenceMs);
  }

  /** The caller says recorded speech (8 kHz PCM, e.g. espeak-ng's), followed by `silenceMs` of silence. */
  play(pcm: Int16Array, silenceMs = 1000) {
    this.sendPcm(pcm);
    this.silence(silenceMs);
  }

  silence(ms: number) {
    this.sendPcm(new Int16Array(8 * ms));
  }

  private sendPcm(pcm: Int16Array) {
    const muLaw = pcmToMuLaw(pcm);
    for (let offset = 0; offset < muLaw.length; offset += 160) {
      this.send({
        event: "media",
        media: {
          track: "inbound",
          chunk: "1",
          timestamp: "0",
          payload: Buffer.from(muLaw.subarray(offset, offset + 160)).toString("base64"),
        },
      });
    }
  }

  /** Plays the first `count` held marks' audio (all by default). */
  ackMarks(count = this.heldMarks.length) {
    for (const name of this.heldMarks.splice(0, count)) this.send({ event: "mark", mark: { name } });
  }

  /** What the assistant said since the last call, read back from its audio. */
  takeSpeech(): string {
    return this.decode(this.takeAudio());
  }

  /** The assistant's audio since the last call, as the mu-law bytes Voxgate sent. */
  takeBytes(): Buffer {
    const audio = Buffer.from(this.audio);
    this.audio = [];
    return audio;
  }

  /** The assistant's audio since the last call, as 8 kHz PCM. */
  takeAudio(): Int16Array {
    const audio = Uint8Array.from(this.audio);
    this.audio = [];
    return muLawToPcm(audio);
  }

  /** Tone speech read back from 8 kHz PCM. */
  decode(pcm: Int16Array): string {
    return decodeTones(pcm, 8000);
  }

  /** Resolves once a message matching `test` has arrived (already or later). */
  async waitFor(test: (received: TwilioMediaClient["received"]) => boolean): Promise<void> {
    while (!test(this.received)) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  stop() {
    this.send({
      event: "stop",
      stop: {
        accountSid: "AC00000000000000000000000000000000",
        callSid: "CA00000000000000000000000000000000",
      },
    });
  }

  close() {
    this.socket.close();
  }
}
