/**
 * The carrier side of bench/voice's relay jitter, as its own process (forked by bench/voice/run.ts): N Twilio-like
 * Media Streams clients over real loopback WebSockets (connected, start with the stream token, 20 ms
 * mu-law `media` frames, marks echoed as played), each call on its own 20 ms clock, phases spread
 * evenly over the 20 ms as independent carrier streams are; a warm-up (`WARMUP`), then 250 measured
 * frames each. One driver wakes for whatever frames are
 * due (its cost is the same with or without the engine, and is part of the baseline).
 *
 * IPC from run.ts: `{ clocks: calls }` → the clocks alone (the baseline: each frame's handling time
 * against its due time, read as the relay's transit is); `{ url, tokens, appendMs }` → the relay, which
 * first tells `{ window: "begin" }` when the calls are set up and warm (the warm-up played) and `{ window: "end" }`
 * when the last echoes are in (the relay's measured window: start-up excluded). Both answer
 * `{ jitter, cpuUs, … }` with the jitter as RFC 3550's D per burst (see `transitJitter`).
 */
import { performance } from "node:perf_hooks";
import WebSocket from "ws";
import { pcmToMuLaw } from "../../src/modules/media/index.ts";
import { synthesizeTones } from "./fake-speech.ts";

const FRAMES = 250;
/**
 * Frames each call plays before the measured ones (1.2 s, whole appends of 20, 40, 60 or 100 ms). The
 * first half second after 100 calls start at once is a cold start for every process (bursts 20–80 ms
 * late, with the bare relay as with the engine): reported apart, not mixed into the steady state.
 */
const WARMUP = 60;
const FRAME = 160;
const payload = Buffer.from(pcmToMuLaw(synthesizeTones("hello there", 8000)).subarray(0, FRAME)).toString(
  "base64",
);

/**
 * Runs `feed` for each call's frame (the warm-up's, then the measured ones) as soon as the event loop
 * lets it after its due time; `measuring` is told when the first measured frame is due. Returns this
 * process's CPU from then on, in µs.
 */
async function carrierClocks(
  calls: number,
  feed: (call: number, frame: number, due: number) => void,
  measuring: () => void = () => {},
) {
  const start = performance.now() + 50;
  const due = (event: number) => start + ((event % calls) * 20) / calls + Math.floor(event / calls) * 20;
  const events = calls * (WARMUP + FRAMES);
  let cpuBefore: NodeJS.CpuUsage | null = null;
  let event = 0;
  while (event < events) {
    const wait = due(event) - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const now = performance.now();
    for (; event < events && due(event) <= now; event++) {
      if (!cpuBefore && event === calls * WARMUP) {
        cpuBefore = process.cpuUsage();
        measuring();
      }
      feed(event % calls, Math.floor(event / calls), due(event));
    }
  }
  const cpu = process.cpuUsage(cpuBefore ?? undefined);
  return cpu.user + cpu.system;
}

/**
 * |D| between a call's consecutive bursts: each burst's transit (from the due time of the caller frame
 * that completed its append to the arrival of its first frame) minus the previous burst's. Entry `i` is
 * burst `i + 1`'s: the first `warmBursts` entries are the warm-up's.
 */
function transitJitter(arrived: number[], completed: number[]): number[] {
  const out: number[] = [];
  for (let burst = 1; burst < Math.min(arrived.length, completed.length); burst++)
    out.push(Math.abs(arrived[burst]! - completed[burst]! - (arrived[burst - 1]! - completed[burst - 1]!)));
  return out;
}

async function clocksAlone(calls: number) {
  const handled = Array.from({ length: calls }, () => [] as number[]);
  const dues = Array.from({ length: calls }, () => [] as number[]);
  const cpuUs = await carrierClocks(calls, (call, _frame, due) => {
    handled[call]!.push(performance.now());
    dues[call]!.push(due);
  });
  const jitter = handled.flatMap((times, call) => transitJitter(times, dues[call]!).slice(WARMUP));
  return { jitter, cpuUs };
}

