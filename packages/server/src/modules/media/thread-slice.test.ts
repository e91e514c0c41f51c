import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { getPriority, platform, release, setPriority } from "node:os";
import { afterEach, expect, it } from "vitest";
import { requestThreadSlice, threadSchedule, threadSliceNs } from "./thread-slice.ts";

const [major = 0, minor = 0] = release().split(".").map(Number);
/** EEVDF takes a fair thread's own slice from Linux 6.12 on; the debug file shows it. */
const customSlices =
  platform() === "linux" && (major > 6 || (major === 6 && minor >= 12)) && existsSync("/proc/self/sched");

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
});

/** A process that only sleeps: its main thread stands for the relay's (their thread id is the pid). */
async function sleeper(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 60_000)"], { stdio: "ignore" });
  children.push(child);
  await new Promise<void>((resolve, reject) => child.once("spawn", resolve).once("error", reject));
  return child.pid!;
}

it.runIf(customSlices)("gives the thread the slice asked for, and keeps its nice value", async () => {
  const thread = await sleeper();
  setPriority(thread, 5);
  const before = await threadSliceNs(thread);
  expect(before).not.toBe(250_000);
  expect(await requestThreadSlice(thread, 250)).toEqual({ status: "set", sliceNs: 250_000 });
  expect(await threadSliceNs(thread)).toBe(250_000);
  expect(getPriority(thread)).toBe(5);
});

it.runIf(customSlices)(
  "puts a thread in the background: SCHED_BATCH with its slice, its nice value kept",
  async () => {
    const thread = await sleeper();
    setPriority(thread, 3);
    expect((await threadSchedule(thread)).policy).toBe(0);
    expect(await requestThreadSlice(thread, 10_000, { background: true })).toEqual({
      status: "set",
      sliceNs: 10_000_000,
    });
    expect(await threadSchedule(thread)).toEqual({ sliceNs: 10_000_000, policy: 3 });
    expect(getPriority(thread)).toBe(3);
    // A slice asked for later keeps the policy (the relay's thread is never made batch by it).
    expect(await requestThreadSlice(thread, 200)).toEqual({ status: "set", sliceNs: 200_000 });
    expect((await threadSchedule(thread)).policy).toBe(3);
  },
);

it.runIf(customSlices)("reports a slice the kernel clamped as not taken", async () => {
  const thread = await sleeper();
  // Linux clamps a fair slice to 0.1–100 ms: 50 µs reads back as 100 µs (env.ts refuses it up front).
  expect(await requestThreadSlice(thread, 50)).toEqual({ status: "ignored", sliceNs: 100_000 });
});

it.runIf(platform() === "linux")(
  "fails with the reason for a thread that is gone, throwing nothing",
  async () => {
    const thread = await sleeper();
    children[0]!.kill("SIGKILL");
    await new Promise((resolve) => children[0]!.once("exit", resolve));
    const outcome = await requestThreadSlice(thread, 100);
    expect(outcome.status).toBe("failed");
    expect(outcome).toMatchObject({ reason: expect.stringMatching(/no such process/i) });
  },
);
