import { lazyRequire } from "./lazy-require.ts";

/** gpt-tokenizer (o200k) builds ~50 MB of tables when loaded: by the first count, not at start. */
export const gptTokenizer = lazyRequire<typeof import("gpt-tokenizer")>("gpt-tokenizer");

/**
 * Loads the tokenizer on a later turn of the event loop. Loading builds its tables synchronously
 * (0.8 s idle, 2.8 s on the loaded 2-core machine); left to the first reply or document, it stalled
 * every request of the instance that long (bench/embedded-store). Started as the app opens its
 * database, it runs while the main thread only waits for the database's thread or process.
 */
export function preloadTokenizer(): Promise<void> {
  return new Promise((resolve, reject) =>
    setImmediate(() => {
      try {
        gptTokenizer();
        resolve();
      } catch (error) {
        reject(error);
      }
    }),
  );
}
