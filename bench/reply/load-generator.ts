/**
 * The load generator in a process of its own, so that the bench can tell its CPU from the gateway's.
 * Plain `node:http` over kept-alive sockets: `fetch` costs several times more CPU per request, and it
 * is the client's cost, not the server's.
 *
 * Each message is a run: `{ warmUp, requests, concurrency, url, headers, bodies }` where `bodies` are
 * the request bodies in order (cycled). It answers `{ kind: "warm" }` after `warmUp` requests (sent
 * at the run's concurrency, so that every socket and every pooled database connection behind it is
 * warm too) and waits for `{ kind: "go" }` (the parent reads every process's CPU in between), then
 * answers `{ kind: "done", durations, seconds }`.
 */
import http from "node:http";

export interface LoadRun {
  warmUp: number;
  requests: number;
  concurrency: number;
  url: string;
  headers: Record<string, string>;
  bodies: string[];
  /** Bodies for the warm-up requests (cycled). */
  warmUpBodies: string[];
}

export type LoadMessage =
  | { kind: "warm" }
  | { kind: "done"; durations: number[]; seconds: number }
  | { kind: "failed"; message: string };

const agents = new Map<number, http.Agent>();
let startMeasuring: ((value: unknown) => void) | null = null;

function post(run: LoadRun, body: string): Promise<void> {
  let agent = agents.get(run.concurrency);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: run.concurrency });
    agents.set(run.concurrency, agent);
  }
  return new Promise((resolve, reject) => {
    const request = http.request(
      run.url,
      {
        method: "POST",
        agent,
        headers: {
          ...run.headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          if (response.statusCode !== 200)
            reject(
              new Error(`status ${response.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`),
            );
          else resolve();
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** Posts `count` bodies, `concurrency` at a time, each request's time given to `onDone`. */
async function send(
  run: LoadRun,
  count: number,
  body: (index: number) => string,
  onDone: (ms: number) => void = () => {},
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: run.concurrency }, async () => {
      while (next < count) {
        const index = next++;
        const t0 = performance.now();
        await post(run, body(index));
        onDone(performance.now() - t0);
      }
    }),
  );
}

async function execute(run: LoadRun): Promise<void> {
  await send(run, run.warmUp, (index) => run.warmUpBodies[index % run.warmUpBodies.length]!);
  await new Promise((resolve) => {
    startMeasuring = resolve;
    process.send!({ kind: "warm" } satisfies LoadMessage);
  });
  const durations: number[] = [];
  const started = performance.now();
  await send(
    run,
    run.requests,
    (index) => run.bodies[index % run.bodies.length]!,
    (ms) => durations.push(ms),
  );
  const seconds = (performance.now() - started) / 1000;
  process.send!({ kind: "done", durations, seconds } satisfies LoadMessage);
}

process.on("message", (message: LoadRun | { kind: "go" | "stop" }) => {
  if ("kind" in message) {
    if (message.kind === "go") startMeasuring?.(undefined);
    else process.disconnect();
    return;
  }
  execute(message).catch((error: unknown) =>
    process.send!({
      kind: "failed",
      message: error instanceof Error ? error.message : String(error),
    } satisfies LoadMessage),
  );
});
