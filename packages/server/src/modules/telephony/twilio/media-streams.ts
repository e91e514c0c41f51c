import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { RawData, WebSocket } from "ws";
import type { ServiceDeps } from "../../../deps.ts";
import { MEDIA_STREAM_LIMITS } from "../../../limits.ts";
import { updateRunningCall } from "../../calls/call-record.ts";
import { ACTIVE_DB_STATUSES } from "../../calls/call-status.ts";
import { MediaStreamBase, type MediaStreamHandler, PHONE_FORMAT } from "../../media/index.ts";

/**
 * Twilio Media Streams: the bidirectional WebSocket Twilio opens for `<Connect><Stream>`. The
 * TwiML carries a stream token (a `<Parameter>`): signed with a key derived from the auth token,
 * naming the call, valid for `MEDIA_STREAM_LIMITS.tokenSeconds` and usable once (its nonce is
 * stored on the call and cleared when presented, in one conditional write, so two instances
 * cannot both accept it). A forged, expired or replayed token, or one of a call that has ended,
 * closes the socket; the call is not touched. Accepted streams go to the voice engine as `MediaStream`s.
 */
export class TwilioMediaStreams {
  private readonly key: Buffer;

  constructor(
    private readonly deps: ServiceDeps,
    authToken: string,
    private readonly handler: () => MediaStreamHandler,
    /** How long an opened socket may go without its `start` (VOXGATE_WS_INIT_TIMEOUT_SECONDS). */
    private readonly options: { startWithinMs: number },
  ) {
    this.key = createHmac("sha256", authToken).update("voxgate media stream token").digest();
  }

  /**
   * A new token for the call's next stream; an earlier unused one stops working. Null when the call
   * has ended (or does not exist): an ended call is final, and gets no stream.
   */
  async issueToken(callId: number, now = Date.now()): Promise<string | null> {
    const nonce = randomBytes(12).toString("base64url");
    if (!(await updateRunningCall(this.deps.db.prisma, callId, { mediaStreamNonce: nonce }))) return null;
    const expires = Math.floor(now / 1000) + MEDIA_STREAM_LIMITS.tokenSeconds;
    const body = `${callId}.${expires}.${nonce}`;
    return `${body}.${this.sign(body)}`;
  }

  /** The call a token opens, consuming it; null when it is forged, expired or already used, or the call ended. */
  async redeemToken(token: string, now = Date.now()): Promise<number | null> {
    const match = /^(\d{1,9})\.(\d{1,12})\.([\w-]{16})\.([\w-]{43})$/.exec(token);
    if (!match) return null;
    const [, callId, expires, nonce, signature] = match;
    const expected = Buffer.from(this.sign(`${callId}.${expires}.${nonce}`));
    if (!timingSafeEqual(expected, Buffer.from(signature!))) return null;
    if (Number(expires) * 1000 < now) return null;
    const { count } = await this.deps.db.prisma.call.updateMany({
      where: { id: Number(callId), mediaStreamNonce: nonce!, status: { in: [...ACTIVE_DB_STATUSES] } },
      data: { mediaStreamNonce: null },
    });
    return count === 1 ? Number(callId) : null;
  }

  private sign(body: string): string {
    return createHmac("sha256", this.key).update(body).digest("base64url");
  }

