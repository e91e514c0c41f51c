import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { isStale, prepare, recordStamp, type Step, steps } from "../../../scripts/prepare.mjs";

let root: string;

function write(path: string, content: string) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "voxgate-stamps-"));
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("installs and builds run only when their inputs changed (scripts/prepare.mjs)", () => {
  function countingStep(): Step & { runs: number } {
    const step = {
      name: "build",
      description: "test build",
      inputs: () => ["lock.yaml", "src"],
      outputs: ["dist/out.js"],
      runs: 0,
      run: (at: string) => {
        step.runs++;
        mkdirSync(join(at, "dist"), { recursive: true });
        writeFileSync(join(at, "dist/out.js"), "built");
      },
    };
    return step;
  }

  it("runs a step the first time, skips it while nothing changed, and runs it again after a source change", () => {
    write("lock.yaml", "v1");
    write("src/a.ts", "export const a = 1;");
    write("src/deep/b.ts", "export const b = 1;");
    const step = countingStep();

    expect(prepare(undefined, { root, steps: [step] })).toEqual(["build"]);
    expect(prepare(undefined, { root, steps: [step] })).toEqual([]);
    expect(step.runs).toBe(1);

    write("src/deep/b.ts", "export const b = 2;");
    expect(prepare(undefined, { root, steps: [step] })).toEqual(["build"]);
    write("src/c.ts", "export const c = 1;");
    expect(prepare(undefined, { root, steps: [step] })).toEqual(["build"]);
    write("lock.yaml", "v2");
    expect(prepare(undefined, { root, steps: [step] })).toEqual(["build"]);
    rmSync(join(root, "src/c.ts"));
    expect(prepare(undefined, { root, steps: [step] })).toEqual(["build"]);
    expect(prepare(undefined, { root, steps: [step] })).toEqual([]);
    expect(step.runs).toBe(5);
  });

  it("ignores tests and installed or built folders, and runs again when an output is missing", () => {
    write("lock.yaml", "v1");
    write("src/a.ts", "export const a = 1;");
    const step = countingStep();
    prepare(undefined, { root, steps: [step] });

    write("src/a.test.ts", "test");
    write("src/node_modules/x/index.js", "x");
    write("src/dist/a.js", "a");
    expect(prepare(undefined, { root, steps: [step] })).toEqual([]);

    rmSync(join(root, "dist/out.js"));
    expect(prepare(undefined, { root, steps: [step] })).toEqual(["build"]);
  });

  it("keeps the stamp of a step that failed unchanged, so the next start tries again", () => {
    write("lock.yaml", "v1");
    write("src/a.ts", "export const a = 1;");
    const step = countingStep();
    prepare(undefined, { root, steps: [step] });
    write("src/a.ts", "export const a = 2;");
    const failing: Step = {
      ...step,
      run: () => {
        throw new Error("compile error");
      },
    };
    expect(() => prepare(undefined, { root, steps: [failing] })).toThrow("compile error");
    expect(isStale(root, step).stale).toBe(true);
    // The lock is released: the next preparation is not left waiting.
    expect(prepare(undefined, { root, steps: [step] })).toEqual(["build"]);
  });

  it("rebuilds the server when a server or rest-compat source changes, not when a test does", () => {
    const server = steps.find((step) => step.name === "server")!;
    write("pnpm-lock.yaml", "lock");
    write("scripts/build-server.mjs", "build");
    write("packages/server/package.json", "{}");
    write("packages/server/src/main.ts", "main");
    write("packages/server/src/generated/prisma/client.ts", "client");
    write("packages/rest-compat/package.json", "{}");
    write("packages/rest-compat/src/index.ts", "index");
    for (const output of server.outputs) write(output, "built");
    recordStamp(root, server, isStale(root, server).hash);
    expect(isStale(root, server).stale).toBe(false);

    write("packages/server/src/main.test.ts", "a test");
    expect(isStale(root, server).stale).toBe(false);

    for (const changed of [
      "packages/rest-compat/src/index.ts",
      "packages/server/src/generated/prisma/client.ts",
      "packages/server/src/main.ts",
    ]) {
      write(changed, "changed");
      expect(isStale(root, server).stale).toBe(true);
      recordStamp(root, server, isStale(root, server).hash);
    }
  });

  it("installs again when a package manifest or the lockfile changes", () => {
    const install = steps.find((step) => step.name === "install")!;
    write("pnpm-lock.yaml", "lock");
    write("package.json", "{}");
    write("packages/server/package.json", "{}");
    write("packages/widget/package.json", "{}");
    for (const output of install.outputs) write(output, "installed");
    recordStamp(root, install, isStale(root, install).hash);
    expect(isStale(root, install).stale).toBe(false);

    write("packages/widget/package.json", '{"dependencies":{"lit":"3"}}');
    expect(isStale(root, install).stale).toBe(true);
    recordStamp(root, install, isStale(root, install).hash);
    write("pnpm-lock.yaml", "lock 2");
    expect(isStale(root, install).stale).toBe(true);
  });
});
