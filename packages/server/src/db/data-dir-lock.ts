import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve as resolvePath } from "node:path";

/** Data directories opened by this process: the pid file alone cannot tell two opens in one process apart. */
const openHere = new Set<string>();

/**
 * PGlite is a single-process database: two processes writing one data directory corrupt it. A pid
 * file refuses the second opener with a clear message; one left by a crashed process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  const lockPath = join(dataDir, "pglite.pid");
  const inUse = (holder: number) =>
    new Error(
      `The embedded database in ${dataDir} is in use by process ${holder} (a running server?). ` +
        "Stop it first, or use DATABASE_URL with PostgreSQL for several processes.",
    );
  const key = resolvePath(dataDir);
  if (openHere.has(key)) throw inUse(process.pid);
  try {
    writeFileSync(lockPath, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = Number(readFileSync(lockPath, "utf8"));
    if (holder !== process.pid && isAlive(holder)) throw inUse(holder);
    writeFileSync(lockPath, String(process.pid));
  }
  openHere.add(key);
  return () => {
    openHere.delete(key);
    rmSync(lockPath, { force: true });
  };
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
