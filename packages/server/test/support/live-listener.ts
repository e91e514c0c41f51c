import WebSocket from "ws";
import { muLawToPcm } from "../../src/modules/media/index.ts";

/** A control message of the live listen socket. */
export interface ListenMessage {
  type: string;
  callId?: number;
  listenId?: number;
  format?: { encoding: string; sampleRate: number; frameMs: number };
}

/**
 * An operator's live listen from Node, by the documented protocol (docs/transfers.md#live-listen): the
 * listen message first, then binary frames of a 4-byte position and 8 kHz mu-law, and JSON control
 * messages.
 */
export class LiveListener {
  readonly received: ListenMessage[] = [];
  /** Each frame's first sample on the call's clock, in order of arrival. */
  readonly positions: number[] = [];
  /** Each frame's samples. */
  readonly lengths: number[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private readonly frames: Buffer[] = [];
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    this.closed = new Promise((resolve) =>
      socket.on("close", (code, reason) => {
        resolve({ code, reason: reason.toString() });
        this.wake();
      }),
    );
    socket.on("error", () => {});
    socket.on("message", (data: Buffer, isBinary) => {
      if (isBinary) {
        this.positions.push(data.readUInt32BE(0));
        this.lengths.push(data.length - 4);
        this.frames.push(Buffer.from(data.subarray(4)));
      } else this.received.push(JSON.parse(data.toString()) as ListenMessage);
      this.wake();
    });
  }

  /** Opens `ws://…/calls/live-audio` and, unless `hello` is null, says the listen message. */
  static async connect(
    wsBase: string,
    hello: { callId: number; authorization: string } | null,
  ): Promise<LiveListener> {
    const socket = new WebSocket(`${wsBase}/calls/live-audio`);
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    const listener = new LiveListener(socket);
    if (hello) socket.send(JSON.stringify({ type: "listen", ...hello }));
    return listener;
  }

  /** Every sample heard so far, 8 kHz linear. */
  samples(): Int16Array {
    return muLawToPcm(Buffer.concat(this.frames));
  }

  /** Samples of the call heard so far (8 kHz). */
  get samplesHeard(): number {
    return this.lengths.reduce((sum, length) => sum + length, 0);
  }

  get frameCount(): number {
    return this.frames.length;
  }

  /** Resolves once `test` holds (already or later), or the socket closed. */
  async waitFor(test: () => boolean): Promise<void> {
    while (!test() && this.socket.readyState !== WebSocket.CLOSED)
      await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  private wake() {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}
