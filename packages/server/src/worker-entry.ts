/**
 * The entry module of a worker thread that lives beside `base` (pass `import.meta.url`), by the name
 * of its TypeScript source without extension. From source (tsx, vitest) that is `<name>.mjs`, a shim
 * that registers tsx and imports `<name>.ts`, because Node 20 applies no loader hooks to a worker's
 * entry module; in the compiled build (scripts/build-server.mjs) it is `<name>.js`, plain JavaScript.
 */
export function workerEntry(name: string, base: string): URL {
  return new URL(`./${name}${base.endsWith(".ts") ? ".mjs" : ".js"}`, base);
}
