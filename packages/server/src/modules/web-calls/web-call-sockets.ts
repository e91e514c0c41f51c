import type { IncomingMessage } from "node:http";
import type { RawData, WebSocket } from "ws";
import type { Clock } from "../../clock.ts";
import type { ServiceDeps } from "../../deps.ts";
import { WEB_CALL_LIMITS } from "../../limits.ts";
import { isFinal, toApiStatus } from "../calls/index.ts";
import {
  AT_CAPACITY_REASON,
  AT_CAPACITY_WORDS,
  type MediaCapacity,
  MediaStreamBase,
  type MediaStreamHandler,
  WEB_FORMAT,
} from "../media/index.ts";
import type { CallCarrier, CallEventSink } from "../telephony/index.ts";
import { originAllowed } from "../widget/origins.ts";
import { readWebCallToken } from "./web-call-token.ts";

/** The WebSocket path browsers open with `?token=` (routed in src/http/websocket.ts). */
export const WEB_CALL_PATH = "/widget/web-call";

/** 20 ms of browser audio (PCM16 at the wire rate), the unit handed to the engine. */
const WIRE_FRAME_BYTES = (WEB_CALL_LIMITS.sampleRate / 50) * 2;

/** What the transport needs of the calls service (the one writer of calls). */
export interface WebCallDesk extends CallEventSink {
  customerHungUp(callId: number): Promise<void>;
}

/** Control messages the browser may send. */
type BrowserMessage = { type: "played"; name: string } | { type: "dtmf"; digit: string } | { type: "hangup" };

/**
 * The browser's half of a web call: a WebSocket carrying PCM16 mono little-endian audio at
 * `WEB_CALL_LIMITS.sampleRate` both ways in binary frames, and JSON control messages in text frames
 * (docs/voice.md#web-calls). A connection presents its single-use token; once it is redeemed the
 * call goes in progress (billed by the minute from there) and its audio reaches the voice engine
 * as a `MediaStream`, like a phone call's. It is also the carrier of web calls: a hang-up asked by
 * Voxgate (the assistant, the balance, max duration) ends the socket, on this instance directly
 * and on another through the call's status event.
 */
