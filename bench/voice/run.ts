/**
 * What the voice engine adds to a call, on top of its speech and model services.
 *
 *   pnpm exec tsx bench/voice/run.ts [turns] [concurrent-calls] [relayed-calls] [append-ms,…] [rounds]
 *   (defaults 200, 100, 100, "20,60,100", 2)
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
 *    clock (see `relayedJitter`), next to the same clocks with no engine. Each of the append sizes
 *    given (caller audio per input_audio_buffer.append; 20 ms is one append per frame, as before
 *    batching) is measured in turn, `rounds` times, alternating, so that the machine's load falls on
 *    every size alike.
 */
import { fork } from "node:child_process";
import { performance } from "node:perf_hooks";
import { createLogger } from "../../packages/server/src/logger.ts";
import { type MediaStream, PHONE_FORMAT } from "../../packages/server/src/modules/telephony/provider.ts";
import { pcmToMuLaw } from "../../packages/server/src/modules/voice/codec.ts";
import {
  RealtimeClient,
  type RealtimeSessionOptions,
} from "../../packages/server/src/modules/voice/realtime-client.ts";
import { RealtimeSession } from "../../packages/server/src/modules/voice/realtime-session.ts";
import {
  PipelineSession,
  type SessionSettings,
} from "../../packages/server/src/modules/voice/voice-session.ts";
import { synthesizeTones } from "../../packages/server/test/support/fake-speech.ts";
import { bareRoundTrips, REALTIME_ECHO_SCRIPT } from "../../packages/server/test/support/realtime-echo.ts";

const TURNS = Number(process.argv[2] ?? 200);
const CALLS = Number(process.argv[3] ?? 100);
const RELAYED = Number(process.argv[4] ?? 100);
const APPEND_SIZES = (process.argv[5] ?? "20,60,100").split(",").map(Number);
const ROUNDS = Number(process.argv[6] ?? 2);
const FRAME = 160;

const settings: SessionSettings = {
  initialMessage: "",
  waitForCustomer: false,
  allowInterruptions: true,
  interruptSensitivity: 0.5,
  minInterruptWords: 1,
  endpointSensitivity: 0.5,
  semanticEndOfTurn: false,
  maxSilenceDuration: 0,
  reengagementInterval: 0,
  language: null,
  voice: "alloy",
  speechSpeed: 1,
  fillers: [],
};
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
  synthesize: async () =>
    (async function* () {
      yield answerAudio;
    })(),
  reply: async (_history: unknown, onDelta: (text: string) => void) => {
    onDelta("Sure. ");
    return { text: "Sure.", endCall: false };
  },
  turn: async () => {},
  hangUp: async () => {},
  callerLeft: async () => {},
};

