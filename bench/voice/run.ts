/**
 * What the voice engine adds to a call, on top of its speech and model services.
 *
 *   pnpm exec tsx bench/voice/run.ts [turns] [concurrent-calls] [relayed-calls] [append-ms,…] [rounds]
 *     [--only=turns,calls,providers,relay] [--provider-turns=100] [--no-pin] [--relays=0,2,3]
 *   (defaults 200, 100, 100, "20,60,100", 2; every part)
 *
 * 1. Turn latency: one pipeline session (packages/server/src/modules/voice) on an in-memory media
 *    stream, with in-process stand-ins for speech-to-text, the model and text-to-speech that answer
 *    at once. Measured: from the caller's frame that completes the end of turn to the first audio
 *    frame sent back. Baseline in the same run: the same stand-ins called directly in sequence (what
 *    the turn costs without the engine). Target: engine-added ≤ 30 ms p50, ≤ 50 ms p95.
 * 2. Concurrent calls: N sessions fed one 20 ms frame each every 20 ms (each caller speaks, pauses,
 *    gets an answer), measuring how late each tick runs (frame jitter) and the CPU a tick takes.
 *    Target: ≤ 1 ms p99 jitter at 100 calls.
 * 3. Multimodal relay: realtime sessions (multimodal mode) over real loopback WebSockets to a model
 *    that echoes each appended frame back as response audio at once (test/support/realtime-echo.ts,
 *    a child process). Measured: caller frame in → sent to the model → its audio delta → frame out to the
 *    caller, next to the baseline of a bare WebSocket client doing the same round trip to the same
 *    server; then the jitter of the frames sent back to N relayed calls, each call on its own 20 ms
 *    clock (see `relayJitter`), next to the same clocks with no engine and to a bare relay (nothing of
 *    ours), the relay pinned to one CPU and the carrier and model to another (`--no-pin`: not). Each of the append sizes
 *    given (caller audio per input_audio_buffer.append; 20 ms is one append per frame, as before
 *    batching) is measured in turn, `rounds` times, alternating, so that the machine's load falls on
 *    every size alike. The engine is measured twice: with the energy detector and with Silero as each
 *    call's local detector. Printed at the end: engine − bare relay, jitter p99, per round (issue #30's
 *    ≤ 0.5 ms), with the load average.
 * 4. Speech providers (run before 3.): pipeline turns through the production speech clients against
 *    their local fakes over loopback sockets, batch (OpenAI-compatible HTTP) against streaming (Deepgram
 *    live with Cartesia or ElevenLabs), from the caller frame that completes the turn to the first audio
 *    frame out, minus the fakes' own time measured by bare clients (see providers.ts). Target for
 *    streaming: engine-added ≤ 30 ms p50, ≤ 60 ms p95.
 */
import { execFileSync, fork } from "node:child_process";
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { createLogger } from "../../packages/server/src/logger.ts";
import { type MediaStream, PHONE_FORMAT, pcmToMuLaw } from "../../packages/server/src/modules/media/index.ts";
import { PipelineSession } from "../../packages/server/src/modules/voice/pipeline-session.ts";
import { RealtimeClient } from "../../packages/server/src/modules/voice/realtime-client.ts";
import { RealtimeSession } from "../../packages/server/src/modules/voice/realtime-session.ts";
import type { SessionSettings } from "../../packages/server/src/modules/voice/session-ports.ts";
import { synthesizeTones } from "../../packages/server/test/support/fake-speech.ts";
import { bareRoundTrips, REALTIME_ECHO_SCRIPT } from "../../packages/server/test/support/realtime-echo.ts";
import { RELAY_OPTIONS, SESSION_SETTINGS } from "../../packages/server/test/support/session-settings.ts";
import { providerLatency } from "./providers.ts";

