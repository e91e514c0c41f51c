import type { RawData, WebSocket } from "ws";
import { z } from "zod";
import type { Lifecycle, ServiceDeps } from "../../deps.ts";
import { LIVE_LISTEN_LIMITS } from "../../limits.ts";
import type { AuthService, CredentialStreams, StreamEnd, Viewer } from "../auth/index.ts";
import type { ListenAudit } from "./listen-audit.ts";
import { WANT_INTERVAL_MS } from "./live-tap.ts";

/** Where an account's operators listen to its live calls (`attachWebSocket` routes it here). */
export const LIVE_AUDIO_PATH = "/calls/live-audio";

/** What a listener is sent: the format of every binary frame after it. */
export const LIVE_AUDIO_FORMAT = {
  encoding: "pcmu",
  sampleRate: 8000,
  frameMs: 20,
  header: "uint32 big-endian: the frame's first sample on the call's clock",
} as const;

/** Close codes a listener may get; the reasons are fixed phrases, never what failed inside. */
export const LISTEN_CLOSE = {
  ended: 1000,
  going: 1001,
  badRequest: 4400,
  unauthorized: 4401,
  /** No such call in the listener's account: another account's call gets the same answer. */
  notFound: 4404,
  timeout: 4408,
  /** The account's call, but it is not live, or carries no audio (a simulated call). */
  notLive: 4409,
  tooMany: 4429,
} as const;

const Hello = z.object({
  type: z.literal("listen"),
  callId: z.number().int().positive().max(2_147_483_647),
  authorization: z.string().min(1).max(512),
});

type AudioEvent =
  | { position: number; audio: string }
  | { ended: true }
  | { tapping: true }
  | { credential: StreamEnd };

/**
 * The listener's side of live listen (docs/transfers.md#live-listen). A socket says who it is in its
 * first message (`{"type":"listen","callId":…,"authorization":"Bearer …"}`: no credential in a URL
 * that proxies log); the call must be the credential's account's, in progress and carrying audio.
 * It then hears `call:live-audio` from whichever instance carries the call (the pub/sub crosses
 * instances through Redis), asks for it every `WANT_INTERVAL_MS`, and is closed when the call ends,
 * its audio stops, or the credential is revoked. It is told `listening` once the call's instance
 * answered through that channel: from then on it hears every frame. Every listen is a row of the
 * audit log.
 */