export class WebCallSockets implements Pick<CallCarrier, "hangUp"> {
  private readonly live = new Map<number, WebCallConnection>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: {
      desk: WebCallDesk;
      engine: () => MediaStreamHandler;
      capacity: MediaCapacity;
      /** The clock tokens are dated by (WebCallsService's). */
      clock: Clock;
    },
  ) {}

  async hangUp(call: { callId: number; answered?: boolean }, farewell?: string): Promise<void> {
    const connection = this.live.get(call.callId);
    if (connection && farewell) connection.farewell = farewell;
    await this.parts.desk.callEvent({ callId: call.callId, status: call.answered ? "ended" : "failed" });
    await connection?.finishFromStore();
  }

  /** Speaks the web call protocol on one connected socket. */
  accept(socket: WebSocket, request: IncomingMessage): void {
    const { logger } = this.deps;
    const refuse = (code: number, why: string) => {
      logger.warn("web call socket refused", { why });
      socket.close(code, why);
    };
    const token = new URL(request.url ?? "/", "http://localhost").searchParams.get("token") ?? "";
    const named = readWebCallToken(token, this.parts.clock.now().getTime());
    if (!named) {
      refuse(1008, "invalid or expired token");
      return;
    }
    const origin = typeof request.headers.origin === "string" ? request.headers.origin : null;
    // Audio sent while the token is checked is the start of what the visitor says: kept.
    const early: Buffer[] = [];
    const earlyListener = (data: RawData, isBinary: boolean) => {
      if (isBinary && early.length < 50) early.push(Buffer.from(data as Buffer));
    };
    socket.on("message", earlyListener);
    this.admit(named.callId, named.digest, origin)
      .then((admitted) => {
        socket.off("message", earlyListener);
        if (admitted.outcome === "refused") return refuse(1008, admitted.why);
        if (socket.readyState !== socket.OPEN) {
          // The visitor left while the call was being connected.
          void this.parts.desk.callEvent({
            callId: named.callId,
            status: "failed",
            reason: "The visitor left.",
          });
          return;
        }
        if (admitted.outcome === "full") {
          socket.send(
            JSON.stringify({ type: "end", status: "failed", reason: "capacity", message: AT_CAPACITY_WORDS }),
          );
          socket.close(1013, "at capacity");
          return;
        }
        const connection = new WebCallConnection(this.deps, socket, admitted.call, this.parts.desk, () =>
          this.live.delete(admitted.call.id),
        );
        this.live.set(admitted.call.id, connection);
        for (const frame of early) connection.audioIn(frame);
        logger.info("web call connected", { callId: admitted.call.id });
        return this.parts.engine().handle(connection.stream);
      })
      .catch((error: unknown) => {
        logger.error("web call failed to start", { error });
        socket.close(1011, "server error");
      });
  }

  /**
   * Checks the page's origin against the assistant's allow-list (as it is now), spends the token
   * and connects the call; a call the instance has no room for fails before it costs anything.
   */
  private async admit(
    callId: number,
    digest: string,
    origin: string | null,
  ): Promise<
    | { outcome: "refused"; why: string }
    | { outcome: "full" }
    | { outcome: "connected"; call: { id: number; accountId: number } }
  > {
    const prisma = this.deps.db.prisma;
    const call = await prisma.call.findFirst({
      where: { id: callId, type: "web", mediaStreamNonce: digest },
      select: { id: true, accountId: true, status: true, assistant: { select: { allowedOrigins: true } } },
    });
    if (!call?.assistant) return { outcome: "refused", why: "invalid or used token" };
    // Failed meanwhile: the browser came after the connect deadline (and the refund).
    if (call.status !== "initiated") return { outcome: "refused", why: "call ended" };
    if (!originAllowed(call.assistant.allowedOrigins, origin))
      return { outcome: "refused", why: "origin not allowed" };
    const { count } = await prisma.call.updateMany({
      where: { id: callId, mediaStreamNonce: digest, status: "initiated" },
      data: { mediaStreamNonce: null },
    });
    if (count !== 1) return { outcome: "refused", why: "invalid or used token" };
    if (this.parts.capacity.full()) {
      await this.parts.desk.callEvent({ callId, status: "failed", reason: AT_CAPACITY_REASON });
      return { outcome: "full" };
    }
    await this.parts.desk.callEvent({ callId, status: "in-progress" });
    return { outcome: "connected", call: { id: call.id, accountId: call.accountId } };
  }
}

/** One connected web call. */
class WebCallConnection {
  readonly stream: BrowserMediaStream;
  /** Words Voxgate ends the call with (a goodbye), shown by the widget. */
  farewell: string | undefined;
  private carry = Buffer.alloc(0);
  private windowStart = Date.now();
  private messages = 0;
  private idle: NodeJS.Timeout;
  private readonly stops: (() => void)[] = [];
  private finished = false;

  constructor(
    private readonly deps: ServiceDeps,
    private readonly socket: WebSocket,
    private readonly call: { id: number; accountId: number },
    private readonly desk: WebCallDesk,
    private readonly forget: () => void,
  ) {
    this.stream = new BrowserMediaStream(call.id, socket);
    this.idle = this.armIdle();
    socket.on("message", (data: RawData, isBinary: boolean) => this.message(data as Buffer, isBinary));
    socket.on("close", () => this.closed());
    this.follow();
    this.send({ type: "ready", callId: call.id, sampleRate: WEB_CALL_LIMITS.sampleRate });
  }

  audioIn(bytes: Buffer) {
    let data = this.carry.length > 0 ? Buffer.concat([this.carry, bytes]) : bytes;
    const whole = data.length - (data.length % WIRE_FRAME_BYTES);
    for (let offset = 0; offset < whole; offset += WIRE_FRAME_BYTES) {
      this.stream.emitAudio(data.subarray(offset, offset + WIRE_FRAME_BYTES));
    }
    data = data.subarray(whole);
    this.carry = Buffer.from(data);
  }

  /** Reads how the call ended and tells the browser, then closes; once. */
  async finishFromStore() {
    if (this.finished) return;
    const call = await this.deps.db.prisma.call.findUnique({
      where: { id: this.call.id },
      select: { status: true, endReason: true },
    });
    if (!call || !isFinal(toApiStatus(call.status))) return;
    this.finish(toApiStatus(call.status), call.endReason);
  }