const args = process.argv.slice(2).filter((arg) => !arg.startsWith("--"));
const TURNS = Number(args[0] ?? 200);
const CALLS = Number(args[1] ?? 100);
const RELAYED = Number(args[2] ?? 100);
const APPEND_SIZES = (args[3] ?? "20,60,100").split(",").map(Number);
const ROUNDS = Number(args[4] ?? 2);
const flag = (name: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? null;
/** Caller turns per path in part 4. */
const PROVIDER_TURNS = Number(flag("provider-turns") ?? 100);
/** The parts to run (`--only=turns,calls,providers,relay`; all by default). */
const PARTS = new Set((flag("only") ?? "turns,calls,providers,relay").split(","));
const load = () =>
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(" / ")} (1 / 5 / 15 min)`;
/**
 * The relay processes measured in turn against the same carrier: the bare relay (the baseline: sockets,
 * JSON, base64 and two hops, nothing of ours), then the engine with V8's defaults, and the engine with
 * Silero as every call's local voice detector (`endpoint_type: silero`; the carrier's frames are all
 * voice, so every 32 ms window is run through the model): batched across calls (the default), and each
 * call's windows run alone (`inference: "stream"`), and batched with windows waiting up to 5 ms for others
 * (`batchWaitMs`), and batched in a worker thread (what `endpoint_type: silero` runs: the model off the
 * relay's event loop). `--relays=` picks some by their index in this list (0, the bare relay, first).
 */
const RELAYS = [
  { name: "bare relay", script: "relay-bare.ts", flags: [] as string[], args: [] as string[] },
  { name: "engine (default flags)", script: "relay-engine.ts", flags: [] as string[], args: [] as string[] },
  { name: "engine + Silero VAD", script: "relay-engine.ts", flags: [] as string[], args: ["silero"] },
  {
    name: "engine + Silero per stream",
    script: "relay-engine.ts",
    flags: [] as string[],
    args: ["silero-stream"],
  },
  {
    name: "engine + Silero, batch wait 5 ms",
    script: "relay-engine.ts",
    flags: [] as string[],
    args: ["silero-wait-5"],
  },
  {
    name: "engine + Silero, worker thread",
    script: "relay-engine.ts",
    flags: [] as string[],
    args: ["silero-worker"],
  },
  // `npm start` and the image run the server with 4 MB semi-spaces (memory: bench/start); these two show
  // what that young generation does to the frame clock.
  {
    name: "engine, 4 MB semi-spaces",
    script: "relay-engine.ts",
    flags: ["--max-semi-space-size=4"],
    args: [] as string[],
  },
  {
    name: "engine + Silero worker, 4 MB semi-spaces",
    script: "relay-engine.ts",
    flags: ["--max-semi-space-size=4"],
    args: ["silero-worker"],
  },
  // The worker's model runs a batch 4 windows at a time and steps off the core between runs; this one
  // runs it whole (up to 32 windows), as it did before.
  {
    name: "engine + Silero worker, whole-batch runs",
    script: "relay-engine.ts",
    flags: [] as string[],
    args: ["silero-worker-runs-32"],
  },
  // `npm start` asks Linux for a 0.1 ms scheduling slice for the relay's thread (modules/media/thread-slice.ts):
  // a frame then preempts the worker's model run at once. These run the relay with it.
  {
    name: "engine + Silero worker, relay thread slice 0.1 ms",
    script: "relay-engine.ts",
    flags: [] as string[],
    args: ["silero-worker", "slice"],
  },
  {
    name: "engine, relay thread slice 0.1 ms",
    script: "relay-engine.ts",
    flags: [] as string[],
    args: ["none", "slice"],
  },
  {
    name: "engine + Silero worker, slice, 4 MB semi-spaces (npm start)",
    script: "relay-engine.ts",
    flags: ["--max-semi-space-size=4"],
    args: ["silero-worker", "slice"],
  },
  // Silero's worker in the background of the relay's thread (SCHED_BATCH, a 10 ms slice:
  // modules/voice/silero-worker.ts), beside the relay's 0.1 ms slice; then with V8's young-generation
  // collections on the relay's thread alone (no helper threads to wait for on a shared core).
  {
    name: "engine + Silero worker in the background, slice",
    script: "relay-engine.ts",
    flags: [] as string[],
    args: ["silero-worker", "slice", "worker-background"],
  },
  {
    name: "engine + Silero worker in the background, slice, single-threaded GC",
    script: "relay-engine.ts",
    flags: ["--single-threaded-gc"],
    args: ["silero-worker", "slice", "worker-background"],
  },
  {
    name: "engine + Silero worker in the background, slice, 4 MB semi-spaces",
    script: "relay-engine.ts",
    flags: ["--max-semi-space-size=4"],
    args: ["silero-worker", "slice", "worker-background"],
  },
  {
    name: "engine + Silero worker in the background, slice, 4 MB, no parallel scavenge",
    script: "relay-engine.ts",
    flags: ["--max-semi-space-size=4", "--no-parallel-scavenge"],
    args: ["silero-worker", "slice", "worker-background"],
  },
  // Scavenges without helper threads (on a shared core the relay's pause waits for them).
  {
    name: "engine, slice, 4 MB, no parallel scavenge",
    script: "relay-engine.ts",
    flags: ["--max-semi-space-size=4", "--no-parallel-scavenge"],
    args: ["none", "slice"],
  },
  {
    name: "engine, slice, 4 MB semi-spaces (npm start)",
    script: "relay-engine.ts",
    flags: ["--max-semi-space-size=4"],
    args: ["none", "slice"],
  },
  {
    name: "engine + Silero worker, slice, 4 MB, no parallel scavenge",
    script: "relay-engine.ts",
    flags: ["--max-semi-space-size=4", "--no-parallel-scavenge"],
    args: ["silero-worker", "slice"],
  },
];
const RELAYS_RUN = (flag("relays") ?? RELAYS.map((_, index) => index).join(","))
  .split(",")
  .map((index) => RELAYS[Number(index)]!);
const PLACEMENT = cpuPlacement(!process.argv.includes("--no-pin"));
const FRAME = 160;

const settings: SessionSettings = SESSION_SETTINGS;
const callerSpeech = pcmToMuLaw(synthesizeTones("hello there", 8000));
const silence = pcmToMuLaw(new Int16Array(FRAME));
const answerAudio = (() => {
  const pcm = synthesizeTones("sure", 24_000);
  return new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength);
})();

class MemoryStream implements MediaStream {
  readonly streamId = "bench";
  readonly format = PHONE_FORMAT;
  private audio?: (frame: Uint8Array) => void;
  private mark?: (name: string) => void;
  onFirstAudio: (() => void) | null = null;
  /** Frames sent to the caller so far. */
  sent = 0;
  /** When each frame was sent to the caller (performance.now()), when asked to keep them. */
  sentAt: number[] | null = null;
  constructor(readonly callId: number) {}
  onAudio(listener: (frame: Uint8Array) => void) {
    this.audio = listener;
  }
  onMark(listener: (name: string) => void) {
    this.mark = listener;
  }
  onDtmf() {}
  onClose() {}
  sendAudio() {
    this.sent += 1;
    this.sentAt?.push(performance.now());
    const first = this.onFirstAudio;
    this.onFirstAudio = null;
    first?.();
  }
  sendMark(name: string) {
    // Played at once: the bench is about the engine, not the caller's ear.
    queueMicrotask(() => this.mark?.(name));
  }
  clearAudio() {}
  close() {}
  push(frame: Uint8Array) {
    this.audio?.(frame);
  }
}

const ports = {
  logger: createLogger("silent"),
  transcribe: async () => "hello there",
  synthesize: async () => ({
    sampleRate: 24_000,
    audio: (async function* () {
      yield answerAudio;
    })(),
  }),
  reply: async (_history: unknown, onDelta: (text: string) => void) => {
    onDelta("Sure. ");
    return { text: "Sure.", endCall: false };
  },
  turn: async () => {},
  hangUp: async () => {},
  callerLeft: async () => {},
};

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
const ms = (value: number) => `${value.toFixed(2)} ms`;

async function turnLatency() {
  const stream = new MemoryStream(1);
  new PipelineSession(stream, settings, ports).start();
  const engine: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    for (let offset = 0; offset < callerSpeech.length; offset += FRAME)
      stream.push(callerSpeech.subarray(offset, offset + FRAME));
    const answered = new Promise<number>((resolve) => {
      stream.onFirstAudio = () => resolve(performance.now());
    });
    let lastPush = 0;
    let done = false;
    answered.then(() => {
      done = true;
    });
    while (!done) {
      lastPush = performance.now();
      stream.push(silence);
      await new Promise((resolve) => setImmediate(resolve));
    }
    engine.push((await answered) - lastPush);
  }
  const baseline: number[] = [];
  for (let turn = 0; turn < TURNS; turn++) {
    const started = performance.now();
    await ports.transcribe();
    await ports.reply([], () => {});
    for await (const _chunk of (await ports.synthesize()).audio) break;
    baseline.push(performance.now() - started);
  }
  return { engine, baseline };
}

async function concurrentCalls(calls: number) {
  const streams = Array.from({ length: calls }, (_, index) => {
    const stream = new MemoryStream(index + 1);
    new PipelineSession(stream, settings, ports).start();
    return stream;
  });
  // Each caller: 0.5 s of speech, 1 s of silence (the answer comes back), repeated; staggered starts.
  const script: Uint8Array[] = [];
  for (let offset = 0; offset < callerSpeech.length; offset += FRAME)
    script.push(callerSpeech.subarray(offset, offset + FRAME));
  for (let i = 0; i < 50; i++) script.push(silence);
  return tickLoop((tick) => {
    for (const [index, stream] of streams.entries()) stream.push(script[(tick + index) % script.length]!);
  });
}

/** 250 ticks of 20 ms (5 s), each feeding the calls: how late each tick ran, and the CPU it took. */
async function tickLoop(feed: (tick: number) => void) {
  const lateness: number[] = [];
  const cpu: number[] = [];
  const start = performance.now();
  for (let tick = 0; tick < 250; tick++) {
    const due = start + tick * 20;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const began = performance.now();
    lateness.push(began - due);
    feed(tick);
    cpu.push(performance.now() - began);
  }
  return { lateness, cpu };
}

console.log(`Started ${new Date().toISOString()}, ${load()}.`);
if (PARTS.has("turns")) {
  const { engine, baseline } = await turnLatency();
  console.log(`Turn latency over ${TURNS} turns (caller's end-of-turn frame → first audio frame out):`);
  console.log(
    `  stand-ins called directly (baseline): p50 ${ms(percentile(baseline, 50))}, p95 ${ms(percentile(baseline, 95))}`,
  );
  console.log(
    `  through the engine:                   p50 ${ms(percentile(engine, 50))}, p95 ${ms(percentile(engine, 95))}`,
  );
  console.log(
    `  engine-added:                         p50 ${ms(percentile(engine, 50) - percentile(baseline, 50))}, p95 ${ms(percentile(engine, 95) - percentile(baseline, 95))}  (target ≤ 30 / ≤ 50 ms)`,
  );
}
if (PARTS.has("calls")) {
  const idle = await concurrentCalls(0);
  console.log("Timer loop alone (baseline: what the machine adds to a 20 ms tick):");
  console.log(
    `  tick lateness: p50 ${ms(percentile(idle.lateness, 50))}, p99 ${ms(percentile(idle.lateness, 99))}`,
  );
  const { lateness, cpu } = await concurrentCalls(CALLS);
  console.log(`${CALLS} concurrent calls, one 20 ms frame each per tick, 250 ticks:`);
  console.log(
    `  tick lateness (frame jitter): p50 ${ms(percentile(lateness, 50))}, p99 ${ms(percentile(lateness, 99))}  (target p99 ≤ 1 ms)`,
  );
  console.log(
    `  CPU per tick (all calls):     p50 ${ms(percentile(cpu, 50))}, p99 ${ms(percentile(cpu, 99))}; per call-frame p50 ${((percentile(cpu, 50) * 1000) / CALLS).toFixed(1)} µs`,
  );
}
if (PARTS.has("providers")) await speechProviders();
if (PARTS.has("relay")) await relay();