async function relay(url: string, tokens: string[], appendMs: number) {
  const perAppend = appendMs / 20;
  const arrived = tokens.map(() => [] as number[]);
  /** How late the carrier itself sent each append's completing frame. */
  const late = tokens.map(() => [] as number[]);
  const completed = tokens.map(() => [] as number[]);
  const sockets = await Promise.all(
    tokens.map(async (token, call) => {
      const socket = new WebSocket(url, { perMessageDeflate: false });
      await new Promise((resolve) => socket.once("open", resolve));
      const streamSid = `MZbench${call}`;
      socket.on("message", (data) => {
        const text = data.toString();
        if (text.startsWith('{"event":"media"')) {
          // One message may carry several 20 ms frames (the engine sends a burst as one).
          const at = performance.now();
          const start = text.indexOf('"payload":"') + 11;
          const bytes = ((text.indexOf('"', start) - start) * 3) / 4;
          for (let frame = 0; frame < Math.round(bytes / FRAME); frame++) arrived[call]!.push(at);
        } else if (text.includes('"event":"mark"')) {
          const { mark } = JSON.parse(text) as { mark: { name: string } };
          socket.send(JSON.stringify({ event: "mark", streamSid, mark }));
        }
      });
      socket.send(JSON.stringify({ event: "connected", protocol: "Call", version: "1.0.0" }));
      socket.send(
        JSON.stringify({
          event: "start",
          streamSid,
          start: { streamSid, callSid: `CAbench${call}`, customParameters: { token } },
        }),
      );
      return { socket, prefix: `{"event":"media","streamSid":"${streamSid}","media":{"track":"inbound",` };
    }),
  );
  // The engine redeems the tokens and opens the model's sockets before the clocks start.
  await new Promise((resolve) => setTimeout(resolve, 500));
  let sequence = 0;
  const cpuUs = await carrierClocks(
    tokens.length,
    (call, frame, due) => {
      const { socket, prefix } = sockets[call]!;
      socket.send(
        `${prefix}"chunk":"${frame + 1}","timestamp":"${frame * 20}","payload":"${payload}"},"sequenceNumber":"${++sequence}"}`,
      );
      if ((frame + 1) % perAppend === 0) {
        completed[call]!.push(due);
        late[call]!.push(performance.now() - due);
      }
    },
    // The relay's measured window: the calls are set up and warm.
    () => process.send!({ window: "begin" }),
  );
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.send!({ window: "end" });
  const warmBursts = WARMUP / perAppend;
  const bursts: { d: number; at: number; delayedFrom: number; carrierLate: number }[] = [];
  const warmup: number[] = [];
  for (const [call, times] of arrived.entries()) {
    const firsts = times.filter((_, index) => index % perAppend === 0);
    const jitter = transitJitter(firsts, completed[call]!);
    for (const [index, d] of jitter.entries()) {
      if (index < warmBursts) {
        warmup.push(d);
        continue;
      }
      // Epoch ms, comparable with the engine process's GC timestamps.
      const at = performance.timeOrigin + firsts[index + 1]!;
      bursts.push({ d, at, delayedFrom: at - d, carrierLate: late[call]![index + 1]! });
    }
  }
  const framesBack = arrived.reduce((sum, times) => sum + times.length, 0);
  for (const { socket } of sockets) socket.close();
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { bursts, warmup, cpuUs, framesBack, frames: tokens.length * (WARMUP + FRAMES) };
}

process.on(
  "message",
  async (message: { clocks?: number; url?: string; tokens?: string[]; appendMs?: number }) => {
    if (message.clocks) process.send!(await clocksAlone(message.clocks));
    else process.send!(await relay(message.url!, message.tokens!, message.appendMs!));
  },
);
process.send!({ ready: true });