  private finish(status: string, reason: string) {
    if (this.finished) return;
    this.finished = true;
    this.send({ type: "end", status, reason, ...(this.farewell ? { message: this.farewell } : {}) });
    this.socket.close(1000);
  }

  private message(data: Buffer, isBinary: boolean) {
    const now = Date.now();
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.messages = 0;
    }
    if (++this.messages > WEB_CALL_LIMITS.messagesPerSecond) return this.refuse("too many messages");
    clearTimeout(this.idle);
    this.idle = this.armIdle();
    if (isBinary) return this.audioIn(data);
    if (data.length > WEB_CALL_LIMITS.controlBytes) return this.refuse("control message too large");
    let message: BrowserMessage;
    try {
      message = JSON.parse(data.toString()) as BrowserMessage;
    } catch {
      return this.refuse("not JSON");
    }
    switch (message?.type) {
      case "played":
        if (typeof message.name === "string") this.stream.emitMark(message.name);
        return;
      case "dtmf":
        if (typeof message.digit === "string" && /^[0-9*#]$/.test(message.digit))
          this.stream.emitDtmf(message.digit);
        return;
      case "hangup":
        this.socket.close(1000);
        return;
      default:
        return;
    }
  }

  private refuse(why: string) {
    this.deps.logger.warn("web call socket closed", { callId: this.call.id, why });
    this.socket.close(1008, why);
  }

  private armIdle() {
    return setTimeout(() => this.refuse("idle"), WEB_CALL_LIMITS.idleSeconds * 1000).unref();
  }

  /** The call's end (decided anywhere) and its transcript, as they happen. */
  private follow() {
    const { pubsub, db } = this.deps;
    const statuses = pubsub.subscribe("call:status", this.call.accountId);
    const turns = pubsub.subscribe("call:turn", this.call.accountId);
    this.stops.push(
      () => void statuses.return?.(),
      () => void turns.return?.(),
    );
    const run = async () => {
      for await (const event of statuses) {
        if (event.callId !== this.call.id || !isFinal(event.status as never)) continue;
        await this.finishFromStore();
      }
    };
    const transcript = async () => {
      for await (const event of turns) {
        if (event.callId !== this.call.id) continue;
        const turn = await db.prisma.callTurn.findUnique({ where: { id: event.turnId } });
        // A hand-over's marker is the transcript's, not a line of the browser's conversation.
        if ((turn?.heardText || turn?.text) && turn.speaker !== "system")
          this.send({
            type: "transcript",
            speaker: turn.speaker,
            text: turn.heardText || turn.text,
            interrupted: turn.interrupted,
          });
      }
    };
    for (const loop of [run, transcript])
      loop().catch((error: unknown) =>
        this.deps.logger.warn("web call follow-up failed", { callId: this.call.id, error }),
      );
  }

  private closed() {
    clearTimeout(this.idle);
    for (const stop of this.stops) stop();
    this.forget();
    this.stream.emitClose();
    if (this.finished) return;
    // A close Voxgate did not ask for is the visitor hanging up; an end asked first is kept.
    const desk = this.desk;
    desk
      .customerHungUp(this.call.id)
      .then(() => desk.callEvent({ callId: this.call.id, status: "ended" }))
      .catch((error: unknown) =>
        this.deps.logger.error("web call end failed", { callId: this.call.id, error }),
      );
  }

  private send(message: unknown) {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }
}

/**
 * The browser's audio as it is on the wire (16 kHz PCM16): the engine converts what it needs, and a
 * realtime model gets PCM without passing through the phone's 8 kHz mu-law.
 */
class BrowserMediaStream extends MediaStreamBase {
  constructor(
    callId: number,
    private readonly socket: WebSocket,
  ) {
    super(callId, `web-${callId}`, WEB_FORMAT, 250);
  }

  sendAudio(frame: Uint8Array) {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(frame);
  }
  sendMark(name: string) {
    this.send({ type: "mark", name });
  }
  clearAudio() {
    this.send({ type: "clear" });
  }
  close() {
    this.socket.close(1000);
  }

  private send(message: unknown) {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }
}
