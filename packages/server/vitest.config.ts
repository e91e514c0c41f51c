import { createRequire } from "node:module";
import { defineProject } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineProject({
  resolve: {
    // graphql ships CJS (for Node) and ESM (for bundlers). Node gives graphql-yoga the CJS build,
    // so our code must get the same one, or `instanceof GraphQLError` fails across the two copies.
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    // Every file builds its own app from the composition root; what lives at module level is caches
    // keyed by their inputs (prompt clocks, outbound HTTP agents) and metric counters, which tests read
    // as deltas. Sharing the module cache between the files of a worker saves re-importing the schema,
    // Prisma and PGlite in each of them (a sixth of the suite's time).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
