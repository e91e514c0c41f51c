#!/usr/bin/env node
// Runs the pnpm version pinned in package.json's "packageManager", so that `npm start` and
// `npm test` work on a machine that has only Node and npm. A matching pnpm on PATH is used
// as is; otherwise npx fetches the pinned version from the npm registry once and caches it.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

const { packageManager } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const pinned = packageManager.replace(/^pnpm@/, "");
const args = process.argv.slice(2);

function run(command, commandArgs) {
  const result = spawnSync(command, commandArgs, { stdio: "inherit", shell: process.platform === "win32" });
  if (result.error) return null;
  return result.status ?? 1;
}

const onPath = spawnSync("pnpm", ["--version"], { encoding: "utf8" });
const status =
  onPath.status === 0 && onPath.stdout.trim() === pinned
    ? run("pnpm", args)
    : run("npx", ["--yes", `pnpm@${pinned}`, ...args]);
process.exit(status ?? 1);