export class ListenSockets implements Lifecycle {
  private readonly perCall = new Map<number, number>();
  private readonly perAccount = new Map<number, number>();
  private readonly open = new Set<(reason: string) => void>();
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly deps: ServiceDeps,
    private readonly parts: { auth: AuthService; credentialStreams: CredentialStreams; audit: ListenAudit },
  ) {}

  start(): void {}

  /** Listens still open end (and are written to the audit log) before the database closes. */
  async stop(): Promise<void> {
    for (const end of [...this.open]) end("server_closing");
    await Promise.allSettled([...this.writing]);
  }

  accept(socket: WebSocket, clientAddress: string): void {
    const hello = setTimeout(
      () => socket.close(LISTEN_CLOSE.timeout, "Say listen first"),
      LIVE_LISTEN_LIMITS.helloSeconds * 1000,
    );
    socket.once("close", () => clearTimeout(hello));
    socket.once("message", (data: RawData, isBinary: boolean) => {
      clearTimeout(hello);
      void this.admit(socket, data, isBinary, clientAddress).catch((error: unknown) => {
        this.deps.logger.error("live listen failed", { error });
        socket.close(1011, "Internal server error");
      });
    });
  }

  private async admit(socket: WebSocket, data: RawData, isBinary: boolean, clientAddress: string) {
    const refuse = (code: number, reason: string) => {
      this.deps.logger.warn("live listen refused", { clientAddress, code, reason });
      socket.close(code, reason);
    };
    let parsed: unknown = null;
    try {
      parsed = isBinary ? null : JSON.parse(String(data));
    } catch {
      // Not JSON: refused below as any malformed hello.
    }
    const hello = Hello.safeParse(parsed);
    if (!hello.success) return refuse(LISTEN_CLOSE.badRequest, "Expected a listen message");
    const { viewer } = await this.parts.auth.authenticate(hello.data.authorization);
    if (!viewer) return refuse(LISTEN_CLOSE.unauthorized, "Unauthorized");
    const call = await this.deps.db.prisma.call.findFirst({
      where: { id: hello.data.callId, accountId: viewer.accountId },
      select: { id: true, status: true, type: true, providerName: true },
    });
    if (!call) return refuse(LISTEN_CLOSE.notFound, "Call not found");
    // A simulated phone call speaks in text turns: there is no audio to hear.
    if (call.status !== "in_progress" || (call.type !== "web" && call.providerName === "simulated")) {
      return refuse(LISTEN_CLOSE.notLive, "Call is not live");
    }
    const forCall = this.perCall.get(call.id) ?? 0;
    const forAccount = this.perAccount.get(viewer.accountId) ?? 0;
    if (forCall >= LIVE_LISTEN_LIMITS.perCall || forAccount >= LIVE_LISTEN_LIMITS.perAccount) {
      return refuse(LISTEN_CLOSE.tooMany, "Too many listeners");
    }
    if (socket.readyState !== socket.OPEN) return;
    this.perCall.set(call.id, forCall + 1);
    this.perAccount.set(viewer.accountId, forAccount + 1);
    const listenId = await this.parts.audit.started(viewer, call.id, clientAddress);
    this.listen(socket, viewer, call.id, listenId);
  }

  private listen(socket: WebSocket, viewer: Viewer, callId: number, listenId: number) {
    const { pubsub, logger } = this.deps;
    let sent = 0;
    let dropped = 0;
    let ended = false;
    let announced = false;
    const audio = pubsub.subscribe("call:live-audio", callId)[Symbol.asyncIterator]();
    const events = this.parts.credentialStreams.watch<AudioEvent>(viewer, audio, (credential) => ({
      credential,
    }));
    // Another instance's end of the call (or the call's instance gone) is told by its status too.
    const statuses = pubsub.subscribe("call:status", viewer.accountId)[Symbol.asyncIterator]();
    const asking = setInterval(() => pubsub.publish("call:listen-wanted", { callId }), WANT_INTERVAL_MS);
    asking.unref();
    let lastAudio = Date.now();
    const silence = setInterval(() => {
      if (Date.now() - lastAudio > LIVE_LISTEN_LIMITS.noAudioSeconds * 1000) end("no_audio");
    }, 1000);
    silence.unref();

    const end = (reason: string) => {
      if (ended) return;
      ended = true;
      this.open.delete(end);
      clearInterval(asking);
      clearInterval(silence);
      this.release(callId, viewer.accountId);
      void events.return?.();
      void statuses.return?.();
      if (socket.readyState === socket.OPEN) {
        if (reason === "call_ended") socket.send(JSON.stringify({ type: "ended" }));
        const [code, phrase] =
          reason === "call_ended"
            ? [LISTEN_CLOSE.ended, "Call ended"]
            : reason === "revoked"
              ? [LISTEN_CLOSE.unauthorized, "Credential revoked"]
              : reason === "no_audio"
                ? [LISTEN_CLOSE.notLive, "Call is not live"]
                : reason === "server_closing"
                  ? [LISTEN_CLOSE.going, "Going away"]
                  : [LISTEN_CLOSE.badRequest, "Nothing to say after listen"];
        socket.close(code, phrase);
      }
      const written = this.parts.audit
        .ended(listenId, reason, sent, dropped)
        .catch((error: unknown) => logger.error("a listen's end could not be logged", { listenId, error }))
        .finally(() => this.writing.delete(written));
      this.writing.add(written);
    };
    this.open.add(end);
    socket.once("close", () => end("listener_closed"));
    // A listener has nothing more to say: anything else it sends ends the listen.
    socket.on("message", () => end("listener_spoke"));
    // It may have left while its listen was being written to the audit log.
    if (socket.readyState !== socket.OPEN) return end("listener_closed");

    void (async () => {
      for (;;) {
        const { done, value } = await statuses.next();
        if (done) return;
        if (value.callId === callId && value.status !== "in-progress" && value.status !== "in_progress") {
          return end("call_ended");
        }
      }
    })().catch((error: unknown) => logger.warn("live listen: statuses stopped", { error }));
    void (async () => {
      for (;;) {
        const { done, value } = await events.next();
        if (done || ended) return;
        if ("credential" in value) return end("revoked");
        if ("ended" in value) return end("call_ended");
        // Told only now: the call's instance hears a want some time after it is asked (through Redis,
        // this instance's subscription may not even be made yet), and audio the caller sent meanwhile
        // was never published. Whatever came through this channel proves both: from here on the
        // listener hears every frame. Until then the want is asked again every `WANT_INTERVAL_MS`.
        if (!announced) {
          announced = true;
          socket.send(JSON.stringify({ type: "listening", callId, listenId, format: LIVE_AUDIO_FORMAT }));
        }
        if ("tapping" in value) continue;
        lastAudio = Date.now();
        // A listener that cannot keep up misses audio; the call, which published it, never waits.
        if (socket.bufferedAmount > LIVE_LISTEN_LIMITS.bufferedBytes) {
          dropped++;
          continue;
        }
        const payload = Buffer.from(value.audio, "base64");
        const frame = Buffer.allocUnsafe(4 + payload.length);
        frame.writeUInt32BE(value.position >>> 0, 0);
        payload.copy(frame, 4);
        socket.send(frame, { binary: true });
        sent++;
      }
    })().catch((error: unknown) => {
      logger.error("live listen: audio stopped", { error });
      end("server_closing");
    });
    // Asked for only now: the loops above subscribed first (a subscription is made on its first
    // read), so the answer to the want finds this instance listening (through Redis, usually).
    pubsub.publish("call:listen-wanted", { callId });
  }

  private release(callId: number, accountId: number) {
    const forCall = (this.perCall.get(callId) ?? 1) - 1;
    if (forCall > 0) this.perCall.set(callId, forCall);
    else this.perCall.delete(callId);
    const forAccount = (this.perAccount.get(accountId) ?? 1) - 1;
    if (forAccount > 0) this.perAccount.set(accountId, forAccount);
    else this.perAccount.delete(accountId);
  }
}
