/**
 * What bench/voice reads of a relay process (the engine, `relay-engine.ts`, or the bare relay,
 * `relay-bare.ts`), over IPC from run.ts: `{ tokens: n }` → `{ port, tokens }` (the stream tokens the
 * carrier presents); `{ begin: true }` starts the measured window once the calls are set up (the
 * carrier's clocks start); `{ end: true }` → `{ cpuUs, gc, loopDelayP99Ms }`: the process's CPU in the
 * window, its GC pauses (epoch ms, duration) and its event loop's delay p99, and `counters`: how much
 * each of the relay's own `counters()` grew in the window.
 */
import { monitorEventLoopDelay, PerformanceObserver, performance } from "node:perf_hooks";
import type { WebSocketServer } from "ws";

export function serveRelayProbe(
  server: WebSocketServer,
  issueToken: (call: number) => Promise<string>,
  counters: () => Record<string, number> = () => ({}),
) {
  const gc: [number, number][] = [];
  let measuring = false;
  new PerformanceObserver((list) => {
    if (!measuring) return;
    for (const entry of list.getEntries())
      gc.push([performance.timeOrigin + entry.startTime, entry.duration]);
  }).observe({ entryTypes: ["gc"] });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  let cpuAtBegin = process.cpuUsage();
  let countersAtBegin = counters();

  process.on("message", async (message: { tokens?: number; begin?: true; end?: true }) => {
    if (message.tokens) {
      const tokens: string[] = [];
      for (let call = 1; call <= message.tokens; call++) tokens.push(await issueToken(call));
      const address = server.address();
      process.send!({ port: typeof address === "object" && address ? address.port : 0, tokens });
    } else if (message.begin) {
      measuring = true;
      gc.length = 0;
      loop.reset();
      loop.enable();
      cpuAtBegin = process.cpuUsage();
      countersAtBegin = counters();
    } else if (message.end) {
      measuring = false;
      loop.disable();
      const cpu = process.cpuUsage(cpuAtBegin);
      const grown = Object.fromEntries(
        Object.entries(counters()).map(([name, value]) => [name, value - (countersAtBegin[name] ?? 0)]),
      );
      process.send!({
        cpuUs: cpu.user + cpu.system,
        gc,
        loopDelayP99Ms: loop.percentile(99) / 1e6,
        counters: grown,
      });
    }
  });
  process.send!({ ready: true });
}
