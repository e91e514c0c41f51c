import type { StartedWebCall } from "../api-client.ts";
import { CAPTURE_PROCESSOR, captureWorkletSource } from "./capture-worklet.ts";

/** Where a web call stands, as the widget shows it. */
export type WebCallState = "connecting" | "live" | "ended";

/** Why a web call could not go on. */
export type WebCallFailure = "microphone-denied" | "call-failed";

export interface WebCallListener {
  onLive(): void;
  onTranscript(line: { speaker: "assistant" | "customer"; text: string }): void;
  /** The call is over: `status` is the call's final status (null when the connection just dropped). */
  onEnd(end: { status: string | null; reason: string; message: string | null }): void;
  onFailure(failure: WebCallFailure, message: string): void;
}

/** What the server sends on the call's socket (docs/voice.md, "Web calls"). */
type ServerMessage =
  | { type: "ready"; callId: number; sampleRate: number }
  | { type: "mark"; name: string }
  | { type: "clear" }
  | { type: "transcript"; speaker: "assistant" | "customer"; text: string }
  | { type: "end"; status: string; reason: string; message?: string };

/**
 * One web call in the browser: the microphone through an AudioWorklet that downsamples it to the
 * wire rate, PCM16 frames to the server's WebSocket, the assistant's audio played back through an
 * AudioContext in a queue (dropped at once on `clear`, when the visitor interrupts), and a `played`
 * acknowledgement for each mark once the audio before it has been played, so the server measures
 * latency at the visitor's ear. This module is loaded only when a visitor starts a call.
 */
export class WebCall {
  private context: AudioContext | null = null;
  private microphone: MediaStream | null = null;
  private socket: WebSocket | null = null;
  /** Sources scheduled to play, in order, with when they end (context time). */
  private playing: AudioBufferSourceNode[] = [];
  private playhead = 0;
  /** Marks waiting for the audio before them to finish playing. */
  private marks: { name: string; timer: ReturnType<typeof setTimeout> | null }[] = [];
  private finished = false;
  private live = false;

  constructor(private readonly listener: WebCallListener) {}

