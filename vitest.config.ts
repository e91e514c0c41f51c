import { defineConfig } from "vitest/config";
import { findPostgresBinaries, findRedisServer } from "./packages/server/test/support/services.ts";

// The server suite runs twice: on the embedded PGlite, and on a real PostgreSQL (pgvector) with
// Redis that the suite starts on loopback ports. CI installs both (.ci/install-services.sh); on a
// machine without them the PostgreSQL pass is skipped with a warning, never silently in CI.
const haveServices = findPostgresBinaries() !== null && findRedisServer() !== null;
if (!haveServices && process.env.CI) {
  throw new Error("CI needs PostgreSQL and Redis for the postgres test project: run .ci/install-services.sh");
}
if (!haveServices) {
  console.warn(
    "[voxgate] PostgreSQL/Redis not installed: skipping the server:postgres project (see README).",
  );
}

export default defineConfig({
  test: {
    reporters: ["default", "./scripts/summary-reporter.ts"],
    projects: [
      "packages/rest-compat",
      "packages/widget",
      "packages/console",
      {
        extends: "./packages/server/vitest.config.ts",
        root: "packages/server",
        test: { name: "server:pglite", env: { VOXGATE_TEST_DB: "pglite" } },
      },
      ...(haveServices
        ? [
            {
              extends: "./packages/server/vitest.config.ts",
              root: "packages/server",
              test: { name: "server:postgres", env: { VOXGATE_TEST_DB: "postgres" } },
            },
          ]
        : []),
    ],
  },
});
