import { html, LitElement, nothing } from "lit";
import type { ConsoleApi } from "./api/client.ts";
import { shared, tokens } from "./styles.ts";

/** The player's AudioWorklet processor, as source text (it runs in the audio thread: a Blob URL). */
const PLAYER_PROCESSOR = "vx-live-player";
const playerWorkletSource = `
class VxLivePlayer extends AudioWorkletProcessor {
  constructor() {
    super();
    this.queue = [];
    this.offset = 0;
    this.played = 0;
    this.port.onmessage = (event) => {
      // More than 2 s behind: the oldest audio goes, so the operator hears the call as it is now.
      this.queue.push(event.data);
      while (this.queue.length > 100) this.queue.shift();
    };
  }
  process(_inputs, outputs) {
    const out = outputs[0][0];
    let i = 0;
    while (i < out.length && this.queue.length > 0) {
      const head = this.queue[0];
      const n = Math.min(out.length - i, head.length - this.offset);
      out.set(head.subarray(this.offset, this.offset + n), i);
      i += n;
      this.offset += n;
      this.played += n;
      if (this.offset === head.length) { this.queue.shift(); this.offset = 0; }
    }
    out.fill(0, i);
    if (i > 0) this.port.postMessage(this.played);
    return true;
  }
}
registerProcessor("${PLAYER_PROCESSOR}", VxLivePlayer);
`;

/** G.711 mu-law to linear, as floats in [-1, 1]. */
const MU_LAW = new Float32Array(256).map((_, byte) => {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const magnitude = ((((u & 0x0f) << 3) + 0x84) << exponent) - 0x84;
  return (u & 0x80 ? -magnitude : magnitude) / 32768;
});

type State = "idle" | "connecting" | "listening" | "ended" | "refused";

/**
 * Live listen to a running call: the server's mixed audio (caller and assistant, 8 kHz mu-law in
 * 20 ms frames after a 4-byte position) played through Web Audio: an AudioWorklet in an 8 kHz
 * context, or a ScriptProcessor where worklets are missing.
 *
 * @summary Listen to a live call.
 * @event vx-listen-ended - The listen ended (the call ended, or the server refused or closed it).
 */
export class VxLiveListen extends LitElement {
  static override styles = [tokens, shared];
  static override properties = {
    callId: { attribute: false },
    api: { attribute: false },
    state: { state: true },
    message: { state: true },
  };
  declare callId: number;
  declare api: ConsoleApi;
  declare state: State;
  declare message: string;
  /** Frames received and samples played so far: what the console's tests (and curious operators) read. */
  framesReceived = 0;
  samplesPlayed = 0;
  /** The loudest level (RMS, 0-1) the analyser has measured of what was played. */
  peakLevel = 0;
  #socket: WebSocket | null = null;
  #context: AudioContext | null = null;
  #push: ((samples: Float32Array) => void) | null = null;
  #meter: number | undefined;

  constructor() {
    super();
    this.state = "idle";
    this.message = "";
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.stop();
  }

  private async start(): Promise<void> {
    this.state = "connecting";
    this.message = "";
    // Created in the click: browsers only let a page start audio on a gesture.
    const context = new AudioContext({ sampleRate: 8000 });
    this.#context = context;
    const analyser = context.createAnalyser();
    analyser.fftSize = 256;
    analyser.connect(context.destination);
    this.#push = await this.player(context, analyser);
    const levels = new Float32Array(analyser.fftSize);
    this.#meter = window.setInterval(() => {
      analyser.getFloatTimeDomainData(levels);
      const level = Math.sqrt(levels.reduce((sum, v) => sum + v * v, 0) / levels.length);
      this.peakLevel = Math.max(this.peakLevel, level);
    }, 50);

    const socket = this.api.listenToCall(this.callId);
    this.#socket = socket;
    socket.addEventListener("message", (event) => {
      if (typeof event.data === "string") {
        const message = JSON.parse(event.data) as { type: string };
        if (message.type === "listening") this.state = "listening";
        return;
      }
      const bytes = new Uint8Array(event.data as ArrayBuffer, 4);
      const samples = new Float32Array(bytes.length);
      for (let i = 0; i < bytes.length; i++) samples[i] = MU_LAW[bytes[i]!]!;
      this.framesReceived++;
      this.#push?.(samples);
    });
    socket.addEventListener("close", (event) => {
      if (this.#socket !== socket) return;
      this.state = event.code === 1000 ? "ended" : "refused";
      this.message =
        event.code === 1000
          ? "The call ended."
          : `Listening stopped: ${event.reason || "the connection closed"}.`;
      this.release();
      this.dispatchEvent(new CustomEvent("vx-listen-ended", { bubbles: true, composed: true }));
    });
  }

  /** A sink for decoded frames, connected to `output`: an AudioWorklet, or a ScriptProcessor without one. */
  private async player(context: AudioContext, output: AudioNode): Promise<(samples: Float32Array) => void> {
    if (context.audioWorklet) {
      const url = URL.createObjectURL(new Blob([playerWorkletSource], { type: "text/javascript" }));
      try {
        await context.audioWorklet.addModule(url);
      } finally {
        URL.revokeObjectURL(url);
      }
      const node = new AudioWorkletNode(context, PLAYER_PROCESSOR, { outputChannelCount: [1] });
      node.port.onmessage = (event) => {
        this.samplesPlayed = event.data as number;
      };
      node.connect(output);
      return (samples) => node.port.postMessage(samples, [samples.buffer]);
    }
    const queue: Float32Array[] = [];
    const node = context.createScriptProcessor(1024, 0, 1);
    node.onaudioprocess = (event) => {
      const out = event.outputBuffer.getChannelData(0);
      let i = 0;
      while (i < out.length && queue.length > 0) {
        const head = queue[0]!;
        const n = Math.min(out.length - i, head.length);
        out.set(head.subarray(0, n), i);
        i += n;
        this.samplesPlayed += n;
        if (n === head.length) queue.shift();
        else queue[0] = head.subarray(n);
      }
      out.fill(0, i);
    };
    node.connect(output);
    return (samples) => {
      queue.push(samples);
      while (queue.length > 100) queue.shift();
    };
  }

  stop(): void {
    const socket = this.#socket;
    this.#socket = null;
    socket?.close(1000);
    this.release();
    if (this.state === "connecting" || this.state === "listening") this.state = "idle";
  }

  private release(): void {
    window.clearInterval(this.#meter);
    this.#push = null;
    void this.#context?.close();
    this.#context = null;
  }

  override render() {
    const live = this.state === "connecting" || this.state === "listening";
    return html`
      <p class="row">
        ${
          live
            ? html`<button @click=${() => this.stop()}>Stop listening</button>
              <span role="status">${this.state === "listening" ? "Listening live…" : "Connecting…"}</span>`
            : html`<button @click=${() => void this.start()}>Listen</button>`
        }
      </p>
      ${this.message ? html`<p role="status" class="muted">${this.message}</p>` : nothing}
    `;
  }
}
