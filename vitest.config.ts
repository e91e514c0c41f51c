import { configDefaults, defineConfig } from "vitest/config";
import { findRadicale } from "./packages/server/test/support/radicale.ts";
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

// CalDAV tests run against a real Radicale server (Debian package `radicale`); without it they are
// skipped with a warning, never silently in CI.
if (findRadicale() === null && process.env.CI) {
  throw new Error("CI needs radicale for the calendar tests: run .ci/install-services.sh");
}
if (findRadicale() === null) {
  console.warn(
    "[voxgate] radicale not installed: skipping the CalDAV calendar tests (apt-get install radicale).",
  );
}

// Tests of pure logic (no database, no app): the PostgreSQL pass would only repeat them.
const storeIndependentTests = [
  "src/env.test.ts",
  "test/build-server.test.ts",
  "test/build-stamps.test.ts",
  "src/net/safe-fetch.test.ts",
  "src/modules/calls/local-dates.test.ts",
  "src/modules/calendars/availability.test.ts",
  "src/modules/calendars/caldav.test.ts",
  "src/modules/calendars/ical.test.ts",
  "src/secret-box.test.ts",
  "src/modules/dialer/calling-window.test.ts",
  "src/modules/knowledge/ingestion/chunking.test.ts",
  "src/modules/knowledge/ingestion/extract.test.ts",
  "src/modules/leads/lead-status.test.ts",
  "src/modules/message-pipeline/prompt.test.ts",
  "src/modules/voice/codec.test.ts",
  "src/modules/voice/realtime-client.test.ts",
  "src/modules/voice/turn-detector.test.ts",
  "src/modules/webhooks/signing.test.ts",
];

export default defineConfig({
  test: {
    reporters: ["default", "./scripts/summary-reporter.ts"],
    // Vitest's default is one worker less than the cores: one, on CI's two, which ran every file in turn.
    // Server files spend most of their time waiting (on sockets, clocks, child processes, the embedded
    // database's own process), so two run side by side in about half the time of one after the other.
    // Files are independent: each has its own database (a template copy), its own Redis key prefix and
    // port 0 servers. The browser projects share this limit (two pages at once). VITEST_MAX_WORKERS
    // overrides it, e.g. `VITEST_MAX_WORKERS=1` to debug a file in isolation.
    maxWorkers: 2,
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
              test: {
                name: "server:postgres",
                env: { VOXGATE_TEST_DB: "postgres" },
                exclude: [...configDefaults.exclude, ...storeIndependentTests],
              },
            },
          ]
        : []),
    ],
  },
});
