// Types of build-server.mjs for the TypeScript that imports it (tests); the script itself stays plain
// JavaScript, run by prepare.mjs before anything else is built.

/** Bundles `<serverDir>/src/main.ts` into `<serverDir>/dist`; rejects an `import()` of CommonJS. */
export function bundleMain(serverDir?: string): Promise<void>;
