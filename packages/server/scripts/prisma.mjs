#!/usr/bin/env node
// Runs the Prisma CLI so that it can never fall back to downloading an engine: the schema's
// datasource needs some DATABASE_URL to be readable, and prisma.config.ts supplies a driver
// adapter (PGlite) for the commands that talk to a database.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const cli = require.resolve("prisma/build/index.js");
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL || "postgresql://prisma-cli@localhost:5432/unused",
  PRISMA_HIDE_UPDATE_MESSAGE: "1",
  CHECKPOINT_DISABLE: "1",
};
const result = spawnSync(process.execPath, [cli, ...process.argv.slice(2)], { stdio: "inherit", env });
process.exit(result.status ?? 1);