  /**
   * Opens the microphone (the browser asks the visitor) and the audio context, then connects with
   * the started call's token. Must be called from the visitor's click: browsers let audio start only then.
   */
  async connect(apiBase: string, started: StartedWebCall): Promise<void> {
    const context = new AudioContext();
    this.context = context;
    // Asked first, while the click still counts as the visitor's gesture.
    void context.resume();
    try {
      this.microphone = await navigator.mediaDevices.getUserMedia({
        audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true },
      });
    } catch (error) {
      this.fail("microphone-denied", error instanceof Error ? error.message : String(error));
      return;
    }
    if (this.finished) {
      // The visitor hung up while the browser asked for the microphone.
      for (const track of this.microphone.getTracks()) track.stop();
      return;
    }
    const worklet = URL.createObjectURL(new Blob([captureWorkletSource], { type: "text/javascript" }));
    try {
      await context.audioWorklet.addModule(worklet);
    } finally {
      URL.revokeObjectURL(worklet);
    }
    if (this.finished) return;
    const url = new URL(started.socket_path, apiBase.replace(/^http/, "ws"));
    url.searchParams.set("token", started.token);
    const socket = new WebSocket(url);
    socket.binaryType = "arraybuffer";
    this.socket = socket;
    // Without outputs the node is a sink the context pulls by itself, with nothing to play.
    const capture = new AudioWorkletNode(context, CAPTURE_PROCESSOR, {
      numberOfOutputs: 0,
      processorOptions: { wireRate: started.sample_rate },
    });
    capture.port.onmessage = (event: MessageEvent<ArrayBuffer>) => {
      if (socket.readyState === WebSocket.OPEN) socket.send(event.data);
    };
    context.createMediaStreamSource(this.microphone).connect(capture);
    socket.onmessage = (event: MessageEvent<ArrayBuffer | string>) => {
      if (typeof event.data === "string") this.control(JSON.parse(event.data) as ServerMessage);
      else this.play(event.data, started.sample_rate);
    };
    socket.onclose = (event) => {
      // Refused before the call went live (a used or expired token, no room on the server).
      if (!this.live) this.fail("call-failed", event.reason || `closed with ${event.code}`);
      else this.finish({ status: null, reason: "", message: null });
    };
  }

  /** The visitor hangs up. */
  hangUp(): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "hangup" }));
    this.socket?.close(1000);
    if (this.finished) return;
    this.release(true);
    this.listener.onEnd({ status: "ended_by_customer", reason: "", message: null });
  }

  private control(message: ServerMessage) {
    switch (message.type) {
      case "ready":
        this.live = true;
        this.listener.onLive();
        return;
      case "mark":
        this.queueMark(message.name);
        return;
      case "clear":
        this.clear();
        return;
      case "transcript":
        this.listener.onTranscript({ speaker: message.speaker, text: message.text });
        return;
      case "end":
        this.finish({ status: message.status, reason: message.reason, message: message.message ?? null });
        return;
    }
  }

  private play(data: ArrayBuffer, sampleRate: number) {
    const context = this.context;
    if (!context) return;
    const pcm = new Int16Array(data);
    const buffer = context.createBuffer(1, pcm.length, sampleRate);
    const samples = buffer.getChannelData(0);
    for (let i = 0; i < pcm.length; i++) samples[i] = pcm[i]! / 0x8000;
    const source = context.createBufferSource();
    source.buffer = buffer;
    source.connect(context.destination);
    this.playhead = Math.max(this.playhead, context.currentTime);
    source.start(this.playhead);
    this.playhead += buffer.duration;
    this.playing.push(source);
    source.onended = () => {
      this.playing = this.playing.filter((candidate) => candidate !== source);
    };
  }

  /** Acknowledged once the audio queued before it has played (at once when nothing is queued). */
  private queueMark(name: string) {
    const context = this.context;
    const wait = context ? Math.max(0, this.playhead - context.currentTime) : 0;
    const mark: { name: string; timer: ReturnType<typeof setTimeout> | null } = { name, timer: null };
    mark.timer = setTimeout(() => {
      this.marks = this.marks.filter((candidate) => candidate !== mark);
      this.acknowledge(name);
    }, wait * 1000);
    this.marks.push(mark);
  }

  /** Barge-in: what was queued is dropped; its marks come back at once, as the protocol says. */
  private clear() {
    for (const source of this.playing) source.stop();
    this.playing = [];
    this.playhead = 0;
    for (const mark of this.marks.splice(0)) {
      if (mark.timer !== null) clearTimeout(mark.timer);
      this.acknowledge(mark.name);
    }
  }

  private acknowledge(name: string) {
    if (this.socket?.readyState === WebSocket.OPEN)
      this.socket.send(JSON.stringify({ type: "played", name }));
  }

  private fail(failure: WebCallFailure, message: string) {
    if (this.finished) return;
    this.release();
    this.listener.onFailure(failure, message);
  }

  private finish(end: { status: string | null; reason: string; message: string | null }) {
    if (this.finished) return;
    this.release();
    this.listener.onEnd(end);
  }

  /**
   * The microphone light goes off at once; the audio context closes once what is queued has played
   * (the assistant's goodbye), unless the visitor hung up.
   */
  private release(now = false) {
    this.finished = true;
    for (const mark of this.marks.splice(0)) if (mark.timer !== null) clearTimeout(mark.timer);
    for (const track of this.microphone?.getTracks() ?? []) track.stop();
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) this.socket.close(1000);
    const context = this.context;
    if (!context) return;
    const remaining = now ? 0 : Math.max(0, this.playhead - context.currentTime);
    setTimeout(() => void context.close(), remaining * 1000);
  }
}
