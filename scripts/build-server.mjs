#!/usr/bin/env node
// Compiles the server and the workspace packages it imports to plain JavaScript, so that production
// starts with `node` instead of tsx (3 s and 80 MB less). Each source file becomes its own module
// beside the same relative path under dist/ (src/http/static.ts -> dist/http/static.js): code that
// finds files through `new URL(..., import.meta.url)` keeps working, and `await import()` stays lazy.
// Relative imports are rewritten from .ts to .js; a workspace package's name is rewritten to the
// relative path of its compiled entry, so Node resolves no TypeScript at run time. Everything
// else (node_modules) stays an import.
//
// The production entry, dist/main.js, is then replaced by a bundle of the whole server with its
// dependencies (`bundleMain`): Node spent more than half of a start resolving, reading and linking
// the ~1,000 modules one by one (see bench/start/README.md). The per-file modules stay beside it for
// the workers' entries, the CLI and the package's library entry (dist/index.js).
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { readFile } from "node:fs/promises";
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
  await bundleMain();
}

/**
 * Node's optional native accelerators that the bundled libraries `require` inside a try: left for
 * Node to look up at run time (they are not installed), as before bundling.
 */
const OPTIONAL_NATIVE = ["pg-native", "bufferutil", "utf-8-validate"];

/**
 * A source's `import.meta.url` names the file that its per-file build writes (dist/db/migrate.js for
 * src/db/migrate.ts), not the chunk it lands in: the code finds files relative to itself (migrations,
 * the widget, worker entries, `createRequire`). Every chunk is written to dist/ itself, so the
 * relative path from a chunk to that file is the source's path under src/.
 */
function keepModuleUrls(srcDir) {
  return {
    name: "voxgate-module-urls",
    setup(pluginBuild) {
      pluginBuild.onLoad({ filter: /\.ts$/ }, async (args) => {
        const text = await readFile(args.path, "utf8");
        if (!text.includes("import.meta.url")) return undefined;
        const rel = toPosix(relative(srcDir, args.path)).replace(/\.ts$/, ".js");
        if (rel.startsWith("../"))
          throw new Error(`${args.path} uses import.meta.url outside the server's src/`);
        return {
          contents: text.replaceAll(
            "import.meta.url",
            `new URL(${JSON.stringify(`./${rel}`)}, import.meta.url).href`,
          ),
          loader: "ts",
        };
      });
    },
  };
}

/**
 * Bundles src/main.ts and everything it imports into dist/main.js plus chunks beside it: modules
 * loaded with `await import()` (the GraphiQL page, Prisma's query compiler) become chunks loaded
 * when first used, as before; packages loaded with `lazyRequire` stay out of the bundle. `serverDir`
 * is replaceable for tests.
 */
export async function bundleMain(serverDir = join(root, "packages/server")) {
  const srcDir = join(serverDir, "src");
  const { metafile } = await build({
    entryPoints: { main: join(srcDir, "main.ts") },
    outdir: join(serverDir, "dist"),
    bundle: true,
    splitting: true,
    chunkNames: "chunk-[hash]",
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
    external: OPTIONAL_NATIVE,
    // Bundled CommonJS calls `require` for Node's built-ins; an ES module has none of its own.
    banner: {
      js: 'import { createRequire as __voxgateCreateRequire } from "node:module"; const require = __voxgateCreateRequire(import.meta.url);',
    },
    plugins: [keepModuleUrls(srcDir)],
    metafile: true,
    absWorkingDir: root,
  });
  refuseDynamicImportsOfCommonJs(metafile);
}

/**
 * With code splitting, esbuild makes a CommonJS module loaded by `import()` a chunk that exports only
 * `default` (its module.exports): names known only at run time cannot be ES exports. Node (and so tsx
 * and the tests of the sources) also gives the names its lexer finds, so `const { Readability } =
 * await import("@mozilla/readability")` passed every test and was undefined in `npm start`. The build
 * fails instead; `lazyRequire` (src/lazy-require.ts) loads such a package the same way everywhere.
 */
function refuseDynamicImportsOfCommonJs(metafile) {
  const offenders = Object.entries(metafile.inputs).flatMap(([importer, input]) =>
    input.imports
      .filter(
        (imported) => imported.kind === "dynamic-import" && metafile.inputs[imported.path]?.format === "cjs",
      )
      .map((imported) => `${importer}: import("${imported.original ?? imported.path}")`),
  );
  if (offenders.length > 0) {
    throw new Error(
      `import() of a CommonJS module has another shape in the bundle than in Node; load it with lazyRequire (src/lazy-require.ts):\n  ${offenders.join("\n  ")}`,
    );
  }
}

if (resolve(process.argv[1] ?? "") === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  await buildServer();
  const files = compiledPackages.reduce((sum, dir) => sum + sourceFiles(dir).length, 0);
  process.stdout.write(`[voxgate] compiled ${files} files in ${Date.now() - started} ms\n`);
}
