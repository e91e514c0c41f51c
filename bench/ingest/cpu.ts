/**
 * CPU time by process during one ingestion: on 2 cores the pipeline's stages (pdf.js in its worker thread,
 * chunking and embedding on the main thread, the database inserting) compete for the same CPUs, so the time
 * a case takes is bounded by the CPU they need together, which these figures show.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";

const serverRequire = createRequire(new URL("../../packages/server/package.json", import.meta.url));

/** Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ, 100 on every common architecture). */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of a process from /proc; 0 once it has gone. */
function processCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * The database's processes: the PostgreSQL backends connected to the app's database, or the embedded
 * store's process (a child of this one).
 */
async function databasePids(databaseUrl: string | undefined): Promise<number[]> {
  if (!databaseUrl) {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .filter((pid) => {
        try {
          return (
            Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")[1]) === process.pid
          );
        } catch {
          return false;
        }
      });
  }
  const { Client } = serverRequire("pg") as typeof import("pg");
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** Starts counting; the returned function gives the CPU seconds of this process and of the database since. */
export async function startCpuMeter(databaseUrl: string | undefined) {
  const processStart = process.cpuUsage();
  const databaseStart = new Map(
    (await databasePids(databaseUrl)).map((pid) => [pid, processCpuSeconds(pid)]),
  );
  return async () => {
    const own = process.cpuUsage(processStart);
    let database = 0;
    for (const pid of await databasePids(databaseUrl))
      database += processCpuSeconds(pid) - (databaseStart.get(pid) ?? 0);
    return { processSeconds: (own.user + own.system) / 1e6, databaseSeconds: database };
  };
}
