import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { prepare } from "../../../scripts/prepare.mjs";

const serverDir = fileURLToPath(new URL("../", import.meta.url));
const voiceDist = join(serverDir, "dist/modules/voice");

/**
 * `endpoint_type: silero` runs its model in a worker thread whose entry is plain JavaScript copied into
 * the build (Node applies no loader hooks to a worker's entry): the compiled modules, run by plain Node
 * as `npm start` runs them, must find it and the model, and answer.
 */
describe("Silero's worker in the compiled server", () => {
  beforeAll(() => {
    // Builds what changed since the last build (waiting for one that another test file runs).
    prepare(["server"]);
  }, 300_000);

  it("starts from dist, runs the model on a caller's windows and stops", () => {
    expect(existsSync(join(voiceDist, "silero-worker.mjs"))).toBe(true);
    const script = `
      import { createLogger } from "../../logger.js";
      import { PHONE_FORMAT, pcmToMuLaw } from "../media/index.js";
      import { SileroWorker } from "./silero-worker.js";
      const worker = new SileroWorker(createLogger("warn"));
      const stream = worker.detector(PHONE_FORMAT);
      // A second of a loud vowel-like buzz: not quiet, so every window goes to the model.
      const pcm = Int16Array.from({ length: 8000 }, (_, i) =>
        Math.round(6000 * Math.sin((2 * Math.PI * 140 * i) / 8000) * (1.5 + Math.sin((2 * Math.PI * 3 * i) / 8000))),
      );
      const mulaw = pcmToMuLaw(pcm);
      for (let at = 0; at + 160 <= mulaw.length; at += 160) stream.voiced(mulaw.subarray(at, at + 160));
      worker.runBatches();
      const stats = worker.stats();
      const ready = worker.ready;
      await worker.stop();
      process.stdout.write(JSON.stringify({ ready, stats }));
    `;
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: voiceDist,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const { ready, stats } = JSON.parse(result.stdout) as {
      ready: boolean;
      stats: { windows: number };
    };
    expect(ready).toBe(true);
    // 50 frames make 31 windows of 32 ms, none quiet: the model answered each.
    expect(stats.windows).toBe(31);
  });
});
