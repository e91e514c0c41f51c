import { createRequire } from "node:module";

const require = createRequire(import.meta.url);

/**
 * A heavy dependency loaded by its first use instead of at start, synchronously (its CommonJS
 * build), so that callers stay plain functions and constructors. Most instances never touch most of
 * them: no Redis without REDIS_URL, no tokenizer before the first reply or document, no HTTP client
 * before the first webhook. Only for packages that ship CommonJS; type with `typeof import(...)`.
 */
export function lazyRequire<Module>(specifier: string): () => Module {
  let loaded: Module | undefined;
  return () => {
    loaded ??= require(specifier) as Module;
    return loaded;
  };
}
