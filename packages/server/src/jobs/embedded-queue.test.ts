import { afterEach, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/test-app.ts";
import { createLogger } from "../logger.ts";
import { EmbeddedJobQueue } from "./embedded-queue.ts";

describe("the embedded job runner", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("runs a job scheduled ahead when it is due, not on the next idle poll, earliest first", async () => {
    t = await startTestApp();
    // A queue of its own on the app's database, polling once a minute: only its own timing can run the
    // jobs within the test's time.
    const queue = new EmbeddedJobQueue({ db: t.app.db, logger: createLogger("silent") }, 1, 60_000);
    const ran: { name: string; at: number; due: number }[] = [];
    let done: () => void = () => {};
    const bothRan = new Promise<void>((resolve) => {
      done = resolve;
    });
    queue.define("test:scheduled", {
      run: async (payload) => {
        ran.push({ name: String(payload.name), at: Date.now(), due: Number(payload.due) });
        if (ran.length === 2) done();
      },
    });
    await queue.start();
    try {
      const later = Date.now() + 900;
      await queue.enqueue("test:scheduled", { name: "later", due: later }, { runAt: new Date(later) });
      // Enqueued while the runner already waits for "later": it wakes and waits for this one first.
      const sooner = Date.now() + 300;
      await queue.enqueue("test:scheduled", { name: "sooner", due: sooner }, { runAt: new Date(sooner) });
      await bothRan;
    } finally {
      await queue.stop();
    }
    expect(ran.map((job) => job.name)).toEqual(["sooner", "later"]);
    // Never before its time (the database and this process read the same clock).
    for (const job of ran) expect(job.at).toBeGreaterThanOrEqual(job.due - 5);
  });
});
