// Prints the GraphQL schema to schema.graphql; with --check, fails when the committed file differs.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { lexicographicSortSchema, printSchema } from "graphql";
import { schema } from "../src/schema.ts";

const target = fileURLToPath(new URL("../schema.graphql", import.meta.url));
const printed = `${printSchema(lexicographicSortSchema(schema))}\n`;

if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(target, "utf8");
  } catch {
    // A missing file is drift like any other.
  }
  if (committed !== printed) {
    process.stderr.write(
      "schema.graphql is out of date with the code. Run `pnpm --filter @voxgate/server schema:print` and commit it.\n",
    );
    process.exit(1);
  }
  process.stdout.write("schema.graphql is up to date.\n");
} else {
  writeFileSync(target, printed);
  process.stdout.write(`Wrote ${target}\n`);
}