function percentile(values: number[], p: number): number {
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
    for await (const _chunk of await ports.synthesize()) break;
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

// 3. Multimodal relay through a realtime model that answers at once.
const echo = fork(REALTIME_ECHO_SCRIPT, [], {
  execArgv: ["--import", "tsx"],
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
const relayOptions: RealtimeSessionOptions = {
  instructions: "",
  tools: [],
  output: "audio",
  voice: "alloy",
  speed: 1,
  temperature: 0.8,
  audioFormat: "g711_ulaw",
  appendMs: 20,
  transcribeModel: "bench",
  language: null,
  turnDetection: { type: "server_vad", silenceMs: 750 },
  createResponse: true,
};
// The caller's frames come back as the model's voice: talking over it must not clear it.
const relaySettings: SessionSettings = { ...settings, allowInterruptions: false };

async function relayedCall(id: number, appendMs: number) {
  const stream = new MemoryStream(id);
  const model = await realtime.connect(id);
  const runFunction = async () => ({ output: "{}", endCall: false });
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

/**
 * Independent carrier clocks: `calls` streams, each sending a 20 ms frame every 20 ms on its own phase
 * (spread evenly over the 20 ms, as real calls' streams are: they start at unrelated moments), for
 * 250 frames each. `feed(call, frame, due)` runs for each frame as soon as the event loop lets it after
 * its due time on the carrier's clock. One driver wakes for whatever is due: its own cost per wake is
 * the same with or without the engine, and is part of the baseline.
 */
async function carrierClocks(calls: number, feed: (call: number, frame: number, due: number) => void) {
  const frames = 250;
  const start = performance.now() + 50;
  const due = (event: number) => start + ((event % calls) * 20) / calls + Math.floor(event / calls) * 20;
  const cpuBefore = process.cpuUsage();
  let event = 0;
  while (event < calls * frames) {
    const wait = due(event) - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const now = performance.now();
    for (; event < calls * frames && due(event) <= now; event++)
      feed(event % calls, Math.floor(event / calls), due(event));
  }
  const cpu = process.cpuUsage(cpuBefore);
  return { cpuPerFrameUs: (cpu.user + cpu.system) / (calls * frames) };
}

/**
 * Jitter as a caller hears it (RFC 3550's D): for each burst of audio sent back to a call (the echo of
 * one append), its transit — from the due time, on the carrier's clock, of the caller frame that
 * completed the append, to when the engine sent the burst's first frame — minus the transit of that
 * call's previous burst. Equivalently, the bursts' inter-arrival minus their spacing on the carrier's
 * clock (20 ms per frame appended). In absolute values, over every call's bursts.
 */
function transitJitter(sentAt: number[], completedAt: number[]): number[] {
  const out: number[] = [];
  for (let burst = 1; burst < Math.min(sentAt.length, completedAt.length); burst++)
    out.push(Math.abs(sentAt[burst]! - completedAt[burst]! - (sentAt[burst - 1]! - completedAt[burst - 1]!)));
  return out;
}

/** The carrier clocks with no engine: each frame's handling time against its due time, as `transitJitter` reads it. */
async function clocksAlone(calls: number) {
  const handled = Array.from({ length: calls }, () => [] as number[]);
  const dues = Array.from({ length: calls }, () => [] as number[]);
  const { cpuPerFrameUs } = await carrierClocks(calls, (call, _frame, due) => {
    handled[call]!.push(performance.now());
    dues[call]!.push(due);
  });
  return { jitter: handled.flatMap((times, call) => transitJitter(times, dues[call]!)), cpuPerFrameUs };
}

async function relayedJitter(calls: number, appendMs: number) {
  const relayed = await Promise.all(
    Array.from({ length: calls }, (_, index) => relayedCall(index + 1, appendMs)),
  );
  const perAppend = appendMs / 20;
  const completed = relayed.map(() => [] as number[]);
  for (const { stream } of relayed) stream.sentAt = [];
  const { cpuPerFrameUs } = await carrierClocks(calls, (call, frame, due) => {
    if ((frame + 1) % perAppend === 0) completed[call]!.push(due);
    relayed[call]!.stream.push(callerSpeech.subarray(0, FRAME));
  });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const jitter = relayed.flatMap(({ stream }, call) =>
    transitJitter(
      stream.sentAt!.filter((_, index) => index % perAppend === 0),
      completed[call]!,
    ),
  );
  const framesBack = relayed.reduce((sum, { stream }) => sum + stream.sent, 0);
  for (const { model } of relayed) model.close();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { jitter, cpuPerFrameUs, framesBack };
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
console.log(
  `${RELAYED} relayed multimodal calls, each on its own 20 ms carrier clock, 250 frames each, ${ROUNDS} rounds; jitter of the audio sent back (|transit change| between a call's consecutive bursts):`,
);
for (let round = 1; round <= ROUNDS; round++) {
  const alone = await clocksAlone(RELAYED);
  console.log(
    `  round ${round}, carrier clocks alone (baseline): p50 ${ms(percentile(alone.jitter, 50))}, p99 ${ms(percentile(alone.jitter, 99))}; CPU ${alone.cpuPerFrameUs.toFixed(1)} µs per call-frame`,
  );
  for (const appendMs of APPEND_SIZES) {
    const run = await relayedJitter(RELAYED, appendMs);
    console.log(
      `  round ${round}, appends of ${String(appendMs).padStart(3)} ms: jitter p50 ${ms(percentile(run.jitter, 50))}, p99 ${ms(percentile(run.jitter, 99))} (target ≤ 1 ms); CPU ${run.cpuPerFrameUs.toFixed(1)} µs per call-frame (this process: engine and carrier clocks); frames back ${run.framesBack} of ${RELAYED * 250}`,
    );
  }
}
echo.kill();
