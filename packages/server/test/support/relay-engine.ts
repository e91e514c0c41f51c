/**
 * The engine side of bench/voice's relay jitter, as its own process (forked by bench/voice/run.ts, with the node
 * flags of the variant measured): Twilio Media Streams over a real WebSocket server, the production
 * `TwilioMediaStreams` (stream tokens, JSON and base64 of each frame both ways, marks) handing each
 * stream to a multimodal `RealtimeSession` on the echoing model (`realtime-echo.ts`). The database
 * behind the tokens is a stand-in (a token is redeemed once, as the real one is).
 *
 * IPC from run.ts: `{ tokens: n }` → `{ port, tokens }`; `{ begin: true }` starts the measured window;
 * `{ end: true }` → `{ cpuUs, gc, loopDelayP99Ms }` (engine CPU in the window, its GC pauses as epoch
 * ms with durations, and its event loop's delay).
 */
import { monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";
import { WebSocketServer } from "ws";
import type { ServiceDeps } from "../../src/deps.ts";
import { MEDIA_STREAM_LIMITS } from "../../src/limits.ts";
import { createLogger } from "../../src/logger.ts";
import { TwilioMediaStreams } from "../../src/modules/telephony/twilio/media-streams.ts";
import { RealtimeClient } from "../../src/modules/voice/realtime-client.ts";
import { RealtimeSession } from "../../src/modules/voice/realtime-session.ts";
import type { SessionSettings } from "../../src/modules/voice/voice-session.ts";
import { RELAY_OPTIONS, SESSION_SETTINGS } from "./session-settings.ts";

const [echoPort, appendMs] = process.argv.slice(2).map(Number);
const logger = createLogger("silent");

const nonces = new Map<number, string>();
const prisma = {
  call: {
    update: async ({ where, data }: { where: { id: number }; data: { mediaStreamNonce: string } }) => {
      nonces.set(where.id, data.mediaStreamNonce);
    },
    updateMany: async ({ where }: { where: { id: number; mediaStreamNonce: string } }) => {
      if (nonces.get(where.id) !== where.mediaStreamNonce) return { count: 0 };
      nonces.delete(where.id);
      return { count: 1 };
    },
  },
};
const deps = { db: { prisma }, logger } as unknown as ServiceDeps;

// The caller's frames come back as the model's voice: talking over it must not clear it.
const settings: SessionSettings = { ...SESSION_SETTINGS, allowInterruptions: false };
const realtime = new RealtimeClient(
  { baseUrl: `ws://127.0.0.1:${echoPort}/v1`, apiKey: "bench", model: "bench", dialect: "ga" },
  10,
  logger,
);
const ports = {
  logger,
  transcribe: async () => "",
  synthesize: async () => (async function* () {})(),
  turn: async () => {},
  hangUp: async () => {},
  callerLeft: async () => {},
  runFunction: async () => ({ output: "{}", endCall: false }),
};
const streams = new TwilioMediaStreams(deps, "bench-auth-token", () => ({
  handle: async (stream) => {
    const model = await realtime.connect(stream.callId);
    stream.onClose(() => model.close());
    new RealtimeSession(stream, settings, ports, model, { ...RELAY_OPTIONS, appendMs: appendMs! }).start();
  },
}));

const server = new WebSocketServer({
  host: "127.0.0.1",
  port: 0,
  maxPayload: MEDIA_STREAM_LIMITS.messageBytes,
});
server.on("connection", (socket) => streams.accept(socket));

const gc: [number, number][] = [];
let measuring = false;
new PerformanceObserver((list) => {
  if (!measuring) return;
  for (const entry of list.getEntries()) gc.push([performance.timeOrigin + entry.startTime, entry.duration]);
}).observe({ entryTypes: ["gc"] });
const loop = monitorEventLoopDelay({ resolution: 1 });
let cpuAtBegin = process.cpuUsage();

process.on("message", async (message: { tokens?: number; begin?: true; end?: true }) => {
  if (message.tokens) {
    const tokens: string[] = [];
    for (let call = 1; call <= message.tokens; call++) tokens.push(await streams.issueToken(call));
    const address = server.address();
    process.send!({ port: typeof address === "object" && address ? address.port : 0, tokens });
  } else if (message.begin) {
    measuring = true;
    gc.length = 0;
    loop.reset();
    loop.enable();
    cpuAtBegin = process.cpuUsage();
  } else if (message.end) {
    measuring = false;
    loop.disable();
    const cpu = process.cpuUsage(cpuAtBegin);
    process.send!({
      cpuUs: cpu.user + cpu.system,
      gc,
      loopDelayP99Ms: loop.percentile(99) / 1e6,
    });
  }
});
process.send!({ ready: true });