/**
 * 4. Speech providers: the caller's end of speech to the first audio frame out through the production
 * speech clients and their local fakes (loopback sockets), batch against streaming in the same run.
 * Engine-added = each turn's time − the median of every fake's own time (bare clients, same requests).
 */
async function speechProviders() {
  const rows = await providerLatency(PROVIDER_TURNS);
  console.log(
    `Speech providers, ${PROVIDER_TURNS} turns per path (5 warm-up turns not counted), production clients against local fakes over loopback (${load()}): caller frame completing the turn (750 ms of silence, a setting, not counted) → first audio frame out:`,
  );
  const added = new Map<string, number[]>();
  for (const row of rows) {
    const fakes = row.fakes.map((fake) => percentile(fake.times, 50));
    const own = fakes.reduce((sum, value) => sum + value, 0);
    const engineAdded = row.engine.map((value) => value - own);
    added.set(row.name, engineAdded);
    console.log(`  ${row.name}:`);
    console.log(
      `    through the engine: p50 ${ms(percentile(row.engine, 50))}, p95 ${ms(percentile(row.engine, 95))}`,
    );
    for (const fake of row.fakes)
      console.log(
        `    fake's own time (bare client), ${fake.name}: p50 ${ms(percentile(fake.times, 50))}, p95 ${ms(percentile(fake.times, 95))}`,
      );
    console.log(
      `    engine-added (each turn − ${ms(own)}, the fakes' medians): p50 ${ms(percentile(engineAdded, 50))}, p95 ${ms(percentile(engineAdded, 95))}${row.name.startsWith("streaming") ? "  (target ≤ 30 / ≤ 60 ms, issue #30)" : ""}`,
    );
  }
  const [batch, ...streaming] = [...added.entries()];
  for (const [name, values] of streaming)
    console.log(
      `  ${name} vs batch, engine-added: p50 ×${(percentile(values, 50) / percentile(batch![1], 50)).toFixed(2)}, p95 ×${(percentile(values, 95) / percentile(batch![1], 95)).toFixed(2)}`,
    );
}

