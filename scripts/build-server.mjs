#!/usr/bin/env node
// Compiles the server and the workspace packages it imports to plain JavaScript, so that production
// starts with `node` instead of tsx (3 s and 80 MB less). Each source file becomes its own module
// beside the same relative path under dist/ (src/http/static.ts -> dist/http/static.js): code that
// finds files through `new URL(..., import.meta.url)` keeps working, and `await import()` stays lazy.
// Relative imports are rewritten from .ts to .js; a workspace package's name is rewritten to the
// relative path of its compiled entry, so Node resolves no TypeScript at run time. Everything
// else (node_modules) stays an import.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../", import.meta.url));

/** Workspace packages compiled here: the server and what it imports from the workspace. */
export const compiledPackages = ["packages/server", "packages/rest-compat"];

function isSource(name) {
  return name.endsWith(".ts") && !name.endsWith(".test.ts") && !name.endsWith(".d.ts");
}

/** Files of a package's src/ whose names pass `keep`, sorted. */
function filesUnderSrc(packageDir, keep) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (keep(entry.name)) files.push(path);
    }
  };
  walk(join(root, packageDir, "src"));
  return files.sort();
}

/** Every source file of a package's src/ (tests excluded), sorted. */
export function sourceFiles(packageDir) {
  return filesUnderSrc(packageDir, isSource);
}

/**
 * Worker entry modules (the database, PDF and DOCX workers) are plain JavaScript already, because
 * Node 20 applies no loader hooks to a worker's entry: they are copied beside the compiled files.
 */
export function javascriptFiles(packageDir) {
  return filesUnderSrc(packageDir, (name) => name.endsWith(".mjs"));
}

/** `./src/index.ts` in a package's exports becomes `dist/index.js`. */
function compiledEntry(packageDir) {
  const manifest = JSON.parse(readFileSync(join(root, packageDir, "package.json"), "utf8"));
  const entry = typeof manifest.exports === "string" ? manifest.exports : manifest.exports["."];
  return {
    name: manifest.name,
    file: join(root, packageDir, entry.replace(/^\.\/src\//, "dist/").replace(/\.ts$/, ".js")),
  };
}

function toPosix(path) {
  return path.split(sep).join("/");
}

function rewriteImports(packageDir, workspace) {
  const srcDir = join(root, packageDir, "src");
  const distDir = join(root, packageDir, "dist");
  return {
    name: "voxgate-per-file",
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        const importerOut = join(distDir, relative(srcDir, dirname(args.importer)));
        const target = workspace.get(args.path);
        if (target) {
          let path = toPosix(relative(importerOut, target));
          if (!path.startsWith(".")) path = `./${path}`;
          return { path, external: true };
        }
        if (args.path.startsWith("./") || args.path.startsWith("../")) {
          return { path: args.path.replace(/\.ts$/, ".js"), external: true };
        }
        return { path: args.path, external: true };
      });
    },
  };
}

export async function buildServer() {
  const workspace = new Map(
    compiledPackages.map((packageDir) => {
      const { name, file } = compiledEntry(packageDir);
      return [name, file];
    }),
  );
  for (const packageDir of compiledPackages) {
    const outdir = join(root, packageDir, "dist");
    rmSync(outdir, { recursive: true, force: true });
    await build({
      entryPoints: sourceFiles(packageDir),
      outbase: join(root, packageDir, "src"),
      outdir,
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      sourcemap: "linked",
      logLevel: "warning",
      plugins: [rewriteImports(packageDir, workspace)],
    });
    const srcDir = join(root, packageDir, "src");
    for (const file of javascriptFiles(packageDir)) {
      const target = join(outdir, relative(srcDir, file));
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(file, target);
    }
  }
}

if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServer();
  const files = compiledPackages.reduce((sum, dir) => sum + sourceFiles(dir).length, 0);
  process.stdout.write(`[voxgate] compiled ${files} files in ${Date.now() - started} ms\n`);
}
