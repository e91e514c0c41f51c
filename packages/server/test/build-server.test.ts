import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bundleMain } from "../../../scripts/build-server.mjs";

let serverDir: string;

function write(path: string, content: string) {
  writeFileSync(join(serverDir, "src", path), content);
}

beforeEach(() => {
  serverDir = mkdtempSync(join(tmpdir(), "voxgate-bundle-"));
  mkdirSync(join(serverDir, "src"));
});

afterEach(() => {
  rmSync(serverDir, { recursive: true, force: true });
});

describe("the production bundle (scripts/build-server.mjs)", () => {
  it("refuses an import() of a CommonJS module, whose names the split bundle would not export", async () => {
    write("greeting.cjs", 'exports.greet = () => "hello";\n');
    write("main.ts", 'const { greet } = await import("./greeting.cjs");\nconsole.log(greet());\n');
    await expect(bundleMain(serverDir)).rejects.toThrow(
      /import\(\) of a CommonJS module[^\n]*lazyRequire[\s\S]*src\/main\.ts: import\("\.\/greeting\.cjs"\)/,
    );
  });

  it("bundles an import() of an ES module into a chunk that Node runs", async () => {
    write("greeting.mjs", 'export const greet = () => "hello";\n');
    write("main.ts", 'const { greet } = await import("./greeting.mjs");\nconsole.log(greet());\n');
    await bundleMain(serverDir);
    const run = spawnSync(process.execPath, [join(serverDir, "dist/main.js")], { encoding: "utf8" });
    expect({ status: run.status, stdout: run.stdout }).toEqual({ status: 0, stdout: "hello\n" });
  });
});
