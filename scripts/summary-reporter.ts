import type { Reporter, TestModule } from "vitest/node";

const SLOWEST_SHOWN = 12;

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any CI log reader understands,
 * preceded by where the time went: per project the sum of its files' durations, the run's wall time
 * beside their total (their ratio is how much files overlapped), and the slowest files. Suite time is a
 * budget; these lines are what tells which file to work on, in every CI log.
 */
export default class SummaryReporter implements Reporter {
  private startedAt = 0;

  onTestRunStart(): void {
    this.startedAt = performance.now();
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const files: { name: string; seconds: number }[] = [];
    const byProject = new Map<string, number>();
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
      // Collect time counts too: for the server files it is mostly importing the app, paid per worker.
      const { duration, collectDuration, setupDuration } = module.diagnostic();
      const seconds = (duration + collectDuration + setupDuration) / 1000;
      const project = module.project.name;
      files.push({ name: `${project} ${module.relativeModuleId}`, seconds });
      byProject.set(project, (byProject.get(project) ?? 0) + seconds);
    }
    const total = files.reduce((sum, file) => sum + file.seconds, 0);
    const wall = (performance.now() - this.startedAt) / 1000;
    const lines = [
      "",
      `file time by project: ${[...byProject].map(([project, seconds]) => `${project} ${seconds.toFixed(0)} s`).join(", ")}`,
      `file time ${total.toFixed(0)} s in ${wall.toFixed(0)} s of wall time (${(total / wall).toFixed(2)} files at once on average)`,
      `slowest files: ${files
        .toSorted((a, b) => b.seconds - a.seconds)
        .slice(0, SLOWEST_SHOWN)
        .map((file) => `${file.name} ${file.seconds.toFixed(1)} s`)
        .join("; ")}`,
      `${passed} passed, ${failed} failed, ${skipped} skipped`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  }
}