  /**
   * Speaks Twilio's protocol on one connected socket; `connection` is the TCP (or TLS) connection under
   * it (the upgrade request's socket), corked to put a mark in the same write as the audio before it.
   */
  accept(socket: WebSocket, connection: Corkable): void {
    const { logger } = this.deps;
    let stream: TwilioMediaStream | null = null;
    let starting = false;
    /** Caller audio that arrives while the token is checked: the start of what the caller says. */
    const early: Uint8Array[] = [];
    let windowStart = Date.now();
    let messages = 0;
    const refuse = (why: string) => {
      logger.warn("twilio media stream refused", { why });
      socket.close(1008, why);
    };
    // Twilio starts the stream at once and then sends audio every 20 ms: a socket that does not start,
    // or goes silent, holds a connection for nothing.
    let deadline = setTimeout(() => refuse("no start"), this.options.startWithinMs).unref();
    socket.once("close", () => clearTimeout(deadline));
    socket.on("message", (data: RawData, isBinary: boolean) => {
      deadline.refresh();
      const now = Date.now();
      if (now - windowStart >= 1000) {
        windowStart = now;
        messages = 0;
      }
      if (++messages > MEDIA_STREAM_LIMITS.messagesPerSecond) return refuse("too many messages");
      if (isBinary) return refuse("binary message");
      let message: TwilioMessage;
      try {
        message = JSON.parse(data.toString()) as TwilioMessage;
      } catch {
        return refuse("not JSON");
      }
      switch (message.event) {
        case "connected":
          return;
        case "start": {
          if (stream || starting) return refuse("second start");
          starting = true;
          clearTimeout(deadline);
          deadline = setTimeout(() => refuse("silent"), MEDIA_STREAM_LIMITS.idleSeconds * 1000).unref();
          const token = message.start?.customParameters?.token;
          const streamSid = message.start?.streamSid ?? message.streamSid;
          if (typeof token !== "string" || typeof streamSid !== "string") return refuse("no token");
          this.redeemToken(token)
            .then((callId) => {
              if (callId === null) return refuse("invalid or used token, or call ended");
              if (socket.readyState !== socket.OPEN) return;
              stream = new TwilioMediaStream(callId, streamSid, socket, connection);
              for (const frame of early.splice(0)) stream.emitAudio(frame);
              logger.info("twilio media stream connected", { callId, streamSid });
              return this.handler().handle(stream);
            })
            .catch((error: unknown) => {
              logger.error("twilio media stream failed to start", { error });
              socket.close(1011, "server error");
            });
          return;
        }
        case "media":
          if (!stream && !starting) return refuse("media before start");
          if (typeof message.media?.payload !== "string") return;
          if (message.media.track && message.media.track !== "inbound") return;
          if (stream) stream.emitAudio(Buffer.from(message.media.payload, "base64"));
          else if (early.length < MEDIA_STREAM_LIMITS.bufferedFrames)
            early.push(Buffer.from(message.media.payload, "base64"));
          return;
        case "mark":
          if (typeof message.mark?.name === "string") stream?.emitMark(message.mark.name);
          return;
        case "dtmf":
          if (typeof message.dtmf?.digit === "string" && /^[0-9*#]$/.test(message.dtmf.digit))
            stream?.emitDtmf(message.dtmf.digit);
          return;
        case "stop":
          socket.close(1000);
          return;
        default:
          return;
      }
    });
    socket.on("close", () => stream?.emitClose());
  }
}

interface TwilioMessage {
  event?: string;
  streamSid?: string;
  start?: { streamSid?: string; callSid?: string; customParameters?: Record<string, unknown> };
  media?: { track?: string; payload?: unknown };
  mark?: { name?: unknown };
  dtmf?: { digit?: unknown };
}

/** The connection under a WebSocket: what it writes between `cork` and `uncork` leaves in one write. */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** Audio in one outgoing `media` message at most: 1 s of 8 kHz mu-law (about 11 KB of base64). */
const MEDIA_MESSAGE_BYTES = 8000;

/** One accepted stream, as the voice engine sees it. */
class TwilioMediaStream extends MediaStreamBase {
  private readonly mediaPrefix: string;
  /** Audio sent in this turn of the event loop, not yet on the socket. */
  private outgoing = Buffer.allocUnsafe(MEDIA_MESSAGE_BYTES);
  private outgoingBytes = 0;
  private readonly flush = () => this.sendOutgoing();

  constructor(
    callId: number,
    streamId: string,
    private readonly socket: WebSocket,
    private readonly connection: Corkable,
  ) {
    super(callId, streamId, PHONE_FORMAT, MEDIA_STREAM_LIMITS.bufferedFrames);
    this.mediaPrefix = `{"event":"media","streamSid":${JSON.stringify(streamId)},"media":{"payload":"`;
  }

  /**
   * The frames the engine sends in one go (a model's delta of 60 ms is three) leave as one `media`
   * message at the end of the event loop's turn: one JSON message, base64 and socket write instead of
   * one per 20 ms (Twilio plays a message's payload whatever its length). The message is built as a
   * string around the base64 (which needs no escaping); frames are copied, as a sender may reuse them.
   * A long burst (a sentence's speech at once) is cut into messages of at most `MEDIA_MESSAGE_BYTES`.
   */
  sendAudio(muLaw: Uint8Array) {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (this.outgoingBytes === 0) queueMicrotask(this.flush);
    if (this.outgoingBytes + muLaw.length > this.outgoing.length) {
      const grown = Buffer.allocUnsafe(2 * (this.outgoingBytes + muLaw.length));
      this.outgoing.copy(grown, 0, 0, this.outgoingBytes);
      this.outgoing = grown;
    }
    this.outgoing.set(muLaw, this.outgoingBytes);
    this.outgoingBytes += muLaw.length;
    if (this.outgoingBytes >= MEDIA_MESSAGE_BYTES) this.sendOutgoing();
  }
  /**
   * After the audio sent before it, in the same system call: a mark follows a burst every 100 ms of
   * audio, and as a write of its own it was a fifth of a relayed call's socket writes (bench/voice).
   */
  sendMark(name: string) {
    this.connection.cork();
    this.sendOutgoing();
    this.send({ event: "mark", streamSid: this.streamId, mark: { name } });
    this.connection.uncork();
  }
  clearAudio() {
    this.outgoingBytes = 0;
    this.send({ event: "clear", streamSid: this.streamId });
  }
  close() {
    this.sendOutgoing();
    this.socket.close(1000);
  }

  private sendOutgoing() {
    if (this.outgoingBytes === 0) return;
    const payload = this.outgoing.toString("base64", 0, this.outgoingBytes);
    this.outgoingBytes = 0;
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(`${this.mediaPrefix}${payload}"}}`);
  }

  private send(message: unknown) {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }
}
