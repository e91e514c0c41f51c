import { fork } from "node:child_process";
import { fileURLToPath } from "node:url";

export interface ChildArgs {
  pdfPath?: string;
  /** A text file ingested as a TXT document. */
  textPath?: string;
  /** Website pages to read, one inner list per document (the spec allows at most 50 links each). */
  batches?: string[][];
  /** PostgreSQL for the ingestion cases; without it the app uses an in-memory PGlite. */
  databaseUrl?: string;
}

export interface CaseResult {
  pages: number;
  seconds: number;
  /** RSS after loading code and data, before the measured work. */
  idleRss: number;
  /** Peaks sampled by the case itself (every 10 ms). */
  rss: number;
  heapUsed: number;
  /** Buffers and typed arrays outside the V8 heap. */
  external: number;
  /** The kernel's peak resident set of the whole process (getrusage maxrss), sampling gaps included. */
  peakRssOs: number;
  /** Longest stall of the event loop: how long an API request on the same instance could have waited. */
  loopMaxMs: number;
  loopP99Ms: number;
  detail: string;
}

/** Runs one case of child.ts in a fresh Node process with the same loader (tsx) as this one. */
export function runCase(name: string, args: ChildArgs): Promise<CaseResult> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL("./child.ts", import.meta.url)), [name, JSON.stringify(args)], {
      execArgv: process.execArgv,
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    let result: CaseResult | null = null;
    child.on("message", (message) => {
      result = message as CaseResult;
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (result) resolve(result);
      else reject(new Error(`benchmark case ${name} exited with code ${code} without a result`));
    });
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

export function printCases(title: string, rows: [label: string, result: CaseResult][]): void {
  console.log(`\n${title}`);
  console.log(
    `${"".padEnd(50)} ${"pages".padStart(5)} ${"time".padStart(8)} ${"pages/s".padStart(8)}  ${"idle RSS".padStart(8)} ${"peak RSS".padStart(8)} ${"(kernel)".padStart(8)} ${"heap".padStart(7)} ${"buffers".padStart(7)} ${"loop max".padStart(9)}`,
  );
  for (const [label, result] of rows) {
    console.log(
      `${label.padEnd(50)} ${String(result.pages).padStart(5)} ${`${result.seconds.toFixed(2)} s`.padStart(8)} ${(result.pages / result.seconds).toFixed(1).padStart(8)}  ${mb(result.idleRss).padStart(8)} ${mb(result.rss).padStart(8)} ${mb(result.peakRssOs).padStart(8)} ${mb(result.heapUsed).padStart(7)} ${mb(result.external).padStart(7)} ${`${result.loopMaxMs.toFixed(0)} ms`.padStart(9)}`,
    );
    console.log(`${"".padEnd(50)} ${result.detail}`);
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
