/**
 * What the streaming text-to-speech clients share: one WebSocket per call carrying a context per
 * answer (ContextSocket), and the queue that hands a context's audio to its reader (ChunkQueue).
 */
import WebSocket from "ws";
import { UpstreamFailedError } from "../../errors.ts";
import type { SpeechChunk } from "./speech.ts";

/**
 * Chunks handed from a socket's messages to the one reader of `audio`: pushed as they come,
 * ended (or failed) once, read in order.
 */
export class ChunkQueue {
  private readonly chunks: SpeechChunk[] = [];
  private ended = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private stall: NodeJS.Timeout | null = null;

  /** `provider` names the provider in the failure of a stream that stalls once its text is complete. */
  constructor(
    private readonly provider: string,
    private readonly stallMs: number,
    private readonly onStall: () => void,
  ) {}

  push(chunk: SpeechChunk) {
    if (this.ended) return;
    this.chunks.push(chunk);
    if (this.stall) this.watch();
    this.notify();
  }

  /**
   * All the text was sent: from now on the provider owes audio, and silence past `stallMs` fails the
   * stream (the session then speaks the rest through its fallback) instead of holding the call.
   */
  watch() {
    if (this.ended) return;
    if (this.stall) clearTimeout(this.stall);
    this.stall = setTimeout(() => {
      this.end(new UpstreamFailedError(`${this.provider} text-to-speech stopped answering.`));
      this.onStall();
    }, this.stallMs);
  }

  end(failure?: Error) {
    if (this.ended) return;
    this.ended = true;
    if (this.stall) clearTimeout(this.stall);
    this.failure = failure ?? null;
    this.notify();
  }

  private notify() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  async *read(): AsyncGenerator<SpeechChunk> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (this.ended) {
        if (this.failure) throw this.failure;
        return;
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
    }
  }
}

/** Opens a socket, rejecting with `UpstreamFailedError` when it cannot. */
export function dial(url: string, headers: Record<string, string>, provider: string): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, { headers, handshakeTimeout: 10_000 });
    socket.once("open", () => resolve(socket));
    socket.once("error", () => {
      socket.terminate();
      reject(new UpstreamFailedError(`${provider} text-to-speech could not be reached.`));
    });
  });
}

/** What a context on the shared socket hears: its own messages, or the socket's loss. */
interface ContextHandlers {
  message(message: Record<string, unknown>): void;
  lost(error: Error): void;
}

/**
 * One call's socket to a provider, shared by the call's answers, each a context: opened on the
 * first need (or `warm`), opened again on the next need after the provider closed it, and closed
 * when the call ends. Messages go to the context they name; losing the socket fails the contexts
 * live on it, and nothing else: the next answer connects again.
 */
export class ContextSocket {
  private socket: WebSocket | null = null;
  private connecting: Promise<WebSocket> | null = null;
  private readonly contexts = new Map<string, ContextHandlers>();
  private closed = false;

  constructor(
    private readonly provider: string,
    private readonly connect: () => Promise<WebSocket>,
    /** The context a provider message is for. */
    private readonly contextOf: (message: Record<string, unknown>) => unknown,
    /** Said to the provider before the call's socket closes. */
    private readonly goodbye: Record<string, unknown> | null,
  ) {}

  warm() {
    this.ready().catch(() => {});
  }

  /** The open socket, connecting when there is none; a caller's `signal` stops its own wait only. */
  async ready(signal?: AbortSignal): Promise<WebSocket> {
    if (this.closed || signal?.aborted)
      throw new UpstreamFailedError(`${this.provider} text-to-speech was closed.`);
    if (this.socket?.readyState === WebSocket.OPEN) return this.socket;
    this.connecting ??= this.connect()
      .then((socket) => this.attach(socket))
      .finally(() => {
        this.connecting = null;
      });
    const connecting = this.connecting;
    if (!signal) return connecting;
    return new Promise((resolve, reject) => {
      const abort = () =>
        reject(new UpstreamFailedError(`${this.provider} text-to-speech was not needed any more.`));
      signal.addEventListener("abort", abort, { once: true });
      connecting.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
    });
  }

  private attach(socket: WebSocket): WebSocket {
    if (this.closed) {
      socket.close();
      throw new UpstreamFailedError(`${this.provider} text-to-speech was closed.`);
    }
    this.socket = socket;
    socket.on("message", (data) => {
      const message = parseJson(data);
      if (!message || typeof message !== "object") return;
      const record = message as Record<string, unknown>;
      const id = this.contextOf(record);
      if (typeof id === "string") this.contexts.get(id)?.message(record);
    });
    const lost = () => {
      if (this.socket === socket) this.socket = null;
      const error = new UpstreamFailedError(
        `${this.provider} text-to-speech closed the stream before its end.`,
      );
      for (const handlers of [...this.contexts.values()]) handlers.lost(error);
      this.contexts.clear();
    };
    socket.on("close", lost);
    socket.on("error", lost);
    return socket;
  }

  add(id: string, handlers: ContextHandlers) {
    this.contexts.set(id, handlers);
  }

  remove(id: string) {
    this.contexts.delete(id);
  }

  send(message: Record<string, unknown>) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  /** A provider that stopped answering: its socket is dropped (its contexts fail), the next answer connects again. */
  drop() {
    this.socket?.terminate();
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    if (this.goodbye) this.send(this.goodbye);
    this.socket?.close();
    this.socket = null;
  }
}

function parseJson(data: WebSocket.RawData): unknown {
  try {
    return JSON.parse(String(data));
  } catch {
    return null;
  }
}
