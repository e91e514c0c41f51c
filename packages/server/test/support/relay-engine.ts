/**
 * The engine side of bench/voice's relay jitter, as its own process (forked by bench/voice/run.ts, with the node
 * flags of the variant measured): Twilio Media Streams over a real WebSocket server, the production
 * `TwilioMediaStreams` (stream tokens, JSON and base64 of each frame both ways, marks) handing each
 * stream to a multimodal `RealtimeSession` on the echoing model (`realtime-echo.ts`). The database
 * behind the tokens is a stand-in (a token is redeemed once, as the real one is).
 *
 * IPC from run.ts: see `relay-probe.ts`.
 */
import { WebSocketServer } from "ws";
import type { ServiceDeps } from "../../src/deps.ts";
import { MEDIA_STREAM_LIMITS } from "../../src/limits.ts";
import { createLogger } from "../../src/logger.ts";
import { PHONE_FORMAT, requestThreadSlice, threadSchedule } from "../../src/modules/media/index.ts";
import { TwilioMediaStreams } from "../../src/modules/telephony/twilio/media-streams.ts";
import { silenceEndpoint } from "../../src/modules/voice/detectors.ts";
import { RealtimeClient } from "../../src/modules/voice/realtime-client.ts";
import { RealtimeSession } from "../../src/modules/voice/realtime-session.ts";
import type { SessionSettings } from "../../src/modules/voice/session-ports.ts";
import { sileroBatchStats, sileroDetector, sileroDetectorOf } from "../../src/modules/voice/silero-vad.ts";
import { SileroWorker } from "../../src/modules/voice/silero-worker.ts";
import { serveRelayProbe } from "./relay-probe.ts";
import { RELAY_OPTIONS, SESSION_SETTINGS } from "./session-settings.ts";

const [echoPort, appendMs] = process.argv.slice(2).map(Number);
/**
 * `silero`: each call's local voice detector is Silero (batched inference on the relay's event loop)
 * instead of the energy one; `silero-stream`: Silero running each call's windows alone; `silero-wait-N`:
 * batched, a window waiting up to N ms for others; `silero-worker`: batched in a worker thread (what
 * `endpoint_type: silero` runs); `silero-worker-runs-N`: the same with model runs of up to N windows;
 * `none`: the energy detector.
 */
const detector = process.argv[4] ?? "";
// `slice`: the relay's thread asks for the 0.1 ms slice that `npm start` asks for (main.ts).
if (process.argv.slice(5).includes("slice")) {
  const outcome = await requestThreadSlice(process.pid, 100);
  if (outcome.status !== "set")
    throw new Error(`the relay thread's slice was not set: ${JSON.stringify(outcome)}`);
}
// `worker-background`: Silero's worker runs in the background of the relay's thread (VOXGATE_SILERO_WORKER_BACKGROUND).
const background = process.argv.slice(5).includes("worker-background");
const logger = createLogger("silent");
const sileroWorker = detector.startsWith("silero-worker")
  ? new SileroWorker(logger, {
      ...(detector.startsWith("silero-worker-runs-")
        ? { runWindows: Number(detector.slice("silero-worker-runs-".length)) }
        : {}),
      background,
    })
  : null;
const silero =
  detector === "silero"
    ? sileroDetector
    : sileroWorker
      ? sileroWorker.detector
      : detector === "silero-stream"
        ? sileroDetectorOf({ inference: "stream" })
        : detector.startsWith("silero-wait-")
          ? sileroDetectorOf({ batchWaitMs: Number(detector.slice("silero-wait-".length)) })
          : null;

// Every call of the bench is running, so the condition on the call's status always holds: a token is
// stored (issued), or taken once (redeemed).
const nonces = new Map<number, string>();
const prisma = {
  call: {
    updateMany: async ({
      where,
      data,
    }: {
      where: { id: number; mediaStreamNonce?: string };
      data: { mediaStreamNonce: string | null };
    }) => {
      if (data.mediaStreamNonce !== null) {
        nonces.set(where.id, data.mediaStreamNonce);
        return { count: 1 };
      }
      if (nonces.get(where.id) !== where.mediaStreamNonce) return { count: 0 };
      nonces.delete(where.id);
      return { count: 1 };
    },
  },
};
const deps = { db: { prisma }, logger } as unknown as ServiceDeps;

// The caller's frames come back as the model's voice: talking over it must not clear it.
const settings: SessionSettings = {
  ...SESSION_SETTINGS,
  allowInterruptions: false,
  ...(silero ? { turnDetector: silenceEndpoint(silero).turnDetector } : {}),
};
// The model is loaded before the calls come (as the service's first Silero call would, once per process).
silero?.(PHONE_FORMAT);
await sileroWorker?.whenReady();
if (background) {
  // The worker's scheduling is set once its first message is read: the bench measures it in place.
  for (let tries = 0; (await threadSchedule(sileroWorker?.threadId ?? 0)).policy !== 3; tries++) {
    if (tries === 100) throw new Error("the Silero worker was not put in the background");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
const realtime = new RealtimeClient(
  { baseUrl: `ws://127.0.0.1:${echoPort}/v1`, apiKey: "bench", model: "bench", dialect: "ga" },
  10,
  logger,
);
const ports = {
  logger,
  transcribe: async () => "",
  synthesize: async () => ({ sampleRate: 24_000, audio: (async function* () {})() }),
  turn: async () => {},
  hangUp: async () => {},
  callerLeft: async () => {},
  runFunction: async (name: string) => ({
    output: "{}",
    endCall: false,
    record: { name, arguments: {}, result: {}, error: null, duration_ms: 0 },
  }),
};
const streams = new TwilioMediaStreams(
  deps,
  "bench-auth-token",
  () => ({
    handle: async (stream) => {
      const model = await realtime.connect(stream.callId);
      stream.onClose(() => model.close());
      new RealtimeSession(stream, settings, ports, model, { ...RELAY_OPTIONS, appendMs: appendMs! }).start();
    },
  }),
  { startWithinMs: 10_000 },
);

const server = new WebSocketServer({
  host: "127.0.0.1",
  port: 0,
  maxPayload: MEDIA_STREAM_LIMITS.messageBytes,
});
server.on("connection", (socket, request) => {
  // The app's WebSocket layer gives every socket this listener before the media code sees it.
  socket.on("error", () => {});
  streams.accept(socket, request.socket);
});

serveRelayProbe(
  server,
  async (call) => (await streams.issueToken(call))!,
  sileroWorker ? () => sileroWorker.stats() : sileroBatchStats,
);