// 3. Multimodal relay through a realtime model that answers at once.
async function relay() {
  const echo = fork(REALTIME_ECHO_SCRIPT, [], {
    ...pinned(PLACEMENT?.others, []),
    stdio: ["ignore", "pipe", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve) =>
    echo.stdout!.once("data", (data) => resolve(Number(String(data).trim()))),
  );
  const realtime = new RealtimeClient(
    { baseUrl: `ws://127.0.0.1:${port}/v1`, apiKey: "bench", model: "bench", dialect: "ga" },
    10,
    ports.logger,
  );
  const relayOptions = RELAY_OPTIONS;
  // The caller's frames come back as the model's voice: talking over it must not clear it.
  const relaySettings: SessionSettings = { ...settings, allowInterruptions: false };

  async function relayedCall(id: number, appendMs: number) {
    const stream = new MemoryStream(id);
    const model = await realtime.connect(id);
    const runFunction = async (name: string) => ({
      output: "{}",
      endCall: false,
      record: { name, arguments: {}, result: {}, error: null, duration_ms: 0 },
    });
    new RealtimeSession(stream, relaySettings, { ...ports, runFunction }, model, {
      ...relayOptions,
      appendMs,
    }).start();
    return { stream, model };
  }

  const untilSent = (stream: MemoryStream, count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (stream.sent >= count ? resolve() : setImmediate(check));
      check();
    });

  /** From the caller's frame that completes an append to the first frame of its echo sent back. */
  async function relayLatency(appends: number, appendMs: number) {
    const { stream, model } = await relayedCall(1, appendMs);
    const perAppend = appendMs / 20;
    const engine: number[] = [];
    for (let i = 0; i < appends; i++) {
      for (let j = 1; j < perAppend; j++) stream.push(callerSpeech.subarray(0, FRAME));
      const started = performance.now();
      stream.push(callerSpeech.subarray(0, FRAME));
      await untilSent(stream, i * perAppend + 1);
      engine.push(performance.now() - started);
      await untilSent(stream, (i + 1) * perAppend);
    }
    model.close();
    return engine;
  }

  const baselineTrips = await bareRoundTrips(port, callerSpeech.subarray(0, FRAME), TURNS * 2);
  console.log(
    `Multimodal relay over ${TURNS * 2} appends (caller frame completing an append → model → first audio frame out, loopback):`,
  );
  console.log(
    `  bare WebSocket round trip (baseline): p50 ${ms(percentile(baselineTrips, 50))}, p95 ${ms(percentile(baselineTrips, 95))}`,
  );
  for (const appendMs of APPEND_SIZES) {
    const engine = await relayLatency(TURNS * 2, appendMs);
    console.log(
      `  appends of ${appendMs} ms: p50 ${ms(percentile(engine, 50))}, p95 ${ms(percentile(engine, 95))}; engine-added p50 ${ms(percentile(engine, 50) - percentile(baselineTrips, 50))}, p95 ${ms(percentile(engine, 95) - percentile(baselineTrips, 95))} (the model hears up to ${appendMs - 20} ms later)`,
    );
  }
  await relayJitter(port);
  echo.kill();
}

