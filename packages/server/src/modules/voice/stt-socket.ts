import WebSocket from "ws";
import { UpstreamFailedError } from "../../errors.ts";
import { MAX_REALTIME_EVENT_BYTES } from "../../limits.ts";
import type { TranscriptionEvents, TranscriptionStream } from "./speech.ts";

/** Caller audio kept while the socket opens: past it the provider is too slow to be of use. */
const MAX_PENDING_BYTES = 16_000 * 2 * 5;

/**
 * A streaming transcription's WebSocket, what every provider shares: frames kept until it opens,
 * one `onError` for any failure (connect, HTTP refusal, the provider hanging up, a socket error),
 * and a close that the provider is told about before the socket goes.
 */
export abstract class TranscriptionSocket implements TranscriptionStream {
  protected readonly socket: WebSocket;
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  private failed = false;
  protected closing = false;

  constructor(
    url: string,
    headers: Record<string, string>,
    timeoutMs: number,
    protected readonly events: TranscriptionEvents,
  ) {
    this.socket = new WebSocket(url, {
      headers,
      maxPayload: MAX_REALTIME_EVENT_BYTES,
      // Audio barely compresses; deflating every frame would cost CPU per call for nothing.
      perMessageDeflate: false,
      handshakeTimeout: timeoutMs,
    });
    this.socket.once("open", () => {
      this.opened();
      for (const frame of this.pending) this.sendAudio(frame);
      this.pending = [];
      this.pendingBytes = 0;
    });
    this.socket.once("unexpected-response", (_request, response) => {
      this.socket.terminate();
      this.fail(new UpstreamFailedError(`speech-to-text answered HTTP ${response.statusCode}.`));
    });
    this.socket.on("error", () => this.fail(new UpstreamFailedError("speech-to-text could not be reached.")));
    this.socket.on("close", () => {
      if (!this.closing) this.fail(new UpstreamFailedError("speech-to-text closed the stream."));
    });
    this.socket.on("message", (data, isBinary) => {
      if (isBinary || this.failed) return;
      let message: unknown;
      try {
        message = JSON.parse(data.toString());
      } catch {
        return;
      }
      if (message && typeof message === "object") this.received(message as Record<string, unknown>);
    });
  }

  push(frame: Uint8Array): void {
    if (this.failed || this.closing) return;
    if (this.socket.readyState === WebSocket.OPEN) {
      this.sendAudio(frame);
      return;
    }
    if (this.socket.readyState !== WebSocket.CONNECTING) return;
    if (this.pendingBytes + frame.length > MAX_PENDING_BYTES) {
      this.socket.terminate();
      this.fail(new UpstreamFailedError("speech-to-text did not connect in time."));
      return;
    }
    this.pending.push(frame.slice());
    this.pendingBytes += frame.length;
  }

  close(): void {
    if (this.closing) return;
    this.closing = true;
    this.pending = [];
    if (this.socket.readyState === WebSocket.OPEN) this.closed();
    else this.socket.terminate();
  }

  /** The socket is open: configure the provider. */
  protected abstract opened(): void;
  /** One frame of caller audio to the provider. */
  protected abstract sendAudio(frame: Uint8Array): void;
  /** One JSON message from the provider. */
  protected abstract received(message: Record<string, unknown>): void;
  /** Our side ends the stream (the socket is open). */
  protected abstract closed(): void;

  protected sendJson(message: Record<string, unknown>) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Reports the first failure only, and stops listening to the provider. */
  protected fail(error: Error) {
    if (this.failed || this.closing) return;
    this.failed = true;
    this.pending = [];
    if (this.socket.readyState === WebSocket.OPEN) this.socket.terminate();
    this.events.onError(error);
  }
}
