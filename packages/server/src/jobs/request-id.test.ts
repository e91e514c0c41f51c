import { afterEach, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../../test/support/test-app.ts";
import { createLogger, currentRequestId, withRequestId } from "../logger.ts";
import { createJobQueue } from "./index.ts";

describe("request ids in background jobs", () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it("runs a job under the id of the request that enqueued it", async () => {
    t = await startTestApp();
    // A queue of its own on the app's database: the app's workers do not know this task.
    const queue = createJobQueue({ db: t.app.db, logger: createLogger("silent") }, 1);
    const seen: (string | undefined)[] = [];
    let done: () => void = () => {};
    const ran = new Promise<void>((resolve) => {
      done = resolve;
    });
    queue.define("test:request-id", {
      run: async (payload) => {
        seen.push(`${String(payload.n)}:${currentRequestId()}`);
        if (seen.length === 2) done();
      },
    });
    await queue.start();
    try {
      await withRequestId("req-job-1", () => queue.enqueue("test:request-id", { n: 1 }));
      await queue.enqueue("test:request-id", { n: 2 });
      await ran;
    } finally {
      await queue.stop();
    }
    expect(seen.sort()).toEqual(["1:req-job-1", "2:undefined"]);
  });
});