/**
 * Which CPU the relay (engine or bare relay) runs on, and which one the carrier and the echoing model
 * share: issue #13's "100 relayed calls on one core", taken literally, and the operating system's
 * scheduling of three busy processes on two cores kept out of the engine's figure. Off with `--no-pin`,
 * or where fewer than two CPUs (or no `taskset`) are available.
 */
function cpuPlacement(wanted: boolean): { relay: string; others: string } | null {
  const taskset = "/usr/bin/taskset";
  if (!wanted || !existsSync(taskset)) return null;
  // "pid 123's current affinity list: 0-3,6": the CPUs this process may use (a container may allow few).
  const list = execFileSync(taskset, ["-cp", String(process.pid)], { encoding: "utf8" })
    .split(":")[1]!
    .trim();
  const cpus = list.split(",").flatMap((part) => {
    const [from, to] = part.split("-").map(Number);
    return Array.from({ length: (to ?? from!) - from! + 1 }, (_, index) => String(from! + index));
  });
  return cpus.length < 2 ? null : { relay: cpus[1]!, others: cpus[0]! };
}

/** `fork` options running the script under tsx with `flags`, on `cpu` when given (through taskset). */
function pinned(cpu: string | undefined, flags: string[]) {
  const execArgv = ["--import", "tsx", ...flags];
  return cpu === undefined
    ? { execArgv }
    : { execPath: "/usr/bin/taskset", execArgv: ["-c", cpu, process.execPath, ...execArgv] };
}

