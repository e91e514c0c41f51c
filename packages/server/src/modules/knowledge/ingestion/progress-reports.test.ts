import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type IngestionReporter, type ProgressReport, ProgressReports } from "./progress-reports.ts";

/** A reporter that records each write and holds it until released, like a slow database would. */
function recordingReporter() {
  const writes: ProgressReport[] = [];
  const finished: ProgressReport[] = [];
  const releases: (() => void)[] = [];
  const reporter = {
    report: async (_documentId: number, progress: ProgressReport) => {
      writes.push(progress);
      await new Promise<void>((resolve) => releases.push(resolve));
      finished.push(progress);
    },
  } as unknown as IngestionReporter;
  const releaseNext = async () => {
    releases.shift()?.();
    await vi.advanceTimersByTimeAsync(0);
  };
  return { reporter, writes, finished, releaseNext };
}

describe("a document's progress reports", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("writes pages read and passages stored together, once per interval, with the newest figures", async () => {
    const { reporter, writes, releaseNext } = recordingReporter();
    const progress = new ProgressReports(reporter, 7);

    const first = progress.report({ pagesDone: 1, pagesTotal: 40 });
    await vi.advanceTimersByTimeAsync(0);
    expect(writes).toEqual([{ pagesDone: 1, pagesTotal: 40 }]);
    await releaseNext();
    await first;

    // Within the interval: kept, not written.
    await progress.report({ chunkCount: 64 });
    await progress.report({ pagesDone: 9, pagesTotal: 40 });
    await progress.report({ chunkCount: 128 });
    expect(writes).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(250);
    const second = progress.report({ pagesDone: 12, pagesTotal: 40 });
    await vi.advanceTimersByTimeAsync(0);
    expect(writes[1]).toEqual({ chunkCount: 128, pagesDone: 12, pagesTotal: 40 });
    await releaseNext();
    await second;
    expect(writes).toHaveLength(2);
  });

  it("writes at once when asked, and never lets an earlier write land after a later one", async () => {
    const { reporter, writes, finished, releaseNext } = recordingReporter();
    const progress = new ProgressReports(reporter, 7);

    const slow = progress.report({ pagesDone: 40, pagesTotal: 40 }, { now: true });
    await vi.advanceTimersByTimeAsync(0);
    const last = progress.report({ chunkCount: 300 }, { now: true });
    await vi.advanceTimersByTimeAsync(0);
    // The second write waits for the first to end before it starts.
    expect(writes).toEqual([{ pagesDone: 40, pagesTotal: 40 }]);
    await releaseNext();
    await slow;
    expect(writes).toEqual([{ pagesDone: 40, pagesTotal: 40 }, { chunkCount: 300 }]);
    await releaseNext();
    await last;
    expect(finished).toEqual(writes);
  });

  it("sends what arrived before a write began in that write", async () => {
    const { reporter, writes, releaseNext } = recordingReporter();
    const progress = new ProgressReports(reporter, 7);

    const pages = progress.report({ pagesDone: 40, pagesTotal: 40 }, { now: true });
    const count = progress.report({ chunkCount: 300 }, { now: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(writes).toEqual([{ pagesDone: 40, pagesTotal: 40, chunkCount: 300 }]);
    await releaseNext();
    await Promise.all([pages, count]);
    expect(writes).toHaveLength(1);
  });
});
