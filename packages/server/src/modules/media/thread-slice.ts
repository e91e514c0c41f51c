import { execFile } from "node:child_process";
import { readFile } from "node:fs/promises";
import { arch, getPriority, platform } from "node:os";

/**
 * `sched_setattr`'s number per architecture: Node has no binding for it and the product ships no
 * native addon, so a one-shot `perl` (Essential in Debian, so in the `node:*-slim` images) makes the call.
 */
const SCHED_SETATTR: Partial<Record<string, number>> = { x64: 314, arm64: 274 };
/** `SCHED_FLAG_KEEP_POLICY`: the thread keeps its policy; only the slice (and the nice read first) is set. */
const KEEP_POLICY = 0x08;
/**
 * `SCHED_BATCH`: a fair thread at its full weight (its share of the CPU is its nice value's, as before)
 * that does not preempt the running thread when it wakes.
 */
const SCHED_BATCH = 3;
/** `struct sched_attr` as of Linux 3.14 (`SCHED_ATTR_SIZE_VER0`), which every later kernel accepts. */
const SCRIPT = [
  // perl passes a string argument of syscall() as a pointer: the numbers are made numbers (+ 0).
  "my ($tid, $nice, $ns, $nr, $flags, $policy) = map { $_ + 0 } @ARGV;",
  'my $attr = pack("LLQlLQQQ", 48, $policy, $flags, $nice, 0, $ns, 0, 0);',
  'syscall($nr, $tid, $attr, 0) == 0 or die "$!\\n";',
].join(" ");
const CALL_TIMEOUT_MS = 2_000;

export type ThreadSliceOutcome =
  /** The kernel reports the slice asked for. */
  | { status: "set"; sliceNs: number }
  /** The call was taken but the kernel's slice stayed (a kernel before 6.12 ignores it for fair threads). */
  | { status: "ignored"; sliceNs: number | null }
  | { status: "unsupported"; reason: string }
  | { status: "failed"; reason: string };

/**
 * The thread's current slice in ns and its policy (0 normal, 3 batch), from the scheduler's debug file
 * (absent without CONFIG_SCHED_DEBUG).
 */
export async function threadSchedule(
  threadId: number,
): Promise<{ sliceNs: number | null; policy: number | null }> {
  const text = await readFile(`/proc/${threadId}/sched`, "utf8").catch(() => "");
  const field = (name: string) => {
    const match = new RegExp(`^${name}\\s*:\\s*(\\d+)`, "m").exec(text);
    return match ? Number(match[1]) : null;
  };
  return { sliceNs: field("se\\.slice"), policy: field("policy") };
}

/** The thread's current slice in ns (see `threadSchedule`). */
export async function threadSliceNs(threadId: number): Promise<number | null> {
  return (await threadSchedule(threadId)).sliceNs;
}

/**
 * Asks Linux (6.12 and later: EEVDF's custom slice, `sched_attr.sched_runtime` of a fair thread) for a
 * short slice for one thread. A waking thread with a shorter slice than the running one preempts it at
 * once, where otherwise the running thread may keep the core until its own slice (about 1.4 ms here) is
 * used. The relay's thread sleeps between frames, and Silero's worker shares its core: with a short
 * slice a frame is not kept waiting behind a model run. The thread's share of the CPU is unchanged (it
 * is not a priority), so nothing else starves. Needs no privilege: any thread may shorten its own.
 *
 * `background`: the thread also becomes `SCHED_BATCH`, for a thread that works in the background of
 * another on the same core (Silero's worker, with a long slice): it keeps its full share, but a thread
 * waking with a shorter slice takes the core from it, and it takes the core from nobody when it wakes.
 */
export async function requestThreadSlice(
  threadId: number,
  sliceUs: number,
  options: { background?: boolean } = {},
): Promise<ThreadSliceOutcome> {
  const number = SCHED_SETATTR[arch()];
  if (platform() !== "linux" || number === undefined)
    return { status: "unsupported", reason: `not on Linux x64 or arm64 (${platform()} ${arch()})` };
  const sliceNs = Math.round(sliceUs * 1_000);
  // sched_setattr sets the nice value too: the thread's own is passed back, so a `nice`d server stays so.
  let nice: number;
  try {
    nice = getPriority(threadId);
  } catch (error) {
    return { status: "failed", reason: error instanceof Error ? error.message : String(error) };
  }
  const args = [
    "-e",
    SCRIPT,
    String(threadId),
    String(nice),
    String(sliceNs),
    String(number),
    String(options.background ? 0 : KEEP_POLICY),
    String(options.background ? SCHED_BATCH : 0),
  ];
  const failure = await new Promise<string | null>((resolve) => {
    execFile("perl", args, { timeout: CALL_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (!error) return resolve(null);
      const code = (error as NodeJS.ErrnoException).code;
      resolve(code === "ENOENT" ? "ENOENT" : stderr.trim() || error.message);
    });
  });
  if (failure === "ENOENT") return { status: "unsupported", reason: "perl is not installed" };
  if (failure !== null) return { status: "failed", reason: failure };
  const now = await threadSchedule(threadId);
  const taken = now.sliceNs === sliceNs && (!options.background || now.policy === SCHED_BATCH);
  return taken ? { status: "set", sliceNs } : { status: "ignored", sliceNs: now.sliceNs };
}
