// Writes prisma/migrations/NNNN_<name>/migration.sql with the SQL that takes the database from the
// schema of the latest migration to the current prisma/schema.prisma. Each generated migration
// keeps a copy of the schema it produces (schema.prisma beside its SQL), which is what the next
// diff starts from: Prisma cannot read a live database here without its downloaded engine.
// Usage: pnpm --filter @voxgate/server db:migration add_campaign_notes
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const serverDir = fileURLToPath(new URL("..", import.meta.url));
const migrationsDir = join(serverDir, "prisma", "migrations");
const name = process.argv[2];
if (!name || !/^[a-z0-9_]+$/.test(name)) {
  process.stderr.write("Usage: db:migration <name in snake_case>\n");
  process.exit(2);
}

const folders = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const base = folders.filter((folder) => existsSync(join(migrationsDir, folder, "schema.prisma"))).at(-1);
const from = base
  ? ["--from-schema-datamodel", join(migrationsDir, base, "schema.prisma")]
  : ["--from-empty"];
const sql = execFileSync(
  process.execPath,
  [
    "scripts/prisma.mjs",
    "migrate",
    "diff",
    ...from,
    "--to-schema-datamodel",
    "prisma/schema.prisma",
    "--script",
  ],
  { cwd: serverDir, encoding: "utf8" },
);
if (!/^\s*(CREATE|ALTER|DROP)/m.test(sql)) {
  process.stdout.write("prisma/schema.prisma matches the latest migration: nothing to write.\n");
  process.exit(0);
}
const number = String(folders.length + 1).padStart(4, "0");
const folder = join(migrationsDir, `${number}_${name}`);
mkdirSync(folder);
writeFileSync(join(folder, "migration.sql"), sql);
copyFileSync(join(serverDir, "prisma", "schema.prisma"), join(folder, "schema.prisma"));
process.stdout.write(`Wrote ${folder}/migration.sql: review it, then commit it with the schema change.\n`);