/**
 * Jitter as each caller hears it, with the carrier (relay-carrier.ts) and the relay (relay-bare.ts, or
 * the engine in relay-engine.ts; forked anew per measurement with the variant's node flags) in processes
 * of their own, over real sockets: the carrier's clocks and parsing do not share the engine's event loop,
 * and the engine pays for Twilio's JSON and base64 as in production.
 */
async function relayJitter(port: number) {
  const here = new URL("../../packages/server/test/support/", import.meta.url).pathname;
  const child = (script: string, args: string[], cpu: string | undefined, flags: string[]) => {
    const proc = fork(`${here}${script}`, args, pinned(cpu, flags));
    // In order, none lost: a message may come while another process is awaited.
    const inbox: unknown[] = [];
    const waiting: ((message: unknown) => void)[] = [];
    proc.on("message", (message) => {
      const resolve = waiting.shift();
      if (resolve) resolve(message);
      else inbox.push(message);
    });
    const next = <T>() =>
      inbox.length > 0
        ? Promise.resolve(inbox.shift() as T)
        : new Promise<T>((resolve) => waiting.push(resolve as (message: unknown) => void));
    return { process: proc, next };
  };
  const carrier = child("relay-carrier.ts", [], PLACEMENT?.others, []);
  await carrier.next();
  console.log(
    PLACEMENT
      ? `CPU placement (taskset): relay (engine or bare relay) on CPU ${PLACEMENT.relay}; carrier and echoing model on CPU ${PLACEMENT.others}; this process unpinned (idle while measuring). --no-pin to turn off.`
      : "CPU placement: none (--no-pin, fewer than 2 CPUs, or no /usr/bin/taskset): the three processes share the CPUs as the OS schedules them.",
  );
  console.log(
    `${RELAYED} relayed multimodal calls over Twilio Media Streams, carrier and relay each in its own process, each call on its own 20 ms clock, 1.2 s of warm-up then 250 measured frames each, ${ROUNDS} rounds; jitter of the audio back at the carrier (|transit change| between a call's consecutive bursts); CPU, GC and loop delay over the measured frames only (set-up and warm-up excluded):`,
  );
  /** Engine − bare relay, jitter p99, per engine variant and append size: one figure per round. */
  const differences = new Map<string, { p99: number; load: string }[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`  round ${round}: ${load()}`);
    carrier.process.send({ clocks: RELAYED });
    const alone = await carrier.next<{ jitter: number[]; cpuUs: number }>();
    console.log(
      `  round ${round}, carrier clocks alone (baseline): p50 ${ms(percentile(alone.jitter, 50))}, p99 ${ms(percentile(alone.jitter, 99))}; carrier CPU ${(alone.cpuUs / (RELAYED * 250)).toFixed(1)} µs per call-frame`,
    );
    for (const appendMs of APPEND_SIZES) {
      let bare: { p50: number; p99: number; cpu: number } | null = null;
      for (const relay of RELAYS_RUN) {
        const engine = child(
          relay.script,
          [String(port), String(appendMs), ...relay.args],
          PLACEMENT?.relay,
          relay.flags,
        );
        await engine.next();
        engine.process.send({ tokens: RELAYED });
        const { port: enginePort, tokens } = await engine.next<{ port: number; tokens: string[] }>();
        carrier.process.send({ url: `ws://127.0.0.1:${enginePort}/`, tokens, appendMs });
        await carrier.next();
        engine.process.send({ begin: true });
        await carrier.next();
        engine.process.send({ end: true });
        const used = await engine.next<{
          cpuUs: number;
          gc: [number, number][];
          loopDelayP99Ms: number;
          counters: Record<string, number>;
        }>();
        const run = await carrier.next<{
          bursts: Burst[];
          warmup: number[];
          cpuUs: number;
          framesBack: number;
          frames: number;
        }>();
        engine.process.kill();
        const jitter = run.bursts.map((burst) => burst.d);
        const p50 = percentile(jitter, 50);
        const p99 = percentile(jitter, 99);
        const cpu = used.cpuUs / (RELAYED * 250);
        const outliers = run.bursts.filter((burst) => burst.d >= p99 && burst.d > 1);
        const gcDuring = (burst: Burst) =>
          used.gc.some(([at, duration]) => at <= burst.at && at + duration >= burst.delayedFrom);
        const share = (bursts: Burst[], test: (burst: Burst) => boolean) =>
          bursts.length === 0 ? "–" : `${Math.round((100 * bursts.filter(test).length) / bursts.length)} %`;
        const gcMs = used.gc.reduce((sum, [, duration]) => sum + duration, 0);
        const added = bare
          ? `; engine-added (− bare relay): p50 ${ms(p50 - bare.p50)}, p99 ${ms(p99 - bare.p99)}, CPU ${(cpu - bare.cpu).toFixed(1)} µs per call-frame`
          : "";
        if (bare) {
          const key = `${relay.name}, appends of ${appendMs} ms`;
          differences.set(key, [...(differences.get(key) ?? []), { p99: p99 - bare.p99, load: load() }]);
        }
        bare ??= { p50, p99, cpu };
        if (run.framesBack === 0)
          console.log(
            `  round ${round}, appends of ${String(appendMs).padStart(3)} ms, ${relay.name}: no audio came back in the measured window: the relay fell behind (${RELAYED} calls' frames queued; its CPU and GC read ~0 because it answered the window's start and end only after the backlog)`,
          );
        console.log(
          `  round ${round}, appends of ${String(appendMs).padStart(3)} ms, ${relay.name}: jitter p50 ${ms(p50)}, p99 ${ms(p99)} (target ≤ 1 ms)${added}; relay CPU ${cpu.toFixed(1)} µs per call-frame, carrier ${(run.cpuUs / (RELAYED * 250)).toFixed(1)} µs; frames back ${run.framesBack} of ${run.frames}; warm-up (cold start, not counted) jitter p99 ${ms(percentile(run.warmup, 99))}`,
        );
        const { runs, windows, waits } = used.counters;
        if (runs)
          console.log(
            `      Silero: ${windows} windows in ${runs} model runs (${(windows! / runs).toFixed(1)} per run)${waits === undefined ? "" : `; the relay's thread waited for the worker's answer ${waits} times`}`,
          );
        console.log(
          `      relay GC: ${used.gc.length} pauses, ${gcMs.toFixed(0)} ms in all, longest ${ms(Math.max(0, ...used.gc.map(([, duration]) => duration)))}; loop delay p99 ${ms(used.loopDelayP99Ms)}; of the ${outliers.length} bursts at the p99 and above (> 1 ms), ${share(outliers, gcDuring)} were delayed across a relay GC pause (all bursts: ${share(run.bursts, gcDuring)}), ${share(outliers, (burst) => burst.carrierLate >= burst.d / 2)} by the carrier's own lateness (≥ half the delay)`,
        );
      }
    }
  }
  carrier.process.kill();
  console.log(
    `Engine minus bare relay, jitter p99 at ${RELAYED} calls (target ≤ 0.5 ms, issue #30; each round's bare relay measured just before the engines, same carrier clocks${PLACEMENT ? `, relay pinned to CPU ${PLACEMENT.relay}` : ""}):`,
  );
  for (const [key, rounds] of differences) {
    const values = rounds.map((round) => round.p99);
    console.log(
      `  ${key}: ${rounds.map((round, index) => `round ${index + 1} ${ms(round.p99)} (${round.load})`).join("; ")}; median ${ms(percentile(values, 50))}, worst ${ms(Math.max(...values))}`,
    );
  }
}

interface Burst {
  d: number;
  at: number;
  delayedFrom: number;
  carrierLate: number;
}
