import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { testDatabaseKind } from "./support/test-app.ts";

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const pnpm = (args: string[], cwd: string) =>
  execFileSync(process.execPath, [join(repoRoot, "scripts/pnpm.mjs"), ...args], { cwd, encoding: "utf8" });

// Not about the database: run once, in the PGlite project.
describe.skipIf(testDatabaseKind() === "postgres")("the widget's npm package", () => {
  const scratch = mkdtempSync(join(tmpdir(), "voxgate-widget-pack-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("packs the build, its types, manifest, README and licence, and installs into another project from the local store", () => {
    // prepack builds the widget when its sources changed since the last build.
    pnpm(["pack", "--pack-destination", scratch], join(repoRoot, "packages/widget"));
    const tarball = readdirSync(scratch).find((name) => name.endsWith(".tgz"))!;
    const listed = execFileSync("tar", ["tzf", join(scratch, tarball)], { encoding: "utf8" }).split("\n");
    expect(listed).toEqual(
      expect.arrayContaining([
        "package/dist/index.js",
        "package/dist/voxgate-chat.js",
        "package/dist/types/index.d.ts",
        "package/custom-elements.json",
        "package/README.md",
        "package/LICENSE",
      ]),
    );
    expect(
      listed.filter((name) => name.startsWith("package/src/") || name.startsWith("package/test/")),
    ).toEqual([]);

    const app = join(scratch, "app");
    execFileSync("mkdir", [app]);
    writeFileSync(
      join(app, "package.json"),
      JSON.stringify({ name: "scratch", private: true, type: "module" }),
    );
    // Lit's files come from the local store, and no install script may need a build tool. Not
    // `--offline`: pnpm keeps no registry metadata after installs made from a lockfile, so on a fresh
    // machine it would refuse to resolve Lit at all; `--prefer-offline` fetches only that metadata.
    pnpm(["add", "--prefer-offline", join(scratch, tarball)], app);
    writeFileSync(
      join(app, "check.mjs"),
      `import { WidgetApi, MAX_MESSAGE_LENGTH } from "@voxgate/widget";
       import manifest from "@voxgate/widget/custom-elements.json" with { type: "json" };
       console.log(JSON.stringify({ api: typeof WidgetApi, max: MAX_MESSAGE_LENGTH, modules: manifest.modules.length }));`,
    );
    const imported = JSON.parse(
      execFileSync(process.execPath, ["check.mjs"], { cwd: app, encoding: "utf8" }),
    );
    expect(imported).toMatchObject({ api: "function", max: expect.any(Number) });
    expect(imported.modules).toBeGreaterThan(0);

    // Its types reach a TypeScript consumer.
    writeFileSync(
      join(app, "check.ts"),
      `import { WidgetApi, type WidgetTheme } from "@voxgate/widget";\nconst theme: WidgetTheme = "dark";\nexport const used = [WidgetApi, theme];\n`,
    );
    execFileSync(
      process.execPath,
      [
        join(repoRoot, "node_modules/typescript/bin/tsc"),
        "--noEmit",
        "--strict",
        "--module",
        "nodenext",
        "--lib",
        "es2023,dom",
        "check.ts",
      ],
      { cwd: app, encoding: "utf8" },
    );
  }, 120_000);
});
