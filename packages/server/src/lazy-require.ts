import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * A heavy dependency loaded by its first use instead of at start, synchronously (its CommonJS
 * build), so that callers stay plain functions and constructors. Most instances never touch most of
 * them: no Redis without REDIS_URL, no tokenizer before the first reply or document, no HTTP client
 * before the first webhook. Only for packages that ship CommonJS; type with `typeof import(...)`.
 *
 * It is also the one way to load a CommonJS package lazily: `import()` of one gives Node's shape
 * (module.exports as `default`, plus the names Node's lexer finds) under tsx, but only `default` in
 * the production bundle (esbuild's code splitting cannot re-export names known at run time only), so
 * `const { Name } = await import(cjs)` works in tests and is undefined in `npm start`. The server build
 * refuses such an `import()` (scripts/build-server.mjs).
 */
export function lazyRequire<Module>(specifier: string): () => Module {
  let loaded: Module | undefined;
  return () => {
    loaded ??= require(specifier) as Module;
    return loaded;
  };
}
